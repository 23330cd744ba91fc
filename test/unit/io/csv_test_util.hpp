#pragma once
/// Helpers shared by the CSV reader tests: temporary files and tables rendered as text.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "io/csv/csv_reader.hpp"

namespace kestrel::csv_test {

/// A fresh folder under the system temp folder, removed with the object.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("kestrel_csv_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  /// Writes `content` to `name` in the folder and returns the file's path.
  std::string write(const std::string& name, const std::string& content) const {
    std::filesystem::path p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << content;
    return p.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

/// Every row of a table as text, values as Value::to_string prints them ("NULL" for NULL).
inline std::vector<std::vector<std::string>> rows_of(const CsvTable& table) {
  std::vector<std::vector<std::string>> rows;
  for (const Batch& batch : table.batches) {
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      std::vector<std::string> row;
      for (size_t c = 0; c < batch.num_columns(); ++c) row.push_back(batch.column(c)->value_at(r).to_string());
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

/// Names and types of a schema as `name TYPE` strings.
inline std::vector<std::string> schema_of(const CsvTable& table) {
  std::vector<std::string> out;
  for (const Field& f : table.schema->fields()) out.push_back(f.name + " " + f.type.to_string());
  return out;
}

/// Writes `content` to a temp file and reads it with `options`.
inline CsvTable read_text(const std::string& content, const CsvOptions& options = {}) {
  TempDir dir;
  return read_csv_file(dir.write("t.csv", content), options);
}

/// CsvOptions built from `name=value` pairs.
inline CsvOptions opts(std::initializer_list<std::pair<const char*, const char*>> pairs) {
  CsvOptions options;
  for (const auto& [name, value] : pairs) options.set(name, value);
  return options;
}

using Rows = std::vector<std::vector<std::string>>;

}  // namespace kestrel::csv_test
