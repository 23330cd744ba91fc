#include "parser_test_util.hpp"

namespace kestrel {
namespace {

using parser_test::statement_sql;

TEST(ParserStatement, CreateTable) {
  auto statement = parse_statement(
      "CREATE TABLE IF NOT EXISTS s.t (id BIGINT NOT NULL, name VARCHAR(25), price DECIMAL(15,2) DEFAULT 0, "
      "PRIMARY KEY (id))");
  ASSERT_TRUE(statement->is<ast::CreateTableStatement>());
  const auto& create = statement->as<ast::CreateTableStatement>();
  EXPECT_TRUE(create.if_not_exists);
  EXPECT_EQ(create.name.to_string(), "s.t");
  ASSERT_EQ(create.columns.size(), 3u);
  EXPECT_EQ(create.columns[0].name, "id");
  EXPECT_TRUE(create.columns[0].not_null);
  EXPECT_EQ(create.columns[0].type.type, LogicalType(TypeId::kBigInt));
  EXPECT_EQ(create.columns[1].type.modifiers, std::vector<int64_t>{25});
  EXPECT_EQ(create.columns[2].type.type, LogicalType::decimal(15, 2));
  EXPECT_TRUE(create.columns[2].default_value);
  ASSERT_EQ(create.constraints.size(), 1u);
  EXPECT_EQ(create.constraints[0].columns, std::vector<std::string>{"id"});
  EXPECT_EQ(statement_sql("CREATE TABLE t1(x INTEGER PRIMARY KEY, y TEXT UNIQUE, z int null)"),
            "CREATE TABLE t1 (x INTEGER PRIMARY KEY, y TEXT UNIQUE, z INT)");
}

TEST(ParserStatement, CreateTableAsAndView) {
  auto ctas = parse_statement("CREATE TABLE t AS SELECT 1 AS a");
  ASSERT_TRUE(ctas->is<ast::CreateTableAsStatement>());
  EXPECT_EQ(statement_sql("create table if not exists t (a, b) as select 1, 2"),
            "CREATE TABLE IF NOT EXISTS t (a, b) AS SELECT 1, 2");
  auto with = parse_statement("CREATE TABLE t WITH (format = kcol, row_group_size = 10) AS WITH q AS (SELECT 1) "
                              "SELECT * FROM q");
  ASSERT_TRUE(with->is<ast::CreateTableAsStatement>());
  ASSERT_EQ(with->as<ast::CreateTableAsStatement>().options.size(), 2u);
  EXPECT_EQ(with->as<ast::CreateTableAsStatement>().options[0].name, "format");
  EXPECT_EQ(with->as<ast::CreateTableAsStatement>().options[0].value.text, "kcol");
  EXPECT_EQ(statement_sql("CREATE OR REPLACE VIEW v (x) AS SELECT a FROM t"),
            "CREATE OR REPLACE VIEW v (x) AS SELECT a FROM t");
  auto view = parse_statement("CREATE VIEW v AS SELECT a FROM t WHERE a > 1;");
  EXPECT_EQ(view->as<ast::CreateViewStatement>().query_text, "SELECT a FROM t WHERE a > 1");
  EXPECT_EQ(statement_sql("CREATE TEMP TABLE t (a INT)"), "CREATE TEMPORARY TABLE t (a INT)");
  EXPECT_EQ(statement_sql("CREATE UNIQUE INDEX i ON t (a, b DESC)"), "CREATE UNIQUE INDEX i ON t (a, b)");
}

TEST(ParserStatement, Drop) {
  auto statement = parse_statement("DROP TABLE IF EXISTS a, s.b CASCADE");
  const auto& drop = statement->as<ast::DropStatement>();
  EXPECT_EQ(drop.object_type, ast::ObjectType::kTable);
  EXPECT_TRUE(drop.if_exists);
  EXPECT_TRUE(drop.cascade);
  ASSERT_EQ(drop.names.size(), 2u);
  EXPECT_EQ(statement_sql("drop view v"), "DROP VIEW v");
}

TEST(ParserStatement, Insert) {
  auto statement = parse_statement("INSERT INTO t1(e,c) VALUES(103,102), (1, 2)");
  const auto& insert = statement->as<ast::InsertStatement>();
  EXPECT_EQ(insert.table.name(), "t1");
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"e", "c"}));
  EXPECT_EQ(insert.source->body->as<ast::Values>().rows.size(), 2u);
  EXPECT_EQ(statement_sql("INSERT INTO t SELECT * FROM u"), "INSERT INTO t SELECT * FROM u");
  EXPECT_EQ(statement_sql("INSERT INTO t (SELECT 1)"), "INSERT INTO t SELECT 1");
  EXPECT_EQ(statement_sql("INSERT INTO t WITH a AS (SELECT 1) SELECT * FROM a"),
            "INSERT INTO t WITH a AS (SELECT 1) SELECT * FROM a");
}

