#pragma once
/// Which files SQL may read and write. The local shell may touch any file its user can; a served session only files
/// below the served data folders and an explicit allow-list: read_parquet/read_csv/read_kcol, COPY TO and FROM, and
/// the files CREATE TABLE AS writes. Paths are resolved before the check (`..`, and symbolic links, also those
/// inside a folder or matched by a glob), so neither leaves the allowed folders.

#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace kestrel::catalog {

class FileAccess {
 public:
  /// From now on only files below `roots` (folders; resolved here) may be read or written. Throws IoError naming a
  /// root that does not exist.
  void restrict_to(const std::vector<std::string>& roots);
  bool restricted() const { return restricted_; }
  const std::vector<std::string>& roots() const { return roots_; }

  /// Throws InvalidInput (SQLSTATE 42501) naming the file when `location` (a file, a folder or a glob) or any file
  /// it covers lies outside the allowed folders; does nothing when access is not restricted.
  void check_read(const std::string& location, std::optional<SourcePosition> position = std::nullopt) const;
  /// The same for a file about to be written (it may not exist yet; its folder must).
  void check_write(const std::string& path, std::optional<SourcePosition> position = std::nullopt) const;

 private:
  bool allowed(const std::string& resolved) const;
  [[noreturn]] void refuse(const std::string& path, const char* what, std::optional<SourcePosition> position) const;

  bool restricted_ = false;
  std::vector<std::string> roots_;  ///< resolved, without a trailing '/'
};

}  // namespace kestrel::catalog
