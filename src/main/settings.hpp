#pragma once
/// Settings of a database (SET / SHOW / RESET): named values with defaults, checked on assignment.

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace kestrel {

/// A registry of settings. Values are kept as text; each setting validates what it accepts.
class Settings {
 public:
  Settings();
  /// Sets `name` (lower case) to `value`; throws BinderError for an unknown name or InvalidInput for a bad value.
  void set(const std::string& name, const std::string& value);
  /// Sets `name` (checked as set() checks it) and the value that RESET and RESET ALL restore for it: a session's
  /// own defaults (a Trino session's type_names) outlive RESET ALL.
  void set_default(const std::string& name, const std::string& value);
  void reset(const std::string& name);
  void reset_all();
  /// Every setting's current value by name, and putting such values back (a served session keeps its own).
  std::map<std::string, std::string> values() const;
  void assign(const std::map<std::string, std::string>& values);
  /// Every value and default of `other` (a session starts from its database's settings, startup options being
  /// the defaults RESET goes back to).
  void copy_from(const Settings& other);
  std::string get(const std::string& name) const;
  /// (name, value, description) of every setting, sorted by name.
  std::vector<std::vector<std::string>> all() const;

  int threads() const;
  bool gpu_fallback() const;
  /// The session's time zone as a common/time_zone.hpp key.
  int32_t time_zone() const;
  bool gpu_cache() const;
  /// The gpu_decode setting: Parquet pages decoded on the GPU by GPU scans.
  bool gpu_decode() const;
  /// The gpu_encode setting: COPY to Parquet encodes device rows on the GPU.
  bool gpu_encode() const;
  /// The gpu_scan_reuse setting: a statement's GPU scans of one table share decoded columns (gpu_cache off).
  bool gpu_scan_reuse() const;
  /// The gpu_scan_prefetch setting: the next pipeline's file scan reads ahead (gpu_cache off).
  bool gpu_scan_prefetch() const;
  /// Drivers (and CUDA streams) per pipeline of a GPU query; 0: threads().
  int gpu_streams() const;
  /// The gpu_cache_mb and gpu_memory_mb settings in bytes (0: the default share of the GPU's memory).
  size_t gpu_cache_bytes() const;
  size_t gpu_memory_bytes() const;
  size_t host_memory_bytes() const;

 private:
  struct Entry {
    std::string value;
    std::string default_value;
    std::string description;
    bool (*valid)(const std::string&);
  };
  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace kestrel
