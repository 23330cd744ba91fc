#pragma once
/// The catalog: named tables and views of one database, and the data folders attached to it.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "catalog/file_access.hpp"
#include "catalog/table.hpp"

namespace kestrel::catalog {

/// A stored view: its SQL text is bound again at each use.
struct View {
  std::string name;
  std::string sql;
  std::vector<std::string> column_names;  ///< explicit column aliases, possibly empty
};

/// Makes a Table for a file or folder (Parquet or CSV); registered by the io integration so the catalog does not
/// depend on the readers' details. Returns nullptr when it does not handle the path.
using TableFactory = TablePtr (*)(const std::string& name, const std::string& path);

/// Thread-safe registry of tables and views. Names are case-insensitive.
class Catalog {
 public:
  /// Adds `table`; throws BinderError (42P07) when the name is taken and `replace` is false.
  void add_table(TablePtr table, bool replace = false);
  /// Removes a table; returns false when there was none.
  bool drop_table(const std::string& name);
  TablePtr find_table(const std::string& name) const;

  void add_view(View view, bool replace);
  bool drop_view(const std::string& name);
  std::optional<View> find_view(const std::string& name) const;

  /// Sorted names of tables and views.
  std::vector<std::string> table_names() const;

  /// Attaches every sub-folder and data file of `dir` as a table named after it (file extension removed),
  /// using `factory` to open each one. Throws IoError when `dir` cannot be listed.
  void attach_data_dir(const std::string& dir, TableFactory factory);
  /// The folder CREATE TABLE AS writes into (the first attached one), if any.
  const std::optional<std::string>& data_dir() const { return data_dir_; }
  /// Which files SQL may read and write (all, unless restricted for a served session).
  FileAccess& file_access() { return file_access_; }
  const FileAccess& file_access() const { return file_access_; }

 private:
  static std::string key(const std::string& name);

  mutable std::mutex mutex_;
  std::map<std::string, TablePtr> tables_;
  std::map<std::string, View> views_;
  std::optional<std::string> data_dir_;
  FileAccess file_access_;
};

}  // namespace kestrel::catalog
