#pragma once
/// Device primitives over validity bitmaps.

#include <cstddef>
#include <cstdint>

#include "gpu/memory_resource.hpp"
#include "gpu/stream.hpp"

namespace kestrel::gpu {

/// Number of set bits among the first `bits` bits of a device bitmap. Synchronizes `stream`: the host needs the
/// count (a column's null count) to size what comes next.
size_t count_set_bits(const uint8_t* bitmap, size_t bits, Stream stream, MemoryResource& mr);

}  // namespace kestrel::gpu
