// Presto's regular expression functions on the CPU, with RE2: regexp_like, regexp_extract, regexp_replace,
// regexp_count and regexp_position. Positions count code points; matches are searched in the whole string, so `^`
// and `\b` see the text before a start position.

#include <re2/re2.h>

#include <algorithm>
#include <string>
#include <vector>

#include "exec/expr/compiled_regexp.hpp"
#include "exec/expr/regexp_match.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;
using re2::RE2;

/// A parsed regexp_replace replacement: literal text and group references.
struct Replacement {
  struct Piece {
    std::string literal;
    int group = -1;  ///< >= 0: the text of this group
  };
  std::vector<Piece> pieces;
  /// 1 + the largest group referenced: how many groups a match must report.
  size_t groups_needed = 1;

  void append(std::string& out, const std::vector<re2::StringPiece>& groups) const {
    for (const Piece& p : pieces) {
      if (p.group < 0) {
        out.append(p.literal);
      } else if (groups[static_cast<size_t>(p.group)].data() != nullptr) {
        out.append(groups[static_cast<size_t>(p.group)].data(), groups[static_cast<size_t>(p.group)].size());
      }
    }
  }
};

[[noreturn]] void bad_replacement(std::string_view replacement, const std::string& why) {
  throw InvalidInput("regexp_replace: invalid replacement '" + std::string(replacement) + "': " + why, "22023");
}

/// Parses `$N`, `${name}` and `\c` as Java's Matcher.appendReplacement does: after the first digit of N, further
/// digits are taken while the number still names a group of `re`.
Replacement parse_replacement(std::string_view text, const RE2& re) {
  Replacement r;
  const int groups = re.NumberOfCapturingGroups();
  auto literal = [&]() -> std::string& {
    if (r.pieces.empty() || r.pieces.back().group >= 0) r.pieces.emplace_back();
    return r.pieces.back().literal;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      if (++i == text.size()) bad_replacement(text, "a backslash ends it");
      literal().push_back(text[i]);
    } else if (c != '$') {
      literal().push_back(c);
    } else if (++i == text.size()) {
      bad_replacement(text, "a group reference is missing after '$'");
    } else if (text[i] == '{') {
      const size_t close = text.find('}', i);
      if (close == std::string_view::npos) bad_replacement(text, "'${' is not closed");
      const std::string name(text.substr(i + 1, close - i - 1));
      const auto& named = re.NamedCapturingGroups();
      const auto it = named.find(name);
      if (it == named.end()) bad_replacement(text, "the pattern has no group named '" + name + "'");
      r.pieces.push_back({{}, it->second});
      r.groups_needed = std::max(r.groups_needed, static_cast<size_t>(it->second) + 1);
      i = close;
    } else {
      if (text[i] < '0' || text[i] > '9') bad_replacement(text, "'$' must be followed by a group number or {name}");
      int group = text[i] - '0';
      if (group > groups) {
        bad_replacement(text, "group " + std::to_string(group) + " does not exist (the pattern has " +
                                  std::to_string(groups) + ")");
      }
      while (i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9' &&
             group * 10 + (text[i + 1] - '0') <= groups) {
        group = group * 10 + (text[++i] - '0');
      }
      r.pieces.push_back({{}, group});
      r.groups_needed = std::max(r.groups_needed, static_cast<size_t>(group) + 1);
    }
  }
  return r;
}

/// The 1-based code point position of byte `offset` of `text`.
int32_t char_position(std::string_view text, size_t offset) {
  return static_cast<int32_t>(utf8::length(text.data(), offset) + 1);
}

Operand regexp_like(const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const StringReader text(args[0]);
  RowPatterns patterns(args[1], "regexp_like");
  return map_rows_to_fixed<uint8_t>(LogicalType(TypeId::kBoolean), args, rows, ctx, [&](size_t i, uint8_t& out) {
    const std::string_view s = text[i];
    out = RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), patterns[i]) ? 1 : 0;
    return true;
  });
}

