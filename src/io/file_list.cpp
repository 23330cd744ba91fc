#include "io/file_list.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "common/error.hpp"

namespace kestrel::io {

namespace {

namespace fs = std::filesystem;

bool has_glob_chars(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

bool hidden(const std::string& name) { return name.empty() || name[0] == '.' || name[0] == '_'; }

}  // namespace

std::vector<std::string> list_table_files(const std::string& location, const std::string& extension,
                                          const std::string& format) {
  std::vector<std::string> files;
  std::error_code ec;
  if (has_glob_chars(location) && !fs::exists(location, ec)) {
    glob_t g{};
    int rc = ::glob(location.c_str(), GLOB_NOSORT, nullptr, &g);
    if (rc == 0) {
      for (size_t i = 0; i < g.gl_pathc; ++i) {
        if (!hidden(fs::path(g.gl_pathv[i]).filename().string()) && fs::is_regular_file(g.gl_pathv[i], ec)) {
          files.emplace_back(g.gl_pathv[i]);
        }
      }
    }
    globfree(&g);
    std::sort(files.begin(), files.end());
    if (files.empty()) throw InvalidInput("no " + format + " files match '" + location + "'");
    return files;
  }
  if (fs::is_directory(location, ec)) {
    for (fs::recursive_directory_iterator it(location, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (it->is_directory(ec) && hidden(name)) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file(ec) && !hidden(name) && it->path().extension() == extension) {
        files.push_back(it->path().string());
      }
    }
    if (ec) throw IoError("cannot list '" + location + "': " + ec.message());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw InvalidInput("no " + format + " files in folder '" + location + "'");
    return files;
  }
  return {location};  // one file; opening it reports it if it is missing
}

}  // namespace kestrel::io
