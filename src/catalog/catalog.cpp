#include "catalog/catalog.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "common/error.hpp"

namespace kestrel::catalog {

std::string Catalog::key(const std::string& name) {
  std::string k = name;
  std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return std::tolower(c); });
  return k;
}

void Catalog::add_table(TablePtr table, bool replace) {
  std::lock_guard lock(mutex_);
  std::string k = key(table->name());
  if (!replace && (tables_.count(k) || views_.count(k))) {
    throw BinderError("table '" + table->name() + "' already exists", std::nullopt, "42P07");
  }
  tables_[k] = std::move(table);
}

bool Catalog::drop_table(const std::string& name) {
  std::lock_guard lock(mutex_);
  return tables_.erase(key(name)) > 0;
}

TablePtr Catalog::find_table(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(key(name));
  return it == tables_.end() ? nullptr : it->second;
}

void Catalog::add_view(View view, bool replace) {
  std::lock_guard lock(mutex_);
  std::string k = key(view.name);
  if (tables_.count(k) || (!replace && views_.count(k))) {
    throw BinderError("a table or view named '" + view.name + "' already exists", std::nullopt, "42P07");
  }
  views_[k] = std::move(view);
}

bool Catalog::drop_view(const std::string& name) {
  std::lock_guard lock(mutex_);
  return views_.erase(key(name)) > 0;
}

std::optional<View> Catalog::find_view(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = views_.find(key(name));
  if (it == views_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Catalog::table_names() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const auto& [k, t] : tables_) names.push_back(t->name());
  for (const auto& [k, v] : views_) names.push_back(v.name);
  std::sort(names.begin(), names.end());
  return names;
}

void Catalog::attach_data_dir(const std::string& dir, TableFactory factory) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw IoError("cannot list data folder '" + dir + "': " + ec.message());
  std::vector<fs::path> entries;
  for (const auto& entry : it) entries.push_back(entry.path());
  std::sort(entries.begin(), entries.end());
  for (const auto& path : entries) {
    std::string file = path.filename().string();
    if (file.empty() || file[0] == '.' || file[0] == '_') continue;
    std::string name = fs::is_directory(path) ? file : path.stem().string();
    TablePtr table = factory(name, path.string());
    if (table) add_table(std::move(table), /*replace=*/true);
  }
  if (!data_dir_) data_dir_ = dir;
}

}  // namespace kestrel::catalog
