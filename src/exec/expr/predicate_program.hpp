#pragma once
/// The program of a fused GPU predicate (internal to exec/expr; see predicate_gpu.hpp): a postfix sequence of
/// instructions over three-valued booleans that one kernel runs for every row, reading each input column once and
/// writing one byte per row. Plain data, shared by the host compiler (predicate_gpu.cpp) and the kernel
/// (predicate_gpu.cu); it travels as a kernel parameter.

#include <cstdint>

#include "gpu/stream.hpp"

namespace kestrel::exec::gpu_pred {

inline constexpr int kMaxInstructions = 96;
inline constexpr int kMaxColumns = 24;
inline constexpr int kMaxConstants = 48;
inline constexpr int kMaxDepth = 32;  ///< the stack holds 2-bit values in one 64-bit word

/// Three-valued results on the stack.
inline constexpr uint8_t kFalse = 0;
inline constexpr uint8_t kTrue = 1;
inline constexpr uint8_t kUnknown = 2;

enum class Op : uint8_t {
  kPush,       ///< push `tri`
  kTruth,      ///< push the BOOLEAN column `a` (NULL: unknown)
  kIsNull,     ///< push whether `a` is NULL
  kIsNotNull,  ///< push whether `a` is not NULL
  kCompare,    ///< push `a cmp b` (unknown when either is NULL)
  kIn,         ///< push whether `a` equals one of constants [first, first + count); `tri` = 1 when a NULL item was
               ///< listed (no match is then unknown)
  kNot,        ///< pop one, push its negation
  kAnd,        ///< pop two, push their AND
  kOr,         ///< pop two, push their OR
};

/// How an operand's values are stored and compared.
enum class ValueClass : uint8_t { kI8, kI16, kI32, kI64, kI128, kF32, kF64 };

enum Comparison : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

/// A column slot (column >= 0) or a constant.
struct Operand {
  int16_t column = -1;
  uint16_t constant = 0;
};

struct Instruction {
  Op op = Op::kPush;
  ValueClass cls = ValueClass::kI8;
  uint8_t cmp = kEq;
  uint8_t tri = kFalse;
  Operand a;
  Operand b;
  uint16_t first = 0;
  uint16_t count = 0;
};

struct ColumnSlot {
  const void* values = nullptr;
  const uint8_t* validity = nullptr;  ///< LSB first; null: no NULLs
};

struct Program {
  Instruction code[kMaxInstructions];
  ColumnSlot columns[kMaxColumns];
  alignas(16) unsigned char constants[kMaxConstants][16];
  int length = 0;
};

/// Runs `program` for rows [0, rows). values[i] = 1 where the predicate is TRUE, else 0. With `validity` non-null
/// it also writes the result's validity (unknown = NULL; whole 32-bit words) and adds the number of non-NULL rows to
/// *valid_count.
void launch_predicate(const Program& program, size_t rows, uint8_t* values, uint32_t* validity,
                      unsigned long long* valid_count, gpu::Stream stream);

}  // namespace kestrel::exec::gpu_pred
