#pragma once
/// A compiled SQL LIKE pattern: `%` matches any sequence of characters, `_` exactly one character (a UTF-8 code
/// point), the escape character makes the next character literal. Common shapes get fast paths: exact text,
/// `prefix%`, `%suffix`, `%infix%` and match-all `%`; everything else runs a segment matcher that needs no
/// backtracking (segments between `%` have a fixed number of characters, so the leftmost match of each is the
/// right one).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::exec {

/// See the file comment. Immutable after `compile`, cheap to call from one thread.
class LikeMatcher {
 public:
  /// Compiles `pattern`. `escape` is the ESCAPE string: nullopt means the default backslash (PostgreSQL), an
  /// empty string disables escaping, otherwise it must be one character. Throws InvalidInput for an escape of
  /// more than one character or a pattern ending in the escape character.
  static LikeMatcher compile(std::string_view pattern, std::optional<std::string_view> escape = std::nullopt);

  bool matches(std::string_view s) const;

  /// Shapes, exposed for tests.
  enum class Kind { kExact, kPrefix, kSuffix, kContains, kAll, kGeneral };
  Kind kind() const { return kind_; }

 private:
  /// One piece of a segment: literal bytes, or (empty literal) one arbitrary character.
  struct Piece {
    std::string literal;
    bool any_char = false;
  };
  /// Pieces between two `%`.
  struct Segment {
    std::vector<Piece> pieces;
    size_t chars = 0;  ///< characters the segment matches (literal code points + `_`s)
    bool literal_only() const { return pieces.size() == 1 && !pieces[0].any_char; }
  };

  /// Matches `seg` at byte `pos` of `s`; the end byte, or npos.
  static size_t match_at(const Segment& seg, std::string_view s, size_t pos);
  bool match_general(std::string_view s) const;

  Kind kind_ = Kind::kGeneral;
  std::string text_;  ///< the literal of the fast paths
  std::vector<Segment> segments_;
  bool leading_percent_ = false;
  bool trailing_percent_ = false;
};

}  // namespace kestrel::exec
