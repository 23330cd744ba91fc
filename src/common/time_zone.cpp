#include "common/time_zone.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/datetime_ops.hpp"
#include "common/error.hpp"
#include "common/zone_rules.hpp"

namespace kestrel::tz {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

/// Names that mean UTC itself (lower case), whether or not the database has a file for them.
bool is_utc_alias(const std::string& name) {
  static const char* const kAliases[] = {
      "utc", "etc/utc", "uct", "etc/uct", "universal", "etc/universal", "zulu", "etc/zulu", "gmt", "etc/gmt",
      "gmt0", "etc/gmt0", "gmt+0", "gmt-0", "etc/gmt+0", "etc/gmt-0", "greenwich", "etc/greenwich", "z", "ut"};
  for (const char* alias : kAliases) {
    if (name == alias) return true;
  }
  return false;
}

/// The key of a named zone: a 32-bit FNV-1a hash of its lower-case name, above the fixed-offset keys.
ZoneKey hash_key(const std::string& lower_name) {
  uint32_t h = 2166136261u;
  for (char c : lower_name) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return kFirstNamedZoneKey + static_cast<ZoneKey>(h % static_cast<uint32_t>(INT32_MAX - kFirstNamedZoneKey));
}

/// Every zone of the database by lower-case name and by key; zone rules are loaded when first used and kept for
/// the life of the process (so a pointer to them stays valid).
class ZoneDatabase {
 public:
  static ZoneDatabase& instance() {
    static ZoneDatabase db;
    return db;
  }

  std::optional<ZoneKey> find(const std::string& lower_name) const {
    auto it = by_name_.find(lower_name);
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
  }
  const std::string* name(ZoneKey key) const {
    auto it = names_.find(key);
    return it == names_.end() ? nullptr : &it->second;
  }
  const ZoneRules& rules(ZoneKey key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = rules_.find(key);
    if (it != rules_.end()) return *it->second;
    auto n = names_.find(key);
    if (n == names_.end()) throw InvalidInput("unknown time zone key " + std::to_string(key));
    std::ifstream file(dir_ / n->second, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) throw IoError("cannot read the time zone file of '" + n->second + "'");
    auto rules = std::make_unique<ZoneRules>(ZoneRules::parse(n->second, bytes));
    return *rules_.emplace(key, std::move(rules)).first->second;
  }

 private:
  ZoneDatabase() : dir_(zoneinfo_dir()) {
    std::error_code ec;
    std::filesystem::recursive_directory_iterator it(dir_, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const std::string file = it->path().filename().string();
      if (it->is_directory()) {
        if (file == "posix" || file == "right") it.disable_recursion_pending();
        continue;
      }
      if (file.find('.') != std::string::npos || file == "posixrules" || file == "localtime" ||
          file == "Factory" || !is_tzif(it->path())) {
        continue;
      }
      add(std::filesystem::relative(it->path(), dir_).generic_string());
    }
  }

  static bool is_tzif(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    char magic[4] = {};
    return file.read(magic, 4) && std::string_view(magic, 4) == "TZif";
  }

  void add(const std::string& name) {
    const std::string key_name = lower(name);
    if (is_utc_alias(key_name)) {
      by_name_.emplace(key_name, kUtc);
      return;
    }
    const ZoneKey key = hash_key(key_name);
    auto [it, inserted] = names_.emplace(key, name);
    if (!inserted && it->second != name) {
      throw InternalError("time zones '" + it->second + "' and '" + name + "' have the same key " +
                          std::to_string(key));
    }
    by_name_.emplace(key_name, key);
  }

  std::filesystem::path dir_;
  std::unordered_map<std::string, ZoneKey> by_name_;
  std::unordered_map<ZoneKey, std::string> names_;
  std::mutex mutex_;
  std::unordered_map<ZoneKey, std::unique_ptr<ZoneRules>> rules_;
};

/// The rules of a named zone, remembering the last one this thread used (a column's values mostly share a zone).
const ZoneRules& named_rules(ZoneKey key) {
  thread_local ZoneKey last_key = kUtc;
  thread_local const ZoneRules* last_rules = nullptr;
  if (last_rules == nullptr || last_key != key) {
    last_rules = &ZoneDatabase::instance().rules(key);
    last_key = key;
  }
  return *last_rules;
}

/// `+05:30`, `-08:00`, `+0530`, `+5`, `+05` as minutes east of UTC; nullopt when `s` is not such an offset.
std::optional<int64_t> parse_offset(std::string_view s) {
  if (s.size() < 2 || (s[0] != '+' && s[0] != '-')) return std::nullopt;
  const int64_t sign = s[0] == '-' ? -1 : 1;
  std::string digits;
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] == ':' && i == 3 && s.size() == 6) continue;
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    digits += s[i];
  }
  int64_t hours = 0, minutes = 0;
  if (digits.size() <= 2) {
    hours = std::stoll(digits);
  } else if (digits.size() == 4) {
    hours = std::stoll(digits.substr(0, 2));
    minutes = std::stoll(digits.substr(2));
  } else {
    return std::nullopt;
  }
  if (minutes >= 60) return std::nullopt;
  return sign * (hours * 60 + minutes);
}

}  // namespace

