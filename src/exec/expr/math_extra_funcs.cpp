// remainder and cosine_similarity on the CPU.

#include <cmath>
#include <string>
#include <unordered_map>

#include "exec/expr/kernels.hpp"
#include "exec/expr/nested_util.hpp"
#include "exec/expr/row_map.hpp"

namespace kestrel::exec {

namespace {

using F = plan::ScalarFunction;

/// n - m * N with N the nearest integer to n / m, halves rounded up (Java's Math.round), computed exactly.
template <typename T>
bool integer_remainder(T n, T m, T& out) {
  if (m == 0) return false;
  const __int128 wn = n, wm = m;
  __int128 q = wn / wm, r = wn % wm;
  if (r != 0 && ((r < 0) != (wm < 0))) {  // floor division: r takes m's sign
    q -= 1;
    r += wm;
  }
  const bool up = wm > 0 ? 2 * r >= wm : 2 * r <= wm;  // the fraction r / m is at least one half
  out = static_cast<T>(up ? r - wm : r);
  return true;
}

Operand remainder(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  return dispatch_fixed(e.type, [&](auto tag) -> Operand {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      return map_rows_to_fixed<T>(e.type, args, rows, ctx, [&](size_t i, T& out) {
        const T n = args[0].data<T>()[args[0].index(i)], m = args[1].data<T>()[args[1].index(i)];
        out = static_cast<T>(n - m * std::floor(n / m + static_cast<T>(0.5)));
        return true;
      });
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, uint8_t>) {
      return map_rows_to_fixed<T>(e.type, args, rows, ctx, [&](size_t i, T& out) {
        const T n = args[0].data<T>()[args[0].index(i)], m = args[1].data<T>()[args[1].index(i)];
        if (!integer_remainder(n, m, out)) raise_nested(e, "remainder: division by zero", "22012");
        return true;
      });
    } else {
      throw InternalError("remainder of " + e.type.to_string());
    }
  });
}

/// The entries of one MAP(VARCHAR, DOUBLE) row; false when a value is NULL.
bool read_vector(const ListReader& map, size_t row, std::unordered_map<std::string_view, double>& out,
                 double& norm) {
  const Column& keys = *map.child().child(0);
  const Column& values = *map.child().child(1);
  norm = 0;
  for (int64_t k = map.begin(row); k < map.end(row); ++k) {
    const auto at = static_cast<size_t>(k);
    if (!values.is_valid(at)) return false;
    const double v = values.data<double>()[at];
    out.emplace(keys.string_at(at), v);
    norm += v * v;
  }
  norm = std::sqrt(norm);
  return true;
}

/// cosine_similarity(x, y): the dot product over the common keys divided by the two Euclidean norms; NULL when a
/// value is NULL, NaN when a vector is empty or all zeros.
Operand cosine_similarity(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  const ListReader left(args[0]), right(args[1]);
  return map_rows_to_fixed<double>(e.type, args, rows, ctx, [&](size_t i, double& out) {
    std::unordered_map<std::string_view, double> a, b;
    double norm_a = 0, norm_b = 0;
    if (!read_vector(left, i, a, norm_a) || !read_vector(right, i, b, norm_b)) return false;
    double dot = 0;
    for (const auto& [key, v] : a) {
      if (const auto it = b.find(key); it != b.end()) dot += v * it->second;
    }
    out = dot / (norm_a * norm_b);
    return true;
  });
}

}  // namespace

Operand math_extra_kernel(const plan::Expr& e, const std::vector<Operand>& args, size_t rows, EvalContext& ctx) {
  if (e.function == F::kRemainder) return remainder(e, args, rows, ctx);
  return cosine_similarity(e, args, rows, ctx);
}

}  // namespace kestrel::exec
