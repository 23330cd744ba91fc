#pragma once
/// LIMIT/OFFSET over an ordered input: collects in source order, then keeps rows [offset, offset + limit).

#include <optional>

#include "exec/ops/collect/collect.hpp"

namespace kestrel::exec {

/// Applies LIMIT/OFFSET to collected, ordered batches in place.
void apply_limit(std::vector<Batch>& batches, std::optional<uint64_t> limit, uint64_t offset);

}  // namespace kestrel::exec
