//===- DirectSteps.cpp - the block run's integer arithmetic ---------------===//
//
// The interpreter's inner loop for the integer ops it computes itself
// (Step::Direct): one function per opcode, so that the loop over threads
// has no dispatch in it.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/IntegerEvaluation.h"
#include "ThreadRunner.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::block_run;

/// How many operands `code` takes.
static constexpr unsigned directArity(IntegerOpcode code) {
  switch (code) {
  case IntegerOpcode::Select:
    return 3;
  case IntegerOpcode::ExtendSigned:
  case IntegerOpcode::ExtendUnsigned:
  case IntegerOpcode::Truncate:
    return 1;
  default:
    return 2;
  }
}

template <IntegerOpcode Code>
LLVM_ATTRIBUTE_ALWAYS_INLINE void
ThreadRunner::runDirectOnRange(const Instruction &instruction,
                               const Slot *sources, Slot target, uint32_t first,
                               size_t size) {
  // What computeIntegerOpcode and wrapToWidth compute, case for case, with
  // the widths read once into masks and shifts, so that the loop has no
  // branch on them: each slot's values are contiguous in the threads, and
  // the loop reads and writes them in order. (A build that ran both ways
  // on every instruction of the tests and the fuzzers found them equal;
  // an opcode added to one must be added to the other.)
  constexpr unsigned arity = directArity(Code);
  const int64_t *in[arity];
  const uint8_t *inKnown[arity];
  for (unsigned i = 0; i < arity; ++i) {
    in[i] = &values[at(sources[i], first)];
    inKnown[i] = &known[at(sources[i], first)];
  }
  int64_t *out = &values[at(target, first)];
  uint8_t *outKnown = &known[at(target, first)];
  unsigned width = instruction.operandWidth;
  uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  unsigned signShift = width >= 64 ? 0 : 64 - width;
  unsigned resultWidth = instruction.resultWidth;
  unsigned resultShift = resultWidth >= 64 ? 0 : 64 - resultWidth;
  bool resultIsBit = resultWidth == 1;
  using C = IntegerOpcode;
  for (size_t lane = 0; lane < size; ++lane) {
    uint8_t allKnown = inKnown[0][lane];
    for (unsigned i = 1; i < arity; ++i)
      allKnown &= inKnown[i][lane];
    auto u = [&](unsigned i) { return uint64_t(in[i][lane]) & mask; };
    auto s = [&](unsigned i) {
      return int64_t(uint64_t(in[i][lane]) << signShift) >> signShift;
    };
    // Where arith's result is poison (a shift by the width or more,
    // division by zero), the result is unknown.
    bool defined = true;
    uint64_t bits = 0;
    if constexpr (Code == C::AddI)
      bits = u(0) + u(1);
    else if constexpr (Code == C::SubI)
      bits = u(0) - u(1);
    else if constexpr (Code == C::MulI)
      bits = u(0) * u(1);
    else if constexpr (Code == C::AndI)
      bits = u(0) & u(1);
    else if constexpr (Code == C::OrI)
      bits = u(0) | u(1);
    else if constexpr (Code == C::XOrI)
      bits = u(0) ^ u(1);
    else if constexpr (Code == C::ShLI || Code == C::ShRUI ||
                       Code == C::ShRSI) {
      uint64_t by = u(1);
      defined = by < width;
      by &= 63;
      if constexpr (Code == C::ShLI)
        bits = u(0) << by;
      else if constexpr (Code == C::ShRUI)
        bits = u(0) >> by;
      else
        bits = uint64_t(s(0) >> by);
    } else if constexpr (Code == C::DivUI || Code == C::RemUI) {
      uint64_t by = u(1);
      defined = by != 0;
      // Index maps divide by powers of two far more than by anything else.
      if (llvm::isPowerOf2_64(by))
        bits =
            Code == C::DivUI ? u(0) >> llvm::countr_zero(by) : u(0) & (by - 1);
      else if (by != 0)
        bits = Code == C::DivUI ? u(0) / by : u(0) % by;
    } else if constexpr (Code == C::MinUI)
      bits = std::min(u(0), u(1));
    else if constexpr (Code == C::MaxUI)
      bits = std::max(u(0), u(1));
    else if constexpr (Code == C::MinSI)
      bits = uint64_t(std::min(s(0), s(1)));
    else if constexpr (Code == C::MaxSI)
      bits = uint64_t(std::max(s(0), s(1)));
    else if constexpr (Code == C::CmpEq)
      bits = u(0) == u(1);
    else if constexpr (Code == C::CmpNe)
      bits = u(0) != u(1);
    else if constexpr (Code == C::CmpSlt)
      bits = s(0) < s(1);
    else if constexpr (Code == C::CmpSle)
      bits = s(0) <= s(1);
    else if constexpr (Code == C::CmpSgt)
      bits = s(0) > s(1);
    else if constexpr (Code == C::CmpSge)
      bits = s(0) >= s(1);
    else if constexpr (Code == C::CmpUlt)
      bits = u(0) < u(1);
    else if constexpr (Code == C::CmpUle)
      bits = u(0) <= u(1);
    else if constexpr (Code == C::CmpUgt)
      bits = u(0) > u(1);
    else if constexpr (Code == C::CmpUge)
      bits = u(0) >= u(1);
    else if constexpr (Code == C::Select)
      bits = uint64_t(in[0][lane] ? in[1][lane] : in[2][lane]);
    else if constexpr (Code == C::ExtendSigned)
      bits = uint64_t(s(0));
    else if constexpr (Code == C::ExtendUnsigned)
      bits = u(0);
    else if constexpr (Code == C::Truncate)
      bits = uint64_t(in[0][lane]); // Wrapped at the result.
    else
      static_assert(Code == C::Truncate,
                    "an opcode runDirect dispatches has no case here");
    // wrapToWidth: sign-extended from the result's width, an i1 kept 0 or 1.
    out[lane] = resultIsBit ? int64_t(bits & 1)
                            : int64_t(bits << resultShift) >> resultShift;
    outKnown[lane] = allKnown & uint8_t(defined);
  }
}

