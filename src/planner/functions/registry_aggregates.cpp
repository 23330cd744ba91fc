// Registry entries: aggregate and window functions (documentation; the binder resolves them by name).

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

constexpr std::string_view kSkipsNulls = "NULL inputs are skipped; NULL when there is no other input.";
constexpr std::string_view kPairs1 = "Pairs with a NULL are skipped; NULL when no pair is left.";
constexpr std::string_view kPairs2 = "Pairs with a NULL are skipped; NULL with fewer than two pairs.";
constexpr std::string_view kPairsLine = "Pairs with a NULL are skipped; NULL with fewer than two pairs or a constant "
                                        "x.";

constexpr FunctionEntry kAggregates[] = {
    aggregate("array_agg", {"array_agg(x [ORDER BY ...]) -> ARRAY(T)",
                            "The values of x as an array, in the order of ORDER BY (without it, in no set order).",
                            "NULL inputs are elements; NULL when there is no input row.",
                            "array_agg(x ORDER BY x DESC) FROM (VALUES (2), (1), (3)) AS t(x)", "[3, 2, 1]"}),
    aggregate("map_agg", {"map_agg(key K, value V) -> MAP(K, V)",
                          "The map of the key/value pairs, its entries in key order; of a repeated key the value "
                          "of one of its rows is kept.",
                          "Rows with a NULL key are skipped; NULL when there is no input row.",
                          "map_agg(k, v) FROM (VALUES ('b', 2), ('a', 1)) AS t(k, v)", "{a=1, b=2}"}),
    aggregate("any_value", {"any_value(x) -> the type of x", "One of the values of x.", kSkipsNulls,
                            "any_value(x) FROM (VALUES (7)) AS t(x)", "7"}),
    aggregate_alias("arbitrary", "any_value"),
    aggregate("approx_distinct", {"approx_distinct(x[, e DOUBLE]) -> BIGINT", "The number of distinct values of x, "
                                  "computed exactly (so within any maximum standard error e, which must be a constant "
                                  "in [0.0040625, 0.26]).", "NULL inputs are not counted; 0 when there are none.",
                                  "approx_distinct(x) FROM (VALUES (1), (2), (2), (NULL)) AS t(x)", "2"}),
    aggregate("approx_percentile", {"approx_percentile(x, p DOUBLE) -> the type of x", "The percentile p of the "
                                    "numbers x, computed exactly (as percentile_disc(p) WITHIN GROUP (ORDER BY x)): a "
                                    "value of x, never an interpolation. p must be a constant in [0, 1]; Presto's "
                                    "forms with weights, an accuracy or an array of percentiles are not supported.",
                                    kSkipsNulls, "approx_percentile(x, 0.5) FROM (VALUES (1), (2), (3), (4)) AS t(x)",
                                    "2"}),
    aggregate("avg", {"avg(x) -> DOUBLE, or DECIMAL(38, max(s, 6)) for DECIMAL(p, s)", "The mean of x.", kSkipsNulls,
                      "avg(x) FROM (VALUES (1), (2), (4)) AS t(x)", "2.3333333333333335"}),
    aggregate("bool_and", {"bool_and(b BOOLEAN) -> BOOLEAN", "Whether every b is true.", kSkipsNulls,
                           "bool_and(x > 0) FROM (VALUES (1), (2)) AS t(x)", "true"}),
    aggregate_alias("every", "bool_and"),
    aggregate("bitwise_and_agg", {"bitwise_and_agg(x BIGINT) -> BIGINT", "The bitwise AND of every x (two's "
                                  "complement).", "NULL inputs are skipped; NULL when there are none.",
                                  "bitwise_and_agg(x) FROM (VALUES (12), (10)) AS t(x)", "8"}),
    aggregate("bitwise_or_agg", {"bitwise_or_agg(x BIGINT) -> BIGINT", "The bitwise OR of every x.",
                                 "NULL inputs are skipped; NULL when there are none.",
                                 "bitwise_or_agg(x) FROM (VALUES (12), (10)) AS t(x)", "14"}),
    aggregate("bitwise_xor_agg", {"bitwise_xor_agg(x BIGINT) -> BIGINT", "The bitwise exclusive OR of every x.",
                                  "NULL inputs are skipped; NULL when there are none.",
                                  "bitwise_xor_agg(x) FROM (VALUES (12), (10)) AS t(x)", "6"}),
    aggregate("bool_or", {"bool_or(b BOOLEAN) -> BOOLEAN", "Whether some b is true.", kSkipsNulls,
                          "bool_or(x > 1) FROM (VALUES (1), (2)) AS t(x)", "true"}),
    aggregate("checksum", {"checksum(x) -> BIGINT", "An order-independent checksum of the values of x: the "
                           "wrapping sum of a 64-bit hash of each value (equal values hash alike whatever their "
                           "encoding). Presto returns 8 bytes as VARBINARY and hashes differently, so the values do "
                           "not match Presto's; use it to compare data within Kestrel.",
                           "NULL inputs count (they hash to a constant); NULL when there are no rows.",
                           "checksum(x) = checksum(y) FROM (VALUES (1, 2), (2, 1)) AS t(x, y)", "true"}),
    aggregate("corr", {"corr(y, x) -> DOUBLE", "The correlation coefficient of the pairs (y, x) where neither is NULL.",
                       kPairs2, "corr(y, x) FROM (VALUES (1, 1), (2, 3), (3, 2)) AS t(y, x)", "0.5"}),
    aggregate("covar_pop", {"covar_pop(y, x) -> DOUBLE", "The population covariance of the pairs (y, x) where neither "
                            "is NULL.", kPairs1, "covar_pop(y, x) FROM (VALUES (1, 1), (2, 3), (3, 2)) AS t(y, x)",
                            "0.3333333333333333"}),
    aggregate("covar_samp", {"covar_samp(y, x) -> DOUBLE", "The sample covariance of the pairs (y, x) where neither is "
                             "NULL.", kPairs2, "covar_samp(y, x) FROM (VALUES (1, 1), (2, 3), (3, 2)) AS t(y, x)",
                             "0.5"}),
    aggregate("count", {"count(*) -> BIGINT\ncount(x) -> BIGINT", "The number of rows, or of values of x that are "
                        "not NULL.", "NULL inputs are not counted; 0 when there are none.",
                        "count(x) FROM (VALUES (1), (NULL), (3)) AS t(x)", "2"}),
    aggregate("count_if", {"count_if(b BOOLEAN) -> BIGINT", "The number of rows where b is true.",
                           "NULL is not counted; 0 when there are no rows.",
                           "count_if(x > 1) FROM (VALUES (1), (2), (3)) AS t(x)", "2"}),
    aggregate("entropy", {"entropy(c BIGINT) -> DOUBLE", "The log-2 entropy of the counts c: the sum over c of "
                          "c / S * log2(S / c), S being the sum of the counts; an error for a negative count.",
                          "NULL counts are skipped; 0 when the counts sum to 0 or there are none.",
                          "entropy(c) FROM (VALUES (1), (1)) AS t(c)", "1.0"}),
    aggregate("geometric_mean", {"geometric_mean(x) -> DOUBLE", "exp(avg(ln(x))): a 0 gives 0, a negative value NaN.",
                                 kSkipsNulls, "geometric_mean(x) FROM (VALUES (2), (8)) AS t(x)", "4.0"}),
    aggregate("kurtosis", {"kurtosis(x) -> DOUBLE", "The excess kurtosis of x, Presto's unbiased estimate "
                           "n(n+1)(n-1) m4 / ((n-2)(n-3) m2^2) - 3(n-1)^2 / ((n-2)(n-3)), m_k being the sums of the "
                           "k-th powers of the deviations from the mean; NaN when all values are equal.",
                           "NULL inputs are skipped; NULL with fewer than 4 values.",
                           "round(kurtosis(x), 6) FROM (VALUES (1), (2), (3), (10)) AS t(x)", "3.228"}),
    aggregate("listagg", {"listagg(x VARCHAR[, sep VARCHAR]) [WITHIN GROUP (ORDER BY ...)] -> VARCHAR",
                          "The values of x joined by sep (a constant, by default the empty string), in the order of "
                          "WITHIN GROUP (ORDER BY ...) (without it, or among ties, in no set order). Trino's listagg; "
                          "ON OVERFLOW is not supported (there is no length limit).",
                          "NULL inputs are skipped; NULL when there is no other input or sep is NULL.",
                          "listagg(x, ', ') WITHIN GROUP (ORDER BY x DESC) FROM (VALUES ('a'), ('b')) AS t(x)",
                          "b, a"}),
    aggregate("max", {"max(x) -> the type of x", "The largest value of x.", kSkipsNulls,
                      "max(x) FROM (VALUES ('b'), ('a')) AS t(x)", "b"}),
    aggregate("max_by", {"max_by(x, y) -> the type of x", "The value of x on the row with the largest y. Among rows "
                         "with that y, the largest x (a NULL x only when all of them are NULL), so the result does not "
                         "depend on the order of the rows; DISTINCT has no effect. Presto's max_by(x, y, n) is not "
                         "supported.", "Rows with a NULL y are skipped; x may be NULL on the chosen row; NULL when "
                         "no row has a y.", "max_by(x, y) FROM (VALUES ('a', 1), ('b', 3), ('c', 2)) AS t(x, y)", "b"}),
    aggregate("median", {"median(x) -> DOUBLE", "The median of the numbers x: percentile_cont(0.5) WITHIN GROUP (ORDER "
                         "BY x), the mean of the two middle values for an even count.", kSkipsNulls,
                         "median(x) FROM (VALUES (1), (2), (4), (10)) AS t(x)", "3.0"}),
    aggregate("min", {"min(x) -> the type of x", "The smallest value of x.", kSkipsNulls,
                      "min(x) FROM (VALUES ('b'), ('a')) AS t(x)", "a"}),
    aggregate("min_by", {"min_by(x, y) -> the type of x", "The value of x on the row with the smallest y. Among rows "
                         "with that y, the smallest x (a NULL x only when all of them are NULL); DISTINCT has no "
                         "effect.", "Rows with a NULL y are skipped; x may be NULL on the chosen row; NULL when no "
                         "row has a y.", "min_by(x, y) FROM (VALUES ('a', 1), ('b', 3), ('c', 2)) AS t(x, y)", "a"}),
    aggregate("percentile_cont", {"percentile_cont(f DOUBLE) WITHIN GROUP (ORDER BY x [ASC | DESC]) -> DOUBLE",
                                  "The percentile f of the numbers x, interpolated linearly between the values at "
                                  "the two nearest ranks (position f * (count - 1) from the first, 0-based); DESC "
                                  "counts from the largest. f must be a constant in [0, 1].", kSkipsNulls,
                                  "percentile_cont(0.25) WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (2), (3), (4)) "
                                  "AS t(x)", "1.75"}),
    aggregate("percentile_disc", {"percentile_disc(f DOUBLE) WITHIN GROUP (ORDER BY x [ASC | DESC]) -> the type of x",
                                  "The percentile f of the values x by nearest rank: the first value, in the order "
                                  "of the key, whose rank is at least f * count (the first value for f = 0). x may be "
                                  "of any ordered type. f must be a constant in [0, 1].", kSkipsNulls,
                                  "percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM (VALUES (1), (2), (3), (4)) "
                                  "AS t(x)", "2"}),
    aggregate("regr_avgx", {"regr_avgx(y, x) -> DOUBLE", "The mean of x over the pairs where neither is NULL.",
                            kPairs1, "regr_avgx(y, x) FROM (VALUES (1, 1), (NULL, 5), (3, 3)) AS t(y, x)", "2.0"}),
    aggregate("regr_avgy", {"regr_avgy(y, x) -> DOUBLE", "The mean of y over the pairs where neither is NULL.",
                            kPairs1, "regr_avgy(y, x) FROM (VALUES (1, 1), (5, NULL), (3, 3)) AS t(y, x)", "2.0"}),
    aggregate("regr_count", {"regr_count(y, x) -> BIGINT", "The number of pairs (y, x) where neither is NULL.",
                             "Pairs with a NULL are not counted; 0 when there are none.",
                             "regr_count(y, x) FROM (VALUES (1, 1), (2, NULL), (3, 2)) AS t(y, x)", "2"}),
    aggregate("regr_intercept", {"regr_intercept(y, x) -> DOUBLE", "Where the least-squares line of y on x crosses "
                                 "x = 0, over the pairs where neither is NULL.", kPairsLine,
                                 "regr_intercept(y, x) FROM (VALUES (3, 1), (5, 2), (7, 3)) AS t(y, x)", "1.0"}),
    aggregate("regr_r2", {"regr_r2(y, x) -> DOUBLE", "The coefficient of determination of the least-squares line of "
                          "y on x (1 when y is constant).", kPairsLine,
                          "regr_r2(y, x) FROM (VALUES (3, 1), (5, 2), (7, 3)) AS t(y, x)", "1.0"}),
    aggregate("regr_slope", {"regr_slope(y, x) -> DOUBLE", "The slope of the least-squares line of y on x, over the "
                             "pairs where neither is NULL.", kPairsLine,
                             "regr_slope(y, x) FROM (VALUES (3, 1), (5, 2), (7, 3)) AS t(y, x)", "2.0"}),
    aggregate("regr_sxx", {"regr_sxx(y, x) -> DOUBLE", "The sum of squares of x about its mean, over the pairs where "
                           "neither is NULL.", kPairs1, "regr_sxx(y, x) FROM (VALUES (3, 1), (5, 3)) AS t(y, x)",
                           "2.0"}),
    aggregate("regr_sxy", {"regr_sxy(y, x) -> DOUBLE", "The sum of products of x and y about their means, over the "
                           "pairs where neither is NULL.", kPairs1,
                           "regr_sxy(y, x) FROM (VALUES (3, 1), (5, 3)) AS t(y, x)", "2.0"}),
    aggregate("regr_syy", {"regr_syy(y, x) -> DOUBLE", "The sum of squares of y about its mean, over the pairs where "
                           "neither is NULL.", kPairs1, "regr_syy(y, x) FROM (VALUES (3, 1), (5, 3)) AS t(y, x)",
                           "2.0"}),
    aggregate("skewness", {"skewness(x) -> DOUBLE", "The skewness of x as Presto computes it, sqrt(n) m3 / m2^1.5, "
                           "m_k being the sums of the k-th powers of the deviations from the mean; NaN when all "
                           "values are equal.", "NULL inputs are skipped; NULL with fewer than 3 values.",
                           "round(skewness(x), 6) FROM (VALUES (1), (2), (3), (10)) AS t(x)", "1.018234"}),
    aggregate("stddev", {"stddev(x) -> DOUBLE", "The sample standard deviation of x.",
                         "NULL inputs are skipped; NULL with fewer than two values.",
                         "stddev(x) FROM (VALUES (1), (2), (3)) AS t(x)", "1.0"}),
    aggregate_alias("stddev_samp", "stddev"),
    aggregate("stddev_pop", {"stddev_pop(x) -> DOUBLE", "The population standard deviation of x.", kSkipsNulls,
                             "stddev_pop(x) FROM (VALUES (1), (3)) AS t(x)", "1.0"}),
    aggregate("string_agg", {"string_agg(x VARCHAR[, sep VARCHAR] [ORDER BY ...]) -> VARCHAR",
                             "The values of x joined by sep (a constant, by default ','), in the order of ORDER BY "
                             "(without it, or among ties, in no set order). With DISTINCT, the ORDER BY keys must be "
                             "x.", "NULL inputs are skipped; NULL when there is no other input or sep is NULL.",
                             "string_agg(x, '-' ORDER BY x) FROM (VALUES ('b'), (NULL), ('a')) AS t(x)", "a-b"}),
    aggregate("sum", {"sum(x) -> BIGINT for INTEGER and smaller, DECIMAL(38, 0) for BIGINT, DECIMAL(38, s) for "
                      "DECIMAL(p, s), DOUBLE for REAL and DOUBLE",
                      "The sum of x.", kSkipsNulls, "sum(x) FROM (VALUES (1), (2), (3)) AS t(x)", "6"}),
    aggregate("variance", {"variance(x) -> DOUBLE", "The sample variance of x.",
                           "NULL inputs are skipped; NULL with fewer than two values.",
                           "variance(x) FROM (VALUES (1), (2), (3)) AS t(x)", "1.0"}),
    aggregate_alias("var_samp", "variance"),
    aggregate("var_pop", {"var_pop(x) -> DOUBLE", "The population variance of x.", kSkipsNulls,
                          "var_pop(x) FROM (VALUES (1), (3)) AS t(x)", "1.0"}),
    // More aggregates (issue 15): CPU only, single mode (aggregate_collected.hpp).
    aggregate("reduce_agg", {"reduce_agg(x T, initial S, input_function (S, T) -> S, combine_function (S, S) -> S) "
                             "-> S",
                             "The state folded over the group's non-NULL x with input_function, from initial; Kestrel "
                             "folds each group in one pass, so combine_function is not called. An error when "
                             "initial is NULL.", "NULL x are skipped; NULL when no x is left.",
                             "reduce_agg(x, 0, (a, b) -> a + b, (a, b) -> a + b) FROM (VALUES (2), (3), (4)) AS t(x)",
                             "9"}),
    aggregate("set_agg", {"set_agg(x) -> ARRAY(T)", "The distinct values of x (NULL included, values compared as by IS "
                          "DISTINCT FROM), in ascending order with NULL last.", "NULL when there is no input row.",
                          "set_agg(x) FROM (VALUES (2), (1), (NULL), (2)) AS t(x)", "[1, 2, NULL]"}),
    aggregate("set_union", {"set_union(a ARRAY(T)) -> ARRAY(T)", "The distinct elements of every array a, in "
                            "ascending order with NULL last.", "NULL arrays are skipped (only NULL arrays give an "
                            "empty array); NULL when there is no input row.",
                            "set_union(a) FROM (VALUES (ARRAY[1, 2, 3]), (ARRAY[2, 3, 4])) AS t(a)", "[1, 2, 3, 4]"}),
    aggregate("histogram", {"histogram(x) -> MAP(T, BIGINT)", "How many times each value of x occurs, keys in "
                            "ascending order.", kSkipsNulls, "histogram(x) FROM (VALUES (30), (25), (30)) AS t(x)",
                            "{25=1, 30=2}"}),
    aggregate("map_union", {"map_union(m MAP(K, V)) -> MAP(K, V)", "The union of the maps m; a key in several maps "
                            "takes the value of one of them.", "NULL maps are skipped; NULL when there are none.",
                            "map_union(m) FROM (VALUES (MAP(ARRAY['a'], ARRAY[1])), (MAP(ARRAY['b'], ARRAY[2]))) AS "
                            "t(m)", "{a=1, b=2}"}),
    aggregate("map_union_sum", {"map_union_sum(m MAP(K, V)) -> MAP(K, V)", "The union of the maps m, the values of a "
                                "key summed (V an integer type, REAL or DOUBLE; NULL values count as 0; an error on "
                                "integer overflow).", "NULL maps are skipped; NULL when there are none.",
                                "map_union_sum(m) FROM (VALUES (MAP(ARRAY['a', 'b'], ARRAY[1, 2])), (MAP(ARRAY['b'], "
                                "ARRAY[3]))) AS t(m)", "{a=1, b=5}"}),
    aggregate("multimap_agg", {"multimap_agg(key K, value V) -> MAP(K, ARRAY(V))", "Each key with the array of its "
                               "values, keys in ascending order.", "Rows with a NULL key are skipped; NULL when none "
                               "is left.", "multimap_agg(k, v) FROM (VALUES ('a', 1), ('b', 2)) AS t(k, v)",
                               "{a=[1], b=[2]}"}),
    aggregate("numeric_histogram", {"numeric_histogram(buckets BIGINT, value DOUBLE[, weight DOUBLE]) -> "
                                    "MAP(DOUBLE, DOUBLE)", "A histogram of at most buckets bins (at least 2), each "
                                    "the weighted mean of its values mapped to their total weight (1 each without "
                                    "weight): the values' bins are merged two at a time, the two closest first, as in "
                                    "Ben-Haim and Tom-Tov's algorithm over all values at once (Presto merges in "
                                    "batches, so large inputs can differ).", "Rows with a NULL value or weight are "
                                    "skipped; NULL when none is left.",
                                    "numeric_histogram(3, v) FROM (VALUES (10), (15), (20), (25), (30)) AS t(v)",
                                    "{12.5=2.0, 22.5=2.0, 30.0=1.0}"}),
    aggregate("classification_fall_out", {"classification_fall_out(buckets BIGINT, y BOOLEAN, x DOUBLE[, weight "
                                          "DOUBLE]) -> ARRAY(DOUBLE)", "Per threshold t_j = j / buckets (j from 0 to "
                                          "the bucket of the largest prediction with y true): the weight of false y "
                                          "predicted above t_j over the weight of all false y. Predictions x must "
                                          "be in [0, 1], weights not negative, buckets at least 2.",
                                          "Rows with a NULL argument are skipped; NULL when none is left.",
                                          "classification_fall_out(2, y, x) FROM (VALUES (true, 0.9), (false, 0.2), "
                                          "(false, 0.8)) AS t(y, x)", "[1.0, 0.5]"}),
    aggregate("classification_miss_rate", {"classification_miss_rate(buckets BIGINT, y BOOLEAN, x DOUBLE[, weight "
                                           "DOUBLE]) -> ARRAY(DOUBLE)", "Per threshold (as classification_fall_out): "
                                           "the weight of true y predicted below it over the weight of all true y.",
                                           "Rows with a NULL argument are skipped; NULL when none is left.",
                                           "classification_miss_rate(2, y, x) FROM (VALUES (true, 0.9), (true, 0.2), "
                                           "(false, 0.8)) AS t(y, x)", "[0.0, 0.5]"}),
    aggregate("classification_precision", {"classification_precision(buckets BIGINT, y BOOLEAN, x DOUBLE[, weight "
                                           "DOUBLE]) -> ARRAY(DOUBLE)", "Per threshold (as classification_fall_out): "
                                           "the weight of true y predicted at or above it over the weight of all "
                                           "predictions there.", "Rows with a NULL argument are skipped; NULL when "
                                           "none is left.", "classification_precision(2, y, x) FROM (VALUES (true, "
                                           "0.9), (false, 0.2), (false, 0.8)) AS t(y, x)",
                                           "[0.3333333333333333, 0.5]"}),
    aggregate("classification_recall", {"classification_recall(buckets BIGINT, y BOOLEAN, x DOUBLE[, weight "
                                        "DOUBLE]) -> ARRAY(DOUBLE)", "Per threshold (as classification_fall_out): "
                                        "the weight of true y predicted at or above it over the weight of all true "
                                        "y.", "Rows with a NULL argument are skipped; NULL when none is left.",
                                        "classification_recall(2, y, x) FROM (VALUES (true, 0.9), (true, 0.2), "
                                        "(false, 0.8)) AS t(y, x)", "[1.0, 0.5]"}),
    aggregate("classification_thresholds", {"classification_thresholds(buckets BIGINT, y BOOLEAN, x DOUBLE) -> "
                                            "ARRAY(DOUBLE)", "The thresholds j / buckets the other classification "
                                            "metrics are computed at.", "Rows with a NULL argument are skipped; NULL "
                                            "when none is left.", "classification_thresholds(4, y, x) FROM (VALUES "
                                            "(true, 0.9), (false, 0.2)) AS t(y, x)", "[0.0, 0.25, 0.5, 0.75]"}),
    aggregate("differential_entropy", {"differential_entropy(sample_size BIGINT, x DOUBLE[, weight DOUBLE])\n"
                                       "differential_entropy(buckets BIGINT, x DOUBLE, weight DOUBLE, method VARCHAR, "
                                       "min DOUBLE, max DOUBLE) -> DOUBLE", "The log-2 differential entropy of x: "
                                       "Vasicek's estimator (Alizadeh Noughabi and Arghami's form) over a reservoir of "
                                       "at most sample_size values (weighted by weight; every value when they fit), "
                                       "or with method 'fixed_histogram_mle' the maximum-likelihood estimate over "
                                       "buckets equal bins of [min, max] (an error for x outside it; at most 1000000 bins), and with "
                                       "'fixed_histogram_jacknife' its jackknife correction n H - (n - 1) / n * the "
                                       "sum of H without each row.", "Rows with a NULL x or weight "
                                       "are skipped; NULL when none is left.", "round(differential_entropy(4, x, "
                                       "1.0, 'fixed_histogram_mle', 0.0, 4.0), 6) FROM (VALUES (0.5), (1.5), (2.5), "
                                       "(3.5)) AS t(x)", "2.0"}),
    aggregate("approx_most_frequent", {"approx_most_frequent(buckets BIGINT, value T, capacity BIGINT) -> "
                                       "MAP(T, BIGINT)", "The buckets most frequent values with their counts (ties to "
                                       "the smaller value), keys in ascending order. Kestrel counts exactly, so "
                                       "capacity does not change the result.", kSkipsNulls,
                                       "approx_most_frequent(2, x, 10) FROM (VALUES ('a'), ('b'), ('a'), ('c'), "
                                       "('c'), ('a')) AS t(x)", "{a=3, c=2}"}),
    aggregate("reservoir_sample", {"reservoir_sample(initial_sample ARRAY(T), initial_processed_count BIGINT, value "
                                   "T, desired_sample_size BIGINT) -> ROW(processed_count BIGINT, sample ARRAY(T))",
                                   "A uniform random sample of at most desired_sample_size values (Vitter's algorithm "
                                   "R), started from initial_sample as if it had sampled initial_processed_count "
                                   "values, and the number of values seen in all. Every value is kept when they "
                                   "fit.", "NULL values are values; NULL when there is no input row.",
                                   "reservoir_sample(NULL, 0, x, 5) FROM (VALUES (7)) AS t(x)",
                                   "{processed_count=1, sample=[7]}"}),
    rewrite("grouping", {"grouping(a, b, ...) -> INTEGER",
                           "With GROUPING SETS, ROLLUP or CUBE: one bit per argument, the first the highest, set when "
                           "the argument is not grouped in the row's grouping set.",
                           "Never NULL.", "grouping(x) FROM (VALUES (1)) AS t(x) GROUP BY ROLLUP (x)", "0"}),
};

