// Registry entries: conditional and type functions, session functions and operators.

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

using F = ScalarFunction;

constexpr std::string_view kNullGivesNull = "NULL when any argument is NULL.";
constexpr std::string_view kComparisonNulls = "NULL when either side is NULL.";

constexpr FunctionEntry kConditional[] = {
    scalar("coalesce", F::kCoalesce, 1, kVariadic,
           {"coalesce(a, b, ...) -> the common type", "The first argument that is not NULL. An argument is evaluated "
            "only on the rows that reach it.", "NULL when every argument is NULL.", "coalesce(NULL, 2, 3)", "2"}),
    scalar("greatest", F::kGreatest, 1, kVariadic,
           {"greatest(a, b, ...) -> the common type", "The largest argument; NULL arguments are skipped (as in "
            "PostgreSQL; Presto gives NULL).", "NULL when every argument is NULL.", "greatest(1, NULL, 3)", "3"}),
    rewrite("if", {"if(condition BOOLEAN, a[, b]) -> the common type of a and b",
                   "a when condition is true, else b (NULL without b): CASE WHEN condition THEN a ELSE b END. Only the "
                   "branch a row takes is evaluated.",
                   "A NULL condition takes b.", "if(2 > 1, 'yes', 'no')", "yes"}),
    scalar("least", F::kLeast, 1, kVariadic,
           {"least(a, b, ...) -> the common type", "The smallest argument; NULL arguments are skipped (as in "
            "PostgreSQL; Presto gives NULL).", "NULL when every argument is NULL.", "least(2, 1.5)", "1.5"}),
    scalar("nullif", F::kNullIf, 2, 2,
           {"nullif(a, b) -> the common type", "NULL when a equals b, else a.", "NULL when a is NULL.",
            "nullif(1, 1)", "NULL"}),
    rewrite("try", {"try(x) -> the type of x",
                    "x, or NULL on the rows where computing x fails with a data error (division by zero, overflow, a "
                    "failed cast, an invalid argument such as a bad regular expression). Other errors still end the "
                    "query.",
                    "NULL when x is NULL or fails.", "try(1 / 0)", "NULL"}),
    rewrite("try_cast", {"try_cast(x AS type) -> type", "CAST(x AS type), or NULL where the value does not convert. "
                         "A cast that cannot exist (BOOLEAN to DATE) is still an error.",
                         "NULL when x is NULL or does not convert.", "try_cast('12x' AS INTEGER)", "NULL"}),
    rewrite("typeof", {"typeof(x) -> VARCHAR",
                       "The name of the type of x, in Presto's spelling: integer, bigint, double, decimal(p,s), "
                       "varchar (Presto says varchar(n) for a literal), date, timestamp, interval, boolean, unknown "
                       "for an untyped NULL, ... x is not evaluated.",
                       "Never NULL.", "typeof(1.5)", "decimal(2,1)"}),
};

constexpr FunctionEntry kSession[] = {
    rewrite("current_catalog", {"current_catalog -> VARCHAR", "The catalog name, `kestrel`.", "Never NULL.",
                                "current_catalog", "kestrel"}),
    rewrite("current_database", {"current_database() -> VARCHAR", "The same as current_catalog.", "Never NULL.",
                                 "current_database()", "kestrel"}),
    rewrite("current_schema", {"current_schema() -> VARCHAR", "The schema of the tables, `public`.", "Never NULL.",
                               "current_schema()", "public"}),
    rewrite("localtimestamp", {"localtimestamp -> TIMESTAMP",
                               "The time the statement started, as current_timestamp (Kestrel's timestamps have no "
                               "time zone: UTC). Written with or without parentheses.", "Never NULL.",
                               "localtimestamp = current_timestamp", "true"}),
    rewrite("current_timezone", {"current_timezone() -> VARCHAR",
                                 "The session's time zone: always UTC (timestamps have no time zone in Kestrel, "
                                 "and now() and current_timestamp are UTC).", "Never NULL.", "current_timezone()",
                                 "UTC"}),
    rewrite("format_type", {"format_type(type INTEGER, typmod INTEGER) -> VARCHAR",
                            "The name of the PostgreSQL type with that OID as pg_type lists it, numeric with its "
                            "precision and scale when typmod carries them (as pg_attribute.atttypmod does).",
                            "NULL when type is NULL.", "format_type(1700, 786436)", "numeric(12,0)"}),
    rewrite("json_build_object", {"json_build_object(key, value, ...) -> VARCHAR (JSON)",
                                  "A JSON object of the key / value pairs as text: keys and text values quoted, "
                                  "escaped as JSON requires (`\\\\`, `\\\"`, `\\n`, `\\t`, other control characters as "
                                  "`\\u00xx`), "
                                  "numbers and booleans as they are, NULL values as null.",
                                  "NULL when a key is NULL.", "json_build_object('a', 1, 'b', 'x')",
                                  "{\"a\": 1, \"b\": \"x\"}"}),
    rewrite("pg_collation_is_visible", {"pg_collation_is_visible(oid INTEGER) -> BOOLEAN",
                                        "Whether the collation is visible in the search path: always true.",
                                        "Never NULL.", "pg_collation_is_visible(100)", "true"}),
    rewrite("pg_get_expr", {"pg_get_expr(expression VARCHAR, relation INTEGER[, pretty BOOLEAN]) -> VARCHAR",
                            "The text of a stored expression (pg_attrdef.adbin, which Kestrel keeps as text).",
                            "NULL when expression is NULL.", "pg_get_expr('1 + 1', 0)", "1 + 1"}),
    rewrite("pg_get_serial_sequence", {"pg_get_serial_sequence(table VARCHAR, column VARCHAR) -> VARCHAR",
                                       "The sequence behind a serial column: always NULL (Kestrel has no sequences).",
                                       "Always NULL.", "pg_get_serial_sequence('t', 'id') IS NULL", "true"}),
    rewrite("pg_table_is_visible", {"pg_table_is_visible(oid INTEGER) -> BOOLEAN",
                                    "Whether the relation is visible in the search path: always true (every table "
                                    "is in schema public), for PostgreSQL clients' catalog queries.", "Never NULL.",
                                    "pg_table_is_visible(1)", "true"}),
    rewrite("to_regtype", {"to_regtype(name VARCHAR) -> INTEGER",
                           "The OID of the PostgreSQL type `name` as pg_type lists it (`int4`, `integer`, `character "
                           "varying`, ...), for clients that look types up on connect; `x::regtype` turns an OID back "
                           "into the type's name. The name must be a constant.",
                           "NULL when name is NULL or names no type pg_type lists.", "to_regtype('integer')", "23"}),
};

