// Randomized robustness: mutated and truncated TPC-H queries and random token soup must either parse or raise a
// SyntaxError; never another exception, never a crash. Whatever parses must also print and parse back the same.

#include <cstdio>
#include <random>

#include "parser_test_util.hpp"

namespace kestrel {
namespace {

std::vector<std::string> tpch_queries() {
  std::vector<std::string> queries;
  for (int i = 1; i <= 22; ++i) {
    char name[512];
    std::snprintf(name, sizeof name, "%s/tpch/queries/q%02d.sql", KESTREL_SHARED_DIR, i);
    FILE* file = std::fopen(name, "rb");
    if (file == nullptr) continue;
    std::string text;
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
    std::fclose(file);
    queries.push_back(std::move(text));
  }
  return queries;
}

/// Outcome counts of one batch.
struct Outcome {
  int parsed = 0;
  int syntax_errors = 0;
};

/// Parses `sql`; a non-syntax exception or an unstable print is a test failure.
void check(const std::string& sql, Outcome& outcome) {
  std::vector<ast::StatementPtr> statements;
  try {
    statements = parse_script(sql);
  } catch (const SyntaxError&) {
    ++outcome.syntax_errors;
    return;
  } catch (const std::exception& error) {
    ADD_FAILURE() << "non-syntax exception: " << error.what() << "\ninput: " << sql;
    return;
  }
  ++outcome.parsed;
  for (const ast::StatementPtr& statement : statements) {
    std::string printed = ast::to_sql(*statement);
    try {
      std::string again = ast::to_sql(*parse_statement(printed));
      EXPECT_EQ(again, printed) << "input: " << sql;
    } catch (const std::exception& error) {
      ADD_FAILURE() << "printed text does not parse: " << error.what() << "\nprinted: " << printed
                    << "\ninput: " << sql;
    }
  }
}

TEST(ParserRobustness, TruncatedAndMutatedTpch) {
  std::vector<std::string> queries = tpch_queries();
  ASSERT_EQ(queries.size(), 22u);
  std::mt19937 random(20240611);
  Outcome outcome;
  const std::string inserts[] = {"(", ")", ",", "'", "\"", "/*", "--", "SELECT", "FROM", "AND", "NOT", "IN",
                                 "::", "1.5", "NULL", "CASE", "END", "*", "||", ";", "E'\\", "$1", "?"};
  for (int round = 0; round < 3000; ++round) {
    std::string sql = queries[random() % queries.size()];
    switch (random() % 5) {
      case 0: sql.resize(random() % sql.size()); break;  // truncate
      case 1: {  // delete a span
        size_t at = random() % sql.size();
        sql.erase(at, 1 + random() % 20);
        break;
      }
      case 2: {  // insert a token
        size_t at = random() % sql.size();
        sql.insert(at, " " + inserts[random() % std::size(inserts)] + " ");
        break;
      }
      case 3: {  // flip bytes
        for (int k = 0; k < 3; ++k) sql[random() % sql.size()] = static_cast<char>(random() % 256);
        break;
      }
      default: {  // duplicate a span
        size_t at = random() % sql.size();
        size_t length = 1 + random() % 40;
        sql.insert(random() % sql.size(), sql.substr(at, length));
        break;
      }
    }
    check(sql, outcome);
  }
  EXPECT_GT(outcome.syntax_errors, 1000);
  EXPECT_GT(outcome.parsed, 100);
}

TEST(ParserRobustness, RandomTokenSoup) {
  const std::string vocabulary[] = {
      "SELECT", "FROM", "WHERE", "GROUP", "BY", "ORDER", "HAVING", "LIMIT", "OFFSET", "UNION", "ALL", "INTERSECT",
      "EXCEPT", "WITH", "AS", "JOIN", "LEFT", "ON", "USING", "AND", "OR", "NOT", "IN", "IS", "NULL", "BETWEEN",
      "LIKE", "ESCAPE", "CASE", "WHEN", "THEN", "ELSE", "END", "CAST", "EXTRACT", "YEAR", "SUBSTRING", "FOR",
      "TRIM", "BOTH", "POSITION", "EXISTS", "INTERVAL", "DAY", "DATE", "'1998-01-01'", "DISTINCT", "VALUES",
      "CREATE", "TABLE", "VIEW", "INSERT", "INTO", "COPY", "TO", "EXPLAIN", "SET", "SHOW", "DESCRIBE", "DROP",
      "a", "b", "t", "x.y", "count", "sum", "(", ")", "(", ")", ",", ".", "*", "+", "-", "/", "%", "||", "=", "<>",
      "<", ">=", "::", "INT", "DECIMAL(10,2)", "1", "2.5", "1e3", "'s'", "TRUE", "$1", ";", "ANY", "FILTER",
  };
  std::mt19937 random(424242);
  Outcome outcome;
  for (int round = 0; round < 4000; ++round) {
    std::string sql;
    size_t length = 1 + random() % 30;
    if (random() % 2 == 0) sql = "SELECT ";
    for (size_t i = 0; i < length; ++i) sql += vocabulary[random() % std::size(vocabulary)] + " ";
    check(sql, outcome);
  }
  EXPECT_GT(outcome.syntax_errors, 2000);
}

}  // namespace
}  // namespace kestrel