constexpr FunctionEntry kWindow[] = {
    window("cume_dist", {"cume_dist() -> DOUBLE", "The fraction of the partition's rows that sort before or with "
                         "this row.", "Never NULL.",
                         "cume_dist() OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "0.5"}),
    window("dense_rank", {"dense_rank() -> BIGINT", "The rank of the row without gaps after ties.", "Never NULL.",
                          "dense_rank() OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "1"}),
    window("first_value", {"first_value(x) -> the type of x", "x at the first row of the frame.",
                           "NULL when that x is NULL.",
                           "first_value(x) OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "5"}),
    window("lag", {"lag(x[, offset BIGINT[, default]]) -> the type of x",
                   "x at offset rows (default 1) before this row in the partition, or default (NULL) where there is "
                   "none.", "NULL when that x is NULL.",
                   "lag(x, 1, 0) OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "0"}),
    window("last_value", {"last_value(x) -> the type of x", "x at the last row of the frame (with ORDER BY, the "
                          "frame ends at the current row and its ties).", "NULL when that x is NULL.",
                          "last_value(x) OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "5"}),
    window("lead", {"lead(x[, offset BIGINT[, default]]) -> the type of x",
                    "x at offset rows (default 1) after this row in the partition, or default (NULL) where there is "
                    "none.", "NULL when that x is NULL.",
                    "lead(x) OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "6"}),
    window("nth_value", {"nth_value(x, offset BIGINT) -> the type of x",
                         "x at row offset (from 1) of the frame: the partition's rows up to the current row's last "
                         "peer with ORDER BY (RANGE UNBOUNDED PRECEDING), up to the current row with ROWS UNBOUNDED "
                         "PRECEDING, or the whole partition. offset must be a constant of at least 1.",
                         "NULL when that x is NULL or the frame has fewer than offset rows.",
                         "nth_value(x, 2) OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "NULL"}),
    window("ntile", {"ntile(n BIGINT) -> BIGINT", "The number (1 to n) of the bucket of the row when the partition's "
                     "rows are split into n buckets as equal as possible.", "Never NULL.",
                     "ntile(2) OVER (ORDER BY x) FROM (VALUES (1), (2), (3)) AS t(x) ORDER BY x", "1"}),
    window("percent_rank", {"percent_rank() -> DOUBLE", "(rank - 1) / (rows of the partition - 1), 0 for a "
                            "partition of one row.", "Never NULL.",
                            "percent_rank() OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "0.0"}),
    window("rank", {"rank() -> BIGINT", "The rank of the row, with gaps after ties.", "Never NULL.",
                    "rank() OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "1"}),
    window("row_number", {"row_number() -> BIGINT", "The number of the row in its partition, from 1.", "Never NULL.",
                          "row_number() OVER (ORDER BY x) FROM (VALUES (5), (6)) AS t(x) ORDER BY x", "1"}),
};

}  // namespace

std::span<const FunctionEntry> aggregate_functions() { return kAggregates; }
std::span<const FunctionEntry> window_functions() { return kWindow; }

}  // namespace kestrel::plan::registry