std::string zoneinfo_dir() {
  const char* env = std::getenv("KESTREL_ZONEINFO");
  return env != nullptr && *env != '\0' ? env : "/usr/share/zoneinfo";
}

std::optional<ZoneKey> find_zone(std::string_view name) {
  std::string key_name = lower(name);
  while (!key_name.empty() && key_name.back() == ' ') key_name.pop_back();
  while (!key_name.empty() && key_name.front() == ' ') key_name.erase(0, 1);
  if (is_utc_alias(key_name)) return kUtc;
  std::string_view offset = key_name;
  if (offset.substr(0, 3) == "utc" || offset.substr(0, 3) == "gmt") offset.remove_prefix(3);
  if (auto minutes = parse_offset(offset)) {
    if (*minutes < -kMaxOffsetMinutes || *minutes > kMaxOffsetMinutes) return std::nullopt;
    return static_cast<ZoneKey>(*minutes);
  }
  return ZoneDatabase::instance().find(key_name);
}

ZoneKey zone_key(std::string_view name) {
  if (auto key = find_zone(name)) return *key;
  throw InvalidInput("unknown time zone '" + std::string(name) + "'");
}

ZoneKey offset_zone_key(int64_t offset_minutes) {
  if (offset_minutes < -kMaxOffsetMinutes || offset_minutes > kMaxOffsetMinutes) {
    throw InvalidInput("time zone offset " + std::to_string(offset_minutes) +
                       " minutes is out of range (-14:00 to +14:00)");
  }
  return static_cast<ZoneKey>(offset_minutes);
}

std::string zone_name(ZoneKey key) {
  if (key == kUtc) return "UTC";
  if (is_fixed_offset(key)) {
    const int32_t m = key < 0 ? -key : key;
    char buf[8];
    buf[0] = key < 0 ? '-' : '+';
    buf[1] = static_cast<char>('0' + m / 600);
    buf[2] = static_cast<char>('0' + m / 60 % 10);
    buf[3] = ':';
    buf[4] = static_cast<char>('0' + m % 60 / 10);
    buf[5] = static_cast<char>('0' + m % 10);
    return std::string(buf, 6);
  }
  if (const std::string* name = ZoneDatabase::instance().name(key)) return *name;
  throw InvalidInput("unknown time zone key " + std::to_string(key));
}

int32_t offset_seconds(ZoneKey key, int64_t utc_micros) {
  if (is_fixed_offset(key)) return key * 60;
  return named_rules(key).offset_at(datetime::floor_div64(utc_micros, kMicrosPerSecond));
}

int64_t utc_to_local(ZoneKey key, int64_t utc_micros) {
  return utc_micros + static_cast<int64_t>(offset_seconds(key, utc_micros)) * kMicrosPerSecond;
}

int64_t local_to_utc(ZoneKey key, int64_t local_micros) {
  if (is_fixed_offset(key)) return local_micros - static_cast<int64_t>(key) * 60 * kMicrosPerSecond;
  const ZoneRules& rules = named_rules(key);
  const int64_t local = datetime::floor_div64(local_micros, kMicrosPerSecond);
  const int32_t before = rules.offset_at(local - 86400);
  const int32_t after = rules.offset_at(local + 86400);
  if (before == after) {
    // No change within a day of this time (or changes that cancel out): the offset at the guess decides.
    const int32_t at = rules.offset_at(local - before);
    return local_micros - static_cast<int64_t>(at) * kMicrosPerSecond;
  }
  // One change in the two days around: find its instant, then the local time at which `before` stops applying.
  int64_t lo = local - 86400, hi = local + 86400;  // offset_at(lo) == before, offset_at(hi) == after
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (rules.offset_at(mid) == before ? lo : hi) = mid;
  }
  const int64_t threshold = (hi + std::max(before, after)) * kMicrosPerSecond;
  const int32_t offset = local_micros < threshold ? before : after;
  return local_micros - static_cast<int64_t>(offset) * kMicrosPerSecond;
}

}  // namespace kestrel::tz
