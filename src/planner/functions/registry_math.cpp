// Registry entries: mathematical functions.

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

using F = ScalarFunction;

constexpr std::string_view kNullGivesNull = "NULL when any argument is NULL.";

constexpr FunctionEntry kMath[] = {
    scalar("abs", F::kAbs, 1, 1,
           {"abs(x) -> same type as x", "The absolute value of x; an error when it does not fit the type.",
            kNullGivesNull, "abs(-3.5)", "3.5"}),
    scalar("cbrt", F::kCbrt, 1, 1,
           {"cbrt(x DOUBLE) -> DOUBLE", "The cube root of x.", kNullGivesNull, "cbrt(27)", "3.0"}),
    scalar("ceil", F::kCeil, 1, 1,
           {"ceil(x) -> same type as x (DECIMAL(p, s) gives DECIMAL(p - s + 1, 0))",
            "x rounded up to the nearest integer.", kNullGivesNull, "ceil(1.2)", "2"}),
    alias("ceiling", "ceil", F::kCeil, 1, 1),
    rewrite("e", {"e() -> DOUBLE", "Euler's number.", "Never NULL.", "e()", "2.718281828459045"}),
    scalar("exp", F::kExp, 1, 1,
           {"exp(x DOUBLE) -> DOUBLE", "Euler's number raised to the power x.", kNullGivesNull, "exp(0)", "1.0"}),
    scalar("floor", F::kFloor, 1, 1,
           {"floor(x) -> same type as x (DECIMAL(p, s) gives DECIMAL(p - s + 1, 0))",
            "x rounded down to the nearest integer.", kNullGivesNull, "floor(-1.5)", "-2"}),
    scalar("ln", F::kLn, 1, 1,
           {"ln(x DOUBLE) -> DOUBLE", "The natural logarithm of x; an error when x is not positive.", kNullGivesNull,
            "ln(1)", "0.0"}),
    scalar("log10", F::kLog10, 1, 1,
           {"log10(x DOUBLE) -> DOUBLE", "The base 10 logarithm of x; an error when x is not positive.",
            kNullGivesNull, "log10(100)", "2.0"}),
    scalar("log2", F::kLog2, 1, 1,
           {"log2(x DOUBLE) -> DOUBLE", "The base 2 logarithm of x (log2(0) is -Infinity, as in Presto).",
            kNullGivesNull, "log2(8)", "3.0"}),
    scalar("mod", F::kModulo, 2, 2,
           {"mod(n, m) -> the common type of n and m",
            "The remainder of n divided by m, with the sign of n; an error when m is 0.", kNullGivesNull, "mod(-7, 3)",
            "-1"}),
    rewrite("pi", {"pi() -> DOUBLE", "The constant pi.", "Never NULL.", "pi()", "3.141592653589793"}),
    scalar("power", F::kPower, 2, 2,
           {"power(x DOUBLE, p DOUBLE) -> DOUBLE",
            "x raised to the power p; an error when a negative x is raised to a power that is not an integer.",
            kNullGivesNull, "power(2, 10)",
            "1024.0"}),
    alias("pow", "power", F::kPower, 2, 2),
    scalar("random", F::kRandom, 0, 1,
           {"random() -> DOUBLE\nrandom(n) -> same integer type as n",
            "A pseudo-random value: a DOUBLE in [0.0, 1.0), or with n an integer in [0, n); an error when n is not "
            "positive. A new value for every row; never folded into a constant.",
            "random(NULL) is NULL.", "random(1)", "0"}),
    alias("rand", "random", F::kRandom, 0, 1),
    scalar("round", F::kRound, 1, 2,
           {"round(x) -> same type as x (DECIMAL(p, s) gives DECIMAL(p - s + 1, 0))\n"
            "round(x, d INTEGER) -> same type as x (DECIMAL(p, s) gives DECIMAL(p + 1, s))",
            "x rounded half away from zero to the nearest integer, or to d decimal places.", kNullGivesNull,
            "round(2.5)", "3"}),
    scalar("sign", F::kSign, 1, 1,
           {"sign(x) -> same type as x (DECIMAL gives DECIMAL(1, 0))",
            "-1, 0 or 1 as x is negative, zero or positive.", kNullGivesNull, "sign(-2)", "-1"}),
    scalar("sqrt", F::kSqrt, 1, 1,
           {"sqrt(x DOUBLE) -> DOUBLE", "The square root of x; an error when x is negative.", kNullGivesNull,
            "sqrt(16)", "4.0"}),
    scalar("truncate", F::kTruncate, 1, 1,
           {"truncate(x) -> same type as x (DECIMAL(p, s) gives DECIMAL(max(1, p - s), 0))",
            "x rounded toward zero to an integer.", kNullGivesNull, "truncate(-2.7)", "-2"}),
    scalar("width_bucket", F::kWidthBucket, 4, 4,
           {"width_bucket(x DOUBLE, bound1 DOUBLE, bound2 DOUBLE, n BIGINT) -> BIGINT",
            "The bucket of x in a histogram of n equal-width buckets between bound1 and bound2: 1 to n inside, 0 "
            "before bound1 and n + 1 from bound2 on (bound1 may be above bound2, then the buckets count downwards). "
            "An error when n is not positive, a bound is not finite, the bounds are equal or x is NaN.",
            kNullGivesNull, "width_bucket(5.3, 0.2, 10.6, 5)", "3"}),
};

}  // namespace

std::span<const FunctionEntry> math_functions() { return kMath; }

}  // namespace kestrel::plan::registry
