// Registry entries: the map functions of issue 15.

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

using F = ScalarFunction;

constexpr std::string_view kNullGivesNull = "NULL when any argument is NULL.";
constexpr std::string_view kMatchNulls =
    "NULL when m is NULL, and when the lambda gives NULL for one and the others do not decide.";

constexpr FunctionEntry kMaps[] = {
    scalar("all_keys_match", F::kAllKeysMatch, 2, 2,
           {"all_keys_match(m MAP(K, V), function(K, BOOLEAN)) -> BOOLEAN",
            "Whether the lambda gives TRUE for every key of m (TRUE for an empty map).", kMatchNulls,
            "all_keys_match(map(ARRAY['a', 'b'], ARRAY[1, 2]), k -> length(k) = 1)", "true"}),
    scalar("any_keys_match", F::kAnyKeysMatch, 2, 2,
           {"any_keys_match(m MAP(K, V), function(K, BOOLEAN)) -> BOOLEAN",
            "Whether the lambda gives TRUE for a key of m (FALSE for an empty map).", kMatchNulls,
            "any_keys_match(map(ARRAY['a', 'b'], ARRAY[1, 2]), k -> k = 'a')", "true"}),
    scalar("any_values_match", F::kAnyValuesMatch, 2, 2,
           {"any_values_match(m MAP(K, V), function(V, BOOLEAN)) -> BOOLEAN",
            "Whether the lambda gives TRUE for a value of m (FALSE for an empty map).", kMatchNulls,
            "any_values_match(map(ARRAY['a', 'b'], ARRAY[1, 2]), v -> v > 1)", "true"}),
    scalar("array_to_map_int_keys", F::kArrayToMapIntKeys, 1, 1,
           {"array_to_map_int_keys(x ARRAY(V)) -> MAP(INTEGER, V)",
            "The map of each non-NULL element's 1-based position to the element. An error when x has more than "
            "10000 elements.",
            "NULL when x is NULL.", "array_to_map_int_keys(ARRAY[3, 5, NULL, 6])", "{1=3, 2=5, 4=6}"}),
    scalar("map_concat", F::kMapConcat, 2, kVariadic,
           {"map_concat(m1 MAP(K, V), m2 MAP(K, V)[, ...]) -> MAP(K, V)",
            "The union of the maps: every key once, in the order it first appears, with its value from the last "
            "map that has it.",
            kNullGivesNull, "map_concat(map(ARRAY['a', 'b'], ARRAY[1, 2]), map(ARRAY['b', 'c'], ARRAY[20, 30]))",
            "{a=1, b=20, c=30}"}),
    scalar("map_entries", F::kMapEntries, 1, 1,
           {"map_entries(m MAP(K, V)) -> ARRAY(ROW(K, V))", "The entries of m as (key, value) rows.", kNullGivesNull,
            "map_entries(map(ARRAY[1, 2], ARRAY['x', 'y']))", "[{field0=1, field1=x}, {field0=2, field1=y}]"}),
    scalar("map_filter", F::kMapFilter, 2, 2,
           {"map_filter(m MAP(K, V), function(K, V, BOOLEAN)) -> MAP(K, V)",
            "The entries of m for which the lambda (key, value) gives TRUE.", "NULL when m is NULL.",
            "map_filter(map(ARRAY['k1', 'k2', 'k3'], ARRAY[20, 3, 15]), (k, v) -> v > 10)", "{k1=20, k3=15}"}),
    scalar("map_int_keys_to_array", F::kMapIntKeysToArray, 1, 1,
           {"map_int_keys_to_array(m MAP(K, V)) -> ARRAY(V)",
            "An array whose element i is the value of key i of m (NULL where m has no such key), up to m's largest "
            "key; K is an integer type. An error when a key is not between 1 and 10000.",
            "NULL when m is NULL or empty.", "map_int_keys_to_array(map(ARRAY[3, 1], ARRAY['c', 'a']))",
            "[a, NULL, c]"}),
    scalar("map_key_exists", F::kMapKeyExists, 2, 2,
           {"map_key_exists(m MAP(K, V), key K) -> BOOLEAN", "Whether m has the key.", kNullGivesNull,
            "map_key_exists(map(ARRAY['x', 'y'], ARRAY[100, 200]), 'x')", "true"}),
    scalar("map_keys_by_top_n_values", F::kMapKeysByTopNValues, 2, 2,
           {"map_keys_by_top_n_values(m MAP(K, V), n BIGINT) -> ARRAY(K)",
            "The keys of the n largest values of m, by value descending, the larger key first among equal values "
            "(NULL values last). An error when n is negative.",
            kNullGivesNull, "map_keys_by_top_n_values(map(ARRAY['a', 'b', 'c'], ARRAY[2, 1, 3]), 2)", "[c, a]"}),
    scalar("map_normalize", F::kMapNormalize, 1, 1,
           {"map_normalize(m MAP(K, DOUBLE)) -> MAP(K, DOUBLE)",
            "m with each value divided by the sum of the values, so that they sum to 1 (numeric values become "
            "DOUBLE).",
            "NULL when m is NULL; NULL values stay NULL and are left out of the sum.",
            "map_normalize(map(ARRAY['a', 'b'], ARRAY[1, 3]))", "{a=0.25, b=0.75}"}),
    scalar("map_remove_null_values", F::kMapRemoveNullValues, 1, 1,
           {"map_remove_null_values(m MAP(K, V)) -> MAP(K, V)", "m without the entries whose value is NULL.",
            kNullGivesNull, "map_remove_null_values(map(ARRAY['a', 'b'], ARRAY[1, NULL]))", "{a=1}"}),
    scalar("map_subset", F::kMapSubset, 2, 2,
           {"map_subset(m MAP(K, V), keys ARRAY(K)) -> MAP(K, V)", "The entries of m whose key is in keys.",
            "NULL when m or keys is NULL; NULL keys are ignored.",
            "map_subset(map(ARRAY['a', 'b', 'c'], ARRAY[1, 2, 3]), ARRAY['c', 'a', 'z'])", "{a=1, c=3}"}),
    scalar("map_top_n", F::kMapTopN, 2, 2,
           {"map_top_n(m MAP(K, V), n BIGINT) -> MAP(K, V)",
            "The n entries of m with the largest values, by value descending, the larger key first among equal "
            "values (NULL values last). An error when n is negative.",
            kNullGivesNull, "map_top_n(map(ARRAY['a', 'b', 'c'], ARRAY[2, 3, 1]), 2)", "{b=3, a=2}"}),
    scalar("map_top_n_keys", F::kMapTopNKeys, 2, 2,
           {"map_top_n_keys(m MAP(K, V), n BIGINT) -> ARRAY(K)",
            "The n largest keys of m in descending order. An error when n is negative.", kNullGivesNull,
            "map_top_n_keys(map(ARRAY['a', 'b', 'c'], ARRAY[3, 2, 1]), 2)", "[c, b]"}),
    scalar("map_top_n_values", F::kMapTopNValues, 2, 2,
           {"map_top_n_values(m MAP(K, V), n BIGINT) -> ARRAY(V)",
            "The n largest values of m in descending order, NULL values last. An error when n is negative.",
            kNullGivesNull, "map_top_n_values(map(ARRAY['a', 'b', 'c'], ARRAY[1, 2, 3]), 2)", "[3, 2]"}),
    scalar("map_zip_with", F::kMapZipWith, 3, 3,
           {"map_zip_with(m1 MAP(K, V1), m2 MAP(K, V2), function(K, V1, V2, V3)) -> MAP(K, V3)",
            "The map of every key of m1 and m2 (those of m1 first) to the lambda of the key and its two values; a "
            "value a map lacks is NULL.",
            "NULL when m1 or m2 is NULL.",
            "map_zip_with(map(ARRAY['a', 'b'], ARRAY[1, 2]), map(ARRAY['b', 'c'], ARRAY[10, 20]), (k, v1, v2) -> "
            "coalesce(v1, 0) + coalesce(v2, 0))",
            "{a=1, b=12, c=20}"}),
    scalar("multimap_from_entries", F::kMultimapFromEntries, 1, 1,
           {"multimap_from_entries(entries ARRAY(ROW(K, V))) -> MAP(K, ARRAY(V))",
            "The map of each key of the (key, value) rows to the array of its values, in order. An error when an "
            "entry or a key is NULL.",
            "NULL when entries is NULL.", "multimap_from_entries(ARRAY[ROW(1, 'x'), ROW(2, 'y'), ROW(1, 'z')])",
            "{1=[x, z], 2=[y]}"}),
    scalar("no_keys_match", F::kNoKeysMatch, 2, 2,
           {"no_keys_match(m MAP(K, V), function(K, BOOLEAN)) -> BOOLEAN",
            "Whether the lambda gives TRUE for no key of m (TRUE for an empty map).", kMatchNulls,
            "no_keys_match(map(ARRAY['a', 'b'], ARRAY[1, 2]), k -> k = 'd')", "true"}),
    scalar("no_values_match", F::kNoValuesMatch, 2, 2,
           {"no_values_match(m MAP(K, V), function(V, BOOLEAN)) -> BOOLEAN",
            "Whether the lambda gives TRUE for no value of m (TRUE for an empty map).", kMatchNulls,
            "no_values_match(map(ARRAY['a', 'b'], ARRAY[1, 2]), v -> v > 5)", "true"}),
    scalar("transform_keys", F::kTransformKeys, 2, 2,
           {"transform_keys(m MAP(K1, V), function(K1, V, K2)) -> MAP(K2, V)",
            "m with each key replaced by the lambda of the key and its value. An error when two new keys are equal "
            "or one is NULL.",
            "NULL when m is NULL.", "transform_keys(map(ARRAY[1, 2, 3], ARRAY['a', 'b', 'c']), (k, v) -> k + 1)",
            "{2=a, 3=b, 4=c}"}),
    scalar("transform_values", F::kTransformValues, 2, 2,
           {"transform_values(m MAP(K, V1), function(K, V1, V2)) -> MAP(K, V2)",
            "m with each value replaced by the lambda of the key and the value.", "NULL when m is NULL.",
            "transform_values(map(ARRAY[1, 2, 3], ARRAY[10, 20, 30]), (k, v) -> v + k)", "{1=11, 2=22, 3=33}"}),
};

}  // namespace

std::span<const FunctionEntry> map_functions() { return kMaps; }

}  // namespace kestrel::plan::registry
