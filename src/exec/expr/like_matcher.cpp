#include "exec/expr/like_matcher.hpp"

#include "common/error.hpp"
#include "exec/expr/utf8.hpp"

namespace kestrel::exec {

namespace {

/// One parsed pattern element.
struct Token {
  enum Type { kLiteral, kAnyChar, kAnySequence } type;
  std::string_view bytes;  ///< kLiteral: one code point
};

std::vector<Token> tokenize(std::string_view pattern, std::string_view escape) {
  std::vector<Token> out;
  for (size_t i = 0; i < pattern.size();) {
    size_t len = utf8::char_bytes(static_cast<uint8_t>(pattern[i]));
    if (i + len > pattern.size()) len = 1;
    std::string_view ch = pattern.substr(i, len);
    i += len;
    if (!escape.empty() && ch == escape) {
      if (i >= pattern.size()) throw InvalidInput("LIKE pattern must not end with escape character", "22025");
      size_t next_len = utf8::char_bytes(static_cast<uint8_t>(pattern[i]));
      if (i + next_len > pattern.size()) next_len = 1;
      out.push_back(Token{Token::kLiteral, pattern.substr(i, next_len)});
      i += next_len;
    } else if (ch == "%") {
      out.push_back(Token{Token::kAnySequence, {}});
    } else if (ch == "_") {
      out.push_back(Token{Token::kAnyChar, {}});
    } else {
      out.push_back(Token{Token::kLiteral, ch});
    }
  }
  return out;
}

}  // namespace

LikeMatcher LikeMatcher::compile(std::string_view pattern, std::optional<std::string_view> escape) {
  const std::string_view esc = escape ? *escape : std::string_view("\\");
  if (!esc.empty() && utf8::length(esc.data(), esc.size()) != 1) {
    throw InvalidInput("invalid escape string '" + std::string(esc) + "': it must be empty or one character",
                       "22019");
  }
  const std::vector<Token> tokens = tokenize(pattern, esc);
  LikeMatcher m;
  m.segments_.emplace_back();
  for (size_t t = 0; t < tokens.size(); ++t) {
    const Token& tok = tokens[t];
    if (tok.type == Token::kAnySequence) {
      if (t == 0) m.leading_percent_ = true;
      if (t + 1 == tokens.size()) m.trailing_percent_ = true;
      if (!m.segments_.back().pieces.empty()) m.segments_.emplace_back();
      continue;
    }
    Segment& seg = m.segments_.back();
    ++seg.chars;
    if (tok.type == Token::kAnyChar) {
      seg.pieces.push_back(Piece{{}, true});
    } else if (!seg.pieces.empty() && !seg.pieces.back().any_char) {
      seg.pieces.back().literal.append(tok.bytes);
    } else {
      seg.pieces.push_back(Piece{std::string(tok.bytes), false});
    }
  }
  if (m.segments_.back().pieces.empty()) m.segments_.pop_back();
  // Fast paths: at most one segment that is a single literal.
  const bool any_percent = m.leading_percent_ || m.trailing_percent_ || m.segments_.size() > 1;
  if (m.segments_.empty()) {
    m.kind_ = any_percent ? Kind::kAll : Kind::kExact;  // "" matches only ""
  } else if (m.segments_.size() == 1 && m.segments_[0].pieces.size() == 1 && !m.segments_[0].pieces[0].any_char) {
    m.text_ = m.segments_[0].pieces[0].literal;
    if (m.leading_percent_ && m.trailing_percent_) {
      m.kind_ = Kind::kContains;
    } else if (m.leading_percent_) {
      m.kind_ = Kind::kSuffix;
    } else if (m.trailing_percent_) {
      m.kind_ = Kind::kPrefix;
    } else {
      m.kind_ = Kind::kExact;
    }
  }
  return m;
}

size_t LikeMatcher::match_at(const Segment& seg, std::string_view s, size_t pos) {
  for (const Piece& p : seg.pieces) {
    if (p.any_char) {
      if (pos >= s.size()) return std::string_view::npos;
      pos += utf8::char_bytes(static_cast<uint8_t>(s[pos]));
      if (pos > s.size()) pos = s.size();
    } else {
      if (s.compare(pos, p.literal.size(), p.literal) != 0 || s.size() - pos < p.literal.size()) {
        return std::string_view::npos;
      }
      pos += p.literal.size();
    }
  }
  return pos;
}

bool LikeMatcher::match_general(std::string_view s) const {
  size_t pos = 0;
  size_t first = 0, last = segments_.size();
  if (!leading_percent_) {
    // The first segment is anchored at the start.
    pos = match_at(segments_[0], s, 0);
    if (pos == std::string_view::npos) return false;
    first = 1;
    if (segments_.size() == 1 && !trailing_percent_) return pos == s.size();
  }
  size_t tail_start = s.size();
  if (!trailing_percent_ && last > first) {
    // The last segment is anchored at the end: it starts `chars` characters before the end (for a plain
    // literal, simply its byte length before the end).
    const Segment& tail = segments_.back();
    if (tail.literal_only()) {
      const std::string& lit = tail.pieces[0].literal;
      if (s.size() < lit.size()) return false;
      tail_start = s.size() - lit.size();
    } else {
      const size_t total = utf8::length(s.data(), s.size());
      if (total < tail.chars) return false;
      tail_start = utf8::offset_of(s.data(), s.size(), total - tail.chars);
    }
    if (tail_start < pos || match_at(tail, s, tail_start) != s.size()) return false;
    --last;
  }
  // Middle segments: leftmost match of each, in order, before the anchored tail.
  const std::string_view window = s.substr(0, tail_start);
  for (size_t k = first; k < last; ++k) {
    const Segment& seg = segments_[k];
    if (seg.literal_only()) {
      const size_t at = window.find(seg.pieces[0].literal, pos);
      if (at == std::string_view::npos) return false;
      pos = at + seg.pieces[0].literal.size();
      continue;
    }
    bool found = false;
    for (size_t at = pos; at <= tail_start; at += at < s.size() ? utf8::char_bytes(static_cast<uint8_t>(s[at])) : 1) {
      const size_t end = match_at(seg, window, at);
      if (end != std::string_view::npos) {
        pos = end;
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

bool LikeMatcher::matches(std::string_view s) const {
  switch (kind_) {
    case Kind::kAll: return true;
    case Kind::kExact: return s == text_;
    case Kind::kPrefix: return s.size() >= text_.size() && s.compare(0, text_.size(), text_) == 0;
    case Kind::kSuffix:
      return s.size() >= text_.size() && s.compare(s.size() - text_.size(), text_.size(), text_) == 0;
    case Kind::kContains: return s.find(text_) != std::string_view::npos;
    case Kind::kGeneral: return match_general(s);
  }
  return false;
}

}  // namespace kestrel::exec
