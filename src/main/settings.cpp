#include "main/settings.hpp"

#include <algorithm>
#include <thread>

#include <unistd.h>

#include "common/error.hpp"
#include "common/time_zone.hpp"

namespace kestrel {

namespace {

bool valid_bool(const std::string& v) { return v == "true" || v == "false" || v == "on" || v == "off"; }
bool valid_table_format(const std::string& v) { return v == "parquet" || v == "kcol"; }
bool valid_type_names(const std::string& v) { return v == "postgres" || v == "trino"; }
bool valid_count(const std::string& v) {
  return !v.empty() && v.size() <= 12 && std::all_of(v.begin(), v.end(), ::isdigit);
}
bool valid_time_zone(const std::string& v) { return tz::find_zone(v).has_value(); }
bool valid_threads(const std::string& v) {
  if (v.empty() || v.size() > 4 || !std::all_of(v.begin(), v.end(), ::isdigit)) return false;
  return std::stoi(v) >= 1;
}

}  // namespace

namespace {

std::string default_host_memory_mb() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return "0";
  return std::to_string(static_cast<unsigned long long>(pages) * static_cast<unsigned long long>(page) / 4 * 3 >> 20);
}

}  // namespace

Settings::Settings() {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  entries_["threads"] = {std::to_string(cores), std::to_string(cores), "worker threads per query on the CPU",
                         valid_threads};
  entries_["gpu_fallback"] = {"true", "true", "run operators the GPU cannot run on the CPU instead of failing",
                              valid_bool};
  entries_["gpu_cache"] = {"true", "true",
                           "keep scanned input columns of Parquet and CSV tables in GPU memory between queries "
                           "(false empties and disables the cache)",
                           valid_bool};
  entries_["gpu_decode"] = {"true", "true",
                            "GPU scans of Parquet files decompress and decode the pages on the GPU (false: on the "
                            "host, then copy the columns)",
                            valid_bool};
  entries_["gpu_encode"] = {"true", "true",
                            "in GPU mode, COPY ... TO a Parquet file encodes the rows a query leaves on the GPU there "
                            "(false: copies them to the host and encodes them there)",
                            valid_bool};
  entries_["gpu_scan_reuse"] = {"true", "true",
                                "with gpu_cache off, GPU scans of a table that one statement reads more than once "
                                "share the columns they decoded (within a quarter of the GPU memory budget)",
                                valid_bool};
  entries_["gpu_scan_prefetch"] = {"true", "true",
                                   "with gpu_cache off, the file scan of the pipeline that runs next starts reading "
                                   "to the GPU once the running pipeline's reads are queued",
                                   valid_bool};
  entries_["gpu_cache_mb"] = {"0", "0", "GPU table cache budget in MiB (0: half of the GPU's memory)", valid_count};
  entries_["gpu_streams"] = {"0", "0",
                             "GPU queries: drivers of each pipeline with GPU steps, each issuing its work on its "
                             "own CUDA stream (0: as many as threads, at most 4)",
                             valid_count};
  entries_["host_memory_mb"] = {default_host_memory_mb(), default_host_memory_mb(),
                                "host memory limit in MiB of the batches and buffers of all queries together (0: no "
                                "limit; by default three quarters of the machine's memory)",
                                valid_count};
  entries_["type_names"] = {"postgres", "postgres",
                            "spelling of types in information_schema.columns.data_type: postgres (SQL standard: "
                            "character varying, double precision, numeric) or trino (varchar, double, "
                            "decimal(p,s)); sessions of the Trino protocol start with trino",
                            valid_type_names};
  entries_["table_format"] = {"parquet", "parquet",
                              "file format of the tables CREATE TABLE ... AS writes into the data folder: parquet or "
                              "kcol (WITH (format = ...) overrides it per statement)",
                              valid_table_format};
  entries_["time_zone"] = {"UTC", "UTC",
                           "the session's time zone (an IANA name such as America/New_York, UTC, or an offset such as "
                           "+05:30): current_timestamp, casts from TIMESTAMP and DATE and zone-less text to TIMESTAMP "
                           "WITH TIME ZONE, and PostgreSQL clients' timestamptz text use it",
                           valid_time_zone};
  entries_["gpu_memory_mb"] = {"0", "0", "GPU memory budget in MiB of queries and the table cache together (0: the GPU's memory)",
                               valid_count};
}

