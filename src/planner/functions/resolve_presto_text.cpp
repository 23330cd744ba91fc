#include "planner/functions/resolve_internal.hpp"

namespace kestrel::plan::detail {

namespace {

using F = ScalarFunction;

const LogicalType kVarchar(TypeId::kVarchar);
const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kInteger(TypeId::kInteger);
const LogicalType kBoolean(TypeId::kBoolean);

bool is_string_or_null(const LogicalType& t) { return t.id() == TypeId::kVarchar || is_null_type(t); }

}  // namespace

ResolvedFunction resolve_presto_text(ScalarFunction f, const std::vector<LogicalType>& args,
                                     std::optional<SourcePosition> pos) {
  // The first `strings` arguments are strings, the rest (up to `max`) integers.
  auto take = [&](size_t min, size_t max, size_t strings) {
    if (args.size() < min || args.size() > max) no_match(f, args, pos);
    std::vector<LogicalType> types;
    for (size_t i = 0; i < args.size(); ++i) {
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
    case F::kJsonExtractScalar:
    case F::kJsonExtract: return {f, kVarchar, take(2, 2, 2)};
    case F::kJsonSize: return {f, kBigInt, take(2, 2, 2)};
    case F::kJsonArrayLength: return {f, kBigInt, take(1, 1, 1)};
    case F::kJsonArrayGet: return {f, kVarchar, take(2, 2, 1)};
    case F::kJsonParse:
    case F::kJsonFormat: return {f, kVarchar, take(1, 1, 1)};
    case F::kIsJsonScalar: return {f, LogicalType(TypeId::kBoolean), take(1, 1, 1)};
    default: no_match(f, args, pos);
  }
}

}  // namespace kestrel::plan::detail
