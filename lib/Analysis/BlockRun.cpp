//===- BlockRun.cpp - every access of every thread of a block -------------===//

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/StableSort.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <array>
#include <map>
#include <numeric>
#include <queue>
#include <set>

using namespace mlir;
using namespace mlir::obs;

/// The lanes of a warp, as shfl.sync sees them (its masks have a bit each).
static constexpr uint32_t kWarpLanes = KernelOp::kWarpSize;

StringRef mlir::obs::stringifyHazardKind(Hazard::Kind kind) {
  switch (kind) {
  case Hazard::ReadAfterWrite:
    return "read after write";
  case Hazard::WriteAfterRead:
    return "write after read";
  case Hazard::WriteAfterWrite:
    return "write after write";
  }
  llvm_unreachable("unknown hazard");
}

namespace mlir::obs {

namespace {

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

} // namespace

/// Runs every thread of a block through a ThreadProgram at once, an
/// instruction at a time over the threads that run it (those a branch or a
/// loop leaves active): index arithmetic is evaluated with each thread's id
/// known; memory contents stay unknown. Each thread sees exactly what it
/// would see run alone, in its own program order, and the accesses are
/// recorded thread by thread; running the threads together makes the cost
/// of dispatching an instruction once per block rather than once per
/// thread.
class ThreadRunner {
public:
  ThreadRunner(BlockRun &run, const ThreadProgram &program);

  /// Makes `root` point at the start of memory `memory` in every thread.
  void bindMemory(Value root, unsigned memory, Attribute owner);
  /// Runs the body in every thread, then orders the accesses by thread.
  LogicalResult runBody();

  /// The barriers each thread passed, in order.
  std::vector<SmallVector<Operation *>> passed;

private:
  /// Where a memref value points: a root memory and a byte offset into it.
  struct Pointer {
    unsigned memory;
    uint64_t byteOffset;
    Attribute owner;
  };
  using Lanes = ArrayRef<uint32_t>;

  LogicalResult runRange(uint32_t begin, uint32_t end, Lanes lanes);
  /// Whether `instruction`, just run by `lane` among others, counts as an
  /// op the warps issue: an access, a shuffle, a barrier, a branch, or an
  /// op on data (its result unknown to the run). Arithmetic the run can
  /// evaluate is on thread ids and constants: the lowering emits it
  /// unsimplified, per element, and LLVM folds, shares and hoists most of
  /// it, so counting it would count the lowering's verbosity.
  bool isIssued(const Instruction &instruction, uint32_t lane) const;
  /// The phase `lane` is in: the barriers it passed (every thread passes
  /// the same ones).
  size_t phaseOf(uint32_t lane) const { return passed[lane].size(); }
  /// Counts `ops` warp ops issued in `phase`.
  void addWarpOps(size_t phase, uint64_t ops) {
    if (run.warpOpsByPhase.size() <= phase)
      run.warpOpsByPhase.resize(phase + 1);
    run.warpOpsByPhase[phase] += ops;
  }
  LogicalResult runInstruction(const Instruction &instruction, Lanes lanes);
  /// An integer op computed directly, in every thread of `lanes`.
  void runDirect(const Instruction &instruction, Lanes lanes);
  template <IntegerOpcode Code>
  void runDirect(const Instruction &instruction, Lanes lanes);
  LogicalResult runIf(const Instruction &instruction, Lanes lanes);
  LogicalResult runFor(const Instruction &instruction, Lanes lanes);
  /// Skips a loop that touches nothing another thread can see, doing what
  /// `skipped` says it still does.
  LogicalResult skipLoop(const Instruction &instruction,
                         const SkippedAccesses &skipped, Lanes lanes);
  /// Records that thread `lane` read, at `check`, element `element` (-1:
  /// unknown) of an array in registers that thread `owner` computed (-1:
  /// unknown); the first for each array only.
  void recordRegisterViolation(RegisterReadViolation::Kind kind, unsigned sync,
                               Operation *check, uint32_t lane, int64_t owner,
                               int64_t element, int64_t source = -1);
  /// Runs a shuffle in the threads of `lanes`: each warp's lanes there
  /// must be the ones their mask names, and the lanes the values come from
  /// among them; anything else is a violation of the shuffle's sync.
  LogicalResult runShuffle(const Instruction &instruction, Lanes lanes);
  /// Fails, with the error at the obs.index, where a thread of `lanes`
  /// found by the check `instruction` (Step::IndexBounds) that the place
  /// it reads is outside the array, and no branch on data brought it there.
  LogicalResult checkIndexBounds(const Instruction &instruction, Lanes lanes);
  /// For each thread, how many branches it runs because their condition
  /// depends on data (it takes both ways, so what it does there may not
  /// happen).
  std::vector<uint32_t> dataBranches;
  /// How many branches on a condition that is not a constant the run is
  /// inside (a branch on data among them, which some lanes may skip): a
  /// shuffle there is refused even where every lane of its warp takes the
  /// branch, because the cpu target exchanges values only at the top level
  /// of a warp's steps (it would have to prove the condition the same in
  /// every lane, as the run here only observes).
  unsigned branches = 0;
  /// How many loops the run is inside: a shuffle there is refused too,
  /// whatever the trip counts, because the cpu target splits a warp's
  /// steps at each shuffle and a loop's carried values would have to live
  /// across the split (a GPU would run it).
  unsigned loops = 0;
  /// The element each thread last checked a read of, per sync in
  /// shuffles, and its owner (-1: unknown), for the shuffles that follow
  /// the check: each must take its value from that owner's lane.
  struct ShuffleRead {
    int64_t owner = -1, element = -1;
    bool checked = false;
  };
  llvm::DenseMap<unsigned, std::vector<ShuffleRead>> shuffleReads;
  /// Records one access of thread `lane` by `op` through `memoryAccess`, at
  /// the indices in `indices` (slots), or anywhere in the buffer when
  /// `wholeBuffer` (an access known not to depend on data: a skipped
  /// loop's).
  LogicalResult recordAccess(Operation *op,
                             const MemoryInstruction &memoryAccess,
                             const Slot *indices, uint32_t lane, bool write,
                             bool wholeBuffer = false);

  size_t at(Slot slot, uint32_t lane) const {
    return size_t(slot & ~kPointer) * threads + lane;
  }
  bool isKnown(Slot slot, uint32_t lane) const { return known[at(slot, lane)]; }
  int64_t valueOf(Slot slot, uint32_t lane) const {
    return values[at(slot, lane)];
  }
  void setInt(Slot slot, uint32_t lane, int64_t value) {
    values[at(slot, lane)] = value;
    known[at(slot, lane)] = 1;
  }
  bool isPointerKnown(Slot slot, uint32_t lane) const {
    return pointerKnown[at(slot, lane)];
  }
  void forget(Slot slot, Lanes lanes) {
    std::vector<uint8_t> &flags = slot & kPointer ? pointerKnown : known;
    for (uint32_t lane : lanes)
      flags[at(slot, lane)] = 0;
  }
  Slot operand(const Instruction &instruction, unsigned i) const {
    return program.slotLists[instruction.firstOperand + i];
  }
  Slot result(const Instruction &instruction, unsigned i) const {
    return program.slotLists[instruction.firstResult + i];
  }
  void forgetResults(const Instruction &instruction, Lanes lanes) {
    for (unsigned i = 0; i < instruction.numResults; ++i)
      forget(result(instruction, i), lanes);
  }
  /// `value` as an attribute of `type`, for the ops' folders: cached, since
  /// threads fold the same few values over and over, and uniquing each in
  /// the context is a locked hash lookup.
  Attribute integerAttr(Type type, int64_t value);

  BlockRun &run;
  const ThreadProgram &program;
  uint32_t threads;
  std::vector<int64_t> values;
  std::vector<uint8_t> known;
  std::vector<Pointer> pointers;
  std::vector<uint8_t> pointerKnown;
  /// Each thread's count of accesses so far.
  std::vector<uint64_t> order;
  llvm::DenseMap<std::pair<Type, int64_t>, Attribute> integerAttrs;
};

} // namespace mlir::obs

