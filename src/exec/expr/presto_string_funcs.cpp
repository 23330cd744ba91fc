#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "common/check.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec {

namespace {

using plan::ScalarFunction;
using Readers = std::vector<StringReader>;

/// Runs `fn(row, readers, out) -> bool` for every row whose arguments are all non-NULL, appending the result
/// string to `out`; the row is NULL where `fn` returns false (split_part past the last field).
template <typename Fn>
Operand map_to_nullable_string(const std::vector<Operand>& args, size_t rows, EvalContext& ctx, Fn&& fn) {
  Validity in = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = in.bitmap ? in.bitmap->as<uint8_t>() : nullptr;
  Readers readers;
  for (const Operand& a : args) readers.emplace_back(a);
  StringColumnBuilder builder(rows, 0);
  std::vector<uint8_t> out_valid(rows, 0);
  for (size_t i = 0; i < rows; ++i) {
    if (valid == nullptr || bits::get(valid, i)) {
      const size_t mark = builder.chars().size();
      out_valid[i] = fn(i, readers, builder.chars()) ? 1 : 0;
      if (!out_valid[i]) builder.chars().resize(mark);
    }
    builder.finish_row();
  }
  Validity validity = validity_from_bytes(out_valid.data(), rows, ctx.memory());
  return Operand{builder.finish(std::move(validity), ctx.memory()), shape_of(args, rows).constant};
}

/// The byte offset where each code point of `s` starts, and s.size() last.
std::vector<size_t> char_starts(std::string_view s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size();) {
    starts.push_back(i);
    utf8::decode(s.data(), s.size(), i);
  }
  starts.push_back(s.size());
  return starts;
}


/// lpad / rpad(s, size, padding) in code points, Presto's rules: a string longer than `size` is cut to its first
/// `size` characters; the padding repeats and is cut where the size is reached.
void append_padded(std::string& out, std::string_view s, int64_t size, std::string_view padding, bool left) {
  const char* name = left ? "lpad" : "rpad";
  if (size < 0 || size > std::numeric_limits<int32_t>::max()) {
    throw InvalidInput(std::string(name) + ": target length must be in the range [0..2147483647], got " +
                           std::to_string(size),
                       "22023");
  }
  if (padding.empty()) throw InvalidInput(std::string(name) + ": padding string must not be empty", "22023");
  const size_t length = utf8::length(s.data(), s.size());
  const size_t target = static_cast<size_t>(size);
  if (target <= length) {
    out.append(s.substr(0, utf8::offset_of(s.data(), s.size(), target)));
    return;
  }
  const std::vector<size_t> pad = char_starts(padding);
  const size_t pad_chars = pad.size() - 1;
  auto append_fill = [&](size_t chars) {
    for (; chars >= pad_chars; chars -= pad_chars) out.append(padding);
    out.append(padding.substr(0, pad[chars]));
  };
  if (!left) out.append(s);
  append_fill(target - length);
  if (left) out.append(s);
}

void append_reversed(std::string& out, std::string_view s) {
  const std::vector<size_t> starts = char_starts(s);
  for (size_t k = starts.size() - 1; k > 0; --k) out.append(s.substr(starts[k - 1], starts[k] - starts[k - 1]));
}

/// split_part(s, delimiter, index): the index-th field (1-based); false past the last one. An empty delimiter
/// makes the whole string the only field (Presto).
bool append_split_part(std::string& out, std::string_view s, std::string_view delimiter, int64_t index) {
  if (index <= 0) {
    throw InvalidInput("split_part: index must be greater than zero, got " + std::to_string(index), "22023");
  }
  if (delimiter.empty()) {
    if (index != 1) return false;
    out.append(s);
    return true;
  }
  size_t begin = 0;
  for (int64_t field = 1; field < index; ++field) {
    const size_t at = s.find(delimiter, begin);
    if (at == std::string_view::npos) return false;
    begin = at + delimiter.size();
  }
  const size_t end = s.find(delimiter, begin);
  out.append(s.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
  return true;
}

void append_chr(std::string& out, int64_t cp) {
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    throw InvalidInput("chr: not a valid Unicode code point: " + std::to_string(cp), "22023");
  }
  utf8::append(out, static_cast<uint32_t>(cp));
}

int32_t codepoint_of(std::string_view s) {
  size_t i = 0;
  const uint32_t cp = s.empty() ? 0 : utf8::decode(s.data(), s.size(), i);
  if (s.empty() || i != s.size()) {
    throw InvalidInput("codepoint: the argument must be a single character, got '" + std::string(s) + "'", "22023");
  }
  return static_cast<int32_t>(cp);
}

/// The code points of `s`.
std::vector<uint32_t> code_points(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) out.push_back(utf8::decode(s.data(), s.size(), i));
  return out;
}

