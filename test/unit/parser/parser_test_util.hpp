#pragma once
/// Helpers shared by the parser unit tests.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "parser/ast_printer.hpp"
#include "parser/parser.hpp"

namespace kestrel::parser_test {

/// The canonical text of an expression.
inline std::string expr_sql(std::string_view sql) { return ast::to_sql(*parse_expression(sql)); }

/// The canonical text of a statement.
inline std::string statement_sql(std::string_view sql) { return ast::to_sql(*parse_statement(sql)); }

/// The SyntaxError a text raises, as "line:column: message"; "no error" when it parses.
inline std::string syntax_error(std::string_view sql) {
  try {
    parse_script(sql);
  } catch (const SyntaxError& error) {
    return std::to_string(error.position()->line) + ":" + std::to_string(error.position()->column) + ": " +
           error.message();
  }
  return "no error";
}

/// Parses, prints, parses the print and prints again: both prints must agree.
inline ::testing::AssertionResult round_trips(std::string_view sql) {
  std::string first;
  try {
    first = ast::to_sql(*parse_statement(sql));
  } catch (const Error& error) {
    return ::testing::AssertionFailure() << "original does not parse: " << error.what();
  }
  std::string second;
  try {
    second = ast::to_sql(*parse_statement(first));
  } catch (const Error& error) {
    return ::testing::AssertionFailure() << "printed text does not parse: " << error.what() << "\n" << first;
  }
  if (first != second) return ::testing::AssertionFailure() << "prints differ:\n" << first << "\n" << second;
  return ::testing::AssertionSuccess();
}

}  // namespace kestrel::parser_test
