// Presto's string functions of issue 15's last slice on the CPU: bit_length, jarowinkler_similarity,
// longest_common_prefix, word_stem (english_stemmer.cpp), normalize (utf8proc) and key_sampling_percent.

#include <utf8proc.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/xxhash64.hpp"
#include "exec/expr/english_stemmer.hpp"
#include "exec/expr/kernels.hpp"
#include "exec/expr/row_map.hpp"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

std::vector<uint32_t> code_points(std::string_view s) {
  std::vector<uint32_t> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) out.push_back(utf8::decode(s.data(), s.size(), i));
  return out;
}

/// The Jaro-Winkler similarity of two code point sequences: the Jaro similarity (matches within half the longer
/// length, less one; half the out-of-order matches are transpositions), raised by a tenth of the remaining gap per
/// common leading character, at most four, when it is at least 0.7 (the transpositions are
/// counted in whole pairs, as DuckDB and the usual implementations do). 1.0 for two empty strings.
double jaro_winkler(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a == b) return 1.0;
  if (a.empty() || b.empty()) return 0.0;
  const size_t window = std::max<size_t>(std::max(a.size(), b.size()) / 2, 1) - 1;
  std::vector<uint8_t> a_matched(a.size(), 0), b_matched(b.size(), 0);
  size_t matches = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const size_t lo = i > window ? i - window : 0;
    const size_t hi = std::min(b.size(), i + window + 1);
    for (size_t j = lo; j < hi; ++j) {
      if (b_matched[j] || a[i] != b[j]) continue;
      a_matched[i] = b_matched[j] = 1;
      ++matches;
      break;
    }
  }
  if (matches == 0) return 0.0;
  size_t out_of_order = 0;
  for (size_t i = 0, j = 0; i < a.size(); ++i) {
    if (!a_matched[i]) continue;
    while (!b_matched[j]) ++j;
    if (a[i] != b[j]) ++out_of_order;
    ++j;
  }
  const double m = static_cast<double>(matches);
  const double transpositions = static_cast<double>(out_of_order / 2);
  const double jaro =
      (m / static_cast<double>(a.size()) + m / static_cast<double>(b.size()) + (m - transpositions) / m) / 3.0;
  if (jaro < 0.7) return jaro;
  size_t prefix = 0;
  while (prefix < 4 && prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  return jaro + 0.1 * static_cast<double>(prefix) * (1.0 - jaro);
}

/// The bytes of the longest common prefix of whole code points.
size_t common_prefix_bytes(std::string_view a, std::string_view b) {
  size_t i = 0;
  while (i < a.size() && i < b.size()) {
    const size_t n = utf8::char_bytes(static_cast<uint8_t>(a[i]));
    if (i + n > a.size() || i + n > b.size() || a.compare(i, n, b, i, n) != 0) break;
    i += n;
  }
  return i;
}

/// The utf8proc options of a normalization form's name (NFC, NFD, NFKC, NFKD; any case).
utf8proc_option_t normalization_form(std::string_view form) {
  std::string upper(form);
  for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  const int stable = UTF8PROC_STABLE;
  if (upper == "NFC") return static_cast<utf8proc_option_t>(stable | UTF8PROC_COMPOSE);
  if (upper == "NFD") return static_cast<utf8proc_option_t>(stable | UTF8PROC_DECOMPOSE);
  if (upper == "NFKC") return static_cast<utf8proc_option_t>(stable | UTF8PROC_COMPOSE | UTF8PROC_COMPAT);
  if (upper == "NFKD") return static_cast<utf8proc_option_t>(stable | UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT);
  throw InvalidInput("normalize: the form must be NFC, NFD, NFKC or NFKD, not '" + std::string(form) + "'", "22023");
}

void append_normalized(std::string& out, std::string_view s, utf8proc_option_t options) {
  if (s.empty()) return;
  utf8proc_uint8_t* mapped = nullptr;
  const utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                                          static_cast<utf8proc_ssize_t>(s.size()), &mapped, options);
  const std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(mapped, &std::free);
  if (n < 0) {
    throw InvalidInput(std::string("normalize: ") + utf8proc_errmsg(n) + " in '" + std::string(s) + "'", "22021");
  }
  out.append(reinterpret_cast<const char*>(mapped), static_cast<size_t>(n));
}

/// key_sampling_percent: the XXH64 of the bytes, read as the bits of a DOUBLE, its absolute value modulo 100,
/// over 100 (Presto's definition); 0 where that is NaN (an exponent of all ones).
double key_sampling_percent(std::string_view s) {
  const double bits = std::bit_cast<double>(xxhash64(s.data(), s.size()));
  const double percent = std::fmod(std::fabs(bits), 100.0) / 100.0;
  return std::isnan(percent) ? 0.0 : percent;
}

}  // namespace

Operand string_extra_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (any_null_constant(args)) return null_result(e.type, args, rows, ctx);
  const StringReader a(args[0]);
  switch (e.function) {
    case F::kBitLength:
      return map_rows_to_fixed<int64_t>(e.type, args, rows, ctx, [&](size_t i, int64_t& out) {
        out = static_cast<int64_t>(a[i].size()) * 8;
        return true;
      });
    case F::kJaroWinklerSimilarity: {
      const StringReader b(args[1]);
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        out = jaro_winkler(code_points(a[i]), code_points(b[i]));
        return true;
      });
    }
    case F::kLongestCommonPrefix: {
      const StringReader b(args[1]);
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        out.append(a[i].substr(0, common_prefix_bytes(a[i], b[i])));
        return true;
      });
    }
    case F::kWordStem: {
      std::optional<StringReader> language;
      if (args.size() > 1) language.emplace(args[1]);
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        if (language && (*language)[i] != "en") {
          throw InvalidInput("word_stem: unknown stemmer language '" + std::string((*language)[i]) +
                                 "' (Kestrel stems English, 'en', only)",
                             "22023");
        }
        out.append(english_stem(a[i]));
        return true;
      });
    }
    case F::kNormalize: {
      std::optional<StringReader> form;
      if (args.size() > 1) form.emplace(args[1]);
      const utf8proc_option_t nfc = normalization_form("NFC");
      return map_rows_to_string(args, rows, ctx, [&](size_t i, std::string& out) {
        append_normalized(out, a[i], form ? normalization_form((*form)[i]) : nfc);
        return true;
      });
    }
    case F::kKeySamplingPercent:
      return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
        out = key_sampling_percent(a[i]);
        return true;
      });
    default: throw InternalError(std::string("string function ") + plan::scalar_function_name(e.function));
  }
}

}  // namespace kestrel::exec
