#pragma once
/// Small host-to-device transfers that must not wait behind bulk copies. The copy engine serves H2D copies queued
/// on different streams in turn, not by need: a page table of a megabyte queued after gigabytes of read-ahead on
/// another stream waited for all of them (measured on the H200: 40 ms before a batch's decode could start, with
/// its bytes already on the device). These copies are made by the SMs instead, reading pinned host memory over
/// PCIe, so they run as soon as their stream reaches them.

#include <cstddef>
#include <cstdint>

#include "gpu/stream.hpp"

namespace kestrel::gpu {

/// Copies `bytes` from pinned host memory `src` (page-locked with CUDA, so the device addresses it) to device
/// memory `dst`, ordered on `stream`, with a kernel. `src` must stay valid until the stream passes the copy. Meant
/// for up to a few MiB: bulk data belongs to the copy engine.
void pull_pinned_to_device(void* dst, const void* src, size_t bytes, Stream stream);

/// One copy of a batch pulled by the SMs.
struct PullPiece {
  const void* src;  ///< device-addressable host memory (pinned, or registered and mapped)
  void* dst;
  uint64_t bytes;
};

/// The `count` copies of the device array `pieces`, by `blocks` thread blocks (each takes whole pieces in turn), on
/// `stream`. One launch for a whole batch: no per-copy cost of the copy engine.
void pull_pieces_to_device(const PullPiece* pieces, size_t count, unsigned blocks, Stream stream);

}  // namespace kestrel::gpu
