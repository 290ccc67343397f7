//===- ThreadProgram.h - a kernel compiled for the block run --*- C++ -*-===//
//
// The block run's compiled form of a gpu.func (lib/Analysis/BlockRun.cpp
// runs it; ThreadProgram.cpp compiles it): each op as one instruction over
// slots of integers and pointers, with its memory accesses, branches and
// loops. Internal to lib/Analysis.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_ANALYSIS_THREADPROGRAM_H
#define OBS_LIB_ANALYSIS_THREADPROGRAM_H

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <vector>

namespace mlir::memref {
class LoadOp;
} // namespace mlir::memref
namespace mlir::scf {
class ForOp;
class IfOp;
} // namespace mlir::scf

namespace mlir::obs::block_run {

enum class UntrackedMemory { Private, Constant, Unknown };

/// What one op does to the threads' state.
enum class Step : uint8_t {
  /// Nothing (a terminator).
  Nothing,
  /// Results are not known (an op on data, or on floats).
  Unknown,
  /// An integer constant: `immediate`.
  Constant,
  /// An integer op computed directly (`code`).
  Direct,
  /// An integer op asked through its folder.
  Fold,
  ThreadIdX,
  Zero,
  BlockDimX,
  One,
  Barrier,
  Load,
  Store,
  /// An atomic read-modify-write: a write of its place, its result unknown.
  Atomic,
  View,
  SelectMemref,
  If,
  For,
  /// A loop whose trip count depends on data (scf.while) that touches
  /// nothing another thread can see: skipped, its results unknown.
  SkippedLoop,
  /// An op with regions other than scf.if, scf.for and a skippable
  /// scf.while: an error when run.
  CannotFollow,
  /// An scf.while that touches shared memory, stores to global memory or
  /// holds a barrier: an error when run.
  DataLoop,
  /// An op that may touch memory other than through loads and stores: an
  /// error when run.
  UnseenEffects,
  /// The check beside a read of an array kept in registers (an arith.cmpi
  /// with obs.register_read, `owner == thread id`): `immediate` is the
  /// sync; a thread whose owner is another, or unknown, reads wrongly.
  RegisterRead,
  /// The check `index < length` of a place an obs.index reads (an
  /// arith.cmpi ult tagged obs.index_bounds), computed directly: the first
  /// thread that runs it and finds the place outside the array, unless a
  /// branch on data brought it there (that read is checked as the program
  /// runs), is the run's IndexViolation.
  IndexBounds,
  /// A shuffle (nvvm.shfl.sync): its result is data; `immediate` is the
  /// sync whose array it reads (obs.shuffle_read), or -1. The lanes that
  /// run it must be exactly those its mask names, in each warp, and the
  /// lane it takes the value from one of them.
  Shuffle,
};

/// A value's place in the run's state: a slot of integers, or (with
/// kPointer set) a slot of pointers, for memrefs.
using Slot = uint32_t;
constexpr Slot kPointer = Slot(1) << 31;

/// One op, compiled: which slots it reads and writes.
struct Instruction {
  Step step = Step::Nothing;
  IntegerOpcode code = IntegerOpcode::Fold;
  uint8_t resultWidth = 64, operandWidth = 64;
  /// Ranges of the program's `slotLists`.
  uint32_t firstResult = 0, numResults = 0;
  uint32_t firstOperand = 0, numOperands = 0;
  /// A constant's value; the index into the program's side tables of a
  /// load, store, if or for.
  int64_t immediate = 0;
  Operation *op = nullptr;
  /// Whether the op is gone once the code is simplified, so that the warps
  /// do not issue it (for the cost): it computes from constants alone, it
  /// selects by a condition computed from constants alone, or it is a
  /// shuffle equal to one before it in its block (obs-merge-shuffles).
  bool foldsAway = false;
};

/// A load or store, compiled.
struct MemoryInstruction {
  Slot memref;
  /// Where the memref comes from when the run does not follow it.
  UntrackedMemory untracked;
  SmallVector<int64_t, 2> shape;
  uint64_t elementBytes, numElements;
  /// A load from a constant integer table: its entries.
  std::optional<SmallVector<int64_t>> table;
  /// See Access::atomic, Access::checkedScatter and Access::atomicKind.
  bool atomic = false, checkedScatter = false;
  uint8_t atomicKind = 0;
};

struct IfInstruction {
  uint32_t thenBegin, thenEnd, elseBegin, elseEnd;
  SmallVector<Slot> thenYields, elseYields;
  bool holdsBarrier;
  /// Whether its condition is a constant: every thread takes one branch.
  bool constantCondition;
};

/// What a skipped loop still does: its loads of tracked memory, which count
/// as reads of anywhere in their buffers, by op and memory instruction; and
/// its register read checks (indices into the program's registerReads),
/// which cannot be evaluated and so count as wrong.
struct SkippedAccesses {
  SmallVector<std::pair<Operation *, uint32_t>> loads;
  SmallVector<uint32_t> registerReads;
};

struct ForInstruction {
  Slot lower, upper, step, inductionVar;
  /// The counter's width and whether the loop compares it unsigned: the
  /// lowered loop adds the step in that width and stops only at the upper
  /// bound.
  unsigned width;
  bool isUnsigned;
  SmallVector<Slot> iterArgs;
  uint32_t bodyBegin, bodyEnd;
  /// Whether the loop computes only from global memory and private scratch
  /// (a fold over an input, a thread's tree), so that it may be skipped;
  /// whether it is, whatever its bounds (it carries values: running it
  /// would cost its whole trip count per thread); what it does when
  /// skipped.
  bool skippable;
  bool skipped;
  SkippedAccesses whenSkipped;
};

/// The gpu.func compiled once for all of a block's threads: every value is
/// a slot and every op an instruction on slots, so that the run looks
/// nothing up by value. Slots are reused once their value is dead (a value
/// defined outside a loop lives to the loop's end), so that the state of
/// all threads stays small.
class ThreadProgram {
public:
  explicit ThreadProgram(gpu::GPUFuncOp func);

