// docs/functions.md against the function registry it is generated from, and every documented example against the
// engine: the documentation cannot drift from the code.

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "main/database.hpp"
#include "planner/binder/expr_binder.hpp"
#include "planner/functions/function_docs.hpp"
#include "planner/functions/function_registry.hpp"

namespace kestrel::plan {
namespace {

/// The 1-based number and text of the first line where `a` and `b` differ.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream ia(a), ib(b);
  std::string la, lb;
  for (size_t line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(ia, la));
    const bool more_b = static_cast<bool>(std::getline(ib, lb));
    if (!more_a && !more_b) return "(only in the final newline)";
    if (!more_a || !more_b || la != lb) {
      return "line " + std::to_string(line) + ": file has '" + (more_a ? la : "<end>") + "', registry gives '" +
             (more_b ? lb : "<end>") + "'";
    }
  }
}

TEST(FunctionDocs, MarkdownMatchesTheRegistry) {
  std::ifstream in(KESTREL_SOURCE_DIR "/docs/functions.md", std::ios::binary);
  ASSERT_TRUE(in) << "docs/functions.md is missing";
  std::stringstream file;
  file << in.rdbuf();
  const std::string generated = functions_markdown();
  EXPECT_TRUE(file.str() == generated)
      << "docs/functions.md differs from the function registry (src/planner/functions/registry_*.cpp); regenerate "
         "it with `build/kestrel --list-functions-markdown > docs/functions.md`. First difference: "
      << first_difference(file.str(), generated);
}

TEST(FunctionDocs, EveryEntryIsDocumentedAndEveryAliasNamesAnEntry) {
  for (const FunctionCategory& c : function_categories()) {
    std::set<std::string_view> documented;
    for (const FunctionEntry& e : c.entries) {
      if (e.alias_of.empty()) documented.insert(e.name);
    }
    for (const FunctionEntry& e : c.entries) {
      SCOPED_TRACE(std::string(e.name));
      if (!e.alias_of.empty()) {
        EXPECT_TRUE(documented.count(e.alias_of)) << "alias of an entry not in " << c.title;
        continue;
      }
      EXPECT_FALSE(e.doc.signature.empty());
      EXPECT_FALSE(e.doc.description.empty());
      EXPECT_FALSE(e.doc.nulls.empty());
      EXPECT_FALSE(e.doc.example.empty());
      if (e.kind == FunctionKind::kAggregate) EXPECT_TRUE(ExprBinder::is_aggregate_name(std::string(e.name)));
    }
  }
}

/// Every ScalarFunction that an SQL name can produce has a registry entry; the others are the variants that
/// `resolve_scalar_function` picks for `+` and `-`, the IS [NOT] DISTINCT FROM syntax, try (bound from try()
/// and try_cast, which are documented as rewrites), from_unixtime's zoned form, and the wall-clock / instant
/// helpers of the binder's TIMESTAMP WITH TIME ZONE rewrites, and concat of arrays (bound from concat and || by the
/// argument types).
TEST(FunctionDocs, EveryScalarFunctionIsRegistered) {
  using F = ScalarFunction;
  const std::set<F> internal = {F::kDateAddInterval, F::kDateSubtractInterval, F::kDateAddDays,
                                F::kDateSubtractDays, F::kDateDiffDays, F::kTimestampDiff,         F::kIntervalAdd,
                                F::kIntervalNegate,   F::kIsDistinctFrom,       F::kIsNotDistinctFrom,
                                F::kTry,              F::kFromUnixtimeTz,       F::kTzLocal,
                                F::kTzInstant,        F::kTzWithLocal,          F::kTzWithInstant,
                                F::kArrayConcat};
  std::set<F> registered;
  for (const FunctionCategory& c : function_categories()) {
    for (const FunctionEntry& e : c.entries) {
      if (e.kind == FunctionKind::kScalar || e.kind == FunctionKind::kOperator) registered.insert(e.function);
    }
  }
  // scalar_function_name gives "?" past the last enumerator.
  for (int i = 0; std::string_view(scalar_function_name(static_cast<F>(i))) != "?"; ++i) {
    const F f = static_cast<F>(i);
    if (internal.count(f)) continue;
    EXPECT_TRUE(registered.count(f)) << scalar_function_name(f) << " has no registry entry";
  }
}

TEST(FunctionDocs, EveryExampleGivesItsDocumentedResult) {
  DatabaseOptions options;
  options.device = DeviceChoice::kCpu;
  Database database(options);
  Connection connection(database);
  for (const FunctionCategory& c : function_categories()) {
    for (const FunctionEntry& e : c.entries) {
      if (!e.alias_of.empty()) continue;
      const std::string sql = "SELECT " + std::string(e.doc.example);
      SCOPED_TRACE(sql);
      QueryResult result;
      try {
        result = connection.query(sql);
      } catch (const Error& error) {
        ADD_FAILURE() << error.what();
        continue;
      }
      ASSERT_GE(result.row_count(), 1u);
      if (!e.doc.result.empty()) EXPECT_EQ(result.value(0, 0).to_string(), e.doc.result);
    }
  }
}

}  // namespace
}  // namespace kestrel::plan
