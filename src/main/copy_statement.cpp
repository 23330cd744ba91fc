#include "main/copy_statement.hpp"

#include <atomic>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/parquet/writer/parquet_writer.hpp"

namespace kestrel {

size_t write_parquet_file(const std::string& path, const Schema& schema, const std::vector<Batch>& batches,
                          const std::vector<std::pair<std::string, std::string>>& options,
                          gpu::MemoryResource* device_mr) {
  io::ParquetWriterOptions writer_options;
  for (const auto& [name, value] : options) writer_options.set(name, value);
  auto writer = io::ParquetWriter::open(path, schema, writer_options);
  if (device_mr != nullptr) writer->enable_device(*device_mr, nullptr);
  size_t rows = 0;
  for (const auto& b : batches) {
    writer->write(Batch(std::make_shared<Schema>(schema), b.columns(), b.num_rows(), b.residency()));
    rows += b.num_rows();
  }
  writer->close();
  return rows;
}

namespace {

std::string csv_quote(const std::string& text, char delimiter) {
  if (text.find_first_of(std::string{delimiter, '"', '\r', '\n'}) == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

size_t write_csv_file(const std::string& path, const Schema& schema, const std::vector<Batch>& batches,
                      char delimiter, bool header) {
  namespace fs = std::filesystem;
  fs::path target(path);
  // Unique per write: statements of several connections may write the same file at once (the last rename wins).
  static std::atomic<uint64_t> writes{0};
  fs::path temp = target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(getpid()) +
                                          "-" + std::to_string(++writes));
  size_t rows = 0;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError("cannot write '" + temp.string() + "'");
    if (header) {
      for (size_t c = 0; c < schema.size(); ++c) out << (c ? std::string(1, delimiter) : "") << csv_quote(schema.field(c).name, delimiter);
      out << '\n';
    }
    for (const auto& b : batches) {
      for (size_t r = 0; r < b.num_rows(); ++r) {
        for (size_t c = 0; c < b.num_columns(); ++c) {
          if (c) out << delimiter;
          Value v = b.column(c)->value_at(r);
          if (v.is_null()) continue;
          std::string text = v.to_string();
          out << (text.empty() ? std::string("\"\"") : csv_quote(text, delimiter));
        }
        out << '\n';
        ++rows;
      }
    }
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(temp, ec);
      throw IoError("writing '" + path + "' failed");
    }
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw IoError("cannot create '" + path + "': " + ec.message());
  }
  return rows;
}

}  // namespace kestrel