template <IntegerOpcode Code>
void ThreadRunner::runDirect(const Instruction &instruction, Lanes lanes) {
  // One opcode for all threads: the switch in computeIntegerOpcode folds
  // away, and the loop over threads is a few loads and stores.
  Slot target = result(instruction, 0);
  unsigned count = instruction.numOperands;
  Slot sources[3] = {0, 0, 0};
  for (unsigned i = 0; i < count && i < 3; ++i)
    sources[i] = operand(instruction, i);
  // The threads that run an instruction are nearly always the whole block
  // or a range of it (those a branch on the thread id leaves): a range's
  // values are contiguous in each slot.
  if (count == directArity(Code) && !lanes.empty() &&
      size_t(lanes.back() - lanes.front()) + 1 == lanes.size())
    return runDirectOnRange<Code>(instruction, sources, target, lanes.front(),
                                  lanes.size());
  int64_t operandValues[3] = {0, 0, 0};
  for (uint32_t lane : lanes) {
    bool allKnown = true;
    for (unsigned i = 0; i < count; ++i) {
      allKnown &= isKnown(sources[i], lane);
      operandValues[i] = valueOf(sources[i], lane);
    }
    std::optional<int64_t> computed;
    if (allKnown)
      computed = computeIntegerOpcode(Code, instruction.operandWidth,
                                      ArrayRef<int64_t>(operandValues, count));
    if (computed)
      setInt(target, lane, wrapToWidth(instruction.resultWidth, *computed));
    else
      known[at(target, lane)] = 0;
  }
}

void ThreadRunner::runDirect(const Instruction &instruction, Lanes lanes) {
  switch (instruction.code) {
  case IntegerOpcode::AddI:
    return runDirect<IntegerOpcode::AddI>(instruction, lanes);
  case IntegerOpcode::SubI:
    return runDirect<IntegerOpcode::SubI>(instruction, lanes);
  case IntegerOpcode::MulI:
    return runDirect<IntegerOpcode::MulI>(instruction, lanes);
  case IntegerOpcode::AndI:
    return runDirect<IntegerOpcode::AndI>(instruction, lanes);
  case IntegerOpcode::OrI:
    return runDirect<IntegerOpcode::OrI>(instruction, lanes);
  case IntegerOpcode::XOrI:
    return runDirect<IntegerOpcode::XOrI>(instruction, lanes);
  case IntegerOpcode::ShLI:
    return runDirect<IntegerOpcode::ShLI>(instruction, lanes);
  case IntegerOpcode::ShRUI:
    return runDirect<IntegerOpcode::ShRUI>(instruction, lanes);
  case IntegerOpcode::ShRSI:
    return runDirect<IntegerOpcode::ShRSI>(instruction, lanes);
  case IntegerOpcode::DivUI:
    return runDirect<IntegerOpcode::DivUI>(instruction, lanes);
  case IntegerOpcode::RemUI:
    return runDirect<IntegerOpcode::RemUI>(instruction, lanes);
  case IntegerOpcode::MinUI:
    return runDirect<IntegerOpcode::MinUI>(instruction, lanes);
  case IntegerOpcode::MaxUI:
    return runDirect<IntegerOpcode::MaxUI>(instruction, lanes);
  case IntegerOpcode::MinSI:
    return runDirect<IntegerOpcode::MinSI>(instruction, lanes);
  case IntegerOpcode::MaxSI:
    return runDirect<IntegerOpcode::MaxSI>(instruction, lanes);
  case IntegerOpcode::CmpEq:
    return runDirect<IntegerOpcode::CmpEq>(instruction, lanes);
  case IntegerOpcode::CmpNe:
    return runDirect<IntegerOpcode::CmpNe>(instruction, lanes);
  case IntegerOpcode::CmpSlt:
    return runDirect<IntegerOpcode::CmpSlt>(instruction, lanes);
  case IntegerOpcode::CmpSle:
    return runDirect<IntegerOpcode::CmpSle>(instruction, lanes);
  case IntegerOpcode::CmpSgt:
    return runDirect<IntegerOpcode::CmpSgt>(instruction, lanes);
  case IntegerOpcode::CmpSge:
    return runDirect<IntegerOpcode::CmpSge>(instruction, lanes);
  case IntegerOpcode::CmpUlt:
    return runDirect<IntegerOpcode::CmpUlt>(instruction, lanes);
  case IntegerOpcode::CmpUle:
    return runDirect<IntegerOpcode::CmpUle>(instruction, lanes);
  case IntegerOpcode::CmpUgt:
    return runDirect<IntegerOpcode::CmpUgt>(instruction, lanes);
  case IntegerOpcode::CmpUge:
    return runDirect<IntegerOpcode::CmpUge>(instruction, lanes);
  case IntegerOpcode::Select:
    return runDirect<IntegerOpcode::Select>(instruction, lanes);
  case IntegerOpcode::ExtendSigned:
    return runDirect<IntegerOpcode::ExtendSigned>(instruction, lanes);
  case IntegerOpcode::ExtendUnsigned:
    return runDirect<IntegerOpcode::ExtendUnsigned>(instruction, lanes);
  case IntegerOpcode::Truncate:
    return runDirect<IntegerOpcode::Truncate>(instruction, lanes);
  case IntegerOpcode::Fold:
    break;
  }
  llvm_unreachable("not an op computed directly");
}
