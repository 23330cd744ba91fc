#include "server/pg_parameters.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

#include "common/error.hpp"
#include "common/temporal.hpp"
#include "server/pg_types.hpp"
#include "server/pg_wire.hpp"

namespace kestrel::server::pg {

namespace {

/// Calls `on_parameter(begin, end, n)` for each `$n` outside quotes and comments.
void scan_parameters(std::string_view sql, const std::function<void(size_t, size_t, int)>& on_parameter) {
  size_t i = 0;
  while (i < sql.size()) {
    char c = sql[i];
    if (c == '\'' || c == '"') {
      size_t close = sql.find(c, i + 1);
      i = close == std::string_view::npos ? sql.size() : close + 1;  // '' and "" re-enter the same state
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      while (i < sql.size() && sql[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      size_t close = sql.find("*/", i + 2);
      i = close == std::string_view::npos ? sql.size() : close + 2;
    } else if (c == '$' && i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1]))) {
      size_t j = i + 1;
      int n = 0;
      while (j < sql.size() && std::isdigit(static_cast<unsigned char>(sql[j]))) {
        n = std::min(n * 10 + (sql[j] - '0'), 100000);
        ++j;
      }
      on_parameter(i, j, n);
      i = j;
    } else {
      ++i;
    }
  }
}

std::string quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\0') throw InvalidInput("invalid byte sequence for encoding \"UTF8\": 0x00", "22021");
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

bool is_integer_text(std::string_view t) {
  size_t i = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
  if (i == t.size()) return false;
  for (; i < t.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
  }
  return true;
}

bool is_decimal_text(std::string_view t) {
  size_t i = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
  bool digits = false, dot = false;
  for (; i < t.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(t[i]))) {
      digits = true;
    } else if (t[i] == '.' && !dot) {
      dot = true;
    } else {
      return false;
    }
  }
  return digits;
}

/// A numeric literal; negative ones in parentheses so that `-$1` cannot become a comment.
std::string numeric_literal(std::string_view text, const char* type_name) {
  bool ok = std::string_view(type_name) == "numeric" ? is_decimal_text(text) : is_integer_text(text);
  if (!ok) {
    throw InvalidInput("invalid input syntax for type " + std::string(type_name) + ": \"" + std::string(text) + "\"",
                       "22P02");
  }
  if (text[0] == '+') text.remove_prefix(1);
  return text[0] == '-' ? "(" + std::string(text) + ")" : std::string(text);
}

/// The text form of a binary numeric value (ndigits, weight, sign, dscale, base-10000 digits).
std::string numeric_from_binary(std::string_view bytes) {
  PayloadReader in(bytes);
  int ndigits = in.int16(), weight = in.int16();
  uint16_t sign = static_cast<uint16_t>(in.int16());
  int dscale = in.int16();
  if (sign == 0xC000) throw InvalidInput("NaN is not a valid DECIMAL value", "22P02");
  if (ndigits < 0 || dscale < 0 || (sign != 0 && sign != 0x4000)) throw InvalidInput("invalid binary numeric", "22P03");
  std::vector<int> digits;
  for (int i = 0; i < ndigits; ++i) digits.push_back(in.int16());
  auto digit = [&](int i) { return (i >= 0 && i < ndigits) ? digits[i] : 0; };
  std::string out = sign == 0x4000 ? "-" : "";
  char buf[8];
  for (int i = 0; i <= std::max(weight, 0); ++i) {
    std::snprintf(buf, sizeof(buf), i == 0 ? "%d" : "%04d", weight < 0 ? 0 : digit(i));
    out += buf;
  }
  if (dscale > 0) {
    std::string frac;
    for (int i = weight + 1; static_cast<int>(frac.size()) < dscale; ++i) {
      std::snprintf(buf, sizeof(buf), "%04d", digit(i));
      frac += buf;
    }
    out += "." + frac.substr(0, dscale);
  }
  return out;
}