namespace {

/// `value` as `setting` keeps it (lower case, on/off as true/false); throws InvalidInput when it does not accept it.
std::string checked_value(const std::string& name, bool (*valid)(const std::string&), const std::string& value) {
  std::string v = value;
  std::transform(v.begin(), v.end(), v.begin(), ::tolower);
  if (!valid(v)) throw InvalidInput("invalid value '" + value + "' for setting '" + name + "'", "22023");
  if (name == "time_zone") return tz::zone_name(tz::zone_key(v));  // kept as the database spells the zone
  if (v == "on") v = "true";
  if (v == "off") v = "false";
  return v;
}

}  // namespace

void Settings::set(const std::string& name, const std::string& value) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(name);
  if (it == entries_.end()) throw BinderError("unknown setting '" + name + "'", std::nullopt, "42704");
  it->second.value = checked_value(name, it->second.valid, value);
}

void Settings::set_default(const std::string& name, const std::string& value) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(name);
  if (it == entries_.end()) throw BinderError("unknown setting '" + name + "'", std::nullopt, "42704");
  it->second.value = it->second.default_value = checked_value(name, it->second.valid, value);
}

void Settings::reset(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(name);
  if (it == entries_.end()) throw BinderError("unknown setting '" + name + "'", std::nullopt, "42704");
  it->second.value = it->second.default_value;
}

std::map<std::string, std::string> Settings::values() const {
  std::lock_guard lock(mutex_);
  std::map<std::string, std::string> out;
  for (const auto& [name, e] : entries_) out[name] = e.value;
  return out;
}

void Settings::assign(const std::map<std::string, std::string>& values) {
  std::lock_guard lock(mutex_);
  for (const auto& [name, value] : values) {
    auto it = entries_.find(name);
    if (it != entries_.end()) it->second.value = value;
  }
}

void Settings::copy_from(const Settings& other) {
  if (&other == this) return;
  std::scoped_lock lock(mutex_, other.mutex_);
  for (const auto& [name, e] : other.entries_) {
    auto it = entries_.find(name);
    if (it == entries_.end()) continue;
    it->second.value = e.value;
    it->second.default_value = e.default_value;
  }
}

void Settings::reset_all() {
  std::lock_guard lock(mutex_);
  for (auto& [name, e] : entries_) e.value = e.default_value;
}

std::string Settings::get(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(name);
  if (it == entries_.end()) throw BinderError("unknown setting '" + name + "'", std::nullopt, "42704");
  return it->second.value;
}

std::vector<std::vector<std::string>> Settings::all() const {
  std::lock_guard lock(mutex_);
  std::vector<std::vector<std::string>> out;
  for (const auto& [name, e] : entries_) out.push_back({name, e.value, e.description});
  return out;
}

int Settings::threads() const { return std::stoi(get("threads")); }
int32_t Settings::time_zone() const { return tz::zone_key(get("time_zone")); }
bool Settings::gpu_fallback() const { return get("gpu_fallback") == "true"; }
int Settings::gpu_streams() const { return static_cast<int>(std::min<unsigned long long>(std::stoull(get("gpu_streams")), 1024)); }
bool Settings::gpu_cache() const { return get("gpu_cache") == "true"; }
bool Settings::gpu_decode() const { return get("gpu_decode") == "true"; }
bool Settings::gpu_encode() const { return get("gpu_encode") == "true"; }
bool Settings::gpu_scan_reuse() const { return get("gpu_scan_reuse") == "true"; }
bool Settings::gpu_scan_prefetch() const { return get("gpu_scan_prefetch") == "true"; }
size_t Settings::gpu_cache_bytes() const { return std::stoull(get("gpu_cache_mb")) << 20; }
size_t Settings::gpu_memory_bytes() const { return std::stoull(get("gpu_memory_mb")) << 20; }
size_t Settings::host_memory_bytes() const { return std::stoull(get("host_memory_mb")) << 20; }

}  // namespace kestrel