static bool holdsBarrier(Region &region) {
  return region
      .walk([](Operation *op) {
        return isLoweredBarrier(op) ? WalkResult::interrupt()
                                    : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op` may touch memory other than through the loads and stores
/// the run records: the proof sees memory only through them, so any other
/// op that may touch memory another thread sees is an error, not something
/// to skip. A thread's own scratch and reads of constant tables are free.
static bool hasUnseenEffects(Operation &op,
                             function_ref<UntrackedMemory(Value)> classify,
                             function_ref<bool(Value)> isTracked) {
  if (isMemoryEffectFree(&op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &instance : instances) {
    Value value = instance.getValue();
    if (value && isa<MemRefType>(value.getType()) && !isTracked(value)) {
      UntrackedMemory kind = classify(value);
      if (kind == UntrackedMemory::Private ||
          (kind == UntrackedMemory::Constant &&
           isa<MemoryEffects::Read>(instance.getEffect())))
        continue;
    }
    return true;
  }
  return false;
}

ThreadProgram::ThreadProgram(gpu::GPUFuncOp func) {
  for (BlockArgument argument : func.getArguments())
    if (isa<MemRefType>(argument.getType()))
      tracked.insert(argument);
  for (BlockArgument buffer : func.getWorkgroupAttributions()) {
    tracked.insert(buffer);
    workgroup.insert(buffer);
  }
  // Views and choices of followed memory are followed (in program order,
  // sources before views).
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto follow = [&](Value result, ValueRange sources) {
      for (Value source : sources) {
        if (tracked.contains(source))
          tracked.insert(result);
        if (workgroup.contains(source))
          workgroup.insert(result);
      }
    };
    if (auto view = dyn_cast<memref::ViewOp>(op))
      follow(view.getResult(), view.getSource());
    else if (auto select = dyn_cast<arith::SelectOp>(op);
             select && isa<MemRefType>(select.getType()))
      follow(select.getResult(),
             {select.getTrueValue(), select.getFalseValue()});
  });
  allocateSlots(func);
  body = compileRegion(func.getBody());
}

void ThreadProgram::allocateSlots(gpu::GPUFuncOp func) {
  // Positions in program order (regions inside their op), and where each
  // op's regions end.
  llvm::DenseMap<Operation *, std::pair<uint32_t, uint32_t>> span;
  uint32_t next = 0;
  std::function<void(Region &)> number = [&](Region &region) {
    for (Block &block : region)
      for (Operation &op : block) {
        uint32_t begin = next++;
        for (Region &nested : op.getRegions())
          number(nested);
        span[&op] = {begin, next - 1};
      }
  };
  number(func.getBody());

  // A value lives from its definition to the end of the last op of its
  // block that uses it (directly or within its regions): a value used in
  // a loop lives to the loop's end, since every iteration reads it.
  struct Interval {
    uint32_t begin, end;
    Value value;
  };
  std::vector<Interval> intervals;
  auto addValue = [&](Value value, uint32_t begin) {
    if (isa<MemRefType>(value.getType())) {
      slots[value] = kPointer | numPointerSlots++;
      return;
    }
    Block *block = value.getParentBlock();
    uint32_t end = begin;
    for (Operation *user : value.getUsers()) {
      while (user && user->getBlock() != block)
        user = user->getParentOp();
      if (user)
        end = std::max(end, span.lookup(user).second);
    }
    intervals.push_back({begin, end, value});
  };
  for (BlockArgument argument : func.getBody().getArguments())
    addValue(argument, 0);
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return;
    uint32_t position = span.lookup(op).first;
    for (Value result : op->getResults())
      addValue(result, position);
    // Block arguments (a loop's counter and carried values) are written
    // where their op starts.
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          addValue(argument, position);
  });
  // Linear scan: a slot is taken again once its value is dead, strictly
  // before the next value begins (an op never writes a slot it reads).
  stableSort(intervals, [](const Interval &a, const Interval &b) {
    return a.begin < b.begin;
  });
  using Ending = std::pair<uint32_t, Slot>;
  std::priority_queue<Ending, std::vector<Ending>, std::greater<Ending>> live;
  SmallVector<Slot> free;
  for (const Interval &interval : intervals) {
    while (!live.empty() && live.top().first < interval.begin) {
      free.push_back(live.top().second);
      live.pop();
    }
    Slot slot;
    if (free.empty()) {
      slot = numValueSlots++;
    } else {
      slot = free.back();
      free.pop_back();
    }
    slots[interval.value] = slot;
    live.push({interval.end, slot});
  }
}

std::pair<uint32_t, uint32_t> ThreadProgram::compileRegion(Region &region) {
  if (region.empty()) {
    uint32_t here = instructions.size();
    return {here, here};
  }
  return compileBlock(&region.front());
}

std::pair<uint32_t, uint32_t> ThreadProgram::compileBlock(Block *block) {
  // A block's instructions are contiguous; nested regions follow them.
  uint32_t begin = instructions.size();
  SmallVector<Operation *> ops;
  for (Operation &op : *block)
    ops.push_back(&op);
  instructions.resize(begin + ops.size());
  for (auto [index, op] : llvm::enumerate(ops))
    compile(*op, begin + index);
  return {begin, begin + static_cast<uint32_t>(ops.size())};
}

UntrackedMemory ThreadProgram::classifyUntracked(Value memref) const {
  Value root = memref;
  while (Operation *producer = root.getDefiningOp()) {
    if (isa<memref::AllocaOp, memref::AllocOp>(producer))
      return UntrackedMemory::Private;
    if (auto get = dyn_cast<memref::GetGlobalOp>(producer)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      return global && global.getConstant() ? UntrackedMemory::Constant
                                            : UntrackedMemory::Unknown;
    }
    auto view = dyn_cast<ViewLikeOpInterface>(producer);
    if (!view || tracked.contains(view.getViewSource()))
      return UntrackedMemory::Unknown;
    root = view.getViewSource();
  }
  return UntrackedMemory::Unknown;
}

uint32_t ThreadProgram::compileMemoryInstruction(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  memoryInstructions.push_back(
      {slots.lookup(memref), classifyUntracked(memref),
       SmallVector<int64_t, 2>(type.getShape()), getElementBytes(type),
       static_cast<uint64_t>(type.getNumElements()), std::nullopt});
  return memoryInstructions.size() - 1;
}

/// The sync whose array in registers or shuffles `op` checks a read of
/// (an arith.cmpi tagged obs.register_read or obs.shuffle_read), or null.
static IntegerAttr readCheckSync(Operation *op) {
  if (!isa<arith::CmpIOp>(op))
    return {};
  if (IntegerAttr sync =
          ObsDialect::RegisterReadAttrHelper(op->getContext()).getAttr(op))
    return sync;
  return ObsDialect::ShuffleReadAttrHelper(op->getContext()).getAttr(op);
}

bool ThreadProgram::isSkippable(Operation *loop) const {
  WalkResult result = loop->walk([&](Operation *op) {
    if (op == loop)
      return WalkResult::advance();
    // A barrier, or an exchange between the threads of a warp, which some
    // would skip if their trip counts differed.
    if (isa<gpu::BarrierOp, gpu::ShuffleOp>(op) ||
        isa_and_present<NVVM::NVVMDialect>(op->getDialect()))
      return WalkResult::interrupt();
    Value memref;
    bool store = false;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    else if (auto storeOp = dyn_cast<memref::StoreOp>(op))
      memref = storeOp.getMemRef(), store = true;
    else if (op->getNumRegions() == 0 && !isMemoryEffectFree(op) &&
             !isa<memref::AllocaOp>(op))
      return WalkResult::interrupt(); // Run it: its effects get checked.
    else
      return WalkResult::advance();
    if (loop->isAncestor(memref.getParentRegion()->getParentOp()))
      return WalkResult::interrupt(); // A view made inside: run it.
    if (!tracked.contains(memref))
      return WalkResult::advance(); // Private scratch.
    if (store || workgroup.contains(memref))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

SkippedAccesses ThreadProgram::compileSkipped(Operation *loop) {
  SkippedAccesses skipped;
  loop->walk([&](Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && tracked.contains(load.getMemRef()))
      skipped.loads.push_back(
          {load, compileMemoryInstruction(load.getMemRef())});
    else if (IntegerAttr sync = readCheckSync(op))
      skipped.registerReads.push_back(compileRegisterRead(op, sync));
  });
  return skipped;
}

uint32_t ThreadProgram::compileRegisterRead(Operation *check,
                                            IntegerAttr sync) {
  // The lowering computes the owner from the element, and reads the
  // element again after the check, so its slot still holds it there.
  Slot element = kNoSlot;
  if (Operation *owner = check->getOperand(0).getDefiningOp();
      owner && owner->getNumOperands() == 2)
    element = slots.lookup(owner->getOperand(0));
  registerReads.push_back(
      {check, static_cast<unsigned>(sync.getInt()), element,
       ObsDialect::ShuffleReadAttrHelper(check->getContext())
           .isAttrPresent(check)});
  return registerReads.size() - 1;
}

bool ThreadProgram::foldsAway(Operation &op) {
  auto isConstant = [&](Value value) { return fromConstants.contains(value); };
  if (op.getNumRegions() == 0 && isPure(&op) &&
      llvm::all_of(op.getOperands(), isConstant)) {
    fromConstants.insert(op.result_begin(), op.result_end());
    return true;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return isConstant(select.getCondition());
  if (isa<NVVM::ShflOp>(op)) {
    SmallVector<Operation *> &before = shuffles[op.getBlock()];
    bool repeated = llvm::any_of(before, [&](Operation *earlier) {
      return earlier->getOperands() == op.getOperands() &&
             earlier->getAttrDictionary() == op.getAttrDictionary();
    });
    before.push_back(&op);
    return repeated;
  }
  return false;
}

void ThreadProgram::compile(Operation &op, uint32_t index) {
  Instruction instruction;
  instruction.op = &op;
  instruction.foldsAway = foldsAway(op);
  instruction.firstResult = slotLists.size();
  instruction.numResults = op.getNumResults();
  for (Value result : op.getResults())
    slotLists.push_back(slots.lookup(result));
  instruction.firstOperand = slotLists.size();
  instruction.numOperands = op.getNumOperands();
  for (Value operand : op.getOperands())
    slotLists.push_back(slots.lookup(operand));
  auto finish = [&](Step step) {
    instruction.step = step;
    instructions[index] = instruction;
  };

  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return finish(id.getDimension() == gpu::Dimension::x ? Step::ThreadIdX
                                                         : Step::Zero);
  // The block the lowering addresses global memory for is block 0; the
  // block index the kernel's own code computes with (obs.data) is any.
  if (isa<gpu::BlockIdOp>(op))
    return finish(ObsDialect::DataAttrHelper(op.getContext()).isAttrPresent(&op)
                      ? Step::Unknown
                      : Step::Zero);
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return finish(dim.getDimension() == gpu::Dimension::x ? Step::BlockDimX
                                                          : Step::One);
  if (isLoweredBarrier(&op))
    return finish(Step::Barrier);
  if (isa<gpu::ReturnOp, scf::YieldOp>(op))
    return finish(Step::Nothing);
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    instruction.immediate = compileMemoryInstruction(load.getMemRef());
    MemoryInstruction &access = memoryInstructions.back();
    // A constant table (compact's positions, a shuffle) is known data.
    if (auto get = load.getMemRef().getDefiningOp<memref::GetGlobalOp>()) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      auto entries = global && global.getConstant()
                         ? dyn_cast_if_present<DenseIntElementsAttr>(
                               global.getInitialValueAttr())
                         : DenseIntElementsAttr();
      if (entries) {
        access.table.emplace();
        if (entries.isSplat())
          access.table->assign(access.numElements,
                               entries.getSplatValue<APInt>().getSExtValue());
        else
          for (const APInt &entry : entries.getValues<APInt>())
            access.table->push_back(entry.getSExtValue());
        instruction.resultWidth = getIntegerWidth(load.getType());
      }
    }
    return finish(Step::Load);
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    instruction.immediate = compileMemoryInstruction(store.getMemRef());
    memoryInstructions.back().checkedScatter =
        ObsDialect::CheckedScatterAttrHelper(op.getContext())
            .isAttrPresent(store);
    return finish(Step::Store);
  }
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
    instruction.immediate = compileMemoryInstruction(atomic.getMemref());
    memoryInstructions.back().atomic = true;
    memoryInstructions.back().atomicKind =
        static_cast<uint8_t>(atomic.getKind());
    return finish(Step::Atomic);
  }
  // The cpu target's reports of a place a scatter writes twice and of a
  // read outside an array stop the run; they touch nothing the proof
  // follows.
  if (auto call = dyn_cast<func::CallOp>(op);
      call && (call.getCallee() == kScatterCollisionFunction ||
               call.getCallee() == kIndexOutsideFunction))
    return finish(Step::Nothing);
  if (isa<memref::ViewOp>(op))
    return finish(Step::View);
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType()))
    return finish(Step::SelectMemref);
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    IfInstruction compiled;
    compiled.holdsBarrier = holdsBarrier(ifOp.getThenRegion()) ||
                            holdsBarrier(ifOp.getElseRegion());
    compiled.constantCondition =
        matchPattern(ifOp.getCondition(), m_Constant());
    std::tie(compiled.thenBegin, compiled.thenEnd) =
        compileRegion(ifOp.getThenRegion());
    std::tie(compiled.elseBegin, compiled.elseEnd) =
        compileRegion(ifOp.getElseRegion());
    auto yields = [&](Region &region, SmallVector<Slot> &into) {
      if (!region.empty())
        for (Value yielded : region.front().getTerminator()->getOperands())
          into.push_back(slots.lookup(yielded));
    };
    yields(ifOp.getThenRegion(), compiled.thenYields);
    yields(ifOp.getElseRegion(), compiled.elseYields);
    instruction.immediate = ifs.size();
    ifs.push_back(std::move(compiled));
    return finish(Step::If);
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    ForInstruction compiled;
    compiled.lower = slots.lookup(loop.getLowerBound());
    compiled.upper = slots.lookup(loop.getUpperBound());
    compiled.step = slots.lookup(loop.getStep());
    compiled.inductionVar = slots.lookup(loop.getInductionVar());
    for (Value carried : loop.getRegionIterArgs())
      compiled.iterArgs.push_back(slots.lookup(carried));
    compiled.skippable = isSkippable(loop);
    compiled.skipped = compiled.skippable && !loop.getInitArgs().empty();
    if (compiled.skippable)
      compiled.whenSkipped = compileSkipped(loop);
    std::tie(compiled.bodyBegin, compiled.bodyEnd) =
        compileRegion(loop.getRegion());
    instruction.immediate = fors.size();
    fors.push_back(std::move(compiled));
    return finish(Step::For);
  }
  // A loop whose trip count depends on data (Mandelbrot's escape loop) is
  // followed where it touches nothing another thread can see: any number
  // of iterations then changes no access but its reads of global memory,
  // which count as reads of anywhere in their buffers.
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    if (!isSkippable(loop))
      return finish(Step::DataLoop);
    instruction.immediate = skippedLoops.size();
    skippedLoops.push_back(compileSkipped(loop));
    return finish(Step::SkippedLoop);
  }
  if (op.getNumRegions())
    return finish(Step::CannotFollow);
  if (IntegerAttr sync = readCheckSync(&op)) {
    instruction.immediate = compileRegisterRead(&op, sync);
    return finish(Step::RegisterRead);
  }
  if (isa<NVVM::ShflOp>(op)) {
    IntegerAttr sync =
        ObsDialect::ShuffleReadAttrHelper(op.getContext()).getAttr(&op);
    instruction.immediate = sync ? sync.getInt() : -1;
    return finish(Step::Shuffle);
  }
  if (hasUnseenEffects(
          op, [&](Value memref) { return classifyUntracked(memref); },
          [&](Value memref) { return tracked.contains(memref); }))
    return finish(Step::UnseenEffects);

  // Integer arithmetic, of addresses and conditions.
  if (op.getNumResults() != 1 || !op.getResult(0).getType().isIntOrIndex())
    return finish(Step::Unknown);
  instruction.resultWidth = getIntegerWidth(op.getResult(0).getType());
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto integer = dyn_cast<IntegerAttr>(constant.getValue());
    if (!integer)
      return finish(Step::Unknown);
    instruction.immediate =
        integer.getType().isInteger(1)
            ? static_cast<int64_t>(integer.getValue().getZExtValue())
            : integer.getValue().getSExtValue();
    instruction.immediate =
        wrapToWidth(instruction.resultWidth, instruction.immediate);
    return finish(Step::Constant);
  }
  if (llvm::any_of(op.getOperandTypes(),
                   [](Type type) { return !type.isIntOrIndex(); }))
    return finish(Step::Unknown);
  instruction.code = classifyIntegerOp(op);
  if (instruction.code == IntegerOpcode::Fold)
    return finish(Step::Fold);
  instruction.operandWidth = getIntegerWidth(
      op.getOperand(instruction.code == IntegerOpcode::Select ? 1 : 0)
          .getType());
  if (ObsDialect::IndexBoundsAttrHelper(op.getContext()).isAttrPresent(&op))
    return finish(Step::IndexBounds);
  return finish(Step::Direct);
}

ThreadRunner::ThreadRunner(BlockRun &run, const ThreadProgram &program)
    : passed(run.threads), dataBranches(run.threads, 0), run(run),
      program(program), threads(run.threads),
      values(size_t(program.getNumValueSlots()) * threads),
      known(size_t(program.getNumValueSlots()) * threads, 0),
      pointers(size_t(program.getNumPointerSlots()) * threads),
      pointerKnown(size_t(program.getNumPointerSlots()) * threads, 0),
      order(threads, 0) {}

void ThreadRunner::bindMemory(Value root, unsigned memory, Attribute owner) {
  Slot slot = program.slotOf(root);
  for (uint32_t lane = 0; lane < threads; ++lane) {
    pointers[at(slot, lane)] = {memory, 0, owner};
    pointerKnown[at(slot, lane)] = 1;
  }
}

LogicalResult ThreadRunner::runBody() {
  std::vector<uint32_t> all(threads);
  std::iota(all.begin(), all.end(), 0);
  auto [begin, end] = program.getBody();
  size_t first = run.accesses.size();
  if (failed(runRange(begin, end, all)))
    return failure();
  // The accesses were recorded instruction by instruction; the analyses
  // read them thread by thread, each thread's in its own order (a stable
  // counting sort by thread).
  std::vector<size_t> start(threads + 1, 0);
  for (size_t i = first; i < run.accesses.size(); ++i)
    ++start[run.accesses[i].thread + 1];
  for (uint32_t lane = 0; lane < threads; ++lane)
    start[lane + 1] += start[lane];
  std::vector<Access> sorted(run.accesses.size() - first);
  for (size_t i = first; i < run.accesses.size(); ++i)
    sorted[start[run.accesses[i].thread]++] = run.accesses[i];
  if (first == 0)
    run.accesses = std::move(sorted);
  else
    std::copy(sorted.begin(), sorted.end(), run.accesses.begin() + first);
  return success();
}

Attribute ThreadRunner::integerAttr(Type type, int64_t value) {
  Attribute &attribute = integerAttrs[{type, value}];
  if (!attribute)
    attribute = IntegerAttr::get(type, value);
  return attribute;
}

LogicalResult ThreadRunner::recordAccess(Operation *op,
                                         const MemoryInstruction &memoryAccess,
                                         const Slot *indices, uint32_t lane,
                                         bool write, bool wholeBuffer) {
  if (!isPointerKnown(memoryAccess.memref, lane)) {
    // Memory no other thread sees: the thread's own scratch, or a constant
    // table it only reads. Any other is memory the proof cannot follow.
    UntrackedMemory kind = memoryAccess.untracked;
    if (kind == UntrackedMemory::Private ||
        (kind == UntrackedMemory::Constant && !write))
      return success();
    return op->emitOpError()
           << (write ? "writes" : "reads")
           << " memory that is neither the kernel's arguments, its shared "
              "buffers, a thread's own scratch nor a constant table, so the "
              "analysis cannot prove the kernel safe";
  }
  if (run.accesses.size() == BlockRun::kMaxAccesses)
    return tagError(op->emitError()
                        << "cannot prove the kernel safe: one block makes "
                           "more than the limit of "
                        << BlockRun::kMaxAccesses
                        << " memory accesses that the analysis follows",
                    ErrorKind::CompilerLimit);
  const Pointer &pointer = pointers[at(memoryAccess.memref, lane)];
  Access access{static_cast<unsigned>(passed[lane].size()),
                lane,
                order[lane]++,
                write,
                memoryAccess.atomic,
                memoryAccess.checkedScatter,
                memoryAccess.atomicKind,
                pointer.memory,
                /*byteBegin=*/0,
                /*byteEnd=*/0,
                /*element=*/-1,
                op,
                pointer.owner};
  // Row-major linearisation of the indices, when they are all known.
  int64_t linear = 0;
  bool allKnown = !wholeBuffer;
  for (unsigned i = 0; allKnown && i < memoryAccess.shape.size(); ++i) {
    Slot index = indices[i];
    if (!isKnown(index, lane))
      allKnown = false;
    else
      linear = linear * memoryAccess.shape[i] + valueOf(index, lane);
  }
  if (allKnown) {
    access.element = linear;
    access.byteBegin = pointer.byteOffset + linear * memoryAccess.elementBytes;
    access.byteEnd = access.byteBegin + memoryAccess.elementBytes;
  } else {
    // Anywhere in the buffer this memref views.
    run.dataDependent |= !wholeBuffer;
    access.byteBegin = pointer.byteOffset;
    access.byteEnd =
        access.byteBegin + memoryAccess.numElements * memoryAccess.elementBytes;
  }
  run.accesses.push_back(access);
  return success();
}

bool ThreadRunner::isIssued(const Instruction &instruction,
                            uint32_t lane) const {
  if (instruction.foldsAway)
    return false;
  switch (instruction.step) {
  case Step::Load:
  case Step::Store:
  case Step::Atomic:
  case Step::Shuffle:
  case Step::Barrier:
  case Step::If:
  case Step::Unknown:
    return true;
  case Step::Direct:
  case Step::Fold:
    return !isKnown(result(instruction, 0), lane);
  default:
    return false;
  }
}

/// The warps with a thread among `lanes` (in increasing order).
static uint64_t countWarps(ArrayRef<uint32_t> lanes) {
  uint64_t warps = 0;
  uint32_t last = ~uint32_t(0);
  for (uint32_t lane : lanes)
    if (uint32_t warp = lane / kWarpLanes; warp != last) {
      ++warps;
      last = warp;
    }
  return warps;
}

LogicalResult ThreadRunner::runRange(uint32_t begin, uint32_t end,
                                     Lanes lanes) {
  uint64_t warps = lanes.size() == threads
                       ? llvm::divideCeil(threads, kWarpLanes)
                       : countWarps(lanes);
  for (uint32_t i = begin; i < end; ++i) {
    const Instruction &instruction = program.instructions[i];
    // A barrier counts in the phase it ends.
    size_t phase = phaseOf(lanes.front());
    if (failed(runInstruction(instruction, lanes)))
      return failure();
    if (isIssued(instruction, lanes.front()))
      addWarpOps(phase, warps);
  }
  return success();
}

/// The error for a loop whose `what` (trip count, bounds) depends on data
/// and that touches what other threads see.
static LogicalResult emitDataLoopError(Operation *loop, StringRef what) {
  return loop->emitOpError()
         << "is a loop whose " << what
         << " on data, and it touches shared memory, stores to global "
            "memory or holds a barrier or a warp exchange: the analysis "
            "follows such a loop only where it touches nothing another "
            "thread can see";
}

LogicalResult ThreadRunner::runInstruction(const Instruction &instruction,
                                           Lanes lanes) {
  auto setAll = [&](function_ref<int64_t(uint32_t)> valueOfLane) {
    Slot slot = result(instruction, 0);
    for (uint32_t lane : lanes)
      setInt(slot, lane, valueOfLane(lane));
  };
  switch (instruction.step) {
  case Step::Nothing:
    return success();
  case Step::Unknown:
    forgetResults(instruction, lanes);
    return success();
  case Step::Constant:
    setAll([&](uint32_t) { return instruction.immediate; });
    return success();
  case Step::Direct:
    runDirect(instruction, lanes);
    return success();
  case Step::IndexBounds:
    runDirect(instruction, lanes);
    return checkIndexBounds(instruction, lanes);
  case Step::Fold: {
    Slot target = result(instruction, 0);
    unsigned count = instruction.numOperands;
    SmallVector<int64_t, 3> operandValues(count);
    for (uint32_t lane : lanes) {
      bool allKnown = true;
      for (unsigned i = 0; i < count && allKnown; ++i) {
        allKnown = isKnown(operand(instruction, i), lane);
        operandValues[i] = valueOf(operand(instruction, i), lane);
      }
      std::optional<int64_t> computed;
      if (allKnown)
        computed = foldIntegerOp(
            *instruction.op, operandValues,
            [&](Type type, int64_t value) { return integerAttr(type, value); });
      if (computed)
        setInt(target, lane, wrapToWidth(instruction.resultWidth, *computed));
      else
        known[at(target, lane)] = 0;
    }
    return success();
  }
  case Step::ThreadIdX:
    setAll([](uint32_t lane) { return int64_t(lane); });
    return success();
  case Step::Zero:
    setAll([](uint32_t) { return int64_t(0); });
    return success();
  case Step::BlockDimX:
    setAll([&](uint32_t) { return int64_t(threads); });
    return success();
  case Step::One:
    setAll([](uint32_t) { return int64_t(1); });
    return success();
  case Step::Barrier:
    for (uint32_t lane : lanes)
      passed[lane].push_back(instruction.op);
    return success();
  case Step::Load: {
    const MemoryInstruction &load =
        program.memoryInstructions[instruction.immediate];
    Slot target = result(instruction, 0);
    // A load's indices follow its memref.
    const Slot *indices = &program.slotLists[instruction.firstOperand + 1];
    for (uint32_t lane : lanes) {
      known[at(target, lane)] = 0;
      if (load.table) {
        // An entry of a constant table at known indices is known.
        int64_t linear = 0;
        bool inside = true;
        for (unsigned i = 0; inside && i < load.shape.size(); ++i) {
          inside = isKnown(indices[i], lane) &&
                   valueOf(indices[i], lane) >= 0 &&
                   valueOf(indices[i], lane) < load.shape[i];
          if (inside)
            linear = linear * load.shape[i] + valueOf(indices[i], lane);
        }
        if (inside)
          setInt(target, lane,
                 wrapToWidth(instruction.resultWidth, (*load.table)[linear]));
      }
      if (failed(recordAccess(instruction.op, load, indices, lane,
                              /*write=*/false)))
        return failure();
    }
    return success();
  }
  case Step::Atomic:
    forgetResults(instruction, lanes);
    [[fallthrough]];
  case Step::Store: {
    // A store's (and an atomic's) indices follow its value and memref.
    const Slot *indices = &program.slotLists[instruction.firstOperand + 2];
    for (uint32_t lane : lanes)
      if (failed(recordAccess(instruction.op,
                              program.memoryInstructions[instruction.immediate],
                              indices, lane, /*write=*/true)))
        return failure();
    return success();
  }
  case Step::View: {
    Slot source = operand(instruction, 0), shift = operand(instruction, 1);
    Slot target = result(instruction, 0);
    Attribute owner = ObsDialect::OwnerAttrHelper(instruction.op->getContext())
                          .getAttr(instruction.op);
    for (uint32_t lane : lanes) {
      if (!isPointerKnown(source, lane) || !isKnown(shift, lane))
        return instruction.op->emitOpError()
               << "views memory the analysis cannot follow";
      const Pointer &viewed = pointers[at(source, lane)];
      pointers[at(target, lane)] = {
          viewed.memory,
          viewed.byteOffset + static_cast<uint64_t>(valueOf(shift, lane)),
          owner ? owner : viewed.owner};
      pointerKnown[at(target, lane)] = 1;
    }
    return success();
  }
  case Step::SelectMemref: {
    Slot condition = operand(instruction, 0);
    Slot target = result(instruction, 0);
    for (uint32_t lane : lanes) {
      if (!isKnown(condition, lane))
        return instruction.op->emitOpError()
               << "chooses a buffer by a condition the analysis cannot "
                  "follow";
      Slot chosen = operand(instruction, valueOf(condition, lane) ? 1 : 2);
      pointerKnown[at(target, lane)] = isPointerKnown(chosen, lane);
      if (isPointerKnown(chosen, lane))
        pointers[at(target, lane)] = pointers[at(chosen, lane)];
    }
    return success();
  }
  case Step::RegisterRead: {
    Slot owner = operand(instruction, 0);
    const ThreadProgram::RegisterRead &read =
        program.registerReads[instruction.immediate];
    Slot element = read.element;
    // The owner is compared with the thread's own number: the check's
    // other operand is gpu.thread_id x, which is that number here. Within
    // a warp, the owner's warp with the thread's.
    std::vector<ShuffleRead> *checked = nullptr;
    if (read.withinWarp) {
      checked = &shuffleReads[read.sync];
      checked->resize(threads);
    }
    for (uint32_t lane : lanes) {
      int64_t computedBy = isKnown(owner, lane) ? valueOf(owner, lane) : -1;
      int64_t index =
          element != ThreadProgram::kNoSlot && isKnown(element, lane)
              ? valueOf(element, lane)
              : -1;
      if (checked)
        (*checked)[lane] = {computedBy, index, true};
      if (computedBy == int64_t(lane) ||
          (read.withinWarp && computedBy >= 0 &&
           computedBy / kWarpLanes == lane / kWarpLanes))
        continue;
      recordRegisterViolation(
          read.withinWarp ? RegisterReadViolation::OtherWarp
                          : RegisterReadViolation::OtherThread,
          read.sync, instruction.op, lane, computedBy, index);
      break; // Only the first wrong read of an array is kept.
    }
    forgetResults(instruction, lanes);
    return success();
  }
  case Step::Shuffle:
    return runShuffle(instruction, lanes);
  case Step::If:
    return runIf(instruction, lanes);
  case Step::For:
    return runFor(instruction, lanes);
  case Step::SkippedLoop:
    return skipLoop(instruction, program.skippedLoops[instruction.immediate],
                    lanes);
  case Step::DataLoop:
    return emitDataLoopError(instruction.op, "trip count depends");
  case Step::CannotFollow:
    return instruction.op->emitOpError()
           << "has regions the analysis cannot follow";
  case Step::UnseenEffects:
    if (!isa<MemoryEffectOpInterface>(instruction.op))
      return instruction.op->emitOpError()
             << "has memory effects the analysis cannot see, so it cannot "
                "prove the kernel safe";
    return instruction.op->emitOpError()
           << "reads or writes memory that the analysis follows only "
              "through memref.load and memref.store, so it cannot prove the "
              "kernel safe";
  }
  llvm_unreachable("unknown step");
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

LogicalResult ThreadRunner::runIf(const Instruction &instruction, Lanes lanes) {
  const IfInstruction &ifInstruction = program.ifs[instruction.immediate];
  Slot condition = operand(instruction, 0);
  // A thread whose condition depends on data may take either branch, so it
  // runs both, and a barrier in either would be skipped by some threads.
  SmallVector<uint32_t> thenLanes, elseLanes;
  bool anyUnknown = false;
  for (uint32_t lane : lanes) {
    bool isKnownHere = isKnown(condition, lane);
    anyUnknown |= !isKnownHere;
    if (!isKnownHere || valueOf(condition, lane))
      thenLanes.push_back(lane);
    if (!isKnownHere || !valueOf(condition, lane))
      elseLanes.push_back(lane);
  }
  if (anyUnknown && ifInstruction.holdsBarrier)
    return instruction.op->emitOpError()
           << "holds a barrier under a condition that depends on data";
  bool branch = !ifInstruction.constantCondition;
  branches += branch;
  SmallVector<uint32_t> onData;
  for (uint32_t lane : lanes)
    if (!isKnown(condition, lane))
      onData.push_back(lane);
  for (uint32_t lane : onData)
    ++dataBranches[lane];
  llvm::scope_exit leave([&] {
    branches -= branch;
    for (uint32_t lane : onData)
      --dataBranches[lane];
  });
  if (!thenLanes.empty() && failed(runRange(ifInstruction.thenBegin,
                                            ifInstruction.thenEnd, thenLanes)))
    return failure();
  if (!elseLanes.empty() && failed(runRange(ifInstruction.elseBegin,
                                            ifInstruction.elseEnd, elseLanes)))
    return failure();
  // Results: what the branch a thread took yields; nothing is known of a
  // branch on data. Memrefs a branch yields are not followed.
  for (unsigned i = 0; i < instruction.numResults; ++i) {
    Slot target = result(instruction, i);
    if (target & kPointer) {
      forget(target, lanes);
      continue;
    }
    for (uint32_t lane : lanes) {
      known[at(target, lane)] = 0;
      if (!isKnown(condition, lane))
        continue;
      const SmallVector<Slot> &yields = valueOf(condition, lane)
                                            ? ifInstruction.thenYields
                                            : ifInstruction.elseYields;
      if (i < yields.size() && !(yields[i] & kPointer) &&
          isKnown(yields[i], lane))
        setInt(target, lane, valueOf(yields[i], lane));
    }
  }
  return success();
}

LogicalResult ThreadRunner::checkIndexBounds(const Instruction &instruction,
                                             Lanes lanes) {
  if (run.indexViolation)
    return success();
  Slot inside = result(instruction, 0), index = operand(instruction, 0),
       length = operand(instruction, 1);
  for (uint32_t lane : lanes) {
    if (!isKnown(inside, lane) || valueOf(inside, lane) ||
        dataBranches[lane] != 0)
      continue;
    run.indexViolation = {instruction.op, lane, valueOf(index, lane),
                          valueOf(length, lane)};
    return success();
  }
  return success();
}

void ThreadRunner::recordRegisterViolation(RegisterReadViolation::Kind kind,
                                           unsigned sync, Operation *check,
                                           uint32_t lane, int64_t owner,
                                           int64_t element, int64_t source) {
  if (llvm::any_of(run.registerViolations,
                   [&](const RegisterReadViolation &known) {
                     return known.sync == sync;
                   }))
    return;
  run.registerViolations.push_back(
      {kind, check, lane, owner, element, sync, source});
}

/// The lane a shfl.sync of `kind` takes its value from, for lane `lane`
/// with source lane or offset `b` and packed clamp and segment mask `c`
/// (the PTX ISA's definition); the lane itself where the source is out of
/// its segment.
static int64_t shuffleSource(NVVM::ShflKind kind, int64_t lane, int64_t b,
                             int64_t c) {
  // Only the low five bits of the lane or offset count (bval = b[4:0]).
  b &= 0x1f;
  int64_t clamp = c & 0x1f, segmask = (c >> 8) & 0x1f;
  int64_t minLane = lane & segmask;
  int64_t maxLane = minLane | (clamp & ~segmask);
  int64_t source = lane;
  bool inside = false;
  switch (kind) {
  case NVVM::ShflKind::up:
    source = lane - b;
    inside = source >= maxLane;
    break;
  case NVVM::ShflKind::down:
    source = lane + b;
    inside = source <= maxLane;
    break;
  case NVVM::ShflKind::bfly:
    source = lane ^ b;
    inside = source <= maxLane;
    break;
  case NVVM::ShflKind::idx:
    source = minLane | (b & ~segmask & 0x1f);
    inside = source <= maxLane;
    break;
  }
  return inside ? source : lane;
}

LogicalResult ThreadRunner::runShuffle(const Instruction &instruction,
                                       Lanes lanes) {
  auto shuffle = cast<NVVM::ShflOp>(instruction.op);
  // What a lane receives is data, whether or not the shuffle is right: a
  // slot must not keep what it held before (a wrong shuffle is reported
  // after the run, and what follows it still runs).
  forgetResults(instruction, lanes);
  Slot mask = operand(instruction, 0), offset = operand(instruction, 2),
       clamp = operand(instruction, 3);
  auto wrong = [&](RegisterReadViolation::Kind kind, uint32_t lane,
                   int64_t source, int64_t owner = -1,
                   int64_t element = -1) -> LogicalResult {
    if (instruction.immediate < 0)
      return shuffle.emitOpError()
             << "is a shuffle that not every lane its mask names runs "
                "together with a value to give, so the analysis cannot "
                "prove the kernel safe";
    recordRegisterViolation(kind, instruction.immediate, instruction.op, lane,
                            owner, element, source);
    return success();
  };
  // The element each lane reads, by its check before the shuffle: its
  // owner must be the lane the shuffle takes from (whatever the kind),
  // except in a lane that computed the element itself where the read
  // keeps its own value (obs.own_lanes_kept): the shuffle's is not used.
  bool ownLanesKept =
      ObsDialect::OwnLanesKeptAttrHelper(instruction.op->getContext())
          .isAttrPresent(instruction.op);
  const std::vector<ShuffleRead> *checked = nullptr;
  if (instruction.immediate >= 0)
    if (auto found = shuffleReads.find(instruction.immediate);
        found != shuffleReads.end())
      checked = &found->second;
  // The lanes come in increasing order: each warp's are consecutive.
  for (size_t first = 0; first < lanes.size();) {
    size_t last = first;
    uint32_t warp = lanes[first] / kWarpLanes;
    uint64_t running = 0;
    while (last < lanes.size() && lanes[last] / kWarpLanes == warp)
      running |= uint64_t(1) << (lanes[last++] % kWarpLanes);
    for (uint32_t lane : lanes.slice(first, last - first)) {
      if (branches || loops || !isKnown(mask, lane) || !isKnown(offset, lane) ||
          !isKnown(clamp, lane) ||
          (uint64_t(valueOf(mask, lane)) & 0xffffffff) != running)
        return wrong(RegisterReadViolation::NotTogether, lane, -1);
      int64_t source =
          shuffleSource(shuffle.getKind(), lane % kWarpLanes,
                        valueOf(offset, lane), valueOf(clamp, lane));
      if (source < 0 || source >= int64_t(kWarpLanes) ||
          !(running >> source & 1))
        return wrong(RegisterReadViolation::NoSource, lane,
                     warp * kWarpLanes + source);
      if (instruction.immediate < 0)
        continue;
      // A read whose owner is unknown or in another warp is reported at
      // its check already.
      if (!checked || !(*checked)[lane].checked)
        return wrong(RegisterReadViolation::WrongLane, lane,
                     warp * kWarpLanes + source);
      const ShuffleRead &read = (*checked)[lane];
      if (ownLanesKept && read.owner == int64_t(lane))
        continue;
      if (read.owner >= 0 && read.owner / kWarpLanes == warp &&
          read.owner != int64_t(warp * kWarpLanes + source))
        return wrong(RegisterReadViolation::WrongLane, lane,
                     warp * kWarpLanes + source, read.owner, read.element);
    }
    first = last;
  }
  return success();
}

LogicalResult ThreadRunner::skipLoop(const Instruction &instruction,
                                     const SkippedAccesses &skipped,
                                     Lanes lanes) {
  // A loop that only computes from global memory and private scratch (a
  // fold over an input, a thread's tree, an escape loop) touches nothing
  // another thread can see: it is skipped, its results unknown, whatever
  // its trip count. Its reads of global memory still count, once each, as
  // reads of anywhere in their buffer: a launch whose output is a view of
  // its input must order them before the output's writes. Its register
  // read checks cannot be evaluated: each is a wrong read. Its ops are not
  // counted.
  run.opsSkipped |= !lanes.empty();
  if (!lanes.empty())
    for (uint32_t check : skipped.registerReads) {
      const ThreadProgram::RegisterRead &read = program.registerReads[check];
      recordRegisterViolation(read.withinWarp
                                  ? RegisterReadViolation::OtherWarp
                                  : RegisterReadViolation::OtherThread,
                              read.sync, read.check, lanes.front(),
                              /*owner=*/-1, /*element=*/-1);
    }
  for (uint32_t lane : lanes)
    for (auto [load, index] : skipped.loads) {
      const MemoryInstruction &read = program.memoryInstructions[index];
      if (isPointerKnown(read.memref, lane) &&
          failed(recordAccess(load, read, nullptr, lane, /*write=*/false,
                              /*wholeBuffer=*/true)))
        return failure();
    }
  forgetResults(instruction, lanes);
  return success();
}

LogicalResult ThreadRunner::runFor(const Instruction &instruction,
                                   Lanes lanes) {
  const ForInstruction &loop = program.fors[instruction.immediate];
  // Running it would cost its whole trip count per thread.
  if (loop.skipped)
    return skipLoop(instruction, loop.whenSkipped, lanes);
  for (uint32_t lane : lanes)
    if (!isKnown(loop.lower, lane) || !isKnown(loop.upper, lane) ||
        !isKnown(loop.step, lane) || valueOf(loop.step, lane) <= 0) {
      // Bounds that depend on data: any number of iterations.
      if (loop.skippable)
        return skipLoop(instruction, loop.whenSkipped, lanes);
      return emitDataLoopError(instruction.op, "bounds depend");
    }
  // Each thread runs its own iterations; those still iterating run the
  // body together. Values a loop carries (a fold's accumulator, a rank) are
  // data: an access indexed by one counts as data-dependent.
  SmallVector<int64_t> counter;
  for (uint32_t lane : lanes)
    counter.push_back(valueOf(loop.lower, lane));
  SmallVector<uint32_t> iterating;
  ++loops;
  llvm::scope_exit leave([&] { --loops; });
  while (true) {
    iterating.clear();
    for (auto [index, lane] : llvm::enumerate(lanes))
      if (counter[index] < valueOf(loop.upper, lane)) {
        iterating.push_back(lane);
        setInt(loop.inductionVar, lane, counter[index]);
      }
    if (iterating.empty())
      break;
    for (Slot carried : loop.iterArgs)
      forget(carried, iterating);
    // The iteration's compare and branch.
    addWarpOps(phaseOf(iterating.front()), 2 * countWarps(iterating));
    if (failed(runRange(loop.bodyBegin, loop.bodyEnd, iterating)))
      return failure();
    for (auto [index, lane] : llvm::enumerate(lanes))
      counter[index] += valueOf(loop.step, lane);
  }
  forgetResults(instruction, lanes);
  return success();
}

/// A scatter without a combine writes each place at most once. Two of its
/// stores of one known place in shared memory by one thread, between the
/// same barriers, are two of its values sent there, whatever the plan: an
/// error at the store (the scatter's). Two by different threads are a
/// hazard of the stage, which findHazards reports with the stage.
static LogicalResult checkScatterWritesOfEachThread(const BlockRun &run) {
  llvm::DenseSet<std::tuple<unsigned, unsigned, uint64_t>> written;
  unsigned thread = ~0u;
  for (const Access &access : run.getAccesses()) {
    if (!access.write || !access.checkedScatter || access.element < 0 ||
        !run.getMemories()[access.memory].workgroup)
      continue;
    if (access.thread != thread) {
      written.clear();
      thread = access.thread;
    }
    if (written.insert({access.memory, access.phase, access.byteBegin}).second)
      continue;
    return tagError(mlir::emitError(access.op->getLoc())
                        << "'obs.scatter' op writes place " << access.element
                        << " twice in thread " << thread << " (warp "
                        << thread / kWarpLanes
                        << "): without a combine, each place is written at "
                           "most once",
                    ErrorKind::UnsafeProgram);
  }
  return success();
}

SmallVector<unsigned> BlockRun::countBlockBarriersBefore() const {
  SmallVector<unsigned> before(barriers.size() + 1, 0);
  for (auto [index, barrier] : llvm::enumerate(barriers))
    before[index + 1] = before[index] + (barrier.block ? 1 : 0);
  return before;
}

FailureOr<BlockRun> BlockRun::simulate(gpu::GPUFuncOp kernel) {
  BlockRun run;
  std::optional<ArrayRef<int32_t>> blockSize = kernel.getKnownBlockSize();
  if (!blockSize)
    return kernel.emitOpError() << "needs known_block_size to be analysed";
  run.threads = (*blockSize)[0];

  ThreadProgram program(kernel);
  ThreadRunner runner(run, program);
  // Every thread runs each load and store about once (rounds are
  // unrolled): room for that many accesses up front.
  run.accesses.reserve(std::min<uint64_t>(
      uint64_t(program.memoryInstructions.size()) * run.threads, kMaxAccesses));
  auto addMemory = [&](Value value, bool workgroup, Attribute owner) {
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type)
      return;
    runner.bindMemory(value, run.memories.size(), owner);
    run.memories.push_back({value, workgroup, getTotalBytes(type)});
  };
  for (unsigned i = 0, e = kernel.getArgumentTypes().size(); i < e; ++i)
    addMemory(kernel.getArgument(i), /*workgroup=*/false, {});
  for (auto [index, buffer] :
       llvm::enumerate(kernel.getWorkgroupAttributions()))
    addMemory(
        buffer, /*workgroup=*/true,
        kernel.getWorkgroupAttributionAttr(
            index, ObsDialect::OwnerAttrHelper(kernel.getContext()).getName()));

  if (failed(runner.runBody()))
    return failure();
  // Every thread must pass the same barriers in the same order.
  ArrayRef<Operation *> reference = runner.passed.front();
  for (Operation *op : reference)
    run.barriers.push_back({op, isa<gpu::BarrierOp>(op)});
  for (unsigned thread = 1; thread < run.threads; ++thread) {
    ArrayRef<Operation *> passed = runner.passed[thread];
    if (passed == reference)
      continue;
    // The first barrier where they part, or the first one only the
    // thread with more barriers passes.
    Operation *culprit = nullptr;
    for (auto [a, b] : llvm::zip(passed, reference))
      if (a != b) {
        culprit = a;
        break;
      }
    if (!culprit)
      culprit = passed.size() > reference.size() ? passed[reference.size()]
                                                 : reference[passed.size()];
    return culprit->emitOpError()
           << "is a barrier that threads 0 and " << thread
           << " do not pass alike: some threads could skip it";
  }
  // A read outside its array is the program's error, whatever the plan,
  // unless a read of an array in registers or shuffles went wrong first:
  // then the values after it are not the program's (a refinement takes
  // that choice back and runs again).
  if (run.indexViolation && run.registerViolations.empty()) {
    const IndexViolation &outside = *run.indexViolation;
    return tagError(mlir::emitError(outside.check->getLoc())
                        << "'obs.index' op reads index " << outside.index
                        << " of an array of " << outside.length
                        << " elements in thread " << outside.thread << " (warp "
                        << outside.thread / kWarpLanes
                        << "): the index is outside the array",
                    ErrorKind::UnsafeProgram);
  }
  if (failed(checkScatterWritesOfEachThread(run)))
    return failure();
  return run;
}

SmallVector<Hazard> mlir::obs::findHazards(const BlockRun &run,
                                           unsigned warpSize, unsigned limit) {
  // A block barrier between phases a < b orders everything; any barrier
  // orders threads of one warp.
  SmallVector<unsigned> blockBarriersBefore = run.countBlockBarriersBefore();
  // A warp is a power of two threads (32): its index is a shift.
  unsigned warpShift = llvm::Log2_32(warpSize);
  bool powerOfTwo = llvm::isPowerOf2_32(warpSize);
  auto sameWarp = [&](unsigned a, unsigned b) {
    return powerOfTwo ? (a >> warpShift) == (b >> warpShift)
                      : a / warpSize == b / warpSize;
  };
  auto ordered = [&](const Access &a, const Access &b) {
    if (a.phase == b.phase)
      return false;
    const Access &early = a.phase < b.phase ? a : b;
    const Access &late = a.phase < b.phase ? b : a;
    if (blockBarriersBefore[late.phase] - blockBarriersBefore[early.phase] > 0)
      return true;
    return sameWarp(early.thread, late.thread);
  };

  // The accesses of each shared memory, in order, by memory.
  ArrayRef<Access> accesses = run.getAccesses();
  std::map<unsigned, std::vector<unsigned>> byMemory;
  for (auto [index, access] : llvm::enumerate(accesses))
    if (run.getMemories()[access.memory].workgroup)
      byMemory[access.memory].push_back(index);

  SmallVector<Hazard> hazards;
  llvm::DenseSet<std::pair<unsigned, unsigned>> reported;
  // Accesses with a block barrier between them are ordered: only those
  // between the same two block barriers (of one epoch) can race.
  auto epochOf = [&](unsigned index) {
    return blockBarriersBefore[accesses[index].phase];
  };
  struct Candidate {
    unsigned write, other;
    Hazard::Kind kind;
    const Access *first, *second;
  };
  SmallVector<Candidate> candidates;
  // A place's accesses of one epoch, by whether they begin at the place
  // (lists 0, 1) or before it (2, 3), and whether they are atomics (1, 3).
  std::array<SmallVector<unsigned>, 4> partners;
  // Judges the accesses that cover one place, which begins at `byte`, given
  // by epoch and in access order within an epoch; returns whether the limit
  // is reached.
  auto judge = [&](uint64_t byte, ArrayRef<unsigned> indices) {
    // A pair is judged once, at the first byte both access: the byte where
    // the later-starting one begins. The verdict does not depend on the
    // byte, and an access whose index the simulation could not tell spans
    // its whole buffer, so judging at every byte they share would make the
    // work its size times the square of the accesses.
    candidates.clear();
    for (size_t groupBegin = 0; groupBegin < indices.size();) {
      unsigned epoch = epochOf(indices[groupBegin]);
      size_t groupEnd = groupBegin + 1;
      while (groupEnd < indices.size() && epochOf(indices[groupEnd]) == epoch)
        ++groupEnd;
      ArrayRef<unsigned> group =
          indices.slice(groupBegin, groupEnd - groupBegin);
      groupBegin = groupEnd;
      // A partner that begins before this place met a write at an earlier
      // one, unless the write itself begins here; and atomics commute. So
      // each write looks only at the partners it can race with here: a
      // histogram's atomics at unknown places, which span their buffer,
      // would otherwise be judged against each other at every place.
      for (SmallVector<unsigned> &list : partners)
        list.clear();
      // Atomics of one kind commute; of two kinds (an add and a max of one
      // place) they do not, which is rare enough to judge pair by pair.
      std::optional<uint8_t> atomicKind;
      bool mixedAtomics = false;
      for (unsigned x : group) {
        const Access &access = accesses[x];
        unsigned list =
            (access.byteBegin == byte ? 0 : 2) + (access.atomic ? 1 : 0);
        partners[list].push_back(x);
        if (access.atomic) {
          mixedAtomics |= atomicKind && *atomicKind != access.atomicKind;
          atomicKind = access.atomicKind;
        }
      }
      for (unsigned w : group) {
        const Access &write = accesses[w];
        if (!write.write)
          continue;
        bool beginsHere = write.byteBegin == byte;
        for (unsigned list = 0; list < 4; ++list) {
          // Lists 0 and 1 begin here, 1 and 3 are atomics, which commute
          // with an atomic write of their kind.
          if ((list >= 2 && !beginsHere) ||
              (list % 2 == 1 && write.atomic && !mixedAtomics))
            continue;
          for (unsigned x : partners[list]) {
            if (x == w)
              continue;
            const Access &other = accesses[x];
            if (write.atomic && other.atomic &&
                write.atomicKind == other.atomicKind)
              continue;
            if (other.write && x < w)
              continue; // Each pair of writes once.
            const Access *first = &write, *second = &other;
            if (other.phase < write.phase ||
                (other.phase == write.phase && other.thread == write.thread &&
                 other.order < write.order))
              std::swap(first, second);
            // A scatter's stores at places the run could not tell are
            // checked as the program runs. (Stores into one scatter's
            // buffer are that scatter's: one op per unrolled round.)
            if (first->checkedScatter && second->checkedScatter &&
                first->owner == second->owner &&
                (first->element < 0 || second->element < 0))
              continue;
            if (first->phase == second->phase &&
                first->thread == second->thread) {
              // One thread's own order: only reading what this stage wrote is
              // wrong (the stage must read earlier stages' values).
              if (!(first->write && !second->write))
                continue;
            } else if (ordered(*first, *second)) {
              continue;
            }
            Hazard::Kind kind = first->write
                                    ? (second->write ? Hazard::WriteAfterWrite
                                                     : Hazard::ReadAfterWrite)
                                    : Hazard::WriteAfterRead;
            candidates.push_back({w, x, kind, first, second});
          }
        }
      }
    }
    // Reported by write, then partner, in access order: a deterministic
    // order that does not depend on how the place was cut.
    llvm::sort(candidates, [](const Candidate &a, const Candidate &b) {
      return std::tie(a.write, a.other) < std::tie(b.write, b.other);
    });
    for (const Candidate &candidate : candidates) {
      // One report per pair of ops and phase is enough.
      auto key =
          std::make_pair(static_cast<unsigned>(
                             reinterpret_cast<uintptr_t>(candidate.first->op) ^
                             (candidate.second->phase << 8)),
                         static_cast<unsigned>(
                             reinterpret_cast<uintptr_t>(candidate.second->op) ^
                             candidate.first->phase));
      if (!reported.insert(key).second)
        continue;
      hazards.push_back({candidate.kind, *candidate.first, *candidate.second});
      if (hazards.size() >= limit)
        return true;
    }
    return false;
  };

  for (auto &[memory, indices] : byMemory) {
    // The bytes where an access begins or ends cut the memory into places
    // that every access covers whole or not at all (the elements, when all
    // accesses are of one element type). Each place's accesses, in order,
    // are one slice of `covering`.
    // A shared memory is small: its cuts are marked in a bitmap of its
    // bytes rather than sorted (unless an access lies far outside it).
    uint64_t end = 0;
    for (unsigned index : indices)
      end = std::max(end, accesses[index].byteEnd);
    std::vector<uint64_t> cuts;
    // With the bitmap, the place a byte begins is looked up in a table.
    std::vector<uint32_t> placeAt;
    if (end <= (uint64_t(1) << 20)) {
      llvm::BitVector isCut(end + 1);
      for (unsigned index : indices) {
        isCut.set(accesses[index].byteBegin);
        isCut.set(accesses[index].byteEnd);
      }
      placeAt.assign(end + 1, 0);
      for (unsigned byte : isCut.set_bits()) {
        placeAt[byte] = cuts.size();
        cuts.push_back(byte);
      }
    } else {
      for (unsigned index : indices) {
        cuts.push_back(accesses[index].byteBegin);
        cuts.push_back(accesses[index].byteEnd);
      }
      llvm::sort(cuts);
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    }
    auto placeOf = [&](uint64_t byte) -> size_t {
      if (!placeAt.empty())
        return placeAt[byte];
      return llvm::lower_bound(cuts, byte) - cuts.begin();
    };
    std::vector<uint32_t> start(cuts.size() + 1, 0);
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    spans.reserve(indices.size());
    for (unsigned index : indices) {
      auto span = std::make_pair(
          static_cast<uint32_t>(placeOf(accesses[index].byteBegin)),
          static_cast<uint32_t>(placeOf(accesses[index].byteEnd)));
      spans.push_back(span);
      for (uint32_t place = span.first; place < span.second; ++place)
        ++start[place + 1];
    }
    for (size_t place = 0; place < cuts.size(); ++place)
      start[place + 1] += start[place];
    // Each place's accesses by epoch, and in access order within one: the
    // accesses are taken in that order (a stable counting sort by epoch).
    unsigned epochs = blockBarriersBefore.back() + 1;
    std::vector<uint32_t> epochStart(epochs + 1, 0);
    for (unsigned index : indices)
      ++epochStart[epochOf(index) + 1];
    for (unsigned epoch = 0; epoch < epochs; ++epoch)
      epochStart[epoch + 1] += epochStart[epoch];
    std::vector<uint32_t> byEpoch(indices.size());
    for (auto [position, index] : llvm::enumerate(indices))
      byEpoch[epochStart[epochOf(index)]++] = position;
    std::vector<unsigned> covering(start.back());
    std::vector<uint32_t> filled(start.begin(), start.end() - 1);
    for (uint32_t position : byEpoch) {
      auto span = spans[position];
      for (uint32_t place = span.first; place < span.second; ++place)
        covering[filled[place]++] = indices[position];
    }
    for (size_t place = 0; place + 1 < cuts.size(); ++place) {
      ArrayRef<unsigned> here(covering.data() + start[place],
                              start[place + 1] - start[place]);
      if (!here.empty() && judge(cuts[place], here))
        return hazards;
    }
  }
  return hazards;
}

SmallVector<Hazard>
mlir::obs::findGlobalHazards(const BlockRun &run,
                             ArrayRef<GlobalOverlap> overlaps,
                             unsigned warpSize, unsigned limit) {
  SmallVector<Hazard> hazards;
  if (overlaps.empty())
    return hazards;
  // The accesses of each global element, and those anywhere in a memory.
  ArrayRef<Access> accesses = run.getAccesses();
  std::map<std::pair<unsigned, int64_t>, SmallVector<unsigned, 2>> byElement;
  llvm::DenseMap<unsigned, SmallVector<unsigned, 2>> anywhere;
  for (auto [index, access] : llvm::enumerate(accesses)) {
    if (run.getMemories()[access.memory].workgroup)
      continue;
    if (access.element < 0)
      anywhere[access.memory].push_back(index);
    else
      byElement[{access.memory, access.element}].push_back(index);
  }
  auto of = [&](unsigned memory, uint64_t element, bool write) {
    SmallVector<const Access *> found;
    auto add = [&](ArrayRef<unsigned> indices) {
      for (unsigned index : indices)
        if (accesses[index].write == write)
          found.push_back(&accesses[index]);
    };
    auto it = byElement.find({memory, static_cast<int64_t>(element)});
    if (it != byElement.end())
      add(it->second);
    auto any = anywhere.find(memory);
    if (any != anywhere.end())
      add(any->second);
    return found;
  };
  SmallVector<unsigned> blockBarriersBefore = run.countBlockBarriersBefore();
  std::set<std::pair<Operation *, Operation *>> reported;
  for (const GlobalOverlap &overlap : overlaps)
    for (const Access *read :
         of(overlap.readMemory, overlap.readElement, /*write=*/false))
      for (const Access *write :
           of(overlap.writtenMemory, overlap.writtenElement, /*write=*/true)) {
        bool before;
        if (read->thread == write->thread)
          before = read->phase < write->phase ||
                   (read->phase == write->phase && read->order < write->order);
        else
          before = read->phase < write->phase &&
                   (blockBarriersBefore[write->phase] >
                        blockBarriersBefore[read->phase] ||
                    read->thread / warpSize == write->thread / warpSize);
        if (before || !reported.insert({read->op, write->op}).second)
          continue;
        // A read that certainly follows the write (in its thread, or in a
        // later phase) reads the new value; otherwise the two race.
        if (read->thread == write->thread || read->phase > write->phase)
          hazards.push_back({Hazard::ReadAfterWrite, *write, *read});
        else
          hazards.push_back({Hazard::WriteAfterRead, *read, *write});
        if (hazards.size() >= limit)
          return hazards;
      }
  return hazards;
}

/// For each access, the access that stands for it in the warp accesses:
/// itself, or the first of the accesses its thread makes between the same
/// two barriers to the same aligned 8- or 16-byte chunk of one buffer,
/// shared or global (all reads or all writes), which LLVM's load-store
/// vectorizer makes one vector access; a word read again there is not read
/// again. Shared buffers start at 16-byte boundaries, and so do the
/// pointers a launch passes (convert-obs-to-gpu's llvm.align).
static std::vector<uint32_t> findVectorAccesses(const BlockRun &run) {
  ArrayRef<Access> accesses = run.getAccesses();
  std::vector<uint32_t> standsFor(accesses.size());
  std::iota(standsFor.begin(), standsFor.end(), 0);
  // The first access of each word, by memory, direction and byte.
  llvm::DenseMap<std::tuple<unsigned, unsigned, uint64_t>, uint32_t>
      firstOfWord;
  for (size_t begin = 0; begin < accesses.size();) {
    // The accesses of one thread between two barriers.
    size_t end = begin;
    while (end < accesses.size() &&
           accesses[end].thread == accesses[begin].thread &&
           accesses[end].phase == accesses[begin].phase)
      ++end;
    firstOfWord.clear();
    auto vectorizable = [&](const Access &access) {
      uint64_t bytes = access.byteEnd - access.byteBegin;
      return access.element >= 0 && !access.atomic &&
             (bytes == 4 || bytes == 8) && access.byteBegin % bytes == 0;
    };
    for (size_t i = begin; i < end; ++i)
      if (vectorizable(accesses[i]))
        firstOfWord.try_emplace({accesses[i].memory,
                                 unsigned(accesses[i].write),
                                 accesses[i].byteBegin},
                                i);
    for (size_t i = begin; i < end; ++i) {
      const Access &access = accesses[i];
      if (!vectorizable(access))
        continue;
      uint64_t bytes = access.byteEnd - access.byteBegin;
      // The earliest access of each word of the chunk of `chunkBytes`
      // around this one, if the thread accesses all of them.
      auto chunkLeader = [&](uint64_t chunkBytes) -> std::optional<uint32_t> {
        uint64_t first = access.byteBegin / chunkBytes * chunkBytes;
        uint32_t leader = ~uint32_t(0);
        for (uint64_t byte = first; byte < first + chunkBytes; byte += bytes) {
          auto it =
              firstOfWord.find({access.memory, unsigned(access.write), byte});
          if (it == firstOfWord.end() ||
              accesses[it->second].byteEnd - byte != bytes)
            return std::nullopt;
          leader = std::min(leader, it->second);
        }
        return leader;
      };
      if (std::optional<uint32_t> leader = chunkLeader(16))
        standsFor[i] = *leader;
      else if (std::optional<uint32_t> leader =
                   bytes == 4 ? chunkLeader(8) : std::nullopt)
        standsFor[i] = *leader;
      else
        standsFor[i] = firstOfWord.lookup(
            {access.memory, unsigned(access.write), access.byteBegin});
    }
    begin = end;
  }
  return standsFor;
}

SmallVector<BlockCost> mlir::obs::computePhaseCosts(const BlockRun &run,
                                                    unsigned warpSize) {
  ArrayRef<Barrier> barriers = run.getBarriers();
  SmallVector<BlockCost> phases(barriers.size() + 1);
  for (auto [phase, barrier] : llvm::enumerate(barriers))
    ++(barrier.block ? phases[phase].blockBarriers
                     : phases[phase].warpBarriers);
  for (auto [phase, cost] : llvm::enumerate(phases)) {
    cost.warpOps = run.getWarpOpsIssued(phase);
    cost.opsSkipped = run.skippedOps();
  }
  ArrayRef<Access> accesses = run.getAccesses();
  std::vector<uint32_t> standsFor = findVectorAccesses(run);
  // The k-th execution of an op by a thread: its warp access is the k-th of
  // the op by the thread's warp. An access another stands for joins that
  // one's warp access; where it does so in every thread of the warp, the
  // warp no longer issues its own.
  llvm::DenseMap<std::pair<Operation *, unsigned>, uint64_t> executions;
  std::vector<uint64_t> execution(accesses.size());
  using WarpKey = std::tuple<Operation *, unsigned, uint64_t>;
  // Per warp access: whether some thread issues it alone, and its phase.
  std::map<WarpKey, std::pair<bool, unsigned>> issuedAlone;
  for (auto [index, access] : llvm::enumerate(accesses)) {
    execution[index] = executions[{access.op, access.thread}]++;
    auto [it, inserted] = issuedAlone.try_emplace(
        {access.op, access.thread / warpSize, execution[index]}, false,
        access.phase);
    it->second.first |= standsFor[index] == index;
  }
  struct WarpAccess {
    bool workgroup = false;
    bool counted = true;
    unsigned phase = 0;
    SmallVector<std::pair<uint64_t, uint64_t>> bytes;
  };
  std::map<WarpKey, WarpAccess> warps;
  for (auto [index, access] : llvm::enumerate(accesses)) {
    const Access &leader = accesses[standsFor[index]];
    auto [it, inserted] = warps.try_emplace(
        {leader.op, leader.thread / warpSize, execution[standsFor[index]]});
    WarpAccess &warp = it->second;
    if (inserted)
      warp.phase = access.phase;
    warp.workgroup = run.getMemories()[access.memory].workgroup;
    if (access.element < 0)
      warp.counted = false;
    warp.bytes.push_back({access.byteBegin, access.byteEnd});
  }
  for (auto &[key, warp] : warps) {
    BlockCost &cost = phases[warp.phase];
    if (!warp.counted) {
      ++cost.uncounted;
      continue;
    }
    if (warp.workgroup) {
      // Distinct words per bank; the most used bank serialises the access.
      std::map<uint64_t, std::set<uint64_t>> banks;
      for (auto [begin, end] : warp.bytes)
        for (uint64_t word = begin / 4; word * 4 < end; ++word)
          banks[word % 32].insert(word);
      uint64_t wavefronts = 0;
      for (auto &[bank, words] : banks)
        wavefronts = std::max<uint64_t>(wavefronts, words.size());
      ++cost.sharedAccesses;
      cost.sharedWavefronts += wavefronts;
      continue;
    }
    std::set<uint64_t> lines;
    for (auto [begin, end] : warp.bytes)
      for (uint64_t line = begin / 128; line * 128 < end; ++line)
        lines.insert(line);
    ++cost.globalAccesses;
    cost.globalLines += lines.size();
  }
  // The warps no longer issue the accesses a vector access took in.
  for (auto &[key, entry] : issuedAlone) {
    BlockCost &cost = phases[entry.second];
    if (!entry.first && cost.warpOps)
      --cost.warpOps;
  }
  return phases;
}

BlockCost mlir::obs::computeBlockCost(const BlockRun &run, unsigned warpSize) {
  BlockCost total;
  total.opsSkipped = run.skippedOps();
  for (const BlockCost &phase : computePhaseCosts(run, warpSize))
    total += phase;
  return total;
}