/// The text form of a value sent in binary format.
std::string text_from_binary(TypeOid oid, std::string_view b) {
  auto need = [&](size_t n) {
    if (b.size() != n) throw InvalidInput("insufficient data left in binary parameter", "22P03");
  };
  switch (oid) {
    case TypeOid::kBool: need(1); return b[0] ? "t" : "f";
    case TypeOid::kInt2: need(2); return std::to_string(read_big_endian(b));
    case TypeOid::kInt4: need(4); return std::to_string(read_big_endian(b));
    case TypeOid::kInt8:
    case TypeOid::kOid: need(oid == TypeOid::kOid ? 4 : 8); return std::to_string(read_big_endian(b));
    case TypeOid::kFloat4:
    case TypeOid::kFloat8: {
      double v;
      if (oid == TypeOid::kFloat4) {
        need(4);
        uint32_t bits = static_cast<uint32_t>(read_big_endian(b));
        float f;
        std::memcpy(&f, &bits, 4);
        v = f;
      } else {
        need(8);
        uint64_t bits = static_cast<uint64_t>(read_big_endian(b));
        std::memcpy(&v, &bits, 8);
      }
      if (std::isnan(v)) return "NaN";
      if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", v);
      return buf;
    }
    case TypeOid::kNumeric: return numeric_from_binary(b);
    case TypeOid::kDate: need(4); return format_date(static_cast<int32_t>(read_big_endian(b) + 10957));
    case TypeOid::kTimestamp: need(8); return format_timestamp(read_big_endian(b) + 946'684'800'000'000LL);
    case TypeOid::kText:
    case TypeOid::kVarchar:
    case TypeOid::kBpchar:
    case TypeOid::kName:
    case TypeOid::kChar:
    case TypeOid::kUnknown:
    case TypeOid::kUnspecified: return std::string(b);
    default: break;
  }
  throw NotImplemented("binary format of parameters of type OID " + std::to_string(static_cast<int32_t>(oid)) +
                       " (send it in text format)");
}

/// The SQL literal for one parameter.
std::string literal(const ParameterValue& p) {
  auto oid = static_cast<TypeOid>(p.type_oid);
  if (!p.bytes) return "NULL";
  std::string text = p.format == 1 ? text_from_binary(oid, *p.bytes) : *p.bytes;
  switch (oid) {
    case TypeOid::kBool: {
      std::string t;
      for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (t == "t" || t == "true" || t == "1" || t == "yes" || t == "on") return "TRUE";
      if (t == "f" || t == "false" || t == "0" || t == "no" || t == "off") return "FALSE";
      throw InvalidInput("invalid input syntax for type boolean: \"" + text + "\"", "22P02");
    }
    case TypeOid::kInt2:
    case TypeOid::kInt4:
    case TypeOid::kInt8:
    case TypeOid::kOid: return numeric_literal(text, "integer");
    case TypeOid::kNumeric: return numeric_literal(text, "numeric");
    case TypeOid::kFloat4: return "CAST(" + quoted(text) + " AS REAL)";
    case TypeOid::kFloat8: return "CAST(" + quoted(text) + " AS DOUBLE)";
    case TypeOid::kDate: return "DATE " + quoted(text);
    case TypeOid::kTimestamp: return "TIMESTAMP " + quoted(text);
    case TypeOid::kInterval: return "INTERVAL " + quoted(text);
    default: return quoted(text);
  }
}

}  // namespace

int highest_parameter(std::string_view sql) {
  int highest = 0;
  scan_parameters(sql, [&](size_t, size_t, int n) { highest = std::max(highest, n); });
  return highest;
}

BoundStatement bind_parameters(std::string_view sql, const std::vector<ParameterValue>& values) {
  BoundStatement bound;
  size_t copied = 0;
  scan_parameters(sql, [&](size_t begin, size_t end, int n) {
    if (n < 1 || static_cast<size_t>(n) > values.size()) {
      throw InvalidInput("there is no parameter $" + std::to_string(n), "42P02");
    }
    bound.sql_.append(sql.substr(copied, begin - copied));
    // Keep the literal apart from a preceding name character (`e'...'` would read as an escape string).
    if (begin > 0 && (std::isalnum(static_cast<unsigned char>(sql[begin - 1])) || sql[begin - 1] == '_')) {
      bound.sql_ += ' ';
    }
    size_t at = bound.sql_.size();
    bound.sql_ += literal(values[n - 1]);
    bound.replacements_.push_back({at, bound.sql_.size(), begin, end});
    copied = end;
  });
  bound.sql_.append(sql.substr(copied));
  return bound;
}

size_t BoundStatement::original_offset(size_t offset) const {
  size_t bound_anchor = 0, original_anchor = 0;  // a pair of equal positions before `offset`
  for (const auto& r : replacements_) {
    if (offset < r.bound_begin) break;
    if (offset < r.bound_end) return r.original_begin;  // inside a literal: point at its `$n`
    bound_anchor = r.bound_end;
    original_anchor = r.original_end;
  }
  return original_anchor + (offset - bound_anchor);
}

}  // namespace kestrel::server::pg