Operand regexp_extract(const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const StringReader text(args[0]);
  RowPatterns patterns(args[1], "regexp_extract");
  const int64_t* group = args.size() > 2 ? args[2].data<int64_t>() : nullptr;
  return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
    const RE2& re = patterns[i];
    const int64_t g = group ? group[args[2].index(i)] : 0;
    if (g < 0) throw InvalidInput("regexp_extract: group must not be negative, got " + std::to_string(g), "22023");
    if (g > re.NumberOfCapturingGroups()) {
      throw InvalidInput("regexp_extract: pattern '" + re.pattern() + "' has " +
                             std::to_string(re.NumberOfCapturingGroups()) + " groups, no group " + std::to_string(g),
                         "22023");
    }
    const std::string_view s = text[i];
    std::vector<re2::StringPiece> groups(static_cast<size_t>(g) + 1);
    if (!re.Match(re2::StringPiece(s.data(), s.size()), 0, s.size(), RE2::UNANCHORED, groups.data(),
                  static_cast<int>(groups.size())) ||
        groups.back().data() == nullptr) {
      return false;
    }
    out.append(groups.back().data(), groups.back().size());
    return true;
  });
}

Operand regexp_replace(const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const StringReader text(args[0]);
  RowPatterns patterns(args[1], "regexp_replace");
  const bool with_replacement = args.size() > 2;
  const StringReader replacement_text(with_replacement ? args[2] : args[0]);
  const bool constant_replacement = !with_replacement || (args[2].constant && patterns.constant());
  Replacement fixed;
  if (with_replacement && constant_replacement && args[2].valid(0) && args[1].valid(0)) {
    fixed = parse_replacement(replacement_text[0], patterns[0]);
  }
  return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
    const RE2& re = patterns[i];
    const Replacement row_replacement =
        constant_replacement ? Replacement{} : parse_replacement(replacement_text[i], re);
    const Replacement& replacement = constant_replacement ? fixed : row_replacement;
    const std::string_view s = text[i];
    // Only the groups the replacement reads: RE2 finds plain matches fastest.
    std::vector<re2::StringPiece> groups(replacement.groups_needed);
    size_t copied = 0;
    for_each_match(re, s, 0, groups, [&](size_t begin, size_t end) {
      out.append(s.substr(copied, begin - copied));
      replacement.append(out, groups);
      copied = end;
      return true;
    });
    out.append(s.substr(copied));
    return true;
  });
}

Operand regexp_count(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const StringReader text(args[0]);
  RowPatterns patterns(args[1], "regexp_count");
  return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
    std::vector<re2::StringPiece> groups(1);
    out = 0;
    for_each_match(patterns[i], text[i], 0, groups, [&](size_t, size_t) {
      ++out;
      return true;
    });
    return true;
  });
}

Operand regexp_position(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const StringReader text(args[0]);
  RowPatterns patterns(args[1], "regexp_position");
  const int64_t* start = args.size() > 2 ? args[2].data<int64_t>() : nullptr;
  const int64_t* occurrence = args.size() > 3 ? args[3].data<int64_t>() : nullptr;
  return map_rows_to_fixed<int32_t>(e.type, args, rows, ctx, [&](size_t i, int32_t& out) {
    const int64_t from = start ? start[args[2].index(i)] : 1;
    const int64_t nth = occurrence ? occurrence[args[3].index(i)] : 1;
    if (from < 1) throw InvalidInput("regexp_position: start must be at least 1, got " + std::to_string(from), "22023");
    if (nth < 1) {
      throw InvalidInput("regexp_position: occurrence must be at least 1, got " + std::to_string(nth), "22023");
    }
    const RE2& re = patterns[i];
    const std::string_view s = text[i];
    out = -1;
    if (static_cast<uint64_t>(from) - 1 > utf8::length(s.data(), s.size())) return true;
    const size_t offset = utf8::offset_of(s.data(), s.size(), static_cast<size_t>(from - 1));
    std::vector<re2::StringPiece> groups(1);
    int64_t seen = 0;
    for_each_match(re, s, offset, groups, [&](size_t begin, size_t) {
      if (++seen < nth) return true;
      out = char_position(s, begin);
      return false;
    });
    return true;
  });
}

}  // namespace

Operand regexp_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  switch (e.function) {
    case ScalarFunction::kRegexpLike: return regexp_like(args, rows, ctx);
    case ScalarFunction::kRegexpExtract: return regexp_extract(args, rows, ctx);
    case ScalarFunction::kRegexpReplace: return regexp_replace(args, rows, ctx);
    case ScalarFunction::kRegexpCount: return regexp_count(e, args, rows, ctx);
    case ScalarFunction::kRegexpPosition: return regexp_position(e, args, rows, ctx);
    default: throw InternalError(std::string("regexp function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
