#include "planner/functions/function_registry.hpp"

#include <string>
#include <vector>

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool is_expression_function(const FunctionEntry& e) {
  return e.kind == FunctionKind::kScalar || e.kind == FunctionKind::kOperator;
}

/// Calls `fn(entry)` on every entry, in documentation order.
template <typename Fn>
void for_each_entry(Fn&& fn) {
  for (const FunctionCategory& c : function_categories()) {
    for (const FunctionEntry& e : c.entries) fn(e);
  }
}

}  // namespace

std::span<const FunctionCategory> function_categories() {
  static const std::vector<FunctionCategory> kCategories = {
      {"Mathematical functions",
       "Arithmetic on integers is checked: an overflow is an error, as is a division by zero.",
       registry::math_functions()},
      {"String functions",
       "Strings are UTF-8; lengths and positions count code points, and positions start at 1.",
       registry::string_functions()},
      {"Regular expression functions",
       "Patterns use RE2 syntax (https://github.com/google/re2/wiki/Syntax), close to the Java syntax of Presto but "
       "without back-references and look-around. A pattern is compiled once per distinct text and cached; an invalid "
       "pattern is an error naming the function and the pattern. Positions count code points. CPU only: a GPU query "
       "with `gpu_fallback = false` refuses them.",
       registry::regexp_functions()},
      {"URL functions",
       "URLs are split as RFC 2396 describes: `[protocol:][//host[:port]][path][?query][#fragment]`. A text that is "
       "not a valid URI gives NULL. The path, query and fragment are returned with their %XX escapes decoded.",
       registry::url_functions()},
      {"JSON functions",
       "Kestrel has no JSON type yet: JSON values are VARCHAR text, and the functions that return JSON return it as "
       "compact text. Paths are the JSONPath subset Presto accepts: `$`, then `.name`, `[\"name\"]` and `[index]` "
       "steps. CPU only.",
       registry::json_functions()},
      {"Binary functions",
       "VARBINARY values are bytes, not text: literals are written `X'00ff'` and print as hex bytes (`00 ff`). "
       "length, concat and `||`, substr, reverse, lpad and rpad take VARBINARY too and count bytes (see the string "
       "functions). CPU only: a GPU query with `gpu_fallback = false` refuses VARBINARY.",
       registry::binary_functions()},
      {"Array, map and row functions",
       "ARRAY(T), MAP(K, V) and ROW(name T, ...) values print as `[1, 2]`, `{a=1}` and `{x=1, y=a}`. `||` and "
       "concat join arrays (and an array and an element). Arrays order element by element, rows field by field; "
       "maps compare for equality only. transform, filter, reduce and the other functions with a `function(...)` "
       "argument take lambdas (`x -> x + 1`, `(s, x) -> s + x`). Functions that treat arrays as sets compare "
       "elements as IS NOT DISTINCT FROM does (NULL equals NULL). CPU only: a GPU query with `gpu_fallback = false` "
       "refuses nested values.",
       registry::array_functions()},
      {"Date and time functions",
       "There is no TIMESTAMP WITH TIME ZONE type yet: every TIMESTAMP is read as UTC, and the functions that return "
       "the current time return a TIMESTAMP in UTC.",
       registry::datetime_functions()},
      {"Conditional and type functions", "", registry::conditional_functions()},
      {"Session functions", "", registry::session_functions()},
      {"Operators", "", registry::operators()},
      {"Aggregate functions",
       "Aggregates skip NULL inputs. Each also takes `FILTER (WHERE condition)` and, except count(*), `DISTINCT`, "
       "and runs as a window function with `OVER (...)`.",
       registry::aggregate_functions()},
      {"Window functions", "Called with `OVER ([PARTITION BY ...] [ORDER BY ...])`.", registry::window_functions()},
  };
  return kCategories;
}

std::optional<ScalarFunction> lookup_scalar_function(std::string_view sql_name, size_t arg_count) {
  const std::string name = lower(sql_name);
  std::optional<ScalarFunction> found;
  for_each_entry([&](const FunctionEntry& e) {
    if (!found && is_expression_function(e) && e.name == name && arg_count >= e.min_args && arg_count <= e.max_args) {
      found = e.function;
    }
  });
  return found;
}

bool function_swaps_arguments(std::string_view sql_name) { return lower(sql_name) == "strpos"; }

bool is_scalar_function_name(std::string_view sql_name) {
  const std::string name = lower(sql_name);
  bool found = false;
  for_each_entry([&](const FunctionEntry& e) { found = found || (is_expression_function(e) && e.name == name); });
  return found;
}

}  // namespace kestrel::plan
