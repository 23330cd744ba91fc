#include "io/csv/csv_reader.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>

#include "common/error.hpp"
#include "io/csv/csv_file_reader.hpp"

namespace kestrel {

namespace {

bool has_glob_chars(const std::string& path) { return path.find_first_of("*?[") != std::string::npos; }

bool hidden(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  return !name.empty() && (name[0] == '.' || name[0] == '_');
}

}  // namespace

std::vector<std::string> expand_csv_paths(const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  if (has_glob_chars(path)) {
    glob_t matches{};
    int rc = ::glob(path.c_str(), 0, nullptr, &matches);
    if (rc == 0) {
      for (size_t i = 0; i < matches.gl_pathc; ++i) {
        std::error_code ec;
        if (!fs::is_directory(matches.gl_pathv[i], ec)) files.emplace_back(matches.gl_pathv[i]);
      }
    }
    ::globfree(&matches);
    if (files.empty()) throw InvalidInput("no CSV file matches '" + path + "'");
  } else {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        if (hidden(it->path())) {
          if (it->is_directory(ec)) it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file(ec)) files.push_back(it->path().string());
      }
      if (files.empty()) throw InvalidInput("the folder '" + path + "' holds no CSV file");
    } else {
      files.push_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

CsvReader::CsvReader(std::vector<std::string> files, const CsvOptions& options, gpu::MemoryResource& mr)
    : files_(std::move(files)), options_(options), mr_(mr) {}

CsvReader::~CsvReader() = default;

std::unique_ptr<CsvReader> CsvReader::open(const std::string& path, const CsvOptions& options,
                                           gpu::MemoryResource& mr) {
  return open_files(expand_csv_paths(path), options, mr);
}

std::unique_ptr<CsvReader> CsvReader::open_files(std::vector<std::string> files, const CsvOptions& options,
                                                 gpu::MemoryResource& mr) {
  if (files.empty()) throw InvalidInput("CSV reader: no files given");
  options.validate();
  std::unique_ptr<CsvReader> reader(new CsvReader(std::move(files), options, mr));
  reader->current_ = std::make_unique<CsvFileReader>(reader->files_[0], reader->options_, nullptr, mr);
  reader->layout_ = std::make_unique<CsvTableLayout>(reader->current_->layout());
  reader->next_file_ = 1;
  return reader;
}

const SchemaPtr& CsvReader::schema() const { return layout_->schema; }

const std::vector<bool>& CsvReader::sniffed() const { return layout_->sniffed; }

std::optional<Batch> CsvReader::next_batch() {
  while (current_) {
    if (auto batch = current_->next_batch()) return batch;
    current_.reset();
    if (next_file_ < files_.size()) {
      current_ = std::make_unique<CsvFileReader>(files_[next_file_++], options_, layout_.get(), mr_);
    }
  }
  return std::nullopt;
}

size_t CsvTable::num_rows() const {
  size_t rows = 0;
  for (const Batch& b : batches) rows += b.num_rows();
  return rows;
}

CsvTable read_csv_file(const std::string& path, const CsvOptions& options, gpu::MemoryResource& mr) {
  auto reader = CsvReader::open(path, options, mr);
  CsvTable table;
  table.schema = reader->schema();
  while (auto batch = reader->next_batch()) table.batches.push_back(std::move(*batch));
  return table;
}

}  // namespace kestrel