constexpr FunctionEntry kOperators[] = {
    op("+", F::kAdd, 2, 2,
       {"a + b", "Addition of numbers; DATE + INTEGER days, DATE or TIMESTAMP + INTERVAL, INTERVAL + INTERVAL. Integer "
        "overflow is an error; DECIMAL is exact.", kNullGivesNull, "DATE '2024-01-31' + INTERVAL '1' MONTH",
        "2024-02-29"}),
    op("-", F::kSubtract, 2, 2,
       {"a - b", "Subtraction; DATE - DATE gives the INTEGER days between them, DATE - INTEGER and DATE or TIMESTAMP - "
        "INTERVAL go back in time.", kNullGivesNull, "DATE '2024-01-10' - DATE '2024-01-01'", "9"}),
    op("-", F::kNegate, 1, 1, {"- a", "Negation of a number or INTERVAL.", kNullGivesNull, "-(2 + 3)", "-5"}),
    op("*", F::kMultiply, 2, 2, {"a * b", "Multiplication.", kNullGivesNull, "2.5 * 4", "10.0"}),
    op("/", F::kDivide, 2, 2,
       {"a / b", "Division; integer division truncates toward zero (7 / 2 is 3). Division by zero is an error.",
        kNullGivesNull, "7 / 2", "3"}),
    op("%", F::kModulo, 2, 2, {"a % b", "The remainder, as mod(a, b).", kNullGivesNull, "-7 % 3", "-1"}),
    op("||", F::kConcat, 2, 2, {"a || b", "String (or VARBINARY) concatenation, as concat(a, b).", kNullGivesNull, "'ab' || 'cd'",
                                "abcd"}),
    op("=", F::kEqual, 2, 2, {"a = b", "Equality of values of a common type.", kComparisonNulls, "1 = 1.0", "true"}),
    op("<>", F::kNotEqual, 2, 2, {"a <> b", "Inequality.", kComparisonNulls, "'a' <> 'b'", "true"}),
    alias("!=", "<>", F::kNotEqual, 2, 2),
    op("<", F::kLess, 2, 2, {"a < b", "Less than (strings compare by bytes, that is by code points).",
                             kComparisonNulls, "'a' < 'b'", "true"}),
    op("<=", F::kLessEqual, 2, 2, {"a <= b", "Less than or equal.", kComparisonNulls, "2 <= 2", "true"}),
    op(">", F::kGreater, 2, 2, {"a > b", "Greater than.", kComparisonNulls, "DATE '2024-01-02' > DATE '2024-01-01'",
                                "true"}),
    op(">=", F::kGreaterEqual, 2, 2, {"a >= b", "Greater than or equal.", kComparisonNulls, "1 >= 2", "false"}),
    op("like", F::kLike, 2, 3,
       {"string LIKE pattern [ESCAPE escape]", "Whether the whole string matches pattern, where % stands for any "
        "characters and _ for one character; escape makes the next % or _ literal.",
        kNullGivesNull, "'héllo' LIKE 'h_l%'", "true"}),
    op("not like", F::kNotLike, 2, 3,
       {"string NOT LIKE pattern [ESCAPE escape]", "NOT (string LIKE pattern).", kNullGivesNull,
        "'abc' NOT LIKE 'a%'", "false"}),
};

}  // namespace

std::span<const FunctionEntry> conditional_functions() { return kConditional; }
std::span<const FunctionEntry> session_functions() { return kSession; }
std::span<const FunctionEntry> operators() { return kOperators; }

}  // namespace kestrel::plan::registry
