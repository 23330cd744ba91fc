#pragma once
/// The Parquet files the GPU reader tests compare on: $KESTREL_PARQUET_CORPUS (':'-separated folders), else
/// ../shared/parquet-testing and .device/parquet-corpus (scripts/make-parquet-corpus.py) where they exist.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "vector/batch.hpp"

namespace kestrel::testing {

inline std::vector<std::string> parquet_corpus_files() {
  namespace fs = std::filesystem;
  std::vector<std::string> folders;
  if (const char* env = std::getenv("KESTREL_PARQUET_CORPUS"); env != nullptr && *env != '\0') {
    std::string all = env;
    for (size_t at = 0; at <= all.size();) {
      size_t end = all.find(':', at);
      if (end == std::string::npos) end = all.size();
      if (end > at) folders.push_back(all.substr(at, end - at));
      at = end + 1;
    }
  } else {
    folders = {"../shared/parquet-testing", ".device/parquet-testing", ".device/parquet-corpus"};
#ifdef KESTREL_SHARED_DIR
    folders.front() = std::string(KESTREL_SHARED_DIR) + "/parquet-testing";
#endif
  }
  std::vector<std::string> files;
  for (const std::string& f : folders) {
    if (!fs::is_directory(f)) continue;
    for (const auto& e : fs::recursive_directory_iterator(f)) {
      const std::string p = e.path().string();
      if (e.is_regular_file() && p.size() > 8 && p.substr(p.size() - 8) == ".parquet") files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Binary columns of the corpus as the VARCHAR they were read as before the Parquet reader learned VARBINARY (the
/// same bytes): the kcol device test compares the GPU reader on them, and GPU plans do not take VARBINARY.
inline void relabel_varbinary_as_varchar(SchemaPtr& schema, std::vector<Batch>& batches) {
  std::vector<Field> fields = schema->fields();
  for (Field& f : fields) {
    if (f.type.id() == TypeId::kVarbinary) f.type = TypeId::kVarchar;
  }
  schema = std::make_shared<Schema>(fields);
  for (Batch& batch : batches) {
    std::vector<ColumnPtr> columns = batch.columns();
    for (ColumnPtr& c : columns) {
      if (c->type().id() == TypeId::kVarbinary) c = Column::retyped(c, TypeId::kVarchar);
    }
    batch = Batch(schema, std::move(columns), batch.num_rows(), batch.residency());
  }
}

}  // namespace kestrel::testing
