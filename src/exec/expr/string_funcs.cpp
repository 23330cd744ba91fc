#include <algorithm>
#include <string>
#include <vector>

#include "common/check.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;

/// Runs `fn(row, readers, out)` for every non-NULL row, appending the result string to `out`; the result has
/// `type` (VARCHAR, or VARBINARY for the byte forms).
template <typename Fn>
Operand map_to_string(const std::vector<Operand>& args, size_t rows, EvalContext& ctx, Fn&& fn,
                      const LogicalType& type = TypeId::kVarchar) {
  Validity validity = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  std::vector<StringReader> readers;
  for (const Operand& a : args) readers.emplace_back(a);
  StringColumnBuilder builder(rows, 0);
  std::string& out = builder.chars();
  for (size_t i = 0; i < rows; ++i) {
    if (valid == nullptr || bits::get(valid, i)) fn(i, readers, out);
    builder.finish_row();
  }
  return Operand{builder.finish(std::move(validity), ctx.memory(), type), shape_of(args, rows).constant};
}

/// Runs `fn(row, readers) -> T` for every non-NULL row into a fixed-width column of `type`.
template <typename T, typename Fn>
Operand map_to_fixed(const LogicalType& type, const std::vector<Operand>& args, size_t rows, EvalContext& ctx,
                     Fn&& fn) {
  Validity validity = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  std::vector<StringReader> readers;
  for (const Operand& a : args) readers.emplace_back(a);
  ColumnPtr out = make_output(type, rows, std::move(validity), ctx.memory());
  T* dst = out->mutable_data<T>();
  for (size_t i = 0; i < rows; ++i) dst[i] = (valid == nullptr || bits::get(valid, i)) ? fn(i, readers) : T{};
  return Operand{out, shape_of(args, rows).constant};
}

/// Case mapping of ASCII, Latin, Greek and Cyrillic letters (utf8::map_case; other characters are kept as they
/// are, and no byte moves, as on the GPU).
void append_case_mapped(std::string& out, std::string_view s, bool upper) {
  const size_t start = out.size();
  out.resize(start + s.size());
  utf8::map_case_bytes(s.data(), out.data() + start, 0, s.size(), s.size(), upper);
}

/// The code points of a trim set.
std::vector<uint32_t> code_points(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) out.push_back(utf8::decode(s.data(), s.size(), i));
  return out;
}

std::string_view trim_chars(std::string_view s, std::string_view set, bool left, bool right) {
  const std::vector<uint32_t> cps = code_points(set);
  auto in_set = [&](uint32_t cp) { return std::find(cps.begin(), cps.end(), cp) != cps.end(); };
  size_t begin = 0, end = s.size();
  if (left) {
    while (begin < end) {
      size_t next = begin;
      if (!in_set(utf8::decode(s.data(), end, next))) break;
      begin = next;
    }
  }
  if (right) {
    while (end > begin) {
      size_t lead = end - 1;
      while (lead > begin && !utf8::is_lead(static_cast<uint8_t>(s[lead]))) --lead;
      size_t next = lead;
      if (!in_set(utf8::decode(s.data(), end, next))) break;
      end = lead;
    }
  }
  return s.substr(begin, end - begin);
}

/// substring(s, start[, length]) in code points, PostgreSQL rules: positions before 1 count toward the length.
std::string_view substring(std::string_view s, int64_t start, bool has_length, int64_t length) {
  if (has_length && length < 0) throw InvalidInput("negative substring length not allowed", "22011");
  // start + length cannot overflow when start <= 0 (length >= 0); only a positive start needs the clamp.
  const int64_t end =
      has_length ? (start > 0 && length > INT64_MAX - start ? INT64_MAX : start + length) : INT64_MAX;
  const int64_t from = std::max<int64_t>(start, 1);
  if (end <= from) return {};
  const size_t b = utf8::offset_of(s.data(), s.size(), static_cast<size_t>(from - 1));
  if (end == INT64_MAX) return s.substr(b);
  const size_t e = b + utf8::offset_of(s.data() + b, s.size() - b, static_cast<size_t>(end - from));
  return s.substr(b, e - b);
}

