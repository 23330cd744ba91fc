#pragma once
/// Decoding on all cores: a scan is cut into tasks of one column chunk each (row group x column) and run on a pool
/// of std::threads. The tasks are plain data so that the execution layer's scheduler can later run them instead.

#include <cstddef>
#include <functional>
#include <vector>

#include "io/parquet/parquet_file.hpp"

namespace kestrel::io {

/// One unit of decoding work: one column of one row group of one file.
struct ParquetDecodeTask {
  const ParquetFile* file = nullptr;
  size_t row_group = 0;
  size_t column = 0;  ///< index into the file's schema

  ColumnPtr run(const ParquetReadOptions& options) const { return file->read_column_chunk(row_group, column, options); }
};

/// Threads used when ParquetReadOptions::num_threads is 0: one per core.
size_t default_decode_threads();

/// Runs task(i) for every i in [0, count) on up to `threads` threads (0: one per core). The first exception thrown
/// by a task stops the remaining tasks from starting and is rethrown here once all threads have finished.
void parallel_for(size_t count, size_t threads, const std::function<void(size_t)>& task);

/// Runs `tasks` in parallel; result i is task i's column.
std::vector<ColumnPtr> run_decode_tasks(const std::vector<ParquetDecodeTask>& tasks, const ParquetReadOptions& options);

}  // namespace kestrel::io
