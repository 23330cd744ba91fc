#pragma once
/// Settings and resources of one expression evaluation on the CPU.

#include <memory>
#include <vector>

#include "gpu/memory_resource.hpp"

namespace kestrel {
class Column;
}

namespace kestrel::exec {

/// What the CPU evaluator needs besides the expression and the batch: where result columns are allocated, and
/// room for later per-query settings. One per driver; not shared between threads.
struct EvalContext {
  /// Host memory for result columns.
  gpu::MemoryResource* mr = &gpu::host_memory_resource();
  /// Set by try(CAST(...)) (try_cast): a value that does not convert becomes NULL instead of an error.
  bool cast_failures_to_null = false;
  /// The values of the parameters of the lambdas being evaluated (kLambdaParam slot i is lambda_args[i]), one row
  /// per row of the batch the lambda body is evaluated over.
  std::vector<std::shared_ptr<Column>> lambda_args;

  gpu::MemoryResource& memory() const { return *mr; }
};

}  // namespace kestrel::exec