/// substr(binary, start[, length]) in bytes, Presto's rules: start 1 is the first byte, a negative start counts
/// from the end; start 0, a length below 1 or a start outside the value give an empty value.
std::string_view binary_substring(std::string_view s, int64_t start, bool has_length, int64_t length) {
  const auto size = static_cast<int64_t>(s.size());
  if (start == 0 || (has_length && length <= 0)) return {};
  int64_t from = start > 0 ? start - 1 : size + start;
  if (from < 0 || from >= size) return {};
  const int64_t count = has_length ? std::min(length, size - from) : size - from;
  return s.substr(static_cast<size_t>(from), static_cast<size_t>(count));
}

int64_t position(std::string_view needle, std::string_view haystack) {
  const size_t at = haystack.find(needle);
  if (at == std::string_view::npos) return 0;
  return static_cast<int64_t>(utf8::length(haystack.data(), at)) + 1;
}

void append_replaced(std::string& out, std::string_view s, std::string_view from, std::string_view to) {
  if (from.empty()) {
    out.append(s.data(), s.size());
    return;
  }
  size_t pos = 0;
  while (true) {
    const size_t at = s.find(from, pos);
    if (at == std::string_view::npos) break;
    out.append(s.data() + pos, at - pos);
    out.append(to.data(), to.size());
    pos = at + from.size();
  }
  out.append(s.data() + pos, s.size() - pos);
}

}  // namespace

Operand string_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  using R = std::vector<StringReader>;
  switch (e.function) {
    case ScalarFunction::kConcat:
      return map_to_string(
          args, rows, ctx,
          [](size_t i, const R& r, std::string& out) {
            for (const StringReader& reader : r) out.append(reader[i]);
          },
          e.type);
    case ScalarFunction::kLength:
      if (e.children[0]->type.id() == TypeId::kVarbinary) {
        return map_to_fixed<int64_t>(e.type, args, rows, ctx,
                                     [](size_t i, const R& r) { return static_cast<int64_t>(r[0][i].size()); });
      }
      return map_to_fixed<int64_t>(e.type, args, rows, ctx, [](size_t i, const R& r) {
        const std::string_view s = r[0][i];
        return static_cast<int64_t>(utf8::length(s.data(), s.size()));
      });
    case ScalarFunction::kUpper:
    case ScalarFunction::kLower: {
      const bool upper = e.function == ScalarFunction::kUpper;
      return map_to_string(args, rows, ctx,
                           [upper](size_t i, const R& r, std::string& out) { append_case_mapped(out, r[0][i], upper); });
    }
    case ScalarFunction::kTrim:
    case ScalarFunction::kLTrim:
    case ScalarFunction::kRTrim: {
      const bool left = e.function != ScalarFunction::kRTrim;
      const bool right = e.function != ScalarFunction::kLTrim;
      return map_to_string(args, rows, ctx, [&](size_t i, const R& r, std::string& out) {
        out.append(trim_chars(r[0][i], r.size() > 1 ? r[1][i] : std::string_view(" "), left, right));
      });
    }
    case ScalarFunction::kSubstring: {
      const int64_t* start = args[1].data<int64_t>();
      const int64_t* length = args.size() > 2 ? args[2].data<int64_t>() : nullptr;
      if (e.type.id() == TypeId::kVarbinary) {
        return map_to_string(
            args, rows, ctx,
            [&](size_t i, const R& r, std::string& out) {
              const int64_t len = length ? length[args[2].index(i)] : 0;
              out.append(binary_substring(r[0][i], start[args[1].index(i)], length != nullptr, len));
            },
            e.type);
      }
      return map_to_string(args, rows, ctx, [&](size_t i, const R& r, std::string& out) {
        const int64_t len = length ? length[args[2].index(i)] : 0;
        out.append(substring(r[0][i], start[args[1].index(i)], length != nullptr, len));
      });
    }
    case ScalarFunction::kPosition:
      return map_to_fixed<int64_t>(e.type, args, rows, ctx,
                                   [](size_t i, const R& r) { return position(r[0][i], r[1][i]); });
    case ScalarFunction::kStartsWith:
      return map_to_fixed<uint8_t>(e.type, args, rows, ctx, [](size_t i, const R& r) {
        const std::string_view s = r[0][i], p = r[1][i];
        return static_cast<uint8_t>(s.substr(0, p.size()) == p);
      });
    case ScalarFunction::kReplace:
      return map_to_string(args, rows, ctx, [](size_t i, const R& r, std::string& out) {
        append_replaced(out, r[0][i], r[1][i], r[2][i]);
      });
    default: throw InternalError(std::string("string function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
