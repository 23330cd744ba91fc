#include <gtest/gtest.h>

#include "parser/lexer.hpp"

namespace kestrel {
namespace {

std::string kinds(std::string_view sql) {
  std::string out;
  for (const Token& token : tokenize(sql)) {
    switch (token.type) {
      case TokenType::kWord: out += "w:" + token.text; break;
      case TokenType::kQuotedIdentifier: out += "q:" + token.text; break;
      case TokenType::kInteger: out += "i:" + token.text; break;
      case TokenType::kDecimal: out += "d:" + token.text; break;
      case TokenType::kFloat: out += "f:" + token.text; break;
      case TokenType::kString: out += "s:" + token.text; break;
      case TokenType::kBinaryString:
        out += "x:";
        for (const char c : token.text) out += std::to_string(static_cast<uint8_t>(c)) + ".";
        break;
      case TokenType::kParameter: out += "p:" + token.text; break;
      case TokenType::kOperator: out += "o:" + token.text; break;
      case TokenType::kEnd: out += "end"; break;
    }
    out += ' ';
  }
  return out;
}

std::string lex_error(std::string_view sql) {
  try {
    tokenize(sql);
  } catch (const SyntaxError& error) {
    return std::to_string(error.position()->line) + ":" + std::to_string(error.position()->column) + ": " +
           error.message();
  }
  return "no error";
}

TEST(Lexer, WordsAreFoldedQuotedNamesKept) {
  EXPECT_EQ(kinds("SELECT Foo, \"Foo\", \"a\"\"b\" from T1"),
            "w:select w:foo o:, q:Foo o:, q:a\"b w:from w:t1 end ");
  auto tokens = tokenize("Select fOO");
  EXPECT_TRUE(tokens[0].reserved);
  EXPECT_FALSE(tokens[1].reserved);
  EXPECT_EQ(tokens[1].raw, "fOO");
}

TEST(Lexer, Numbers) {
  EXPECT_EQ(kinds("1 42 1.5 .5 3. 1e10 2.5E-3 1.50"), "i:1 i:42 d:1.5 d:.5 d:3. f:1e10 f:2.5E-3 d:1.50 end ");
  EXPECT_EQ(kinds("t.a"), "w:t o:. w:a end ");
}

TEST(Lexer, StringsAndEscapes) {
  EXPECT_EQ(kinds("'it''s' ''"), "s:it's s: end ");
  EXPECT_EQ(kinds("E'a\\nb\\'c\\\\' e'\\x41'"), "s:a\nb'c\\ s:A end ");
  EXPECT_EQ(kinds("'a\\n'"), "s:a\\n end ");  // standard strings keep backslashes
  EXPECT_EQ(kinds("'ab'\n  'cd' 'x' 'y'"), "s:abcd s:x s:y end ");
}

TEST(Lexer, OperatorsAndParameters) {
  EXPECT_EQ(kinds("+ - * / % || = <> != < <= > >= :: ( ) , . ; =>"),
            "o:+ o:- o:* o:/ o:% o:|| o:= o:<> o:<> o:< o:<= o:> o:>= o::: o:( o:) o:, o:. o:; o:=> end ");
  EXPECT_EQ(kinds("$1 ? a=-1"), "p:1 p: w:a o:= o:- i:1 end ");
}

TEST(Lexer, CommentsAreSkipped) {
  EXPECT_EQ(kinds("a -- comment\n b /* x /* nested */ y */ c"), "w:a w:b w:c end ");
  EXPECT_EQ(kinds("a--\n"), "w:a end ");
}

TEST(Lexer, Positions) {
  auto tokens = tokenize("SELECT a,\n  bé + 'x'\n\t-- c\n  FROM");
  ASSERT_EQ(tokens.size(), 8u);
  EXPECT_EQ(tokens[0].position.line, 1u);
  EXPECT_EQ(tokens[0].position.column, 1u);
  EXPECT_EQ(tokens[2].position.column, 9u);  // ,
  EXPECT_EQ(tokens[3].position.line, 2u);    // bé
  EXPECT_EQ(tokens[3].position.column, 3u);
  EXPECT_EQ(tokens[3].position.offset, 12u);
  EXPECT_EQ(tokens[4].position.column, 6u);  // + (é is one character)
  EXPECT_EQ(tokens[4].position.offset, 16u);
  EXPECT_EQ(tokens[6].position.line, 4u);  // FROM
  EXPECT_EQ(tokens[6].position.column, 3u);
  EXPECT_EQ(tokens[6].end_offset, tokens[6].position.offset + 4);
  EXPECT_EQ(tokens[7].type, TokenType::kEnd);
  EXPECT_EQ(tokens[7].position.offset, tokens[6].end_offset);
}

TEST(Lexer, BinaryStrings) {
  EXPECT_EQ(kinds("X'00ff' x'7F80' X''"), "x:0.255. x:127.128. x: end ");
  // White space between digits is ignored; a word that only starts with x stays a word.
  EXPECT_EQ(kinds("X'01 0 2'"), "x:1.2. end ");
  EXPECT_EQ(kinds("xy 'a'"), "w:xy s:a end ");
  EXPECT_EQ(kinds("x 'a'"), "w:x s:a end ");
  EXPECT_EQ(lex_error("SELECT X'0g'"), "1:8: invalid hexadecimal digit 'g' in binary literal");
  EXPECT_EQ(lex_error("SELECT\n  x'abc'"), "2:3: binary literal must have an even number of hexadecimal digits");
  EXPECT_EQ(lex_error("SELECT X'00"), "1:8: unterminated quoted string");
}

TEST(Lexer, Errors) {
  EXPECT_EQ(lex_error("SELECT 'abc"), "1:8: unterminated quoted string");
  EXPECT_EQ(lex_error("SELECT\n  E'abc\\'"), "2:3: unterminated quoted string");
  EXPECT_EQ(lex_error("SELECT \"abc"), "1:8: unterminated quoted identifier");
  EXPECT_EQ(lex_error("SELECT 1 /* a /* b */"), "1:10: unterminated /* comment");
  EXPECT_EQ(lex_error("SELECT \"\""), "1:8: zero-length quoted identifier");
  EXPECT_EQ(lex_error("SELECT 12abc"), "1:8: trailing junk after numeric literal '12abc'");
  EXPECT_EQ(lex_error("SELECT a # b"), "1:10: unexpected character '#'");
  EXPECT_EQ(lex_error("SELECT {1}"), "1:8: unexpected character '{'");
}

}  // namespace
}  // namespace kestrel
