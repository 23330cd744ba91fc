// CSV reader: randomized robustness. Random and mutated inputs under random dialects either read or fail with
// InvalidInput; never another exception, a crash or a hang. Parallel reading with tiny blocks must agree with
// single-threaded reading on every input, rows and errors alike.
#include <gtest/gtest.h>

#include <random>

#include "csv_test_util.hpp"

namespace kestrel {
namespace {

/// Outcome of reading one input: the rows as text, or the error message.
struct Outcome {
  std::vector<std::string> schema;
  csv_test::Rows rows;
  std::string error;
};

Outcome read_outcome(const std::string& path, const CsvOptions& options) {
  Outcome out;
  try {
    auto reader = CsvReader::open(path, options);
    for (const Field& f : reader->schema()->fields()) out.schema.push_back(f.name + " " + f.type.to_string());
    while (auto batch = reader->next_batch()) {
      EXPECT_LE(batch->num_rows(), options.batch_size);
      for (size_t c = 0; c < batch->num_columns(); ++c) EXPECT_EQ(batch->column(c)->length(), batch->num_rows());
      for (size_t r = 0; r < batch->num_rows(); ++r) {
        std::vector<std::string> row;
        for (size_t c = 0; c < batch->num_columns(); ++c) row.push_back(batch->column(c)->value_at(r).to_string());
        out.rows.push_back(std::move(row));
      }
    }
  } catch (const InvalidInput& e) {
    out.error = e.message();
  }
  return out;
}

std::string random_valid_csv(std::mt19937& rng, char delim, char quote) {
  static const char* kValues[] = {"1", "-17", "2.50", "0.001", "1e5", "true", "FALSE", "2024-01-31",
                                  "2024-01-31 10:11:12", "abc", "", "NULL", "\\N", "x y", "9223372036854775807"};
  const int cols = 1 + static_cast<int>(rng() % 5);
  const int rows = static_cast<int>(rng() % 40);
  const bool trailing = rng() % 4 == 0;
  std::string text;
  for (int r = 0; r < rows + 1; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (c > 0) text += delim;
      std::string v = r == 0 ? "c" + std::to_string(c) : kValues[rng() % std::size(kValues)];
      if (rng() % 6 == 0) {
        std::string q(1, quote);
        for (char ch : v + (rng() % 2 ? std::string(1, delim) + "\n" : std::string())) {
          if (ch == quote) q += quote;
          q += ch;
        }
        v = q + quote;
      }
      text += v;
    }
    if (trailing) text += delim;
    text += rng() % 5 == 0 ? "\r\n" : "\n";
  }
  return text;
}

std::string mutate(std::mt19937& rng, std::string text) {
  static const char kBytes[] = {',', '"', '\n', '\r', '\\', 'a', '1', '.', '-', ' ', '|', '\'', '\xff', '\0', 'e'};
  const int edits = static_cast<int>(rng() % 6);
  for (int e = 0; e < edits; ++e) {
    size_t at = text.empty() ? 0 : rng() % (text.size() + 1);
    switch (rng() % 4) {
      case 0: text.insert(text.begin() + static_cast<long>(at), kBytes[rng() % std::size(kBytes)]); break;
      case 1:
        if (at < text.size()) text.erase(at, 1 + rng() % 3);
        break;
      case 2:
        if (at < text.size()) text[at] = kBytes[rng() % std::size(kBytes)];
        break;
      default: text = text.substr(0, at); break;
    }
  }
  return text;
}

CsvOptions random_options(std::mt19937& rng, char delim, char quote) {
  CsvOptions o;
  o.delimiter = delim;
  o.quote = quote;
  o.has_quote = rng() % 10 != 0;
  if (rng() % 4 == 0) o.escape = '\\';
  o.header = rng() % 3 != 0;
  if (rng() % 3 == 0) o.null_string = rng() % 2 ? "NULL" : "\\N";
  o.skip_rows = rng() % 8 == 0 ? rng() % 3 : 0;
  o.trailing_delimiter = static_cast<CsvTrailingDelimiter>(rng() % 3);
  o.sample_size = rng() % 3 == 0 ? 1 + rng() % 5 : 20480;
  o.batch_size = 1 + rng() % 16;
  o.block_size = 1024;
  if (rng() % 3 == 0) {
    static const char* kTypes[] = {"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "REAL", "DOUBLE",
                                   "DECIMAL(15,2)", "DECIMAL(38,5)", "DATE", "TIMESTAMP", "VARCHAR"};
    const int cols = 1 + static_cast<int>(rng() % 5);
    for (int c = 0; c < cols; ++c) {
      o.columns.push_back(Field{"c" + std::to_string(c), parse_csv_type_name(kTypes[rng() % std::size(kTypes)])});
    }
  }
  return o;
}

TEST(CsvRobustness, RandomAndMutatedInputs) {
  std::mt19937 rng(20240531);
  csv_test::TempDir dir;
  const std::string path = dir.path() + "/fuzz.csv";
  int read_ok = 0, rejected = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    const char delim = rng() % 3 == 0 ? '|' : ',';
    const char quote = rng() % 5 == 0 ? '\'' : '"';
    std::string text;
    if (rng() % 10 == 0) {
      const int n = static_cast<int>(rng() % 200);
      for (int i = 0; i < n; ++i) text += static_cast<char>(rng() % 256);
    } else {
      text = mutate(rng, random_valid_csv(rng, delim, quote));
    }
    if (rng() % 8 == 0) {
      // Stretch the input past several 1 KiB blocks so that the parallel chunk logic is exercised.
      std::string longer;
      while (longer.size() < 6000 && !text.empty()) longer += text;
      text = longer;
    }
    dir.write("fuzz.csv", text);
    CsvOptions options = random_options(rng, delim, quote);
    SCOPED_TRACE("iteration " + std::to_string(iteration));
    Outcome single, parallel;
    try {
      options.threads = 1;
      single = read_outcome(path, options);
      options.threads = 3;
      parallel = read_outcome(path, options);
    } catch (const std::exception& e) {
      FAIL() << "unexpected exception: " << e.what() << "\ninput: " << ::testing::PrintToString(text);
    }
    EXPECT_EQ(single.schema, parallel.schema);
    EXPECT_EQ(single.rows, parallel.rows) << ::testing::PrintToString(text);
    EXPECT_EQ(single.error, parallel.error) << ::testing::PrintToString(text);
    if (single.error.empty()) {
      ++read_ok;
    } else {
      ++rejected;
      EXPECT_NE(single.error.find("fuzz.csv"), std::string::npos) << single.error;
    }
  }
  // Both outcomes must be common, or the generator is not testing much.
  EXPECT_GT(read_ok, 300);
  EXPECT_GT(rejected, 300);
}

}  // namespace
}  // namespace kestrel
