// Registry entries: the array functions of issue 15 (Presto's array_* helpers, set functions, lambdas).

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

using F = ScalarFunction;

constexpr std::string_view kNullGivesNull = "NULL when any argument is NULL.";
constexpr std::string_view kMatchNulls =
    "NULL when x is NULL, and when the lambda gives NULL for an element and the others do not decide.";

constexpr FunctionEntry kArraysMore[] = {
    scalar("all_match", F::kAllMatch, 2, 2,
           {"all_match(x ARRAY(T), function(T, BOOLEAN)) -> BOOLEAN",
            "Whether the lambda gives TRUE for every element of x: TRUE when it does (or x is empty), FALSE when it "
            "gives FALSE for an element.",
            kMatchNulls, "all_match(ARRAY[2, 4, 6], x -> x % 2 = 0)", "true"}),
    scalar("any_match", F::kAnyMatch, 2, 2,
           {"any_match(x ARRAY(T), function(T, BOOLEAN)) -> BOOLEAN",
            "Whether the lambda gives TRUE for an element of x: FALSE when it gives FALSE for every element (or x is "
            "empty).",
            kMatchNulls, "any_match(ARRAY[1, 2, 3], x -> x > 2)", "true"}),
    scalar("array_average", F::kArrayAverage, 1, 1,
           {"array_average(x ARRAY(DOUBLE)) -> DOUBLE", "The mean of the non-NULL elements of x (numbers of any type).",
            "NULL when x is NULL or has no non-NULL element.", "array_average(ARRAY[1, 2, NULL, 6])", "3.0"}),
    scalar("array_cum_sum", F::kArrayCumSum, 1, 1,
           {"array_cum_sum(x ARRAY(T)) -> ARRAY(T)",
            "The running sums of x: element i is x[1] + ... + x[i], in x's numeric type (an overflow is an error), "
            "DECIMAL(38, s) for DECIMAL(p, s) elements.",
            "NULL when x is NULL; every sum from the first NULL element on is NULL.",
            "array_cum_sum(ARRAY[1, 2, NULL, 3])", "[1, 3, NULL, NULL]"}),
    scalar("array_duplicates", F::kArrayDuplicates, 1, 1,
           {"array_duplicates(x ARRAY(T)) -> ARRAY(T)",
            "The elements that occur more than once in x, each once, in the order they first appear.",
            "NULL when x is NULL; NULL elements count as one value.", "array_duplicates(ARRAY[1, 2, NULL, 1, NULL, 3])",
            "[1, NULL]"}),
    scalar("array_except", F::kArrayExcept, 2, 2,
           {"array_except(x ARRAY(T), y ARRAY(T)) -> ARRAY(T)",
            "The elements of x that are not in y, without duplicates, in the order of x.",
            "NULL when x or y is NULL; NULL elements count as one value.",
            "array_except(ARRAY[1, 2, 3, 2, NULL], ARRAY[2, 5])", "[1, 3, NULL]"}),
    scalar("array_frequency", F::kArrayFrequency, 1, 1,
           {"array_frequency(x ARRAY(T)) -> MAP(T, INTEGER)",
            "How many times each element occurs in x, keys in the order they first appear; NULL elements are "
            "skipped.",
            "NULL when x is NULL.", "array_frequency(ARRAY['b', 'a', 'b', NULL])", "{b=2, a=1}"}),
    scalar("array_has_duplicates", F::kArrayHasDuplicates, 1, 1,
           {"array_has_duplicates(x ARRAY(T)) -> BOOLEAN", "Whether an element occurs more than once in x.",
            "NULL when x is NULL; NULL elements count as one value.", "array_has_duplicates(ARRAY[1, NULL, NULL])",
            "true"}),
    scalar("array_intersect", F::kArrayIntersect, 1, 2,
           {"array_intersect(x ARRAY(T), y ARRAY(T)) -> ARRAY(T)\narray_intersect(arrays ARRAY(ARRAY(T))) -> "
            "ARRAY(T)",
            "The elements of x that are also in y (or in every array of arrays), without duplicates, in the order "
            "of the first array.",
            "NULL when an array is NULL; NULL elements count as one value.",
            "array_intersect(ARRAY[1, 2, 3, 2, NULL], ARRAY[NULL, 2, 4])", "[2, NULL]"}),
    scalar("array_least_frequent", F::kArrayLeastFrequent, 1, 2,
           {"array_least_frequent(x ARRAY(T)[, n BIGINT]) -> ARRAY(T)",
            "The n (default 1) non-NULL elements of x that occur least often, by increasing count, the smaller "
            "element first among equal counts. An error when n is negative.",
            "NULL when an argument is NULL or x has no non-NULL element.",
            "array_least_frequent(ARRAY[3, 2, 2, 6, 6, 1, 1], 3)", "[3, 1, 2]"}),
    scalar("array_max_by", F::kArrayMaxBy, 2, 2,
           {"array_max_by(x ARRAY(T), function(T, U)) -> T",
            "The element of x for which the lambda gives the largest value (the last one among equals).",
            "NULL when x is NULL or empty, or when the lambda gives NULL for an element.",
            "array_max_by(ARRAY['a', 'bbb', 'cc'], x -> length(x))", "bbb"}),
    scalar("array_min_by", F::kArrayMinBy, 2, 2,
           {"array_min_by(x ARRAY(T), function(T, U)) -> T",
            "The element of x for which the lambda gives the smallest value (the first one among equals).",
            "NULL when x is NULL or empty, or when the lambda gives NULL for an element.",
            "array_min_by(ARRAY['a', 'bbb', 'cc'], x -> length(x))", "a"}),
    scalar("array_most_frequent", F::kArrayMostFrequent, 1, 2,
           {"array_most_frequent(x ARRAY(T)[, n BIGINT]) -> ARRAY(T)",
            "The n (default 1) non-NULL elements of x that occur most often, by decreasing count, the larger "
            "element first among equal counts. An error when n is negative.",
            "NULL when an argument is NULL or x has no non-NULL element.",
            "array_most_frequent(ARRAY[1, 2, 2, 3, 3, NULL, NULL, NULL])", "[3]"}),
    scalar("array_normalize", F::kArrayNormalize, 2, 2,
           {"array_normalize(x ARRAY(T), p T) -> ARRAY(T)",
            "x divided by its p-norm (the p-th root of the sum of |x[i]|^p); T is REAL or DOUBLE. x itself when p "
            "is 0 or every element is 0; an error when p is negative.",
            "NULL when x or p is NULL, or when p is not 0 and an element is NULL.",
            "array_normalize(ARRAY[3.0E0, 4.0E0], 2.0E0)", "[0.6, 0.8]"}),
    scalar("array_remove", F::kArrayRemove, 2, 2,
           {"array_remove(x ARRAY(T), element T) -> ARRAY(T)", "x without the elements equal to element.",
            "NULL when x or element is NULL; NULL elements are kept.", "array_remove(ARRAY[1, 2, NULL, 2], 2)",
            "[1, NULL]"}),
    scalar("array_sort_desc", F::kArraySortDesc, 1, 1,
           {"array_sort_desc(x ARRAY(T)) -> ARRAY(T)", "The elements of x in descending order, NULL elements last.",
            kNullGivesNull, "array_sort_desc(ARRAY[NULL, 100, 1, 10, 50])", "[100, 50, 10, 1, NULL]"}),
    scalar("array_split_into_chunks", F::kArraySplitIntoChunks, 2, 2,
           {"array_split_into_chunks(x ARRAY(T), size BIGINT) -> ARRAY(ARRAY(T))",
            "x cut into arrays of size elements, the last one shorter when size does not divide x's length. An "
            "error when size is not positive or there would be more than 10000 chunks.",
            "NULL when x or size is NULL; NULL elements are elements.", "array_split_into_chunks(ARRAY[1, 2, 3, 4], 3)",
            "[[1, 2, 3], [4]]"}),
    scalar("array_sum", F::kArraySum, 1, 1,
           {"array_sum(x ARRAY(T)) -> BIGINT or DOUBLE",
            "The sum of the non-NULL elements of x: BIGINT for integers (an overflow is an error), DOUBLE for "
            "other numbers; 0 when there is none.",
            "NULL when x is NULL.", "array_sum(ARRAY[1, 2, NULL, 4])", "7"}),
    scalar("array_top_n", F::kArrayTopN, 2, 2,
           {"array_top_n(x ARRAY(T), n BIGINT) -> ARRAY(T)",
            "The n largest elements of x in descending order (all of them when x has fewer), NULL elements last. An "
            "error when n is negative.",
            kNullGivesNull, "array_top_n(ARRAY[1, 100, 2, 5, 3], 3)", "[100, 5, 3]"}),
    scalar("array_transpose", F::kArrayTranspose, 1, 1,
           {"array_transpose(x ARRAY(ARRAY(T))) -> ARRAY(ARRAY(T))",
            "The transpose of the matrix x: element [j][i] of the result is x[i][j]. An error when the inner arrays "
            "differ in length or one is NULL.",
            "NULL when x is NULL.", "array_transpose(ARRAY[ARRAY[1, 2, 3], ARRAY[4, 5, 6]])",
            "[[1, 4], [2, 5], [3, 6]]"}),
    scalar("array_union", F::kArrayUnion, 2, 2,
           {"array_union(x ARRAY(T), y ARRAY(T)) -> ARRAY(T)",
            "The elements of x and then of y, without duplicates, in the order they first appear.",
            "NULL when x or y is NULL; NULL elements count as one value.", "array_union(ARRAY[1, 2, 1], ARRAY[3, 2])",
            "[1, 2, 3]"}),
    scalar("arrays_overlap", F::kArraysOverlap, 2, 2,
           {"arrays_overlap(x ARRAY(T), y ARRAY(T)) -> BOOLEAN",
            "Whether x and y have a non-NULL element in common; FALSE when either is empty.",
            "NULL when x or y is NULL, and when they share no element but one of them has a NULL element.",
            "arrays_overlap(ARRAY[1, 2], ARRAY[2, 3])", "true"}),
    scalar("combinations", F::kCombinations, 2, 2,
           {"combinations(x ARRAY(T), n BIGINT) -> ARRAY(ARRAY(T))",
            "The n-element combinations of x's elements (by position, so repeated values repeat combinations), "
            "ordered by their last element's position, then the one before. An error when n is negative or above "
            "5, or the result would have more than 100000 elements.",
            kNullGivesNull, "combinations(ARRAY[1, 2, 3, 4], 3)", "[[1, 2, 3], [1, 2, 4], [1, 3, 4], [2, 3, 4]]"}),
    scalar("find_first", F::kFindFirst, 2, 3,
           {"find_first(x ARRAY(T)[, start BIGINT], function(T, BOOLEAN)) -> T",
            "The first element of x for which the lambda gives TRUE, searching from position start (default 1) to "
            "the end, or from position -start counted from the end back to the first element when start is "
            "negative. An error when start is 0 or the element found is NULL.",
            "NULL when x or start is NULL or no element matches.", "find_first(ARRAY[3, 4, 5, 6], -2, x -> x > 0)",
            "5"}),
    scalar("find_first_index", F::kFindFirstIndex, 2, 3,
           {"find_first_index(x ARRAY(T)[, start BIGINT], function(T, BOOLEAN)) -> BIGINT",
            "The 1-based position of the element find_first finds.",
            "NULL when x or start is NULL or no element matches.",
            "find_first_index(ARRAY[3, 4, 5, 6], 2, x -> x > 0)", "2"}),
    scalar("flatten", F::kFlatten, 1, 1,
           {"flatten(x ARRAY(ARRAY(T))) -> ARRAY(T)", "The elements of the arrays of x one after the other.",
            "NULL when x is NULL; NULL inner arrays are skipped.", "flatten(ARRAY[ARRAY[1, 2], NULL, ARRAY[3]])",
            "[1, 2, 3]"}),
    scalar("ngrams", F::kNgrams, 2, 2,
           {"ngrams(x ARRAY(T), n BIGINT) -> ARRAY(ARRAY(T))",
            "The runs of n consecutive elements of x; x alone when it has n elements or fewer. An error when n is "
            "not positive.",
            kNullGivesNull, "ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 2)", "[[foo, bar], [bar, baz], [baz, foo]]"}),
    scalar("none_match", F::kNoneMatch, 2, 2,
           {"none_match(x ARRAY(T), function(T, BOOLEAN)) -> BOOLEAN",
            "Whether the lambda gives TRUE for no element of x: FALSE when it gives TRUE for one, TRUE when it gives "
            "FALSE for every element (or x is empty).",
            kMatchNulls, "none_match(ARRAY[1, 2, 3], x -> x > 5)", "true"}),
    scalar("remove_nulls", F::kRemoveNulls, 1, 1,
           {"remove_nulls(x ARRAY(T)) -> ARRAY(T)", "x without its NULL elements.", "NULL when x is NULL.",
            "remove_nulls(ARRAY[1, NULL, 3, NULL])", "[1, 3]"}),
    scalar("repeat", F::kRepeat, 2, 2,
           {"repeat(element T, count BIGINT) -> ARRAY(T)",
            "An array of count copies of element. An error when count is negative or above 10000.",
            "NULL when count is NULL; a NULL element gives NULL elements.", "repeat('ab', 3)", "[ab, ab, ab]"}),
    scalar("shuffle", F::kShuffle, 1, 1,
           {"shuffle(x ARRAY(T)) -> ARRAY(T)", "The elements of x in a random order, a new one on every row.",
            "NULL when x is NULL.", "cardinality(shuffle(ARRAY[1, 2, 3]))", "3"}),
    scalar("trim_array", F::kTrimArray, 2, 2,
           {"trim_array(x ARRAY(T), n BIGINT) -> ARRAY(T)",
            "x without its last n elements. An error when n is negative or larger than x's length.", kNullGivesNull,
            "trim_array(ARRAY[1, 2, 3, 4], 2)", "[1, 2]"}),
    scalar("zip", F::kZip, 2, 7,
           {"zip(a1 ARRAY(T1), a2 ARRAY(T2)[, ...]) -> ARRAY(ROW(T1, T2, ...))",
            "Rows of the elements at each position of the arrays (2 to 7 of them), the shorter arrays padded with "
            "NULLs.",
            "NULL when an array is NULL.", "zip(ARRAY[1, 2], ARRAY['a', NULL, 'c'])",
            "[{field0=1, field1=a}, {field0=2, field1=NULL}, {field0=NULL, field1=c}]"}),
    scalar("zip_with", F::kZipWith, 3, 3,
           {"zip_with(x ARRAY(T), y ARRAY(U), function(T, U, R)) -> ARRAY(R)",
            "The lambda applied to the elements of x and y at each position, the shorter array padded with NULLs.",
            "NULL when x or y is NULL.", "zip_with(ARRAY[1, 2], ARRAY[3, 4, 5], (x, y) -> coalesce(x, 0) + y)",
            "[4, 6, 5]"}),
};

}  // namespace

std::span<const FunctionEntry> array_more_functions() { return kArraysMore; }

}  // namespace kestrel::plan::registry
