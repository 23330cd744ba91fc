#pragma once
/// The CUDA streams drivers run their device work on: one per driver thread, taken from a process-wide pool.

#include "gpu/stream.hpp"

namespace kestrel::gpu {

/// The calling thread's stream. A thread keeps the stream it got first; the pool hands out its streams round-robin,
/// so when there are more driver threads than streams two drivers share one (correct, only less overlap). The
/// streams live as long as the process: device buffers freed on them later never find their stream gone.
/// Throws CudaError when no stream can be created (no GPU).
Stream driver_stream();

/// How many streams the pool holds.
inline constexpr int kDriverStreams = 16;

}  // namespace kestrel::gpu
