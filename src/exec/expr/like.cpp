#include <algorithm>
#include <optional>
#include <string>

#include "exec/expr/kernels.hpp"
#include "exec/expr/like_matcher.hpp"

namespace kestrel::exec {

Operand like_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const bool negate = e.function == plan::ScalarFunction::kNotLike;
  Validity validity = and_validity_all(args, rows, ctx.memory());
  const uint8_t* valid = validity.bitmap ? validity.bitmap->as<uint8_t>() : nullptr;
  ColumnPtr out = make_output(LogicalType(TypeId::kBoolean), rows, std::move(validity), ctx.memory());
  uint8_t* r = out->mutable_data<uint8_t>();
  const Shape shape = shape_of(args, rows);
  const bool any_null_constant = std::any_of(args.begin(), args.end(), [](const Operand& a) { return a.is_null_constant(); });
  if (any_null_constant) return Operand{out, shape.constant};
  const StringReader text(args[0]);
  const StringReader pattern(args[1]);
  const bool has_escape = args.size() > 2;
  const StringReader escape(has_escape ? args[2] : args[1]);
  const bool fixed_pattern = args[1].constant && (!has_escape || args[2].constant);
  if (fixed_pattern) {
    const LikeMatcher m = LikeMatcher::compile(pattern[0], has_escape ? std::optional(escape[0]) : std::nullopt);
    for (size_t i = 0; i < rows; ++i) r[i] = m.matches(text[i]) != negate;
    return Operand{out, shape.constant};
  }
  // A pattern per row: recompile only when it changes.
  std::optional<LikeMatcher> m;
  std::string last_pattern, last_escape;
  for (size_t i = 0; i < rows; ++i) {
    if (valid != nullptr && !bits::get(valid, i)) {
      r[i] = 0;
      continue;
    }
    const std::string_view p = pattern[i];
    const std::string_view esc = has_escape ? escape[i] : std::string_view("\\");
    if (!m || p != last_pattern || esc != last_escape) {
      m = LikeMatcher::compile(p, has_escape ? std::optional(esc) : std::nullopt);
      last_pattern.assign(p);
      last_escape.assign(esc);
    }
    r[i] = m->matches(text[i]) != negate;
  }
  return Operand{out, shape.constant};
}

}  // namespace kestrel::exec
