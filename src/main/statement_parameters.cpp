#include "main/statement_parameters.hpp"

#include <algorithm>
#include <functional>

#include "parser/lexer.hpp"

namespace kestrel {

namespace {

/// The largest `$n` accepted, as the parser accepts it (six digits).
constexpr size_t kMaxParameterNumber = 999999;

/// Calls `on_parameter(token, number)` for every parameter token of `sql`, `?` numbered in order of appearance.
void for_each_parameter(std::string_view sql, const std::function<void(const Token&, size_t)>& on_parameter) {
  size_t positional = 0;
  for (const Token& token : tokenize(sql)) {
    if (token.type != TokenType::kParameter) continue;
    size_t number = 0;
    if (token.text.empty()) {
      number = ++positional;
    } else {
      if (token.text.size() > 6) throw SyntaxError("parameter number out of range", token.position);
      number = std::stoul(token.text);
      if (number == 0 || number > kMaxParameterNumber) {
        throw SyntaxError("parameter number out of range", token.position);
      }
    }
    on_parameter(token, number);
  }
}

}  // namespace

BoundStatement BoundStatement::bind(std::string_view sql, const std::vector<std::string>& literals) {
  BoundStatement out;
  out.original_ = std::string(sql);
  const size_t expected = count_parameters(out.original_);
  if (expected != literals.size()) {
    throw BinderError("the statement has " + std::to_string(expected) + " parameter" + (expected == 1 ? "" : "s") +
                          " but " + std::to_string(literals.size()) + (literals.size() == 1 ? " value was" : " values were") +
                          " given",
                      std::nullopt, "07001");
  }
  size_t copied = 0;
  for_each_parameter(out.original_, [&](const Token& token, size_t number) {
    out.sql_.append(out.original_, copied, token.position.offset - copied);
    // Spaces around the literal keep it from running into the tokens beside it.
    out.sql_ += ' ';
    Replacement r;
    r.bound_begin = out.sql_.size();
    out.sql_ += literals[number - 1];
    r.bound_end = out.sql_.size();
    out.sql_ += ' ';
    r.original_begin = token.position.offset;
    r.original_end = token.end_offset;
    out.replacements_.push_back(r);
    copied = token.end_offset;
  });
  out.sql_.append(out.original_, copied, std::string::npos);
  return out;
}

SourcePosition BoundStatement::original_position(const SourcePosition& bound) const {
  // Bytes before the first replacement are where they were; after a replacement, shifted by its change in length.
  long long shift = 0;
  for (const Replacement& r : replacements_) {
    if (bound.offset < r.bound_begin - 1) break;  // before the space that precedes this literal
    if (bound.offset <= r.bound_end) return position_of_offset(original_, r.original_begin);
    shift = static_cast<long long>(r.original_end) - static_cast<long long>(r.bound_end + 1);
  }
  const long long mapped = static_cast<long long>(bound.offset) + shift;
  return position_of_offset(original_,
                            static_cast<size_t>(std::clamp<long long>(mapped, 0, static_cast<long long>(original_.size()))));
}

size_t count_parameters(std::string_view sql) {
  size_t highest = 0;
  for_each_parameter(sql, [&](const Token&, size_t number) { highest = std::max(highest, number); });
  return highest;
}

SourcePosition position_of_offset(std::string_view text, size_t offset) {
  SourcePosition p;
  offset = std::min(offset, text.size());
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++p.column;
    }
  }
  p.offset = static_cast<uint32_t>(offset);
  return p;
}

}  // namespace kestrel
