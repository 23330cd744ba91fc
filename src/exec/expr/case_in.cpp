#include <numeric>

#include "common/check.hpp"
#include "exec/expr/dictionary.hpp"
#include "exec/expr/evaluate_internal.hpp"
#include "exec/expr/kernels.hpp"

namespace kestrel::exec {

namespace {

using plan::ExprKind;
using plan::ScalarFunction;

void collect_columns(const plan::Expr& e, std::vector<uint8_t>& used) {
  if (e.kind == ExprKind::kColumnRef && e.column_index < used.size()) used[e.column_index] = 1;
  for (const plan::ExprPtr& c : e.children) collect_columns(*c, used);
}

bool function_can_raise(const plan::Expr& e) {
  switch (e.function) {
    case ScalarFunction::kAdd:
    case ScalarFunction::kSubtract:
    case ScalarFunction::kMultiply:
    case ScalarFunction::kNegate:
      return e.type.id() != TypeId::kReal && e.type.id() != TypeId::kDouble;
    case ScalarFunction::kDivide:
    case ScalarFunction::kModulo:
    case ScalarFunction::kRound:
    case ScalarFunction::kFloor:
    case ScalarFunction::kCeil:
    case ScalarFunction::kAbs:
    case ScalarFunction::kSqrt:
    case ScalarFunction::kPower:
    case ScalarFunction::kLn:
    case ScalarFunction::kLog10:
    case ScalarFunction::kExp:
    case ScalarFunction::kExtract:
    case ScalarFunction::kDateTrunc:
    case ScalarFunction::kDateDiffDays:
    case ScalarFunction::kTimestampDiff:
    case ScalarFunction::kLpad:
    case ScalarFunction::kRpad:
    case ScalarFunction::kSplitPart:
    case ScalarFunction::kChr:
    case ScalarFunction::kCodepoint:
    case ScalarFunction::kDateAdd:
    case ScalarFunction::kLevenshteinDistance:
    case ScalarFunction::kHammingDistance:
    case ScalarFunction::kRegexpLike:
    case ScalarFunction::kRegexpExtract:
    case ScalarFunction::kRegexpReplace:
    case ScalarFunction::kRegexpCount:
    case ScalarFunction::kRegexpPosition:
    case ScalarFunction::kFromUnixtime:
    case ScalarFunction::kDateFormat:
    case ScalarFunction::kDateParse:
    case ScalarFunction::kFormatDatetime:
    case ScalarFunction::kWidthBucket:
    case ScalarFunction::kRandom:
    case ScalarFunction::kSubscript:
    case ScalarFunction::kElementAt:
    case ScalarFunction::kMapFromArrays:
    case ScalarFunction::kMapFromEntries:
    case ScalarFunction::kSlice:
    case ScalarFunction::kSequence:
    case ScalarFunction::kSplit:
    // More scalar functions (issue 15).
    case ScalarFunction::kRemainder:
    case ScalarFunction::kStrrpos:  // instance <= 0
    case ScalarFunction::kSplitToMap:
    case ScalarFunction::kSplitToMultimap:
    case ScalarFunction::kWordStem:
    case ScalarFunction::kNormalize:
    case ScalarFunction::kRegexpExtractAll:
    case ScalarFunction::kRegexpSplit:
    case ScalarFunction::kFromIeee754_32:
    case ScalarFunction::kFromIeee754_64:
    case ScalarFunction::kParseDatetime:
    // Array and map functions (issue 15) with errors on bad data (sizes, overflow, NULL or repeated keys).
    case ScalarFunction::kArrayCumSum:
    case ScalarFunction::kArraySum:
    case ScalarFunction::kArrayNormalize:
    case ScalarFunction::kArrayTopN:
    case ScalarFunction::kArrayLeastFrequent:
    case ScalarFunction::kArrayMostFrequent:
    case ScalarFunction::kCombinations:
    case ScalarFunction::kNgrams:
    case ScalarFunction::kRepeat:
    case ScalarFunction::kTrimArray:
    case ScalarFunction::kArraySplitIntoChunks:
    case ScalarFunction::kArrayTranspose:
    case ScalarFunction::kFindFirst:
    case ScalarFunction::kFindFirstIndex:
    case ScalarFunction::kMultimapFromEntries:
    case ScalarFunction::kMapTopNKeys:
    case ScalarFunction::kMapKeysByTopNValues:
    case ScalarFunction::kMapTopN:
    case ScalarFunction::kMapTopNValues:
    case ScalarFunction::kTransformKeys:
    case ScalarFunction::kMapIntKeysToArray:
    case ScalarFunction::kArrayToMapIntKeys: return true;
    default: return false;
  }
}

}  // namespace

bool can_raise(const plan::Expr& e) {
  if (e.kind == ExprKind::kFunction && e.function == ScalarFunction::kTry) return false;
  if (e.kind == ExprKind::kCast && e.children[0]->type != e.type) return true;
  if (e.kind == ExprKind::kFunction && function_can_raise(e)) return true;
  for (const plan::ExprPtr& c : e.children) {
    if (can_raise(*c)) return true;
  }
  return false;
}

Operand eval_on_rows(const plan::Expr& e, const Batch& input, const std::vector<uint32_t>& rows,
                     EvalContext& ctx) {
  if (rows.size() == input.num_rows()) return eval_operand(e, input, ctx);  // every row, in order
  std::vector<uint8_t> used(input.num_columns(), 0);
  collect_columns(e, used);
  std::vector<ColumnPtr> columns(input.num_columns());
  for (size_t c = 0; c < columns.size(); ++c) {
    if (used[c]) {
      columns[c] = gather_rows(*input.column(c), rows.data(), rows.size(), ctx.memory());
    } else {
      // The expression never reads this column: a placeholder of the right length without buffers.
      columns[c] = Column::from_buffers(input.column(c)->type(), ColumnEncoding::kPlain, rows.size(), 0, nullptr,
                                        nullptr, nullptr, nullptr);
    }
  }
  Batch subset(input.schema(), std::move(columns), rows.size(), gpu::MemoryKind::kHost);
  // Inside a lambda's body the parameters' values are columns of the same rows: take the same subset of them.
  LambdaArgsScope scope(ctx, rows);
  return eval_operand(e, subset, ctx);
}

Operand eval_case(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const size_t n = input.num_rows();
  const size_t whens = (e.children.size() - 1) / 2;
  std::vector<uint32_t> remaining(n);
  std::iota(remaining.begin(), remaining.end(), 0u);
  std::vector<uint32_t> branch_of(n, static_cast<uint32_t>(whens));
  std::vector<std::vector<uint32_t>> branch_rows(whens + 1);
  for (size_t b = 0; b < whens && !remaining.empty(); ++b) {
    const plan::Expr& when = *e.children[2 * b];
    const bool full = !can_raise(when);
    Operand cond = plain(full ? eval_operand(when, input, ctx) : eval_on_rows(when, input, remaining, ctx), ctx);
    const uint8_t* v = cond.data<uint8_t>();
    std::vector<uint32_t> next;
    for (size_t j = 0; j < remaining.size(); ++j) {
      const size_t at = full ? remaining[j] : j;
      if (cond.valid(at) && v[cond.index(at)] != 0) {
        branch_of[remaining[j]] = static_cast<uint32_t>(b);
        branch_rows[b].push_back(remaining[j]);
      } else {
        next.push_back(remaining[j]);
      }
    }
    remaining = std::move(next);
  }
  branch_rows[whens] = std::move(remaining);
  // Evaluate each THEN / ELSE on its rows; a value that cannot raise is evaluated on the whole batch instead.
  std::vector<Operand> pieces(whens + 1);
  std::vector<uint8_t> piece_full(whens + 1, 0);
  for (size_t b = 0; b <= whens; ++b) {
    const plan::Expr& value = *e.children[b == whens ? e.children.size() - 1 : 2 * b + 1];
    if (branch_rows[b].empty()) {
      pieces[b] = null_operand(e.type, ctx.memory());
      continue;
    }
    piece_full[b] = !can_raise(value);
    pieces[b] = plain(piece_full[b] ? eval_operand(value, input, ctx) : eval_on_rows(value, input, branch_rows[b], ctx),
                      ctx);
  }
  std::vector<RowSource> src(n);
  for (size_t b = 0; b <= whens; ++b) {
    for (size_t j = 0; j < branch_rows[b].size(); ++j) {
      const uint32_t row = branch_rows[b][j];
      src[row] = RowSource{static_cast<uint32_t>(b), piece_full[b] ? row : static_cast<uint32_t>(j)};
    }
  }
  return Operand{assemble_rows(e.type, pieces, src, ctx.memory()), false};
}

Operand eval_logic(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  const bool is_and = e.kind == ExprKind::kAnd;
  std::vector<Operand> args;
  bool lazy = false;
  for (size_t i = 1; i < e.children.size(); ++i) lazy = lazy || can_raise(*e.children[i]);
  if (!lazy) {
    for (const plan::ExprPtr& child : e.children) args.push_back(plain(eval_operand(*child, input, ctx), ctx));
    return logic_kernel(is_and, args, shape_of(args, input.num_rows()).rows, ctx);
  }
  // Left to right, an operand that may raise is evaluated only on the rows it can still change (AND: those not yet
  // FALSE; OR: not yet TRUE); the others take the neutral value (TRUE for AND, FALSE for OR).
  const size_t n = input.num_rows();
  Operand result = plain(eval_operand(*e.children[0], input, ctx), ctx);
  const Operand neutral{constant_column(Value::boolean(is_and), TypeId::kBoolean, ctx.memory()), true};
  for (size_t i = 1; i < e.children.size(); ++i) {
    const plan::Expr& child = *e.children[i];
    if (!can_raise(child)) {
      std::vector<Operand> pair{result, plain(eval_operand(child, input, ctx), ctx)};
      result = logic_kernel(is_and, pair, shape_of(pair, n).rows, ctx);
      continue;
    }
    std::vector<uint32_t> open;  // rows whose result the operand can still change
    const uint8_t* v = result.data<uint8_t>();
    for (size_t r = 0; r < n; ++r) {
      const bool decided = result.valid(r) && (v[result.index(r)] != 0) != is_and;
      if (!decided) open.push_back(static_cast<uint32_t>(r));
    }
    if (open.empty()) break;
    const Operand value = plain(eval_on_rows(child, input, open, ctx), ctx);
    std::vector<RowSource> src(n, RowSource{0, 0});
    for (size_t j = 0; j < open.size(); ++j) src[open[j]] = RowSource{1, static_cast<uint32_t>(j)};
    std::vector<Operand> pair{result, Operand{assemble_rows(TypeId::kBoolean, {neutral, value}, src, ctx.memory()),
                                              false}};
    result = logic_kernel(is_and, pair, n, ctx);
  }
  return result;
}

plan::ExprPtr lazy_in_list(const plan::Expr& e) {
  bool lazy = false;
  for (size_t i = 2; i < e.children.size(); ++i) lazy = lazy || can_raise(*e.children[i]);
  if (!lazy) return nullptr;
  std::vector<plan::ExprPtr> equalities;
  for (size_t i = 1; i < e.children.size(); ++i) {
    equalities.push_back(plan::make_function(ScalarFunction::kEqual, TypeId::kBoolean, {e.children[0], e.children[i]}));
  }
  return plan::make_node(ExprKind::kOr, TypeId::kBoolean, std::move(equalities));
}

Operand eval_in_list(const plan::Expr& e, const Batch& input, EvalContext& ctx) {
  if (const plan::ExprPtr as_or = lazy_in_list(e)) return eval_logic(*as_or, input, ctx);
  Operand x = eval_operand(*e.children[0], input, ctx);
  std::vector<Operand> items;
  bool items_constant = true;
  for (size_t i = 1; i < e.children.size(); ++i) {
    items.push_back(plain(eval_operand(*e.children[i], input, ctx), ctx));
    items_constant &= items.back().constant;
  }
  ColumnPtr encoded;  // owned: x is replaced by the dictionary below, and may have held the only reference
  if (!x.constant && x.column->is_dictionary() && items_constant &&
      x.column->dictionary()->length() <= input.num_rows()) {
    encoded = x.column;
    x = Operand{encoded->dictionary(), false};
  } else {
    x = plain(x, ctx);
  }
  std::vector<Operand> all = items;
  all.push_back(x);
  const size_t rows = encoded ? x.column->length() : shape_of(all, input.num_rows()).rows;
  // x IN (a, b) is x = a OR x = b, which gives exactly SQL's NULL rules.
  std::vector<Operand> matches;
  matches.reserve(items.size());
  for (const Operand& item : items) matches.push_back(compare_operands(ScalarFunction::kEqual, x, item, rows, ctx));
  Operand result = logic_kernel(false, matches, rows, ctx);
  if (encoded) return Operand{spread_dictionary_result(*encoded, result.column, ctx.memory()), false};
  return result;
}

}  // namespace kestrel::exec
