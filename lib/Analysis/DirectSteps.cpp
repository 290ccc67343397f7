//===- DirectSteps.cpp - the block run's integer arithmetic ---------------===//
//
// The interpreter's inner loop for the integer ops it computes itself
// (Step::Direct): one function per opcode, so that the loop over threads
// has no dispatch in it.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/IntegerEvaluation.h"
#include "ThreadRunner.h"

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
  // Each slot's values are contiguous in the threads, and the loop reads
  // and writes them in order. It computes whether or not the operands are
  // known (computeIntegerOpcode is defined on any values) and tells which
  // results are by a flag, so that it has no branch on them; the opcode is
  // a constant, so computeIntegerOpcode's switch folds away, and the
  // widths are the same in every thread.
  constexpr unsigned arity = directArity(Code);
  const int64_t *in[arity];
  const uint8_t *inKnown[arity];
  for (unsigned i = 0; i < arity; ++i) {
    in[i] = &values[at(sources[i], first)];
    inKnown[i] = &known[at(sources[i], first)];
  }
  int64_t *out = &values[at(target, first)];
  uint8_t *outKnown = &known[at(target, first)];
  unsigned operandWidth = instruction.operandWidth;
  unsigned resultWidth = instruction.resultWidth;
  for (size_t lane = 0; lane < size; ++lane) {
    int64_t operands[arity];
    uint8_t allKnown = 1;
    for (unsigned i = 0; i < arity; ++i) {
      operands[i] = in[i][lane];
      allKnown &= inKnown[i][lane];
    }
    std::optional<int64_t> computed = computeIntegerOpcode(
        Code, operandWidth, ArrayRef<int64_t>(operands, arity));
    out[lane] = computed ? wrapToWidth(resultWidth, *computed) : 0;
    outKnown[lane] = allKnown & uint8_t(computed.has_value());
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
