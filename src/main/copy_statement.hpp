#pragma once
/// COPY ... TO a file and the Parquet output of CREATE TABLE AS in an attached data folder.

#include <string>
#include <vector>

#include "main/database_state.hpp"
#include "parser/ast/ast.hpp"

namespace kestrel {

/// Writes `batches` (schema `schema`) to `path` as Parquet with the given (name, value) writer options; the file
/// appears only when complete. Returns the rows written. With `device_mr`, device batches are encoded on the device
/// (scratch from `device_mr`); without it every batch must be in host memory.
size_t write_parquet_file(const std::string& path, const Schema& schema, const std::vector<Batch>& batches,
                          const std::vector<std::pair<std::string, std::string>>& options,
                          gpu::MemoryResource* device_mr = nullptr);

/// Writes `batches` to `path` as CSV (RFC 4180, header row, NULL as an empty field), through a temporary file.
size_t write_csv_file(const std::string& path, const Schema& schema, const std::vector<Batch>& batches,
                      char delimiter, bool header);

}  // namespace kestrel
