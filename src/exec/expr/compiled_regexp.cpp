#include "exec/expr/compiled_regexp.hpp"

#include <re2/re2.h>

#include <mutex>
#include <string>
#include <unordered_map>

#include "common/error.hpp"

namespace kestrel::exec {

namespace {

/// Distinct patterns kept; past it the cache starts over (a pattern column with many distinct values).
constexpr size_t kMaxCachedPatterns = 1024;

struct RegexpCache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> compiled;
};

RegexpCache& cache() {
  static RegexpCache instance;
  return instance;
}

}  // namespace

std::shared_ptr<const re2::RE2> compiled_regexp(std::string_view pattern, std::string_view function) {
  RegexpCache& c = cache();
  const std::string key(pattern);
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.compiled.find(key);
    if (it != c.compiled.end()) return it->second;
  }
  re2::RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) {
    throw InvalidInput(std::string(function) + ": invalid regular expression '" + key + "': " + re->error(), "2201B");
  }
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.compiled.size() >= kMaxCachedPatterns) c.compiled.clear();
  c.compiled.emplace(key, re);
  return re;
}

}  // namespace kestrel::exec
