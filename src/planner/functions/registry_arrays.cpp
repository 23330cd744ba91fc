// Registry entries: array, map and row functions and operators, and the lambda functions.

#include <algorithm>
#include <vector>

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

using F = ScalarFunction;

constexpr std::string_view kNullGivesNull = "NULL when any argument is NULL.";

constexpr FunctionEntry kArrays[] = {
    scalar("array_distinct", F::kArrayDistinct, 1, 1,
           {"array_distinct(x ARRAY(T)) -> ARRAY(T)",
            "x without repeated elements, each kept where it first appears; NULL elements count as one value.",
            kNullGivesNull, "array_distinct(ARRAY[3, 1, 3, NULL, 1, NULL])", "[3, 1, NULL]"}),
    scalar("array_join", F::kArrayJoin, 2, 3,
           {"array_join(x ARRAY(T), delimiter VARCHAR[, null_replacement VARCHAR]) -> VARCHAR",
            "The elements of x as text, joined by delimiter. NULL elements are left out, or written as "
            "null_replacement when it is given.",
            kNullGivesNull, "array_join(ARRAY[1, NULL, 3], ', ', 'n/a')", "1, n/a, 3"}),
    scalar("array_max", F::kArrayMax, 1, 1,
           {"array_max(x ARRAY(T)) -> T", "The largest element of x.",
            "NULL when x is NULL or empty, or when an element is NULL.", "array_max(ARRAY[1, 7, 3])", "7"}),
    scalar("array_min", F::kArrayMin, 1, 1,
           {"array_min(x ARRAY(T)) -> T", "The smallest element of x.",
            "NULL when x is NULL or empty, or when an element is NULL.", "array_min(ARRAY['b', 'a'])", "a"}),
    scalar("array_position", F::kArrayPosition, 2, 2,
           {"array_position(x ARRAY(T), element T) -> BIGINT",
            "The 1-based position of the first element of x equal to element, 0 when there is none.",
            kNullGivesNull, "array_position(ARRAY[5, 6, 6], 6)", "2"}),
    scalar("array_sort", F::kArraySort, 1, 1,
           {"array_sort(x ARRAY(T)) -> ARRAY(T)", "The elements of x in ascending order, NULL elements last.",
            kNullGivesNull, "array_sort(ARRAY[3, NULL, 1, 2])", "[1, 2, 3, NULL]"}),
    scalar("cardinality", F::kCardinality, 1, 1,
           {"cardinality(x ARRAY(T)) -> BIGINT\ncardinality(x MAP(K, V)) -> BIGINT",
            "The number of elements of an array or entries of a map.", kNullGivesNull,
            "cardinality(ARRAY[1, NULL, 3])", "3"}),
    scalar("contains", F::kContains, 2, 2,
           {"contains(x ARRAY(T), element T) -> BOOLEAN", "Whether x has an element equal to element.",
            "NULL when x or element is NULL, or when no element is equal and one is NULL.",
            "contains(ARRAY[1, 2, 3], 2)", "true"}),
    scalar("element_at", F::kElementAt, 2, 2,
           {"element_at(x ARRAY(T), index BIGINT) -> T\nelement_at(m MAP(K, V), key K) -> V",
            "The element at the 1-based index (counted from the end when negative) or the value of key. Unlike the "
            "subscript operator, an index past either end or a missing key gives NULL; index 0 is an error.",
            kNullGivesNull, "element_at(ARRAY[1, 2, 3], -1)", "3"}),
    scalar("filter", F::kFilter, 2, 2,
           {"filter(x ARRAY(T), function(T, BOOLEAN)) -> ARRAY(T)",
            "The elements of x for which the lambda function gives TRUE, in order.", "NULL when x is NULL.",
            "filter(ARRAY[5, -6, NULL, 7], x -> x > 0)", "[5, 7]"}),
    scalar("map", F::kMapFromArrays, 0, 2,
           {"map() -> MAP\nmap(keys ARRAY(K), values ARRAY(V)) -> MAP(K, V)",
            "The map of keys[i] to values[i]; map() is the empty map. An error when the arrays differ in length, a "
            "key is NULL or a key appears twice.",
            kNullGivesNull, "map(ARRAY['a', 'b'], ARRAY[1, 2])", "{a=1, b=2}"}),
    scalar("map_from_entries", F::kMapFromEntries, 1, 1,
           {"map_from_entries(entries ARRAY(ROW(K, V))) -> MAP(K, V)",
            "The map of the (key, value) rows of entries; an error when a key is NULL or appears twice.",
            "NULL when entries is NULL.", "map_from_entries(ARRAY[ROW('x', 1), ROW('y', 2)])", "{x=1, y=2}"}),
    scalar("map_keys", F::kMapKeys, 1, 1,
           {"map_keys(m MAP(K, V)) -> ARRAY(K)", "The keys of m.", kNullGivesNull,
            "map_keys(map(ARRAY['a', 'b'], ARRAY[1, 2]))", "[a, b]"}),
    scalar("map_values", F::kMapValues, 1, 1,
           {"map_values(m MAP(K, V)) -> ARRAY(V)", "The values of m, in the order of its keys.", kNullGivesNull,
            "map_values(map(ARRAY['a', 'b'], ARRAY[1, 2]))", "[1, 2]"}),
    scalar("reduce", F::kReduce, 4, 4,
           {"reduce(x ARRAY(T), initial S, input function(S, T, S), output function(S, R)) -> R",
            "Folds x into one value: starting from initial, the input lambda takes the state and each element in "
            "turn; the output lambda turns the last state into the result.",
            "NULL when x is NULL; NULL elements and states reach the lambdas as they are.",
            "reduce(ARRAY[5, 20, 50], 0, (s, x) -> s + x, s -> s)", "75"}),
    scalar("row", F::kRowConstructor, 1, kVariadic,
           {"row(a T1, b T2, ...) -> ROW(T1, T2, ...)",
            "A ROW of the arguments, its fields unnamed (shown as field0, field1, ...); CAST it to a ROW type with "
            "names to name them.",
            "NULL arguments are NULL fields; the row itself is not NULL.", "CAST(row(1, 'a') AS ROW(x INTEGER, y "
            "VARCHAR))", "{x=1, y=a}"}),
    scalar("sequence", F::kSequence, 2, 3,
           {"sequence(start BIGINT, stop BIGINT[, step BIGINT]) -> ARRAY(BIGINT)\nsequence(start DATE, stop DATE[, "
            "step INTERVAL]) -> ARRAY(DATE)\nsequence(start TIMESTAMP, stop TIMESTAMP, step INTERVAL) -> "
            "ARRAY(TIMESTAMP)",
            "The values from start to stop (included when reached) by step; the default step is 1 (-1 when stop "
            "is below start) or one day. An error when step goes away from stop or the result has more than "
            "10000 elements.",
            kNullGivesNull, "sequence(1, 9, 4)", "[1, 5, 9]"}),
    scalar("slice", F::kSlice, 3, 3,
           {"slice(x ARRAY(T), start BIGINT, length BIGINT) -> ARRAY(T)",
            "length elements of x from the 1-based start (counted from the end when negative). An error when start "
            "is 0 or length negative.",
            kNullGivesNull, "slice(ARRAY[1, 2, 3, 4], -3, 2)", "[2, 3]"}),
    scalar("split", F::kSplit, 2, 3,
           {"split(string VARCHAR, delimiter VARCHAR[, limit BIGINT]) -> ARRAY(VARCHAR)",
            "The pieces of string between occurrences of delimiter; with limit, at most limit pieces, the last "
            "holding the rest of string.",
            kNullGivesNull, "split('a.b.c', '.', 2)", "[a, b.c]"}),
    scalar("transform", F::kTransform, 2, 2,
           {"transform(x ARRAY(T), function(T, U)) -> ARRAY(U)",
            "The lambda function applied to each element of x.", "NULL when x is NULL.",
            "transform(ARRAY[1, 2, NULL], x -> coalesce(x, 0) * 10)", "[10, 20, 0]"}),
    op("ARRAY[...]", F::kArrayConstructor, 0, kVariadic,
       {"ARRAY[a T, b T, ...] -> ARRAY(T)",
        "An array of the elements, converted to their common type (ARRAY[] and ARRAY[NULL] are ARRAY(INTEGER)).",
        "NULL elements are elements.", "ARRAY[1, 2.5]", "[1.0, 2.5]"}),
    op("[]", F::kSubscript, 2, 2,
       {"x ARRAY(T)[index BIGINT] -> T\nm MAP(K, V)[key K] -> V\nr ROW(...)[n] -> field n",
        "The element at the 1-based index, the value of key, or field n (a constant) of a ROW. An error when "
        "index is outside the array or the key is missing (element_at gives NULL instead).",
        kNullGivesNull, "ARRAY[10, 20, 30][2]", "20"}),
    op(".", F::kRowField, 2, 2,
       {"r ROW(name T, ...).name -> T", "The field of a ROW by name (`r.name`, `(expression).name`).",
        "NULL when r is NULL.", "CAST(ROW(1, 'a') AS ROW(x INTEGER, y VARCHAR)).y", "a"}),
};

}  // namespace

std::span<const FunctionEntry> array_functions() {
  // This file's entries with those of registry_arrays_more.cpp and registry_maps.cpp: the functions by name, then
  // the operators.
  static const std::vector<FunctionEntry> kAll = [] {
    std::vector<FunctionEntry> all(std::begin(kArrays), std::end(kArrays));
    for (std::span<const FunctionEntry> more : {array_more_functions(), map_functions()}) {
      all.insert(all.end(), more.begin(), more.end());
    }
    std::stable_sort(all.begin(), all.end(), [](const FunctionEntry& a, const FunctionEntry& b) {
      const bool op_a = a.kind == FunctionKind::kOperator, op_b = b.kind == FunctionKind::kOperator;
      if (op_a != op_b) return op_b;
      return !op_a && a.name < b.name;
    });
    return all;
  }();
  return kAll;
}

}  // namespace kestrel::plan::registry