TEST(ParserStatement, Update) {
  auto statement = parse_statement("UPDATE t1 AS x SET a = a + 1, \"B\" = NULL WHERE x.c > 2");
  const auto& update = statement->as<ast::UpdateStatement>();
  EXPECT_EQ(update.table.name(), "t1");
  ASSERT_TRUE(update.alias);
  EXPECT_EQ(update.alias->name, "x");
  ASSERT_EQ(update.assignments.size(), 2u);
  EXPECT_EQ(update.assignments[0].column, "a");
  EXPECT_EQ(update.assignments[1].column, "B");
  EXPECT_EQ(update.assignments[1].position.column, 31u);
  ASSERT_TRUE(update.where);
  EXPECT_EQ(statement_sql("update t set a = 1"), "UPDATE t SET a = 1");
  EXPECT_EQ(statement_sql("UPDATE t u SET a = 1"), "UPDATE t AS u SET a = 1");
}

TEST(ParserStatement, Delete) {
  auto statement = parse_statement("DELETE FROM s.t WHERE a IS NULL");
  const auto& remove = statement->as<ast::DeleteStatement>();
  EXPECT_EQ(remove.table.to_string(), "s.t");
  EXPECT_FALSE(remove.alias);
  ASSERT_TRUE(remove.where);
  EXPECT_EQ(statement_sql("delete from t"), "DELETE FROM t");
  EXPECT_EQ(statement_sql("DELETE FROM t x WHERE x.a = 1"), "DELETE FROM t AS x WHERE (x.a = 1)");
}

TEST(ParserStatement, Copy) {
  auto statement = parse_statement("COPY (SELECT * FROM t) TO 'out.parquet' (FORMAT parquet, COMPRESSION zstd)");
  const auto& copy = statement->as<ast::CopyStatement>();
  ASSERT_TRUE(copy.query);
  EXPECT_TRUE(copy.to);
  EXPECT_EQ(copy.file, "out.parquet");
  ASSERT_EQ(copy.options.size(), 2u);
  EXPECT_EQ(copy.options[0].name, "format");
  EXPECT_EQ(copy.options[0].value.kind, ast::OptionValue::Kind::kWord);
  EXPECT_EQ(copy.options[0].value.text, "parquet");
  EXPECT_EQ(statement_sql("COPY t TO 'f.csv' (HEADER, DELIMITER '|', ROW_GROUP_SIZE 1000)"),
            "COPY t TO 'f.csv' (HEADER, DELIMITER '|', ROW_GROUP_SIZE 1000)");
  EXPECT_EQ(statement_sql("COPY t (a, b) FROM 'f.csv' WITH (FORMAT 'csv', HEADER true)"),
            "COPY t (a, b) FROM 'f.csv' (FORMAT 'csv', HEADER true)");
  EXPECT_EQ(statement_sql("COPY t TO 'f.csv' WITH CSV HEADER DELIMITER '|'"),
            "COPY t TO 'f.csv' (CSV, HEADER, DELIMITER '|')");
}

