#pragma once
/// Matching helpers shared by the CPU regular expression kernels (regexp_funcs.cpp, split_extra_funcs.cpp): the
/// compiled pattern of each row and the loop over successive matches.

#include <re2/re2.h>

#include <memory>
#include <string_view>
#include <vector>

#include "exec/expr/compiled_regexp.hpp"
#include "exec/expr/kernel_util.hpp"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec {

/// The pattern of each row: compiled once for a constant pattern, else looked up per row in the cache.
class RowPatterns {
 public:
  RowPatterns(const Operand& pattern, const char* function)
      : reader_(pattern), constant_(pattern.constant), function_(function) {
    if (constant_ && pattern.valid(0)) current_ = compiled_regexp(reader_[0], function_);
  }
  const re2::RE2& operator[](size_t row) {
    if (!constant_) current_ = compiled_regexp(reader_[row], function_);
    return *current_;
  }
  bool constant() const { return constant_; }

 private:
  StringReader reader_;
  bool constant_;
  const char* function_;
  std::shared_ptr<const re2::RE2> current_;
};

/// Calls `fn(begin, end, groups)` for the successive matches of `re` in `text` from byte `from` (groups[0] is the
/// match, then `ngroups - 1` capturing groups) until it returns false. After an empty match the search resumes one
/// character further, as Java's Matcher.find does.
template <typename Fn>
void for_each_match(const re2::RE2& re, std::string_view text, size_t from, std::vector<re2::StringPiece>& groups,
                    Fn&& fn) {
  size_t pos = from;
  const re2::StringPiece piece(text.data(), text.size());
  while (pos <= text.size()) {
    const int n = static_cast<int>(groups.size());
    if (!re.Match(piece, pos, text.size(), re2::RE2::UNANCHORED, groups.data(), n)) return;
    const size_t begin = static_cast<size_t>(groups[0].data() - text.data());
    const size_t end = begin + groups[0].size();
    if (!fn(begin, end)) return;
    if (end > begin) {
      pos = end;
    } else {
      if (end >= text.size()) return;
      pos = end + utf8::char_bytes(static_cast<uint8_t>(text[end]));
    }
  }
}

}  // namespace kestrel::exec
