#include "parser_test_util.hpp"

namespace kestrel {
namespace {

using parser_test::statement_sql;

const ast::Query& query_of(const ast::StatementPtr& statement) {
  return *statement->as<ast::QueryStatement>().query;
}

TEST(ParserQuery, SelectParts) {
  auto statement = parse_statement(
      "SELECT DISTINCT a, b AS x, c y, t.*, * FROM t WHERE a > 1 GROUP BY 1, b HAVING count(*) > 2 "
      "ORDER BY 2 DESC NULLS LAST, a LIMIT 10 OFFSET 5");
  const ast::Query& query = query_of(statement);
  ASSERT_TRUE(query.body->is<ast::Select>());
  const ast::Select& select = query.body->as<ast::Select>();
  EXPECT_TRUE(select.distinct);
  ASSERT_EQ(select.items.size(), 5u);
  EXPECT_FALSE(select.items[0].alias.has_value());
  EXPECT_EQ(*select.items[1].alias, "x");
  EXPECT_EQ(*select.items[2].alias, "y");
  EXPECT_EQ(select.items[2].alias_position.column, 30u);
  EXPECT_EQ(select.items[3].expr->as<ast::Star>().qualifier, std::vector<std::string>{"t"});
  EXPECT_TRUE(select.items[4].expr->as<ast::Star>().qualifier.empty());
  ASSERT_EQ(select.from.size(), 1u);
  EXPECT_EQ(select.from[0]->as<ast::BaseTableRef>().name.name(), "t");
  ASSERT_TRUE(select.where);
  ASSERT_EQ(select.group_by.size(), 2u);
  EXPECT_EQ(select.group_by[0]->as<ast::Literal>().text, "1");
  ASSERT_TRUE(select.having);
  ASSERT_EQ(query.order_by.size(), 2u);
  EXPECT_EQ(query.order_by[0].direction, ast::SortDirection::kDescending);
  EXPECT_EQ(query.order_by[0].nulls, ast::NullOrder::kNullsLast);
  EXPECT_EQ(query.order_by[1].direction, ast::SortDirection::kAscending);
  EXPECT_EQ(query.order_by[1].nulls, ast::NullOrder::kDefault);
  EXPECT_EQ(query.limit->as<ast::Literal>().text, "10");
  EXPECT_EQ(query.offset->as<ast::Literal>().text, "5");
}

TEST(ParserQuery, LimitForms) {
  EXPECT_EQ(statement_sql("SELECT 1 OFFSET 2 LIMIT 3"), "SELECT 1 LIMIT 3 OFFSET 2");
  EXPECT_EQ(statement_sql("SELECT 1 FETCH FIRST 5 ROWS ONLY"), "SELECT 1 LIMIT 5");
  EXPECT_EQ(statement_sql("SELECT 1 OFFSET 1 ROW FETCH NEXT ROW ONLY"), "SELECT 1 LIMIT 1 OFFSET 1");
  EXPECT_EQ(statement_sql("SELECT 1 LIMIT ALL"), "SELECT 1");
  EXPECT_EQ(statement_sql("SELECT ALL a FROM t"), "SELECT a FROM t");
  EXPECT_EQ(statement_sql("SELECT DISTINCT ON (a) a, b FROM t"), "SELECT DISTINCT ON (a) a, b FROM t");
}

TEST(ParserQuery, FromItems) {
  EXPECT_EQ(statement_sql("SELECT * FROM s.t AS x, u y (a, b)"), "SELECT * FROM s.t AS x, u AS y (a, b)");
  EXPECT_EQ(statement_sql("SELECT * FROM (SELECT 1) AS sub (one)"), "SELECT * FROM (SELECT 1) AS sub (one)");
  EXPECT_EQ(statement_sql("SELECT * FROM (VALUES (1, 'a'), (2, 'b')) v(n, s)"),
            "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (n, s)");
  EXPECT_EQ(statement_sql("SELECT * FROM read_parquet('data/*.parquet')"),
            "SELECT * FROM read_parquet('data/*.parquet')");
  EXPECT_EQ(statement_sql("SELECT * FROM read_csv('f.csv', delim='|', header => true) AS c"),
            "SELECT * FROM read_csv('f.csv', delim => '|', header => TRUE) AS c");
  auto statement = parse_statement("SELECT * FROM read_csv('f', delim = '|')");
  const auto& function = query_of(statement).body->as<ast::Select>().from[0]->as<ast::TableFunctionRef>();
  EXPECT_EQ(function.name, "read_csv");
  ASSERT_EQ(function.args.size(), 1u);
  ASSERT_EQ(function.named_args.size(), 1u);
  EXPECT_EQ(function.named_args[0].name, "delim");
  EXPECT_EQ(function.named_args[0].value->as<ast::Literal>().text, "|");
}

TEST(ParserQuery, Joins) {
  EXPECT_EQ(statement_sql("SELECT * FROM a JOIN b ON a.x = b.x LEFT OUTER JOIN c USING (y) CROSS JOIN d"),
            "SELECT * FROM a INNER JOIN b ON (a.x = b.x) LEFT JOIN c USING (y) CROSS JOIN d");
  EXPECT_EQ(statement_sql("SELECT * FROM a RIGHT JOIN b ON TRUE FULL OUTER JOIN c ON TRUE"),
            "SELECT * FROM a RIGHT JOIN b ON TRUE FULL JOIN c ON TRUE");
  EXPECT_EQ(statement_sql("SELECT * FROM a NATURAL JOIN b, c INNER JOIN d ON p"),
            "SELECT * FROM a NATURAL INNER JOIN b, c INNER JOIN d ON p");
  EXPECT_EQ(statement_sql("SELECT * FROM a JOIN (b JOIN c ON p) ON q"),
            "SELECT * FROM a INNER JOIN (b INNER JOIN c ON p) ON q");
  EXPECT_EQ(statement_sql("SELECT * FROM (a JOIN b ON p) AS j"), "SELECT * FROM (a INNER JOIN b ON p) AS j");
  auto statement = parse_statement("SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c USING (k)");
  const ast::Select& select = query_of(statement).body->as<ast::Select>();
  ASSERT_EQ(select.from.size(), 1u);
  const auto& outer = select.from[0]->as<ast::JoinRef>();
  EXPECT_EQ(outer.join_type, ast::JoinType::kInner);
  EXPECT_EQ(outer.using_columns, std::vector<std::string>{"k"});
  const auto& inner = outer.left->as<ast::JoinRef>();
  EXPECT_EQ(inner.join_type, ast::JoinType::kLeft);
  EXPECT_TRUE(inner.condition);
  EXPECT_EQ(inner.join_position.column, 17u);
}

TEST(ParserQuery, SetOperationPrecedence) {
  auto statement = parse_statement("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT ALL SELECT 4 ORDER BY 1");
  const ast::Query& query = query_of(statement);
  const auto& except = query.body->as<ast::SetOperation>();
  EXPECT_EQ(except.op, ast::SetOperator::kExcept);
  EXPECT_TRUE(except.all);
  const auto& union_node = except.left->as<ast::SetOperation>();
  EXPECT_EQ(union_node.op, ast::SetOperator::kUnion);
  EXPECT_FALSE(union_node.all);
  EXPECT_EQ(union_node.right->as<ast::SetOperation>().op, ast::SetOperator::kIntersect);
  EXPECT_EQ(query.order_by.size(), 1u);
  EXPECT_EQ(statement_sql("SELECT 1 UNION ALL SELECT 2 INTERSECT SELECT 3"),
            "(SELECT 1) UNION ALL ((SELECT 2) INTERSECT (SELECT 3))");
  EXPECT_EQ(statement_sql("(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3"),
            "((SELECT 1) UNION (SELECT 2)) INTERSECT (SELECT 3)");
  EXPECT_EQ(statement_sql("SELECT 1 UNION DISTINCT SELECT 2"), "(SELECT 1) UNION (SELECT 2)");
}

TEST(ParserQuery, ParenthesizedQueries) {
  EXPECT_EQ(statement_sql("((SELECT 1))"), "SELECT 1");
  EXPECT_EQ(statement_sql("(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL (SELECT 2)"),
            "(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL (SELECT 2)");
  auto statement = parse_statement("(SELECT 1 LIMIT 1) UNION SELECT 2");
  const auto& operation = query_of(statement).body->as<ast::SetOperation>();
  EXPECT_TRUE(operation.left->is<ast::ParenthesizedQuery>());
  EXPECT_TRUE(operation.right->is<ast::Select>());
  EXPECT_EQ(statement_sql("SELECT * FROM ((SELECT 1) UNION (SELECT 2)) AS u"),
            "SELECT * FROM ((SELECT 1) UNION (SELECT 2)) AS u");
  EXPECT_EQ(statement_sql("VALUES (1), (2)"), "VALUES (1), (2)");
}

TEST(ParserQuery, With) {
  auto statement = parse_statement(
      "WITH a AS (SELECT 1 AS x), b (y) AS (SELECT x FROM a) SELECT * FROM a, b");
  const ast::Query& query = query_of(statement);
  ASSERT_EQ(query.ctes.size(), 2u);
  EXPECT_EQ(query.ctes[0].name, "a");
  EXPECT_TRUE(query.ctes[0].columns.empty());
  EXPECT_EQ(query.ctes[1].columns, std::vector<std::string>{"y"});
  EXPECT_EQ(statement_sql("WITH a AS (SELECT 1) SELECT * FROM a"), "WITH a AS (SELECT 1) SELECT * FROM a");
  EXPECT_EQ(statement_sql("SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a) s"),
            "SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a) AS s");
}

TEST(ParserQuery, AliasesMayBeNonReservedKeywords) {
  EXPECT_EQ(statement_sql("SELECT 1 AS from_x, 2 year, 3 AS \"select\", 4 AS order FROM t date"),
            "SELECT 1 AS from_x, 2 AS year, 3 AS \"select\", 4 AS \"order\" FROM t AS date");
}

TEST(ParserQuery, Positions) {
  auto statement = parse_statement("SELECT a,\n       b + 1\nFROM t\nWHERE c = 2");
  const ast::Select& select = query_of(statement).body->as<ast::Select>();
  EXPECT_EQ(select.position.line, 1u);
  const ast::Expr& sum = *select.items[1].expr;
  EXPECT_EQ(sum.position.line, 2u);
  EXPECT_EQ(sum.position.column, 8u);
  EXPECT_EQ(sum.operator_position.column, 10u);
  EXPECT_EQ(select.from[0]->position.line, 3u);
  EXPECT_EQ(select.from[0]->position.column, 6u);
  EXPECT_EQ(select.where->position.line, 4u);
  EXPECT_EQ(select.where->position.column, 7u);
  EXPECT_EQ(select.where->operator_position.column, 9u);
  EXPECT_EQ(select.where->as<ast::BinaryOp>().right->position.column, 11u);
}

}  // namespace
}  // namespace kestrel
