/// The fused predicate kernel: one thread per row interprets the program (predicate_program.hpp). The program is a
/// __grid_constant__ parameter, so every thread reads the same instruction from the constant bank and the warp never
/// diverges on the instruction stream; only the column loads touch global memory.

#include <cstring>

#include "exec/expr/expr_device_gpu.cuh"
#include "exec/expr/predicate_program.hpp"

namespace kestrel::exec::gpu_pred {

namespace {

using gpu_expr::blocks_for;
using gpu_expr::kBlockThreads;

__device__ inline bool slot_valid(const Program& p, Operand o, size_t i) {
  if (o.column < 0) return true;
  const uint8_t* v = p.columns[o.column].validity;
  return v == nullptr || ((v[i >> 3] >> (i & 7)) & 1) != 0;
}

template <typename T>
__device__ inline T load(const Program& p, Operand o, size_t i) {
  if (o.column >= 0) return static_cast<const T*>(p.columns[o.column].values)[i];
  T v;
  memcpy(&v, p.constants[o.constant], sizeof(T));
  return v;
}

static_assert(kEq == 0 && kNe == 1 && kLt == 2 && kLe == 3 && kGt == 4 && kGe == 5,
              "Comparison numbers the operators as gpu_expr::compare_values does");

template <typename T>
__device__ inline uint8_t compare_op(const Program& p, const Instruction& in, size_t i) {
  if (!slot_valid(p, in.a, i) || !slot_valid(p, in.b, i)) return kUnknown;
  return gpu_expr::compare_values(in.cmp, load<T>(p, in.a, i), load<T>(p, in.b, i)) ? kTrue : kFalse;
}

template <typename T>
__device__ inline uint8_t in_op(const Program& p, const Instruction& in, size_t i) {
  if (!slot_valid(p, in.a, i)) return kUnknown;
  const T x = load<T>(p, in.a, i);
  for (int k = 0; k < in.count; ++k) {
    T item;
    memcpy(&item, p.constants[in.first + k], sizeof(T));
    if (x == item) return kTrue;
  }
  return in.tri ? kUnknown : kFalse;
}

/// Runs `F<T>` for the value class of the instruction.
template <template <typename> class F>
__device__ inline uint8_t by_class(const Program& p, const Instruction& in, size_t i) {
  switch (in.cls) {
    case ValueClass::kI8: return F<int8_t>::run(p, in, i);
    case ValueClass::kI16: return F<int16_t>::run(p, in, i);
    case ValueClass::kI32: return F<int32_t>::run(p, in, i);
    case ValueClass::kI64: return F<int64_t>::run(p, in, i);
    case ValueClass::kI128: return F<__int128>::run(p, in, i);
    case ValueClass::kF32: return F<float>::run(p, in, i);
    default: return F<double>::run(p, in, i);
  }
}

template <typename T>
struct CompareOp {
  __device__ static uint8_t run(const Program& p, const Instruction& in, size_t i) { return compare_op<T>(p, in, i); }
};
template <typename T>
struct InOp {
  __device__ static uint8_t run(const Program& p, const Instruction& in, size_t i) { return in_op<T>(p, in, i); }
};

__device__ inline uint8_t evaluate_row(const Program& p, size_t i) {
  uint64_t stack = 0;
  for (int k = 0; k < p.length; ++k) {
    const Instruction& in = p.code[k];
    uint8_t r = kFalse;
    switch (in.op) {
      case Op::kPush: r = in.tri; break;
      case Op::kTruth: r = slot_valid(p, in.a, i) ? (load<uint8_t>(p, in.a, i) != 0 ? kTrue : kFalse) : kUnknown; break;
      case Op::kIsNull: r = slot_valid(p, in.a, i) ? kFalse : kTrue; break;
      case Op::kIsNotNull: r = slot_valid(p, in.a, i) ? kTrue : kFalse; break;
      case Op::kCompare: r = by_class<CompareOp>(p, in, i); break;
      case Op::kIn: r = by_class<InOp>(p, in, i); break;
      case Op::kNot: {
        const auto x = static_cast<uint8_t>(stack & 3);
        stack >>= 2;
        r = x == kUnknown ? kUnknown : static_cast<uint8_t>(1 - x);
        break;
      }
      case Op::kAnd:
      case Op::kOr: {
        const auto y = static_cast<uint8_t>(stack & 3);
        const auto x = static_cast<uint8_t>((stack >> 2) & 3);
        stack >>= 4;
        const uint8_t dominant = in.op == Op::kAnd ? kFalse : kTrue;
        r = (x == dominant || y == dominant) ? dominant
            : (x == kUnknown || y == kUnknown) ? kUnknown
                                               : static_cast<uint8_t>(1 - dominant);
        break;
      }
    }
    stack = (stack << 2) | r;
  }
  return static_cast<uint8_t>(stack & 3);
}

__global__ void predicate_kernel(const __grid_constant__ Program p, size_t rows, uint8_t* values, uint32_t* validity,
                                 unsigned long long* valid_count) {
  const size_t i = gpu_expr::row_index();
  const bool in_range = i < rows;
  const uint8_t r = in_range ? evaluate_row(p, i) : kUnknown;
  if (in_range) values[i] = r == kTrue ? 1 : 0;
  if (validity == nullptr) return;
  const unsigned word = __ballot_sync(0xffffffffu, r != kUnknown);
  if ((threadIdx.x & 31) == 0) {
    if (in_range) validity[i >> 5] = word;
    if (word != 0) atomicAdd(valid_count, static_cast<unsigned long long>(__popc(word)));
  }
}

}  // namespace

void launch_predicate(const Program& program, size_t rows, uint8_t* values, uint32_t* validity,
                      unsigned long long* valid_count, gpu::Stream stream) {
  gpu::require_explicit_stream(stream, "launch_predicate");
  if (rows == 0) return;
  predicate_kernel<<<blocks_for(rows), kBlockThreads, 0, stream.handle()>>>(program, rows, values, validity,
                                                                             valid_count);
  KESTREL_CUDA_CHECK_LAUNCH();
}

}  // namespace kestrel::exec::gpu_pred
