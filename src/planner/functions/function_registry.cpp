#include "planner/functions/function_registry.hpp"

#include <string>

namespace kestrel::plan {

namespace {

constexpr size_t kVariadic = static_cast<size_t>(-1);

struct FunctionName {
  std::string_view name;
  ScalarFunction function;
  size_t min_args;
  size_t max_args;
};

constexpr FunctionName kFunctionNames[] = {
    {"abs", ScalarFunction::kAbs, 1, 1},
    {"round", ScalarFunction::kRound, 1, 2},
    {"floor", ScalarFunction::kFloor, 1, 1},
    {"ceil", ScalarFunction::kCeil, 1, 1},
    {"ceiling", ScalarFunction::kCeil, 1, 1},
    {"sign", ScalarFunction::kSign, 1, 1},
    {"sqrt", ScalarFunction::kSqrt, 1, 1},
    {"power", ScalarFunction::kPower, 2, 2},
    {"pow", ScalarFunction::kPower, 2, 2},
    {"ln", ScalarFunction::kLn, 1, 1},
    {"log10", ScalarFunction::kLog10, 1, 1},
    {"exp", ScalarFunction::kExp, 1, 1},
    {"mod", ScalarFunction::kModulo, 2, 2},
    {"length", ScalarFunction::kLength, 1, 1},
    {"char_length", ScalarFunction::kLength, 1, 1},
    {"character_length", ScalarFunction::kLength, 1, 1},
    {"upper", ScalarFunction::kUpper, 1, 1},
    {"lower", ScalarFunction::kLower, 1, 1},
    {"trim", ScalarFunction::kTrim, 1, 2},
    {"btrim", ScalarFunction::kTrim, 1, 2},
    {"ltrim", ScalarFunction::kLTrim, 1, 2},
    {"rtrim", ScalarFunction::kRTrim, 1, 2},
    {"substring", ScalarFunction::kSubstring, 2, 3},
    {"substr", ScalarFunction::kSubstring, 2, 3},
    {"position", ScalarFunction::kPosition, 2, 2},
    {"strpos", ScalarFunction::kPosition, 2, 2},
    {"starts_with", ScalarFunction::kStartsWith, 2, 2},
    {"replace", ScalarFunction::kReplace, 3, 3},
    {"concat", ScalarFunction::kConcat, 1, kVariadic},
    {"coalesce", ScalarFunction::kCoalesce, 1, kVariadic},
    {"nullif", ScalarFunction::kNullIf, 2, 2},
    {"greatest", ScalarFunction::kGreatest, 1, kVariadic},
    {"least", ScalarFunction::kLeast, 1, kVariadic},
    {"date_trunc", ScalarFunction::kDateTrunc, 2, 2},
    {"extract", ScalarFunction::kExtract, 2, 2},
    {"date_part", ScalarFunction::kExtract, 2, 2},
    {"lpad", ScalarFunction::kLpad, 3, 3},
    {"rpad", ScalarFunction::kRpad, 3, 3},
    {"reverse", ScalarFunction::kReverse, 1, 1},
    {"split_part", ScalarFunction::kSplitPart, 3, 3},
    {"chr", ScalarFunction::kChr, 1, 1},
    {"codepoint", ScalarFunction::kCodepoint, 1, 1},
    {"truncate", ScalarFunction::kTruncate, 1, 1},
    {"cbrt", ScalarFunction::kCbrt, 1, 1},
    {"log2", ScalarFunction::kLog2, 1, 1},
    {"date_add", ScalarFunction::kDateAdd, 3, 3},
    {"date_diff", ScalarFunction::kDateDiff, 3, 3},
    {"last_day_of_month", ScalarFunction::kLastDayOfMonth, 1, 1},
    {"+", ScalarFunction::kAdd, 2, 2},
    {"-", ScalarFunction::kNegate, 1, 1},
    {"-", ScalarFunction::kSubtract, 2, 2},
    {"*", ScalarFunction::kMultiply, 2, 2},
    {"/", ScalarFunction::kDivide, 2, 2},
    {"%", ScalarFunction::kModulo, 2, 2},
    {"=", ScalarFunction::kEqual, 2, 2},
    {"<>", ScalarFunction::kNotEqual, 2, 2},
    {"!=", ScalarFunction::kNotEqual, 2, 2},
    {"<", ScalarFunction::kLess, 2, 2},
    {"<=", ScalarFunction::kLessEqual, 2, 2},
    {">", ScalarFunction::kGreater, 2, 2},
    {">=", ScalarFunction::kGreaterEqual, 2, 2},
    {"||", ScalarFunction::kConcat, 2, 2},
    {"like", ScalarFunction::kLike, 2, 3},
    {"not like", ScalarFunction::kNotLike, 2, 3},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace

std::optional<ScalarFunction> lookup_scalar_function(std::string_view sql_name, size_t arg_count) {
  const std::string name = lower(sql_name);
  for (const FunctionName& f : kFunctionNames) {
    if (f.name == name && arg_count >= f.min_args && arg_count <= f.max_args) return f.function;
  }
  return std::nullopt;
}

bool function_swaps_arguments(std::string_view sql_name) { return lower(sql_name) == "strpos"; }

bool is_scalar_function_name(std::string_view sql_name) {
  const std::string name = lower(sql_name);
  for (const FunctionName& f : kFunctionNames) {
    if (f.name == name) return true;
  }
  return false;
}

}  // namespace kestrel::plan
