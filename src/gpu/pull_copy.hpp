#pragma once
/// Small host-to-device transfers that must not wait behind bulk copies. The copy engine serves H2D copies queued
/// on different streams in turn, not by need: a page table of a megabyte queued after gigabytes of read-ahead on
/// another stream waited for all of them (measured on the H200: 40 ms before a batch's decode could start, with
/// its bytes already on the device). These copies are made by the SMs instead, reading pinned host memory over
/// PCIe, so they run as soon as their stream reaches them.

#include <cstddef>

#include "gpu/stream.hpp"

namespace kestrel::gpu {

/// Copies `bytes` from pinned host memory `src` (page-locked with CUDA, so the device addresses it) to device
/// memory `dst`, ordered on `stream`, with a kernel. `src` must stay valid until the stream passes the copy. Meant
/// for up to a few MiB: bulk data belongs to the copy engine.
void pull_pinned_to_device(void* dst, const void* src, size_t bytes, Stream stream);

}  // namespace kestrel::gpu
