#include "parser/ast/clone.hpp"
#include "parser_test_util.hpp"

namespace kestrel {
namespace {

using parser_test::round_trips;

const char* const kStatements[] = {
    "SELECT a, b AS \"Mixed Case\", count(*) FROM t WHERE a BETWEEN 1 AND 10 GROUP BY a, b HAVING sum(c) > 0",
    "SELECT * FROM a LEFT JOIN b ON a.x = b.x AND b.y IS NOT NULL RIGHT JOIN c USING (z) ORDER BY 1 DESC NULLS FIRST",
    "SELECT CASE WHEN x IN (1, 2) THEN 'a' WHEN x NOT LIKE 'b%' ESCAPE '\\' THEN 'b' ELSE NULL END FROM t",
    "SELECT CAST(a AS DECIMAL(15,2)) * (1 - b) / 100 % 7 || 'x' FROM t",
    "SELECT EXTRACT(year FROM d), substring(s FROM 2 FOR 3), trim(leading 'x' from s), position('a' in s) FROM t",
    "SELECT DATE '1998-12-01' - INTERVAL '90' DAY, TIMESTAMP '2000-01-01 00:00:00', INTERVAL '1-2' YEAR TO MONTH",
    "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a) AND NOT EXISTS (SELECT * FROM v)",
    "SELECT * FROM t WHERE a > (SELECT avg(a) FROM t) AND b IN (SELECT b FROM u) AND c = ANY (SELECT c FROM w)",
    "WITH r (x, y) AS (SELECT 1, 2), s AS (SELECT * FROM r) SELECT * FROM s ORDER BY x LIMIT 10 OFFSET 2",
    "SELECT 1 UNION ALL SELECT 2 INTERSECT SELECT 3 EXCEPT SELECT 4",
    "(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT 2) ORDER BY 1",
    "SELECT * FROM read_csv('f.csv', delim = '|', header = TRUE) AS c (a, b)",
    "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (n, s), LATERAL (SELECT n + 1) AS l",
    "SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b, a IS TRUE, NOT a IS UNKNOWN FROM t",
    "SELECT -a, - -1, +b, -(2::int), 1e10, .5, 3., -9223372036854775808 FROM t",
    "SELECT count(DISTINCT a) FILTER (WHERE b > 0), coalesce(a, b), nullif(a, 0), \"left\"(s, 1) FROM t",
    "SELECT $1 + ?, \"weird \"\" name\".\"x\" FROM \"T\" \"weird \"\" name\"",
    "SELECT a FROM t1 NATURAL JOIN t2 CROSS JOIN t3 FULL OUTER JOIN (t4 JOIN t5 ON p) ON q",
    "SELECT DISTINCT ON (a, b) a, b, c FROM t",
    "SELECT a, b, grouping(a, b), sum(c) FROM t GROUP BY ROLLUP(a, b)",
    "SELECT a, b FROM t GROUP BY a, CUBE(b, c), GROUPING SETS ((a), (), ROLLUP(d))",
    "SELECT count(*) FROM t GROUP BY ()",
    "SELECT rank() OVER (PARTITION BY a, b ORDER BY c DESC NULLS LAST), sum(x) OVER () FROM t",
    "SELECT count(*) OVER (ORDER BY d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t",
    "SELECT avg(x) OVER (PARTITION BY a RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM t",
    "SELECT string_agg(DISTINCT s, ',' ORDER BY s DESC NULLS LAST, t.a) FILTER (WHERE a > 0) FROM t",
    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x DESC), listagg(s, '-') WITHIN GROUP (ORDER BY s) FROM t",
    "CREATE TABLE t (a INT NOT NULL, b VARCHAR(10) DEFAULT 'x', c DOUBLE PRECISION, PRIMARY KEY (a), UNIQUE (b))",
    "CREATE OR REPLACE TEMPORARY VIEW v (a) AS SELECT 1",
    "CREATE TABLE IF NOT EXISTS t2 AS SELECT * FROM t",
    "CREATE TABLE t2 (a) WITH (format = 'kcol', row_group_size = 1000) AS SELECT * FROM t",
    "CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a)",
    "DROP VIEW IF EXISTS a, b CASCADE",
    "INSERT INTO t (a, b) VALUES (1, 'x'), (2, NULL)",
    "INSERT INTO t SELECT * FROM u UNION SELECT * FROM v",
    "UPDATE t SET a = a + 1, b = 'x' WHERE c IN (SELECT c FROM u) AND d IS NULL",
    "UPDATE s.t AS x SET a = (SELECT max(a) FROM u)",
    "DELETE FROM t WHERE a > 1 OR b IS NOT TRUE",
    "DELETE FROM t AS x",
    "COPY (SELECT * FROM t) TO 'out.parquet' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)",
    "COPY t FROM 'in.csv' (HEADER, DELIMITER '|')",
    "EXPLAIN ANALYZE SELECT * FROM t",
    "SET threads = 4",
    "SET LOCAL search_path TO 'main'",
    "RESET ALL",
    "SHOW TABLES",
    "DESCRIBE s.t",
    "DESCRIBE SELECT 1",
};

TEST(ParserRoundTrip, Statements) {
  for (const char* sql : kStatements) EXPECT_TRUE(round_trips(sql)) << sql;
}

TEST(ParserRoundTrip, TpchQueries) {
  for (int i = 1; i <= 22; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "%s/tpch/queries/q%02d.sql", KESTREL_SHARED_DIR, i);
    FILE* file = std::fopen(name, "rb");
    ASSERT_NE(file, nullptr) << name;
    std::string text;
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
    std::fclose(file);
    EXPECT_TRUE(round_trips(text)) << name;
  }
}

TEST(ParserRoundTrip, CloneIsIdentical) {
  for (const char* sql : kStatements) {
    auto statement = parse_statement(sql);
    if (!statement->is<ast::QueryStatement>()) continue;
    const ast::Query& query = *statement->as<ast::QueryStatement>().query;
    ast::QueryPtr copy = ast::clone(query);
    EXPECT_EQ(ast::to_sql(*copy), ast::to_sql(query)) << sql;
    EXPECT_EQ(copy->position.offset, query.position.offset);
  }
  auto expr = parse_expression("CASE WHEN a LIKE 'x' THEN (SELECT 1) END + f(DISTINCT b)");
  EXPECT_EQ(ast::to_sql(*ast::clone(*expr)), ast::to_sql(*expr));
}

TEST(ParserRoundTrip, WalkVisitsChildren) {
  auto expr = parse_expression("f(a, b + c) BETWEEN x AND CASE WHEN y THEN z END");
  int columns = 0;
  EXPECT_TRUE(ast::any_of(*expr, [](const ast::Expr& e) { return e.is<ast::Case>(); }));
  std::function<void(const ast::Expr&)> count = [&](const ast::Expr& e) {
    if (e.is<ast::ColumnRef>()) ++columns;
    ast::for_each_child(e, count);
  };
  count(*expr);
  EXPECT_EQ(columns, 6);
}

}  // namespace
}  // namespace kestrel