  uint32_t getNumValueSlots() const { return numValueSlots; }
  uint32_t getNumPointerSlots() const { return numPointerSlots; }
  Slot slotOf(Value value) const { return slots.lookup(value); }
  /// The instructions of the function's body.
  std::pair<uint32_t, uint32_t> getBody() const { return body; }

  SmallVector<Instruction> instructions;
  /// Operand and result slots of the instructions.
  SmallVector<Slot> slotLists;
  SmallVector<MemoryInstruction> memoryInstructions;
  SmallVector<IfInstruction> ifs;
  SmallVector<ForInstruction> fors;
  /// Loops the run skips (scf.while that touches nothing another thread
  /// can see).
  SmallVector<SkippedAccesses> skippedLoops;
  /// Each register read check: the op, its sync, and the slot of the
  /// element it reads (the operand the owner is computed from; kNoSlot when
  /// the owner is not computed in the code).
  struct RegisterRead {
    Operation *check;
    unsigned sync;
    Slot element;
    /// A check of a read of an array in shuffles: the owner need only be
    /// in the reading thread's warp.
    bool withinWarp;
  };
  SmallVector<RegisterRead> registerReads;
  static constexpr Slot kNoSlot = ~Slot(0);

private:
  void allocateSlots(gpu::GPUFuncOp func);
  std::pair<uint32_t, uint32_t> compileBlock(Block *block);
  std::pair<uint32_t, uint32_t> compileRegion(Region &region);
  void compile(Operation &op, uint32_t index);
  /// What `op` does to the threads' state; fills in what its step needs
  /// in `instruction` (an immediate, widths, an integer opcode).
  Step compileStep(Operation &op, Instruction &instruction);
  /// Compiles a load, with the entries of the constant table it reads from
  /// if any.
  Step compileLoad(memref::LoadOp load, Instruction &instruction);
  /// Compiles an scf.if and its branches; returns its index in ifs.
  uint32_t compileIf(scf::IfOp ifOp);
  /// Compiles an scf.for and its body; returns its index in fors.
  uint32_t compileFor(scf::ForOp loop);
  /// What an op without regions or memory effects does: integer arithmetic
  /// the run evaluates, or a result it does not know.
  Step compileInteger(Operation &op, Instruction &instruction);
  UntrackedMemory classifyUntracked(Value memref) const;
  /// Compiles what a load or store of `memref` needs; returns its index.
  uint32_t compileMemoryInstruction(Value memref);
  /// Whether `loop` (an scf.for or scf.while) touches nothing another
  /// thread can see: no barrier, no shared memory, no global store, no
  /// effect the run cannot see.
  bool isSkippable(Operation *loop) const;
  /// The loads of tracked memory and the register read checks in `loop`,
  /// compiled.
  SkippedAccesses compileSkipped(Operation *loop);
  /// Compiles a register read check (`check`, of `sync`); returns its
  /// index in registerReads.
  uint32_t compileRegisterRead(Operation *check, IntegerAttr sync);

  /// Whether `op` is gone once the code is simplified (see
  /// Instruction::foldsAway); records the values computed from constants.
  bool foldsAway(Operation &op);

  llvm::DenseMap<Value, Slot> slots;
  uint32_t numValueSlots = 0, numPointerSlots = 0;
  /// Values computed from constants alone, by pure ops.
  llvm::DenseSet<Value> fromConstants;
  /// The shuffles compiled so far, by block.
  llvm::DenseMap<Block *, SmallVector<Operation *>> shuffles;
  /// Memrefs the run follows to a memory of the block (views and choices
  /// of them), and those of them that may be workgroup memory.
  llvm::DenseSet<Value> tracked, workgroup;
  std::pair<uint32_t, uint32_t> body;
};

/// Whether `region` holds a barrier (as lowered: gpu.barrier or
/// nvvm.barrier0).
bool holdsBarrier(Region &region);

} // namespace mlir::obs::block_run

#endif // OBS_LIB_ANALYSIS_THREADPROGRAM_H
