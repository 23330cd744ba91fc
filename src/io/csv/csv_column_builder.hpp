#pragma once
/// Turns the tokenized fields of one column, over a run of records, into a host Column of the column's type.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gpu/memory_resource.hpp"
#include "io/csv/csv_block.hpp"
#include "io/csv/csv_tokenizer.hpp"
#include "vector/column.hpp"

namespace kestrel {

/// Consecutive tokenized records of one block: `records` records of `num_columns` fields each.
struct CsvRecordRun {
  const CsvBlock* block = nullptr;
  const CsvFieldSpan* fields = nullptr;
  size_t records = 0;
};

/// A field that could not be read as its column's type: where it is, and what went wrong.
struct CsvCellError {
  size_t row = 0;  ///< row within the batch being built
  const CsvBlock* block = nullptr;
  size_t offset = 0;  ///< byte offset of the field's text in `block`
  std::string what;   ///< e.g. "cannot read 'abc' as DECIMAL(15,2)"
};

/// What a column builder needs to know about the column and the dialect.
struct CsvColumnSpec {
  LogicalType type;
  size_t index = 0;        ///< the column's position in each record
  size_t num_columns = 0;  ///< fields per record
  /// With false (a sniffed DECIMAL), extra fraction digits are an error rather than rounded.
  bool allow_decimal_rounding = true;
  const std::optional<std::string>* null_string = nullptr;
  const CsvTokenizer* tokenizer = nullptr;
};

/// Builds the column `spec.index` of the records in `runs` (`rows` in all) in `mr`. Returns null and fills `error`
/// (for the first bad field) when a field is not a value of the type.
ColumnPtr build_csv_column(const CsvColumnSpec& spec, const std::vector<CsvRecordRun>& runs, size_t rows,
                           gpu::MemoryResource& mr, CsvCellError& error);

}  // namespace kestrel