TEST(ParserStatement, Explain) {
  auto statement = parse_statement("EXPLAIN ANALYZE SELECT 1");
  const auto& explain = statement->as<ast::ExplainStatement>();
  EXPECT_TRUE(explain.analyze);
  EXPECT_TRUE(explain.statement->is<ast::QueryStatement>());
  EXPECT_EQ(statement_sql("explain select 1"), "EXPLAIN SELECT 1");
  EXPECT_EQ(statement_sql("EXPLAIN (ANALYZE, VERBOSE) SELECT 1"), "EXPLAIN ANALYZE VERBOSE SELECT 1");
  EXPECT_EQ(statement_sql("EXPLAIN (SELECT 1)"), "EXPLAIN SELECT 1");
  EXPECT_EQ(statement_sql("EXPLAIN CREATE TABLE t AS SELECT 1"), "EXPLAIN CREATE TABLE t AS SELECT 1");
}

TEST(ParserStatement, SettingsAndDescribe) {
  auto set = parse_statement("SET threads TO 4");
  EXPECT_EQ(set->as<ast::SetStatement>().name, "threads");
  EXPECT_EQ(set->as<ast::SetStatement>().value.kind, ast::OptionValue::Kind::kNumber);
  EXPECT_EQ(set->as<ast::SetStatement>().value.text, "4");
  EXPECT_EQ(statement_sql("SET gpu_fallback = off"), "SET gpu_fallback = off");
  EXPECT_EQ(statement_sql("set device = 'gpu'"), "SET device = 'gpu'");
  EXPECT_EQ(statement_sql("SET x = -1.5"), "SET x = -1.5");
  EXPECT_EQ(statement_sql("SET x TO DEFAULT"), "SET x = DEFAULT");
  EXPECT_EQ(statement_sql("SET x = true"), "SET x = true");
  EXPECT_EQ(statement_sql("SET x = \"Mixed\""), "SET x = \"Mixed\"");
  EXPECT_EQ(statement_sql("RESET threads"), "RESET threads");
  EXPECT_EQ(statement_sql("RESET ALL"), "RESET ALL");
  EXPECT_EQ(statement_sql("SHOW threads"), "SHOW threads");
  EXPECT_EQ(statement_sql("SHOW ALL"), "SHOW ALL");
  EXPECT_EQ(statement_sql("show tables"), "SHOW TABLES");
  EXPECT_EQ(statement_sql("DESCRIBE lineitem"), "DESCRIBE lineitem");
  EXPECT_EQ(statement_sql("DESCRIBE SELECT 1 AS a"), "DESCRIBE SELECT 1 AS a");
  auto describe = parse_statement("DESCRIBE (SELECT 1)");
  EXPECT_TRUE(describe->as<ast::DescribeStatement>().query);
}

TEST(ParserStatement, Scripts) {
  std::string sql = "SELECT 1;\n;  CREATE TABLE t (a INT) ;\nINSERT INTO t VALUES (1)";
  auto statements = parse_script(sql);
  ASSERT_EQ(statements.size(), 3u);
  EXPECT_TRUE(statements[0]->is<ast::QueryStatement>());
  EXPECT_TRUE(statements[1]->is<ast::CreateTableStatement>());
  EXPECT_TRUE(statements[2]->is<ast::InsertStatement>());
  const ast::Statement& create = *statements[1];
  EXPECT_EQ(sql.substr(create.position.offset, create.end_offset - create.position.offset), "CREATE TABLE t (a INT)");
  EXPECT_EQ(create.position.line, 2u);
  EXPECT_EQ(create.position.column, 4u);
  EXPECT_EQ(statements[2]->position.line, 3u);
  EXPECT_TRUE(parse_script("  -- only a comment\n ;; ").empty());
  EXPECT_NO_THROW(parse_statement("SELECT 1;"));
  EXPECT_THROW(parse_statement("SELECT 1; SELECT 2"), SyntaxError);
  EXPECT_THROW(parse_statement(""), SyntaxError);
}

}  // namespace
}  // namespace kestrel
