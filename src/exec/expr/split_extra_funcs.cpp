// Presto's functions that split text into nested values, on the CPU: split_to_map and split_to_multimap (literal
// delimiters), regexp_extract_all and regexp_split (RE2 patterns). Results are built as values, one row at a time.

#include <string>
#include <unordered_map>
#include <vector>

#include "exec/expr/kernels.hpp"
#include "exec/expr/nested_util.hpp"
#include "exec/expr/regexp_match.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

const LogicalType kVarchar(TypeId::kVarchar);

/// The result of `e` from one value per row (`row_value(row)`, called where every argument is valid).
template <typename Fn>
Operand values_result(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx,
                      Fn&& row_value) {
  const Shape shape = shape_of(args, rows);
  std::vector<Value> values;
  values.reserve(shape.rows);
  for (size_t r = 0; r < shape.rows; ++r) {
    bool valid = true;
    for (const Operand& a : args) valid = valid && a.valid(r);
    values.push_back(valid ? row_value(r) : Value::null(e.type));
  }
  return as_operand(Column::from_values(e.type, values, ctx.memory()), shape);
}

/// The key/value entries of split_to_map(s, entry_delimiter, key_value_delimiter), in order. An entry without the
/// key/value delimiter, or with it twice, is an error; a trailing entry delimiter ends the text (as in Presto).
std::vector<std::pair<std::string_view, std::string_view>> split_entries(const plan::Expr& e, std::string_view s,
                                                                         std::string_view entry_delimiter,
                                                                         std::string_view kv_delimiter) {
  const char* name = plan::scalar_function_name(e.function);
  if (entry_delimiter.empty()) raise_nested(e, std::string(name) + ": the entry delimiter is empty", "22023");
  if (kv_delimiter.empty()) raise_nested(e, std::string(name) + ": the key-value delimiter is empty", "22023");
  if (entry_delimiter == kv_delimiter) {
    raise_nested(e, std::string(name) + ": the entry and key-value delimiters must differ", "22023");
  }
  std::vector<std::pair<std::string_view, std::string_view>> entries;
  for (size_t start = 0; start < s.size();) {
    size_t end = s.find(entry_delimiter, start);
    if (end == std::string_view::npos) end = s.size();
    const std::string_view entry = s.substr(start, end - start);
    const size_t at = entry.find(kv_delimiter);
    if (at == std::string_view::npos || entry.find(kv_delimiter, at + kv_delimiter.size()) != std::string_view::npos) {
      raise_nested(e, std::string(name) + ": the key-value delimiter must appear exactly once in each entry, not in '" +
                          std::string(entry) + "'",
                   "22023");
    }
    entries.emplace_back(entry.substr(0, at), entry.substr(at + kv_delimiter.size()));
    start = end + entry_delimiter.size();
  }
  return entries;
}

Value split_to_map(const plan::Expr& e, std::string_view s, std::string_view entry_delimiter,
                   std::string_view kv_delimiter) {
  std::vector<Value> keys, values;
  std::unordered_map<std::string_view, size_t> seen;
  for (const auto& [key, value] : split_entries(e, s, entry_delimiter, kv_delimiter)) {
    if (!seen.emplace(key, keys.size()).second) {
      raise_nested(e, "split_to_map: duplicate key '" + std::string(key) + "'", "22023");
    }
    keys.push_back(Value::varchar(std::string(key)));
    values.push_back(Value::varchar(std::string(value)));
  }
  return Value::map(e.type, keys, values);
}

Value split_to_multimap(const plan::Expr& e, std::string_view s, std::string_view entry_delimiter,
                        std::string_view kv_delimiter) {
  std::vector<Value> keys;
  std::vector<std::vector<Value>> lists;
  std::unordered_map<std::string_view, size_t> index;
  for (const auto& [key, value] : split_entries(e, s, entry_delimiter, kv_delimiter)) {
    const auto [it, added] = index.emplace(key, keys.size());
    if (added) {
      keys.push_back(Value::varchar(std::string(key)));
      lists.emplace_back();
    }
    lists[it->second].push_back(Value::varchar(std::string(value)));
  }
  const LogicalType list_type = e.type.value_type();
  std::vector<Value> values;
  for (auto& list : lists) values.push_back(Value::array(list_type, std::move(list)));
  return Value::map(e.type, keys, values);
}

/// regexp_extract_all(s, pattern[, group]): the group (default 0, the whole match) of every match; NULL elements
/// where the group took no part in a match.
Value regexp_extract_all(const plan::Expr& e, const re2::RE2& re, std::string_view s, int64_t group) {
  if (group < 0) {
    raise_nested(e, "regexp_extract_all: group must not be negative, got " + std::to_string(group), "22023");
  }
  if (group > re.NumberOfCapturingGroups()) {
    raise_nested(e, "regexp_extract_all: pattern '" + re.pattern() + "' has " +
                        std::to_string(re.NumberOfCapturingGroups()) + " groups, no group " + std::to_string(group),
                 "22023");
  }
  std::vector<re2::StringPiece> groups(static_cast<size_t>(group) + 1);
  std::vector<Value> found;
  for_each_match(re, s, 0, groups, [&](size_t, size_t) {
    const re2::StringPiece& g = groups.back();
    found.push_back(g.data() == nullptr ? Value::null(kVarchar) : Value::varchar(std::string(g.data(), g.size())));
    return true;
  });
  return Value::array(e.type, std::move(found));
}

/// regexp_split(s, pattern): the pieces of s between the matches (an empty piece at either end when a match
/// touches it).
Value regexp_split(const plan::Expr& e, const re2::RE2& re, std::string_view s) {
  std::vector<re2::StringPiece> groups(1);
  std::vector<Value> pieces;
  size_t copied = 0;
  for_each_match(re, s, 0, groups, [&](size_t begin, size_t end) {
    pieces.push_back(Value::varchar(std::string(s.substr(copied, begin - copied))));
    copied = end;
    return true;
  });
  pieces.push_back(Value::varchar(std::string(s.substr(copied))));
  return Value::array(e.type, std::move(pieces));
}

}  // namespace

Operand split_extra_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  switch (e.function) {
    case F::kSplitToMap:
    case F::kSplitToMultimap:
      return values_result(e, args, rows, ctx, [&](size_t r) {
        const std::string_view s = args[0].string_at(r), entry = args[1].string_at(r), kv = args[2].string_at(r);
        return e.function == F::kSplitToMap ? split_to_map(e, s, entry, kv) : split_to_multimap(e, s, entry, kv);
      });
    case F::kRegexpExtractAll:
    case F::kRegexpSplit: {
      const bool all = e.function == F::kRegexpExtractAll;
      RowPatterns patterns(args[1], all ? "regexp_extract_all" : "regexp_split");
      return values_result(e, args, rows, ctx, [&](size_t r) {
        const re2::RE2& re = patterns[r];
        if (!all) return regexp_split(e, re, args[0].string_at(r));
        const int64_t group = args.size() > 2 ? args[2].data<int64_t>()[args[2].index(r)] : 0;
        return regexp_extract_all(e, re, args[0].string_at(r), group);
      });
    }
    default: throw InternalError(std::string("split function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
