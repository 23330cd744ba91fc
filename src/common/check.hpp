#pragma once
/// Internal invariant checks. A failed check is a Kestrel bug: it throws InternalError naming the file, the line
/// and both values; it never aborts the process. User input never reaches these: it gets a clean error instead.

#include <sstream>
#include <type_traits>

#include "common/error.hpp"

namespace kestrel::detail {

[[noreturn]] void check_failed(const char* file, int line, const std::string& what);

/// Enums print as their number; everything else as itself.
template <typename T>
auto printable(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return static_cast<long long>(v);
  } else {
    return v;
  }
}

template <typename A, typename B>
[[noreturn]] void check_op_failed(const char* file, int line, const char* expr, const A& a, const B& b) {
  std::ostringstream out;
  out << "check failed: " << expr << " (" << printable(a) << " vs " << printable(b) << ")";
  check_failed(file, line, out.str());
}

}  // namespace kestrel::detail

#define KESTREL_CHECK(cond)                                                            \
  do {                                                                                 \
    if (!(cond)) ::kestrel::detail::check_failed(__FILE__, __LINE__, "check failed: " #cond); \
  } while (0)

#define KESTREL_CHECK_MSG(cond, msg)                                                   \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      std::ostringstream kestrel_check_out_;                                           \
      kestrel_check_out_ << "check failed: " #cond ": " << msg;                        \
      ::kestrel::detail::check_failed(__FILE__, __LINE__, kestrel_check_out_.str());   \
    }                                                                                  \
  } while (0)

#define KESTREL_CHECK_OP_(a, b, op)                                                       \
  do {                                                                                    \
    const auto& kestrel_a_ = (a);                                                         \
    const auto& kestrel_b_ = (b);                                                         \
    if (!(kestrel_a_ op kestrel_b_))                                                      \
      ::kestrel::detail::check_op_failed(__FILE__, __LINE__, #a " " #op " " #b, kestrel_a_, kestrel_b_); \
  } while (0)

#define KESTREL_CHECK_EQ(a, b) KESTREL_CHECK_OP_(a, b, ==)
#define KESTREL_CHECK_NE(a, b) KESTREL_CHECK_OP_(a, b, !=)
#define KESTREL_CHECK_LT(a, b) KESTREL_CHECK_OP_(a, b, <)
#define KESTREL_CHECK_LE(a, b) KESTREL_CHECK_OP_(a, b, <=)
#define KESTREL_CHECK_GT(a, b) KESTREL_CHECK_OP_(a, b, >)
#define KESTREL_CHECK_GE(a, b) KESTREL_CHECK_OP_(a, b, >=)

#ifdef NDEBUG
#define KESTREL_DCHECK(cond) \
  do {                       \
  } while (0)
#else
#define KESTREL_DCHECK(cond) KESTREL_CHECK(cond)
#endif
