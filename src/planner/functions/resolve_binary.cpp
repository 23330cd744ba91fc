#include "planner/functions/resolve_internal.hpp"

namespace kestrel::plan::detail {

namespace {

using F = ScalarFunction;

const LogicalType kVarchar(TypeId::kVarchar);
const LogicalType kVarbinary(TypeId::kVarbinary);
const LogicalType kBigInt(TypeId::kBigInt);
const LogicalType kInteger(TypeId::kInteger);

bool is_binary_or_null(const LogicalType& t) { return t.id() == TypeId::kVarbinary || is_null_type(t); }
bool is_text_or_null(const LogicalType& t) { return t.id() == TypeId::kVarchar || is_null_type(t); }

}  // namespace

ResolvedFunction resolve_binary(ScalarFunction f, const std::vector<LogicalType>& args,
                                std::optional<SourcePosition> pos) {
  auto one = [&](bool ok) {
    if (args.size() != 1 || !ok) no_match(f, args, pos);
  };
  switch (f) {
    case F::kToUtf8:
      one(is_text_or_null(args.empty() ? kVarchar : args[0]));
      return {f, kVarbinary, {kVarchar}};
    case F::kFromUtf8: {
      if (args.empty() || args.size() > 2 || !is_binary_or_null(args[0])) no_match(f, args, pos);
      if (args.size() == 1) return {f, kVarchar, {kVarbinary}};
      // The replacement: a string of at most one character, or a code point.
      if (is_text_or_null(args[1])) return {f, kVarchar, {kVarbinary, kVarchar}};
      if (!args[1].is_integral()) no_match(f, args, pos);
      return {f, kVarchar, {kVarbinary, kBigInt}};
    }
    case F::kToHex:
    case F::kToBase64:
    case F::kToBase64Url:
      one(!args.empty() && is_binary_or_null(args[0]));
      return {f, kVarchar, {kVarbinary}};
    case F::kFromHex:
    case F::kFromBase64:
    case F::kFromBase64Url: {
      // The encoded text may be VARCHAR or the VARBINARY of its characters.
      one(!args.empty() && (is_text_or_null(args[0]) || is_binary_or_null(args[0])));
      const LogicalType in = is_null_type(args[0]) ? kVarchar : args[0];
      return {f, kVarbinary, {in}};
    }
    case F::kMd5:
    case F::kSha1:
    case F::kSha256:
    case F::kSha512:
    case F::kXxhash64:
      one(!args.empty() && is_binary_or_null(args[0]));
      return {f, kVarbinary, {kVarbinary}};
    case F::kCrc32:
      one(!args.empty() && is_binary_or_null(args[0]));
      return {f, kBigInt, {kVarbinary}};
    case F::kToBigEndian64:
      one(!args.empty() && is_integral_or_null(args[0]));
      return {f, kVarbinary, {kBigInt}};
    case F::kToBigEndian32:
      // INTEGER and narrower only: a BIGINT does not fit in 4 bytes (Presto has no such overload either).
      one(!args.empty() && (is_null_type(args[0]) || (args[0].is_integral() && args[0].id() != TypeId::kBigInt)));
      return {f, kVarbinary, {kInteger}};
    case F::kFromBigEndian64:
      one(!args.empty() && is_binary_or_null(args[0]));
      return {f, kBigInt, {kVarbinary}};
    case F::kFromBigEndian32:
      one(!args.empty() && is_binary_or_null(args[0]));
      return {f, kInteger, {kVarbinary}};
    default: no_match(f, args, pos);
  }
}

}  // namespace kestrel::plan::detail