/// Edits (insert, delete, substitute one code point) from a to b, in O(|a| * |b|) time and O(|b|) memory.
int64_t levenshtein_distance(std::string_view a_text, std::string_view b_text) {
  const std::vector<uint32_t> a = code_points(a_text);
  const std::vector<uint32_t> b = code_points(b_text);
  if (static_cast<uint64_t>(a.size()) * b.size() > 1'000'000) {
    throw InvalidInput("levenshtein_distance: the strings are too long (" + std::to_string(a.size()) + " x " +
                           std::to_string(b.size()) + " characters; the limit of the product is 1000000)",
                       "22023");
  }
  std::vector<int64_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int64_t>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int64_t diagonal = row[0];
    row[0] = static_cast<int64_t>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int64_t above = row[j];
      row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

int64_t hamming_distance(std::string_view a_text, std::string_view b_text) {
  const std::vector<uint32_t> a = code_points(a_text);
  const std::vector<uint32_t> b = code_points(b_text);
  if (a.size() != b.size()) {
    throw InvalidInput("hamming_distance: the strings must have the same length, got " + std::to_string(a.size()) +
                           " and " + std::to_string(b.size()) + " characters",
                       "22023");
  }
  int64_t distance = 0;
  for (size_t i = 0; i < a.size(); ++i) distance += a[i] != b[i] ? 1 : 0;
  return distance;
}

/// Runs `fn(a, b) -> T` on the two strings of every row whose arguments are valid.
template <typename T, typename Fn>
Operand map_string_pair(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx,
                        Fn&& fn) {
  Validity validity = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  const StringReader a(args[0]);
  const StringReader b(args[1]);
  ColumnPtr out = make_output(e.type, rows, std::move(validity), ctx.memory());
  T* dst = out->mutable_data<T>();
  for (size_t i = 0; i < rows; ++i) dst[i] = (valid == nullptr || bits::get(valid, i)) ? fn(a[i], b[i]) : T{};
  return Operand{out, shape_of(args, rows).constant};
}

}  // namespace

Operand presto_string_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (std::any_of(args.begin(), args.end(), [](const Operand& a) { return a.is_null_constant(); })) {
    return Operand{materialize(null_operand(e.type, ctx.memory()), rows, ctx.memory()), shape_of(args, rows).constant};
  }
  if (e.type.id() == TypeId::kVarbinary) return binary_kernel(e, args, rows, ctx);  // reverse, lpad, rpad
  switch (e.function) {
    case ScalarFunction::kLpad:
    case ScalarFunction::kRpad: {
      const bool left = e.function == ScalarFunction::kLpad;
      const int64_t* size = args[1].data<int64_t>();
      return map_to_nullable_string(args, rows, ctx, [&](size_t i, const Readers& r, std::string& out) {
        append_padded(out, r[0][i], size[args[1].index(i)], r[2][i], left);
        return true;
      });
    }
    case ScalarFunction::kReverse:
      return map_to_nullable_string(args, rows, ctx, [](size_t i, const Readers& r, std::string& out) {
        append_reversed(out, r[0][i]);
        return true;
      });
    case ScalarFunction::kSplitPart: {
      const int64_t* index = args[2].data<int64_t>();
      return map_to_nullable_string(args, rows, ctx, [&](size_t i, const Readers& r, std::string& out) {
        return append_split_part(out, r[0][i], r[1][i], index[args[2].index(i)]);
      });
    }
    case ScalarFunction::kChr: {
      const int64_t* cp = args[0].data<int64_t>();
      return map_to_nullable_string(args, rows, ctx, [&](size_t i, const Readers&, std::string& out) {
        append_chr(out, cp[args[0].index(i)]);
        return true;
      });
    }
    case ScalarFunction::kCodepoint: {
      Validity validity = and_validity_all(args, rows, ctx.memory());
      const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
      const StringReader s(args[0]);
      ColumnPtr out = make_output(e.type, rows, std::move(validity), ctx.memory());
      int32_t* dst = out->mutable_data<int32_t>();
      for (size_t i = 0; i < rows; ++i) dst[i] = (valid == nullptr || bits::get(valid, i)) ? codepoint_of(s[i]) : 0;
      return Operand{out, shape_of(args, rows).constant};
    }
    case ScalarFunction::kEndsWith:
      return map_string_pair<uint8_t>(e, args, rows, ctx, [](std::string_view a, std::string_view b) {
        return static_cast<uint8_t>(a.size() >= b.size() && a.substr(a.size() - b.size()) == b);
      });
    case ScalarFunction::kLevenshteinDistance:
      return map_string_pair<int64_t>(e, args, rows, ctx, levenshtein_distance);
    case ScalarFunction::kHammingDistance: return map_string_pair<int64_t>(e, args, rows, ctx, hamming_distance);
    default: throw InternalError(std::string("string function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
