#include "planner/functions/resolve_internal.hpp"

namespace kestrel::plan::detail {

namespace {

using F = ScalarFunction;

const LogicalType kVarchar(TypeId::kVarchar);
const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kInteger(TypeId::kInteger);
const LogicalType kBoolean(TypeId::kBoolean);

const LogicalType kJson(TypeId::kJson);

bool is_string_or_null(const LogicalType& t) { return t.id() == TypeId::kVarchar || is_null_type(t); }

/// The JSON argument of a JSON function: JSON, or VARCHAR holding JSON text (a NULL literal reads as JSON).
LogicalType json_argument(ScalarFunction f, const std::vector<LogicalType>& args, std::optional<SourcePosition> pos) {
  if (args.empty()) no_match(f, args, pos);
  if (args[0].id() == TypeId::kJson || args[0].id() == TypeId::kVarchar) return args[0];
  if (!is_null_type(args[0])) no_match(f, args, pos);
  return kJson;
}

}  // namespace

ResolvedFunction resolve_presto_text(ScalarFunction f, const std::vector<LogicalType>& args,
                                     std::optional<SourcePosition> pos) {
  // The first `strings` arguments are strings, the rest (up to `max`) integers; `json_first`: the first argument
  // is JSON or JSON text instead.
  auto take = [&](size_t min, size_t max, size_t strings, bool json_first = false) {
    if (args.size() < min || args.size() > max) no_match(f, args, pos);
    std::vector<LogicalType> types;
    for (size_t i = 0; i < args.size(); ++i) {
      if (i == 0 && json_first) {
        types.push_back(json_argument(f, args, pos));
        continue;
      }
      const bool text = i < strings;
      if (text ? !is_string_or_null(args[i]) : !is_integral_or_null(args[i])) no_match(f, args, pos);
      types.push_back(text ? kVarchar : kBigInt);
    }
    return types;
  };
  switch (f) {
    case F::kEndsWith: return {f, kBoolean, take(2, 2, 2)};
    case F::kLevenshteinDistance:
    case F::kHammingDistance: return {f, kBigInt, take(2, 2, 2)};
    case F::kRegexpLike: return {f, kBoolean, take(2, 2, 2)};
    case F::kRegexpExtract: return {f, kVarchar, take(2, 3, 2)};
    case F::kRegexpReplace: return {f, kVarchar, take(2, 3, 3)};
    case F::kRegexpCount: return {f, kBigInt, take(2, 2, 2)};
    case F::kRegexpPosition: return {f, kInteger, take(2, 4, 2)};
    case F::kUrlExtractHost:
    case F::kUrlExtractPath:
    case F::kUrlExtractProtocol:
    case F::kUrlExtractQuery:
    case F::kUrlExtractFragment: return {f, kVarchar, take(1, 1, 1)};
    case F::kUrlExtractPort: return {f, kBigInt, take(1, 1, 1)};
    case F::kUrlExtractParameter: return {f, kVarchar, take(2, 2, 2)};
    // The JSON functions take JSON or JSON text in VARCHAR; json_extract and json_array_get give JSON.
    case F::kJsonExtractScalar:
    case F::kJsonExtract:
    case F::kJsonSize: {
      const LogicalType result = f == F::kJsonExtract ? kJson : f == F::kJsonSize ? kBigInt : kVarchar;
      return {f, result, take(2, 2, 2, true)};
    }
    case F::kJsonArrayLength: return {f, kBigInt, take(1, 1, 1, true)};
    case F::kJsonArrayGet: return {f, kJson, take(2, 2, 1, true)};
    case F::kJsonParse: return {f, kJson, take(1, 1, 1)};
    case F::kJsonFormat: return {f, kVarchar, take(1, 1, 1, true)};
    case F::kIsJsonScalar: return {f, kBoolean, take(1, 1, 1, true)};
    default: no_match(f, args, pos);
  }
}

}  // namespace kestrel::plan::detail
