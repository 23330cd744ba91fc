/// kestrel-parquet-write: writes a Parquet file with Kestrel's ParquetWriter from a CSV file or a generated table.
///
///   kestrel-parquet-write --columns 'a INTEGER, b VARCHAR' (--csv FILE | --generate ROWS) [options] OUTPUT
///
///   --columns SCHEMA      the table's columns, `name TYPE, ...` (types as SQL spells them)
///   --csv FILE            read FILE with Kestrel's CSV reader and this explicit schema
///   --csv-option N=V      a CSV reader option (csv_options.hpp), e.g. `--csv-option nullstr=NULL`; repeatable
///   --generate ROWS       instead of a CSV: ROWS rows of deterministic values, every 7th value NULL
///   --option N=V          a writer option (parquet_writer_options.hpp), e.g. `--option compression=zstd`;
///                         repeatable
///   --batch-rows N        rows per batch handed to the writer (generated tables; default 10000)
///
/// Prints the number of rows written. Errors go to stderr with a non-zero exit code.

#include <cstdio>
#include <string>

#include "common/decimal.hpp"
#include "common/error.hpp"
#include "io/csv/csv_reader.hpp"
#include "io/parquet/writer/parquet_writer.hpp"

namespace {

using namespace kestrel;

void usage() {
  std::fprintf(stderr,
               "usage: kestrel-parquet-write --columns 'name TYPE, ...' (--csv FILE | --generate ROWS)\n"
               "         [--csv-option NAME=VALUE ...] [--option NAME=VALUE ...] [--batch-rows N] OUTPUT\n"
               "  writer options: compression, compression_level, row_group_size, dictionary,\n"
               "                  dictionary_size_limit, page_size, statistics, page_checksum\n");
}

std::pair<std::string, std::string> split_pair(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos) throw InvalidInput("expected NAME=VALUE, got '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

/// The generated value of row `row` of a column of `type` (NULL every 7th row, offset by the column).
Value generated_value(const LogicalType& type, size_t column, size_t row) {
  if ((row + column) % 7 == 0) return Value::null(type);
  auto k = static_cast<int64_t>(row % 1000) - 500 + static_cast<int64_t>(row / 1000);
  switch (type.id()) {
    case TypeId::kBoolean: return Value::boolean(k % 3 == 0);
    case TypeId::kTinyInt: return Value::tinyint(static_cast<int8_t>(k % 128));
    case TypeId::kSmallInt: return Value::smallint(static_cast<int16_t>(k * 61 % 32768));
    case TypeId::kInteger: return Value::integer(static_cast<int32_t>(k * 1000003));
    case TypeId::kBigInt: return Value::bigint(k * 1000000000039LL);
    case TypeId::kReal: return Value::real(static_cast<float>(k) / 4.0f);
    case TypeId::kDouble: return Value::double_value(static_cast<double>(k) / 8.0);
    case TypeId::kDecimal: {
      int128_t unscaled = static_cast<int128_t>(k) * 7919 % pow10_i128(std::min(type.precision(), 9));
      if (type.precision() > 18) unscaled = unscaled * pow10_i128(type.precision() - 9) + k % 10;
      return Value::decimal(unscaled, type.precision(), type.scale());
    }
    case TypeId::kDate: return Value::date(static_cast<int32_t>(k * 13));
    case TypeId::kTimestamp: return Value::timestamp(k * 3600000000123LL);
    case TypeId::kVarchar: return Value::varchar("v" + std::to_string(k % 50));
    default: return Value::null(type);
  }
}

int64_t write_generated(const SchemaPtr& schema, size_t rows, size_t batch_rows, io::ParquetWriter& writer) {
  for (size_t begin = 0; begin < rows; begin += batch_rows) {
    size_t n = std::min(batch_rows, rows - begin);
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < schema->size(); ++c) {
      std::vector<Value> values;
      values.reserve(n);
      for (size_t r = begin; r < begin + n; ++r) values.push_back(generated_value(schema->field(c).type, c, r));
      columns.push_back(Column::from_values(schema->field(c).type, values));
    }
    writer.write(Batch(schema, columns, n, gpu::MemoryKind::kHost));
  }
  return static_cast<int64_t>(rows);
}

int run(int argc, char** argv) {
  std::string columns_text, csv_path, output;
  long long generate_rows = -1;
  size_t batch_rows = 10000;
  CsvOptions csv_options;
  io::ParquetWriterOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw InvalidInput("missing value after " + arg);
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      usage();
      return 0;
    } else if (arg == "--columns") {
      columns_text = next();
    } else if (arg == "--csv") {
      csv_path = next();
    } else if (arg == "--csv-option") {
      auto [name, value] = split_pair(next());
      csv_options.set(name, value);
    } else if (arg == "--generate") {
      generate_rows = std::stoll(next());
    } else if (arg == "--option") {
      auto [name, value] = split_pair(next());
      options.set(name, value);
    } else if (arg == "--batch-rows") {
      batch_rows = std::max<size_t>(1, std::stoull(next()));
    } else if (arg.rfind("--", 0) == 0) {
      usage();
      throw InvalidInput("unknown argument '" + arg + "'");
    } else if (output.empty()) {
      output = arg;
    } else {
      throw InvalidInput("more than one output file: '" + output + "' and '" + arg + "'");
    }
  }
  if (output.empty() || columns_text.empty() || (csv_path.empty() == (generate_rows < 0))) {
    usage();
    return 2;
  }
  auto schema = std::make_shared<Schema>(parse_csv_column_list(columns_text));
  auto writer = io::ParquetWriter::open(output, *schema, options);
  int64_t rows = 0;
  if (!csv_path.empty()) {
    csv_options.columns = schema->fields();
    auto reader = CsvReader::open(csv_path, csv_options);
    while (auto batch = reader->next_batch()) {
      // The writer checks types, not names: hand it batches under the given schema.
      writer->write(Batch(schema, batch->columns(), batch->num_rows(), gpu::MemoryKind::kHost));
      rows += static_cast<int64_t>(batch->num_rows());
    }
  } else {
    rows = write_generated(schema, static_cast<size_t>(generate_rows), batch_rows, *writer);
  }
  writer->close();
  std::printf("%lld\n", static_cast<long long>(rows));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const kestrel::Error& e) {
    std::fprintf(stderr, "%s\n", kestrel::format_error(e).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
