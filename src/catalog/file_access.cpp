#include "catalog/file_access.hpp"

#include <glob.h>

#include <filesystem>
#include <system_error>

namespace kestrel::catalog {

namespace fs = std::filesystem;

namespace {

/// `path` with `..`, `.` and every symbolic link of its existing part resolved, absolute.
std::string resolved(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return fs::absolute(path).lexically_normal().string();
  return p.string();
}

bool has_glob_chars(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

}  // namespace

void FileAccess::restrict_to(const std::vector<std::string>& roots) {
  roots_.clear();
  for (const std::string& r : roots) {
    std::error_code ec;
    if (!fs::is_directory(r, ec)) throw IoError("allowed folder '" + r + "' is not a folder");
    std::string p = resolved(r);
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    roots_.push_back(p);
  }
  restricted_ = true;
}

bool FileAccess::allowed(const std::string& path) const {
  for (const std::string& root : roots_) {
    if (path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                         (root == "/" || path[root.size()] == '/'))) {
      return true;
    }
  }
  return false;
}

void FileAccess::refuse(const std::string& path, const char* what, std::optional<SourcePosition> position) const {
  std::string folders;
  for (const std::string& r : roots_) folders += (folders.empty() ? "" : ", ") + r;
  throw InvalidInput(std::string("cannot ") + what + " '" + path + "': this session may only use files below " +
                         (folders.empty() ? std::string("no folder") : folders),
                     "42501", position);
}

void FileAccess::check_read(const std::string& location, std::optional<SourcePosition> position) const {
  if (!restricted_) return;
  std::vector<std::string> covered;
  std::error_code ec;
  // A pattern is expanded even when a file of that literal name exists: readers differ in which they read.
  if (has_glob_chars(location)) {
    if (fs::exists(location, ec)) covered.push_back(location);
    glob_t g{};
    if (::glob(location.c_str(), GLOB_NOSORT, nullptr, &g) == 0) {
      for (size_t i = 0; i < g.gl_pathc; ++i) covered.emplace_back(g.gl_pathv[i]);
    }
    globfree(&g);
    // The folder the pattern starts from must be allowed even when nothing matches.
    const size_t slash = location.find_last_of('/', location.find_first_of("*?["));
    covered.push_back(slash == std::string::npos ? "." : location.substr(0, slash == 0 ? 1 : slash));
  } else {
    covered.push_back(location);
    if (fs::is_directory(location, ec)) {
      for (fs::recursive_directory_iterator it(location, fs::directory_options::skip_permission_denied, ec), end;
           !ec && it != end; it.increment(ec)) {
        covered.push_back(it->path().string());
      }
    }
  }
  for (const std::string& path : covered) {
    if (!allowed(resolved(path))) refuse(path, "read", position);
  }
}

void FileAccess::check_write(const std::string& path, std::optional<SourcePosition> position) const {
  if (!restricted_) return;
  if (!allowed(resolved(path))) refuse(path, "write", position);
}

}  // namespace kestrel::catalog
