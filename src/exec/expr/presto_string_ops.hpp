#pragma once
/// Per-row rules of Presto's string functions as the GPU evaluates them (string_build_gpu.cu,
/// string_measure_gpu.cu): KESTREL_HD functions written to give exactly the results of the CPU kernels
/// (presto_string_funcs.cpp, presto_more_funcs.cpp, string_extra_funcs.cpp), invalid UTF-8 included. Each steps
/// through characters as its CPU twin does: utf8::decode (a lead byte whose sequence does not fit is one character),
/// or by lead bytes (utf8::length, utf8::offset_of). test/unit/expr/presto_gpu_ops_test.cpp checks them against the
/// CPU kernels on the host.

#include <cstdint>

#include "exec/expr/utf8.hpp"

namespace kestrel::exec::presto_ops {

/// The bytes of one string.
struct Text {
  const char* data;
  int64_t size;
};

inline constexpr int64_t kNullRow = -1;    ///< the row's result is NULL (split_part past the last field)
inline constexpr int64_t kFailedRow = -2;  ///< the row raises an error

/// Appends bytes to a row's result, or only counts them when there is no output.
struct RowWriter {
  char* out;
  int64_t size = 0;

  KESTREL_HD void append(const char* bytes, int64_t n) {
    if (out != nullptr) {
      for (int64_t k = 0; k < n; ++k) out[size + k] = bytes[k];
    }
    size += n;
  }
  KESTREL_HD void append(const Text& s) { append(s.data, s.size); }
};

/// The byte index of the first occurrence of `needle` at or after `from`, or -1 (std::string_view::find).
KESTREL_HD inline int64_t find_bytes(const Text& hay, const Text& needle, int64_t from) {
  for (int64_t at = from; at + needle.size <= hay.size; ++at) {
    int64_t k = 0;
    while (k < needle.size && hay.data[at + k] == needle.data[k]) ++k;
    if (k == needle.size) return at;
  }
  return -1;
}

/// The byte index of the last occurrence of a non-empty `needle` starting at or before `pos`, or -1
/// (std::string_view::rfind; pos + needle.size <= hay.size).
KESTREL_HD inline int64_t rfind_bytes(const Text& hay, const Text& needle, int64_t pos) {
  for (int64_t at = pos; at >= 0; --at) {
    int64_t k = 0;
    while (k < needle.size && hay.data[at + k] == needle.data[k]) ++k;
    if (k == needle.size) return at;
  }
  return -1;
}

/// The byte offset after the character starting at s[i] (a utf8::decode step).
KESTREL_HD inline int64_t next_char(const Text& s, int64_t i) {
  auto next = static_cast<size_t>(i);
  utf8::decode(s.data, static_cast<size_t>(s.size), next);
  return static_cast<int64_t>(next);
}

/// The number of characters of s by utf8::decode steps.
KESTREL_HD inline int64_t decoded_length(const Text& s) {
  int64_t count = 0;
  for (int64_t at = 0; at < s.size; at = next_char(s, at)) ++count;
  return count;
}

/// The byte offset where character number `chars` (0-based, by utf8::decode steps) starts, or s.size.
KESTREL_HD inline int64_t char_start(const Text& s, int64_t chars) {
  int64_t at = 0;
  for (; chars > 0 && at < s.size; --chars) at = next_char(s, at);
  return at;
}

// ---- VARCHAR results: the byte length (the bytes written to `out` when it is not null), kNullRow or kFailedRow ----

/// reverse: the characters in reverse order (presto_string_funcs.cpp's append_reversed).
KESTREL_HD inline int64_t reverse_row(const Text& s, char* out) {
  if (out != nullptr) {
    // The character at [at, next) lands at s.size - next.
    for (int64_t at = 0; at < s.size;) {
      const int64_t next = next_char(s, at);
      for (int64_t k = at; k < next; ++k) out[s.size - next + (k - at)] = s.data[k];
      at = next;
    }
  }
  return s.size;
}

/// lpad / rpad (append_padded): fails for a size outside [0, 2^31) or an empty padding; a string of at least `size`
/// characters (lead bytes) is cut to its first `size`, else the padding repeats (cut where the size is reached).
KESTREL_HD inline int64_t pad_row(const Text& s, int64_t size, const Text& padding, bool left, char* out) {
  if (size < 0 || size > 2147483647 || padding.size == 0) return kFailedRow;
  const auto target = static_cast<size_t>(size);
  const size_t length = utf8::length(s.data, static_cast<size_t>(s.size));
  RowWriter w{out};
  if (target <= length) {
    w.append(s.data, static_cast<int64_t>(utf8::offset_of(s.data, static_cast<size_t>(s.size), target)));
    return w.size;
  }
  const int64_t pad_chars = decoded_length(padding);
  const auto fill = static_cast<int64_t>(target - length);
  const int64_t repeats = fill / pad_chars;
  const int64_t rest_bytes = char_start(padding, fill % pad_chars);
  if (out == nullptr) return s.size + repeats * padding.size + rest_bytes;
  if (!left) w.append(s);
  for (int64_t k = 0; k < repeats; ++k) w.append(padding);
  w.append(padding.data, rest_bytes);
  if (left) w.append(s);
  return w.size;
}

/// chr (append_chr): the UTF-8 encoding of a code point; fails for a negative value, one past U+10FFFF or a
/// surrogate.
KESTREL_HD inline int64_t chr_row(int64_t cp, char* out) {
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return kFailedRow;
  char bytes[4];
  int n = 0;
  const auto c = static_cast<uint32_t>(cp);
  if (c < 0x80) {
    bytes[n++] = static_cast<char>(c);
  } else if (c < 0x800) {
    bytes[n++] = static_cast<char>(0xC0 | (c >> 6));
    bytes[n++] = static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    bytes[n++] = static_cast<char>(0xE0 | (c >> 12));
    bytes[n++] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    bytes[n++] = static_cast<char>(0x80 | (c & 0x3F));
  } else {
    bytes[n++] = static_cast<char>(0xF0 | (c >> 18));
    bytes[n++] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    bytes[n++] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    bytes[n++] = static_cast<char>(0x80 | (c & 0x3F));
  }
  RowWriter w{out};
  w.append(bytes, n);
  return w.size;
}

/// split_part (append_split_part): field `index` (1-based); NULL past the last field; an empty delimiter makes the
/// whole string the only field; fails for index <= 0.
KESTREL_HD inline int64_t split_part_row(const Text& s, const Text& delimiter, int64_t index, char* out) {
  if (index <= 0) return kFailedRow;
  RowWriter w{out};
  if (delimiter.size == 0) {
    if (index != 1) return kNullRow;
    w.append(s);
    return w.size;
  }
  int64_t begin = 0;
  for (int64_t field = 1; field < index; ++field) {
    const int64_t at = find_bytes(s, delimiter, begin);
    if (at < 0) return kNullRow;
    begin = at + delimiter.size;
  }
  int64_t end = find_bytes(s, delimiter, begin);
  if (end < 0) end = s.size;
  w.append(s.data + begin, end - begin);
  return w.size;
}

/// replace_first: the first occurrence of `search` replaced (an empty search puts the replacement in front).
KESTREL_HD inline int64_t replace_first_row(const Text& s, const Text& search, const Text& replacement, char* out) {
  RowWriter w{out};
  const int64_t at = find_bytes(s, search, 0);
  if (at < 0) {
    w.append(s);
    return w.size;
  }
  w.append(s.data, at);
  w.append(replacement);
  w.append(s.data + at + search.size, s.size - at - search.size);
  return w.size;
}

/// trail: the last n characters (counted by lead bytes), all of s when shorter, empty for n <= 0.
KESTREL_HD inline int64_t trail_row(const Text& s, int64_t n, char* out) {
  if (n <= 0) return 0;
  int64_t i = s.size;
  while (n > 0 && i > 0) {
    --i;
    if (utf8::is_lead(static_cast<uint8_t>(s.data[i]))) --n;
  }
  RowWriter w{out};
  w.append(s.data + i, s.size - i);
  return w.size;
}

/// longest_common_prefix (common_prefix_bytes): whole characters (by their lead byte's length) equal in both.
KESTREL_HD inline int64_t common_prefix_row(const Text& a, const Text& b, char* out) {
  int64_t i = 0;
  while (i < a.size && i < b.size) {
    const auto n = static_cast<int64_t>(utf8::char_bytes(static_cast<uint8_t>(a.data[i])));
    if (i + n > a.size || i + n > b.size) break;
    bool same = true;
    for (int64_t k = 0; k < n && same; ++k) same = a.data[i + k] == b.data[i + k];
    if (!same) break;
    i += n;
  }
  RowWriter w{out};
  w.append(a.data, i);
  return w.size;
}

// ---- fixed-width results: the value in `r`; true when the row fails -----------------------------------------------

/// codepoint (codepoint_of): the code point of the only character; fails unless the string is one decode step.
KESTREL_HD inline bool codepoint_row(const Text& c, int32_t& r) {
  if (c.size == 0) return true;
  size_t at = 0;
  r = static_cast<int32_t>(utf8::decode(c.data, static_cast<size_t>(c.size), at));
  return at != static_cast<size_t>(c.size);
}

/// ends_with: the bytes of `suffix` end `s`.
KESTREL_HD inline bool ends_with_row(const Text& s, const Text& suffix) {
  if (suffix.size > s.size) return false;
  for (int64_t k = 0; k < suffix.size; ++k) {
    if (s.data[s.size - suffix.size + k] != suffix.data[k]) return false;
  }
  return true;
}

/// strrpos: the character position (lead bytes before it, plus one) of the n-th occurrence of `sub` from the end
/// (occurrences may overlap), 0 when there is none, 1 for an empty `sub`; fails for n <= 0.
KESTREL_HD inline bool strrpos_row(const Text& s, const Text& sub, int64_t n, int64_t& r) {
  if (n <= 0) return true;
  if (sub.size == 0) {
    r = 1;
    return false;
  }
  int64_t end = s.size, at = -1;
  for (int64_t k = 0; k < n; ++k) {
    if (end < sub.size) {
      at = -1;
      break;
    }
    at = rfind_bytes(s, sub, end - sub.size);
    if (at < 0) break;
    end = at + sub.size - 1;  // the next match may overlap this one
  }
  r = at < 0 ? 0 : static_cast<int64_t>(utf8::length(s.data, static_cast<size_t>(at))) + 1;
  return false;
}

/// hamming_distance: decoded code points that differ; fails when the decoded lengths differ.
KESTREL_HD inline bool hamming_row(const Text& a, const Text& b, int64_t& r) {
  size_t i = 0, j = 0;
  const auto na = static_cast<size_t>(a.size), nb = static_cast<size_t>(b.size);
  int64_t distance = 0;
  while (i < na && j < nb) distance += utf8::decode(a.data, na, i) != utf8::decode(b.data, nb, j) ? 1 : 0;
  r = distance;
  return i < na || j < nb;
}

/// levenshtein_distance's limit: the product of the decoded lengths may not pass 1,000,000.
KESTREL_HD inline bool levenshtein_too_long(int64_t la, int64_t lb) {
  return static_cast<uint64_t>(la) * static_cast<uint64_t>(lb) > 1'000'000;
}

/// levenshtein_distance: edits (insert, delete, substitute a decoded code point) from `outer` to `inner`, with one
/// row of the dynamic programme, inner_length + 1 cells, in `row`. The distance is symmetric: callers make `inner`
/// the shorter string.
KESTREL_HD inline int64_t levenshtein_row(const Text& outer, const Text& inner, int64_t inner_length, int32_t* row) {
  const auto no = static_cast<size_t>(outer.size), ni = static_cast<size_t>(inner.size);
  for (int64_t j = 0; j <= inner_length; ++j) row[j] = static_cast<int32_t>(j);
  int32_t line = 0;
  for (size_t p = 0; p < no;) {
    const uint32_t c = utf8::decode(outer.data, no, p);
    int32_t diagonal = row[0];
    row[0] = ++line;
    int64_t j = 1;
    for (size_t q = 0; q < ni; ++j) {
      const int32_t cost = utf8::decode(inner.data, ni, q) == c ? 0 : 1;
      const int32_t above = row[j];
      int32_t best = above + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (diagonal + cost < best) best = diagonal + cost;
      row[j] = best;
      diagonal = above;
    }
  }
  return row[inner_length];
}

}  // namespace kestrel::exec::presto_ops
