#include "parser_test_util.hpp"

namespace kestrel {
namespace {

using parser_test::expr_sql;

TEST(ParserExpression, Literals) {
  auto expr = parse_expression("1.50");
  ASSERT_TRUE(expr->is<ast::Literal>());
  EXPECT_EQ(expr->as<ast::Literal>().literal_kind, ast::LiteralKind::kDecimal);
  EXPECT_EQ(expr->as<ast::Literal>().text, "1.50");
  EXPECT_EQ(parse_expression("12")->as<ast::Literal>().literal_kind, ast::LiteralKind::kInteger);
  EXPECT_EQ(parse_expression("1e3")->as<ast::Literal>().literal_kind, ast::LiteralKind::kFloat);
  EXPECT_EQ(parse_expression("'a''b'")->as<ast::Literal>().text, "a'b");
  EXPECT_EQ(parse_expression("NULL")->as<ast::Literal>().literal_kind, ast::LiteralKind::kNull);
  EXPECT_TRUE(parse_expression("TRUE")->as<ast::Literal>().boolean_value());
  EXPECT_FALSE(parse_expression("false")->as<ast::Literal>().boolean_value());
  EXPECT_EQ(expr_sql("'it''s'"), "'it''s'");
}

TEST(ParserExpression, BinaryLiterals) {
  auto expr = parse_expression("X'00fF'");
  ASSERT_TRUE(expr->is<ast::Literal>());
  EXPECT_EQ(expr->as<ast::Literal>().literal_kind, ast::LiteralKind::kBinary);
  EXPECT_EQ(expr->as<ast::Literal>().text, std::string("\x00\xff", 2));
  EXPECT_EQ(expr_sql("x'0a 0B'"), "X'0A0B'");
  EXPECT_EQ(expr_sql("X''"), "X''");
  EXPECT_EQ(expr_sql("X'01' || x'02'"), "(X'01' || X'02')");
}

TEST(ParserExpression, SignIsFoldedIntoNumbers) {
  auto expr = parse_expression("-9223372036854775808");
  ASSERT_TRUE(expr->is<ast::Literal>());
  EXPECT_EQ(expr->as<ast::Literal>().text, "-9223372036854775808");
  EXPECT_EQ(expr_sql("- 1.5"), "-1.5");
  EXPECT_EQ(expr_sql("+7"), "7");
  EXPECT_EQ(expr_sql("- - 1"), "(- -1)");
  EXPECT_EQ(expr_sql("-a"), "(- a)");
  EXPECT_EQ(expr_sql("-2::int"), "(- CAST(2 AS INT))");  // :: binds tighter than unary minus
  EXPECT_EQ(expr_sql("- 5 * 3"), "(-5 * 3)");
  EXPECT_EQ(expr_sql("a - -1"), "(a - -1)");
}

TEST(ParserExpression, ArithmeticPrecedence) {
  EXPECT_EQ(expr_sql("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(expr_sql("1 - 2 - 3"), "((1 - 2) - 3)");
  EXPECT_EQ(expr_sql("a * b / c % d"), "(((a * b) / c) % d)");
  EXPECT_EQ(expr_sql("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(expr_sql("a || b + c"), "(a || (b + c))");
  EXPECT_EQ(expr_sql("a || b || c"), "((a || b) || c)");
  EXPECT_EQ(expr_sql("a = b || c"), "(a = (b || c))");
}

TEST(ParserExpression, BooleanPrecedence) {
  EXPECT_EQ(expr_sql("a OR b AND c"), "(a OR (b AND c))");
  EXPECT_EQ(expr_sql("a AND b OR c AND d"), "((a AND b) OR (c AND d))");
  EXPECT_EQ(expr_sql("a AND b AND c"), "(a AND b AND c)");
  EXPECT_EQ(expr_sql("(a AND b) AND c"), "((a AND b) AND c)");
  EXPECT_EQ(expr_sql("NOT a AND b"), "((NOT a) AND b)");
  EXPECT_EQ(expr_sql("NOT a = b"), "(NOT (a = b))");
  EXPECT_EQ(expr_sql("NOT a IS NULL"), "(NOT (a IS NULL))");
  EXPECT_EQ(expr_sql("a = b IS NULL"), "((a = b) IS NULL)");
  EXPECT_EQ(expr_sql("a < b + 1 AND c <> d"), "((a < (b + 1)) AND (c <> d))");
  EXPECT_EQ(expr_sql("a != b"), "(a <> b)");
  EXPECT_EQ(expr_sql("NOT NOT a"), "(NOT (NOT a))");
  auto conjunction = parse_expression("a = 1 OR a = 2 OR a = 3 OR a = 4");
  ASSERT_TRUE(conjunction->is<ast::Conjunction>());
  EXPECT_EQ(conjunction->as<ast::Conjunction>().operands.size(), 4u);
  EXPECT_EQ(conjunction->as<ast::Conjunction>().conjunction, ast::ConjunctionKind::kOr);
}

TEST(ParserExpression, IsPredicates) {
  EXPECT_EQ(expr_sql("a IS NULL"), "(a IS NULL)");
  EXPECT_EQ(expr_sql("a IS NOT NULL"), "(a IS NOT NULL)");
  EXPECT_EQ(expr_sql("a ISNULL"), "(a IS NULL)");
  EXPECT_EQ(expr_sql("a NOTNULL"), "(a IS NOT NULL)");
  EXPECT_EQ(expr_sql("a IS TRUE"), "(a IS TRUE)");
  EXPECT_EQ(expr_sql("a IS NOT UNKNOWN"), "(a IS NOT UNKNOWN)");
  EXPECT_EQ(expr_sql("a IS DISTINCT FROM b + 1"), "(a IS DISTINCT FROM (b + 1))");
  EXPECT_EQ(expr_sql("a IS NOT DISTINCT FROM b"), "(a IS NOT DISTINCT FROM b)");
}

TEST(ParserExpression, BetweenInLike) {
  EXPECT_EQ(expr_sql("a BETWEEN 1 AND 2 AND b"), "((a BETWEEN 1 AND 2) AND b)");
  EXPECT_EQ(expr_sql("a NOT BETWEEN b - 1 AND b + 1"), "(a NOT BETWEEN (b - 1) AND (b + 1))");
  EXPECT_EQ(expr_sql("a BETWEEN SYMMETRIC 2 AND 1"), "(a BETWEEN SYMMETRIC 2 AND 1)");
  EXPECT_EQ(expr_sql("a IN (1, 2, 3)"), "(a IN (1, 2, 3))");
  EXPECT_EQ(expr_sql("a NOT IN ('x')"), "(a NOT IN ('x'))");
  EXPECT_EQ(expr_sql("a IN (SELECT b FROM t)"), "(a IN (SELECT b FROM t))");
  EXPECT_EQ(expr_sql("a NOT IN (SELECT b FROM t)"), "(a NOT IN (SELECT b FROM t))");
  EXPECT_EQ(expr_sql("a LIKE 'x%'"), "(a LIKE 'x%')");
  EXPECT_EQ(expr_sql("a NOT LIKE 'x!%' ESCAPE '!'"), "(a NOT LIKE 'x!%' ESCAPE '!')");
  EXPECT_EQ(expr_sql("a ILIKE b || '%'"), "(a ILIKE (b || '%'))");
  EXPECT_EQ(expr_sql("a = 1 AND b IN (1) OR c LIKE 'x'"), "(((a = 1) AND (b IN (1))) OR (c LIKE 'x'))");
  EXPECT_EQ(expr_sql("NOT a IN (1)"), "(NOT (a IN (1)))");
  auto in = parse_expression("x NOT IN (SELECT 1)");
  ASSERT_TRUE(in->is<ast::InSubquery>());
  EXPECT_TRUE(in->as<ast::InSubquery>().negated);
}

TEST(ParserExpression, Subqueries) {
  EXPECT_EQ(expr_sql("EXISTS (SELECT 1)"), "EXISTS (SELECT 1)");
  auto not_exists = parse_expression("NOT EXISTS (SELECT * FROM t)");
  ASSERT_TRUE(not_exists->is<ast::UnaryOp>());
  EXPECT_TRUE(not_exists->as<ast::UnaryOp>().operand->is<ast::Exists>());
  EXPECT_EQ(expr_sql("(SELECT max(a) FROM t) + 1"), "((SELECT max(a) FROM t) + 1)");
  EXPECT_EQ(expr_sql("((SELECT 1) UNION (SELECT 2))"), "((SELECT 1) UNION (SELECT 2))");
  EXPECT_EQ(expr_sql("a > ALL (SELECT b FROM t)"), "(a > ALL (SELECT b FROM t))");
  EXPECT_EQ(expr_sql("a = SOME (SELECT b FROM t)"), "(a = ANY (SELECT b FROM t))");
}

TEST(ParserExpression, CaseCastExtract) {
  EXPECT_EQ(expr_sql("CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END"), "CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END");
  EXPECT_EQ(expr_sql("case x when 1 then 'a' end"), "CASE x WHEN 1 THEN 'a' END");
  EXPECT_EQ(expr_sql("CAST(a AS DECIMAL(15, 2))"), "CAST(a AS DECIMAL(15,2))");
  EXPECT_EQ(expr_sql("a::double precision"), "CAST(a AS DOUBLE PRECISION)");
  EXPECT_EQ(expr_sql("a::int::text"), "CAST(CAST(a AS INT) AS TEXT)");
  EXPECT_EQ(expr_sql("TRY_CAST(a AS date)"), "TRY_CAST(a AS DATE)");
  EXPECT_EQ(expr_sql("extract(year FROM o_orderdate)"), "EXTRACT(year FROM o_orderdate)");
  EXPECT_EQ(expr_sql("EXTRACT('Month' FROM d)"), "EXTRACT(month FROM d)");
  auto cast = parse_expression("x::numeric(10,3)");
  ASSERT_TRUE(cast->is<ast::Cast>());
  EXPECT_EQ(cast->as<ast::Cast>().type.type, LogicalType::decimal(10, 3));
  EXPECT_EQ(cast->operator_position.column, 2u);
}

TEST(ParserExpression, StringSpecialForms) {
  EXPECT_EQ(expr_sql("SUBSTRING(c_phone FROM 1 FOR 2)"), "substring(c_phone, 1, 2)");
  EXPECT_EQ(expr_sql("substring(s from 3)"), "substring(s, 3)");
  EXPECT_EQ(expr_sql("substring(s for 3)"), "substring(s, 1, 3)");
  EXPECT_EQ(expr_sql("substring(s, 1, 2)"), "substring(s, 1, 2)");
  EXPECT_EQ(expr_sql("TRIM(s)"), "trim(s)");
  EXPECT_EQ(expr_sql("TRIM(BOTH 'x' FROM s)"), "trim(s, 'x')");
  EXPECT_EQ(expr_sql("trim(leading from s)"), "ltrim(s)");
  EXPECT_EQ(expr_sql("trim(trailing ' ' from s)"), "rtrim(s, ' ')");
  EXPECT_EQ(expr_sql("POSITION('a' IN s)"), "position('a', s)");
  EXPECT_EQ(expr_sql("a || 'x'"), "(a || 'x')");
}

TEST(ParserExpression, FunctionCalls) {
  EXPECT_EQ(expr_sql("count(*)"), "count(*)");
  EXPECT_EQ(expr_sql("COUNT(DISTINCT a)"), "count(DISTINCT a)");
  EXPECT_EQ(expr_sql("sum(ALL a)"), "sum(a)");
  EXPECT_EQ(expr_sql("coalesce(a, b, 0)"), "coalesce(a, b, 0)");
  EXPECT_EQ(expr_sql("NULLIF(a, 0)"), "nullif(a, 0)");
  EXPECT_EQ(expr_sql("now()"), "now()");
  EXPECT_EQ(expr_sql("pg_catalog.lower(a)"), "pg_catalog.lower(a)");
  EXPECT_EQ(expr_sql("count(*) FILTER (WHERE a > 1)"), "count(*) FILTER (WHERE (a > 1))");
  EXPECT_EQ(expr_sql("left(s, 2)"), "\"left\"(s, 2)");
  EXPECT_EQ(expr_sql("current_date"), "\"current_date\"()");
  auto call = parse_expression("count(DISTINCT x)");
  ASSERT_TRUE(call->is<ast::FunctionCall>());
  EXPECT_TRUE(call->as<ast::FunctionCall>().distinct);
  EXPECT_TRUE(parse_expression("count(*)")->as<ast::FunctionCall>().star);
}

TEST(ParserExpression, OrderedAggregateCalls) {
  EXPECT_EQ(expr_sql("string_agg(s, ',' ORDER BY a DESC, b)"), "string_agg(s, ',' ORDER BY a DESC, b)");
  EXPECT_EQ(expr_sql("percentile_cont(0.5) within group (order by x nulls first)"),
            "percentile_cont(0.5) WITHIN GROUP (ORDER BY x NULLS FIRST)");
  auto call = parse_expression("listagg(s) WITHIN GROUP (ORDER BY s, t DESC) FILTER (WHERE s > 'a')");
  const auto& f = call->as<ast::FunctionCall>();
  EXPECT_TRUE(f.within_group);
  ASSERT_EQ(f.order_by.size(), 2u);
  EXPECT_EQ(f.order_by[1].direction, ast::SortDirection::kDescending);
  EXPECT_NE(f.filter, nullptr);
  auto inside = parse_expression("string_agg(s ORDER BY s)");
  EXPECT_FALSE(inside->as<ast::FunctionCall>().within_group);
  EXPECT_EQ(inside->as<ast::FunctionCall>().order_by.size(), 1u);
}

TEST(ParserExpression, NamesAndParameters) {
  auto column = parse_expression("T.\"Col\"");
  ASSERT_TRUE(column->is<ast::ColumnRef>());
  EXPECT_EQ(column->as<ast::ColumnRef>().names, (std::vector<std::string>{"t", "Col"}));
  EXPECT_EQ(expr_sql("s.t.c"), "s.t.c");
  EXPECT_EQ(expr_sql("\"select\""), "\"select\"");
  EXPECT_EQ(expr_sql("date"), "date");  // a keyword that is not reserved is a name
  EXPECT_EQ(expr_sql("$2 + ? + ?"), "(($2 + $1) + $2)");
}

TEST(ParserExpression, TypedAndIntervalLiterals) {
  EXPECT_EQ(expr_sql("DATE '1998-12-01'"), "DATE '1998-12-01'");
  EXPECT_EQ(expr_sql("timestamp '2001-02-03 04:05:06'"), "TIMESTAMP '2001-02-03 04:05:06'");
  EXPECT_EQ(expr_sql("INTERVAL '3' DAY"), "INTERVAL '3' DAY");
  EXPECT_EQ(expr_sql("interval '1' year"), "INTERVAL '1' YEAR");
  EXPECT_EQ(expr_sql("INTERVAL '2 days'"), "INTERVAL '2 days'");
  EXPECT_EQ(expr_sql("INTERVAL 3 MONTHS"), "INTERVAL '3' MONTH");
  EXPECT_EQ(expr_sql("INTERVAL '1-2' YEAR TO MONTH"), "INTERVAL '1-2' YEAR TO MONTH");
  EXPECT_EQ(expr_sql("DATE '1998-12-01' - INTERVAL '90' DAY"), "(DATE '1998-12-01' - INTERVAL '90' DAY)");
  auto date = parse_expression("DATE '1995-01-01'");
  ASSERT_TRUE(date->is<ast::TypedLiteral>());
  EXPECT_EQ(date->as<ast::TypedLiteral>().type.type, LogicalType(TypeId::kDate));
  EXPECT_EQ(date->as<ast::TypedLiteral>().value, "1995-01-01");
}

TEST(ParserExpression, Types) {
  struct Case {
    const char* sql;
    const char* written;
    std::optional<LogicalType> type;
  };
  const Case cases[] = {
      {"BOOLEAN", "BOOLEAN", TypeId::kBoolean},          {"tinyint", "TINYINT", TypeId::kTinyInt},
      {"SMALLINT", "SMALLINT", TypeId::kSmallInt},       {"int", "INT", TypeId::kInteger},
      {"INTEGER", "INTEGER", TypeId::kInteger},          {"bigint", "BIGINT", TypeId::kBigInt},
      {"REAL", "REAL", TypeId::kReal},                   {"float4", "FLOAT4", TypeId::kReal},
      {"double", "DOUBLE", TypeId::kDouble},             {"DOUBLE PRECISION", "DOUBLE PRECISION", TypeId::kDouble},
      {"float8", "FLOAT8", TypeId::kDouble},             {"FLOAT", "FLOAT", TypeId::kDouble},
      {"float(10)", "FLOAT(10)", TypeId::kReal},         {"DECIMAL", "DECIMAL", LogicalType::decimal(38, 0)},
      {"decimal(12)", "DECIMAL(12)", LogicalType::decimal(12, 0)},
      {"NUMERIC(15,2)", "NUMERIC(15,2)", LogicalType::decimal(15, 2)},
      {"DATE", "DATE", TypeId::kDate},                   {"timestamp", "TIMESTAMP", TypeId::kTimestamp},
      {"INTERVAL", "INTERVAL", TypeId::kInterval},       {"varchar", "VARCHAR", TypeId::kVarchar},
      {"VARCHAR(25)", "VARCHAR(25)", TypeId::kVarchar},  {"text", "TEXT", TypeId::kVarchar},
      {"CHAR(1)", "CHAR(1)", TypeId::kVarchar},          {"string", "STRING", TypeId::kVarchar},
      {"character varying(3)", "CHARACTER VARYING(3)", TypeId::kVarchar},
      {"timestamp with time zone", "TIMESTAMP WITH TIME ZONE", TypeId::kTimestampTz},
      {"time", "TIME", std::nullopt},                    {"geometry", "GEOMETRY", std::nullopt},
  };
  for (const Case& c : cases) {
    auto expr = parse_expression(std::string("CAST(x AS ") + c.sql + ")");
    const ast::TypeName& type = expr->as<ast::Cast>().type;
    EXPECT_EQ(type.to_string(), c.written) << c.sql;
    EXPECT_EQ(type.type, c.type) << c.sql;
  }
}

}  // namespace
}  // namespace kestrel
