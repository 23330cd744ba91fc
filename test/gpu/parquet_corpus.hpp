#pragma once
/// The Parquet files the GPU reader tests compare on: $KESTREL_PARQUET_CORPUS (':'-separated folders), else
/// ../shared/parquet-testing and .device/parquet-corpus (scripts/make-parquet-corpus.py) where they exist.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

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

}  // namespace kestrel::testing
