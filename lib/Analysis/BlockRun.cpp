//===- BlockRun.cpp - every access of every thread of a block -------------===//

#include "Obs/Analysis/BlockRun.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "Obs/Support/MemoryBytes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::obs;

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

/// What one op does to a thread's state.
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
  View,
  SelectMemref,
  If,
  For,
  /// An op with regions other than scf.if and scf.for: an error when run.
  CannotFollow,
  /// An op that may touch memory other than through loads and stores: an
  /// error when run.
  UnseenEffects,
};

/// One op, compiled: which slots it reads and writes.
struct Instruction {
  Step step = Step::Nothing;
  IntegerOpcode code = IntegerOpcode::Fold;
  uint8_t resultWidth = 64, operandWidth = 64;
  uint32_t firstResult = 0, numResults = 0;
  uint32_t firstOperand = 0, numOperands = 0;
  /// A constant's value; the index into the program's side tables of a
  /// load, store, if or for.
  int64_t immediate = 0;
  Operation *op = nullptr;
};

/// A load or store, compiled.
struct MemoryInstruction {
  uint32_t memref;
  /// Where the memref comes from when the run does not follow it.
  UntrackedMemory untracked;
  SmallVector<int64_t, 2> shape;
  uint64_t elementBytes, numElements;
  /// A load from a constant integer table: its entries.
  std::optional<SmallVector<int64_t>> table;
};

struct IfInstruction {
  uint32_t thenBegin, thenEnd, elseBegin, elseEnd;
  SmallVector<uint32_t> thenYields, elseYields;
  bool holdsBarrier;
};

struct ForInstruction {
  uint32_t lower, upper, step, inductionVar;
  SmallVector<uint32_t> iterArgs;
  uint32_t bodyBegin, bodyEnd;
  /// Whether the loop computes only from global memory and private scratch
  /// (a fold over an input, a thread's tree), so that it is skipped; its
  /// loads of tracked memory, which then count as reads of anywhere in
  /// their buffers.
  bool skipped;
  /// The loads of tracked memory in a skipped loop: their ops and their
  /// memory instructions.
  SmallVector<std::pair<Operation *, uint32_t>> skippedLoads;
};

/// The gpu.func compiled once for all of a block's threads: every value is a
/// slot, and every op an instruction on slots, so that running a thread
/// looks nothing up by value and dispatches on nothing but a byte. The
/// threads run the same code with other thread ids, hundreds of times per
/// simulation, and the passes simulate a kernel many times.
class ThreadProgram {
public:
  explicit ThreadProgram(gpu::GPUFuncOp func);

  uint32_t getNumSlots() const { return numSlots; }
  uint32_t slotOf(Value value) const { return slots.lookup(value); }
  bool isTracked(Value memref) const { return tracked.contains(memref); }
  /// The instructions of the function's body.
  std::pair<uint32_t, uint32_t> getBody() const { return body; }

  SmallVector<Instruction> instructions;
  SmallVector<uint32_t> operands;
  SmallVector<MemoryInstruction> memoryInstructions;
  SmallVector<IfInstruction> ifs;
  SmallVector<ForInstruction> fors;

private:
  uint32_t slot(Value value) {
    auto [it, inserted] = slots.try_emplace(value, numSlots);
    if (inserted)
      ++numSlots;
    return it->second;
  }
  std::pair<uint32_t, uint32_t> compileBlock(Block *block);
  std::pair<uint32_t, uint32_t> compileRegion(Region &region);
  void compile(Operation &op, uint32_t index);
  UntrackedMemory classifyUntracked(Value memref) const;
  /// Compiles what a load or store of `memref` needs; returns its index.
  uint32_t compileMemoryInstruction(Value memref);
  bool mayBeWorkgroup(Value memref) const { return workgroup.contains(memref); }
  bool isSkippable(scf::ForOp loop) const;

  llvm::DenseMap<Value, uint32_t> slots;
  uint32_t numSlots = 0;
  /// Memrefs the run follows to a memory of the block (views and choices
  /// of them), and those of them that may be workgroup memory.
  llvm::DenseSet<Value> tracked, workgroup;
  std::pair<uint32_t, uint32_t> body;
};

} // namespace

/// Runs one thread of a ThreadProgram: index arithmetic evaluated with the
/// thread id known; memory contents stay unknown.
class ThreadRunner {
public:
  ThreadRunner(BlockRun &run, const ThreadProgram &program)
      : run(run), program(program), values(program.getNumSlots()),
        known(program.getNumSlots(), 0), pointers(program.getNumSlots()) {}

  /// Starts thread `thread`: nothing is known but where the block's
  /// memories are.
  void start(unsigned thread);
  /// Makes `root` point at the start of memory `memory`.
  void bindMemory(Value root, unsigned memory, Attribute owner) {
    uint32_t slot = program.slotOf(root);
    pointers[slot] = {memory, 0, owner};
    pointerKnown(slot);
  }
  LogicalResult runBody() {
    auto [begin, end] = program.getBody();
    return runRange(begin, end);
  }

  /// The barriers this thread passed, in order.
  SmallVector<Operation *> passed;

private:
  /// Where a memref value points: a root memory and a byte offset into it.
  struct Pointer {
    unsigned memory;
    uint64_t byteOffset;
    Attribute owner;
  };

  LogicalResult runRange(uint32_t begin, uint32_t end);
  LogicalResult runInstruction(const Instruction &instruction);
  LogicalResult runIf(const Instruction &instruction);
  LogicalResult runFor(const Instruction &instruction);
  /// Records one access of `op` through `memoryAccess`, at the indices in
  /// `indices` (slots), or anywhere in the buffer when `wholeBuffer` (an
  /// access known not to depend on data: a skipped loop's).
  LogicalResult recordAccess(Operation *op,
                             const MemoryInstruction &memoryAccess,
                             const uint32_t *indices, bool write,
                             bool wholeBuffer = false);

  // A slot is known when its stamp is the thread's epoch (and, for a
  // memref, its pointer stamp): starting a thread forgets everything at
  // once.
  bool isKnown(uint32_t slot) const { return known[slot] == epoch; }
  void setInt(uint32_t slot, int64_t value) {
    values[slot] = value;
    known[slot] = epoch;
  }
  void forget(uint32_t slot) { known[slot] = 0; }
  bool isPointerKnown(uint32_t slot) const {
    return known[slot] == epoch + 1;
  }
  void pointerKnown(uint32_t slot) { known[slot] = epoch + 1; }
  uint32_t operand(const Instruction &instruction, unsigned i) const {
    return program.operands[instruction.firstOperand + i];
  }
  void forgetResults(const Instruction &instruction) {
    for (uint32_t i = 0; i < instruction.numResults; ++i)
      forget(instruction.firstResult + i);
  }
  /// `value` as an attribute of `type`, for the ops' folders: cached, since
  /// threads fold the same few values over and over, and uniquing each in
  /// the context is a locked hash lookup.
  Attribute integerAttr(Type type, int64_t value);

  BlockRun &run;
  const ThreadProgram &program;
  unsigned thread = 0;
  /// Even, and two more for every thread: a slot's stamp is `epoch` for a
  /// known integer, `epoch + 1` for a known pointer.
  uint32_t epoch = 0;
  std::vector<int64_t> values;
  std::vector<uint32_t> known;
  std::vector<Pointer> pointers;
  uint64_t order = 0;
  llvm::DenseMap<std::pair<Type, int64_t>, Attribute> integerAttrs;
};

} // namespace mlir::obs

static bool holdsBarrier(Region &region) {
  return region
      .walk([](Operation *op) {
        return isa<gpu::BarrierOp, NVVM::SyncWarpOp>(op)
                   ? WalkResult::interrupt()
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
  body = compileRegion(func.getBody());
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
  for (BlockArgument argument : block->getArguments())
    slot(argument);
  SmallVector<Operation *> ops;
  for (Operation &op : *block) {
    ops.push_back(&op);
    for (Value result : op.getResults())
      slot(result);
  }
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
  memoryInstructions.push_back({slot(memref), classifyUntracked(memref),
                                SmallVector<int64_t, 2>(type.getShape()),
                                getElementBytes(type),
                                static_cast<uint64_t>(type.getNumElements()),
                                std::nullopt});
  return memoryInstructions.size() - 1;
}

bool ThreadProgram::isSkippable(scf::ForOp loop) const {
  if (loop.getInitArgs().empty())
    return false;
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (isa<gpu::BarrierOp, NVVM::SyncWarpOp>(op))
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
    if (store || mayBeWorkgroup(memref))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

void ThreadProgram::compile(Operation &op, uint32_t index) {
  Instruction instruction;
  instruction.op = &op;
  instruction.numResults = op.getNumResults();
  if (op.getNumResults())
    instruction.firstResult = slots.lookup(op.getResult(0));
  instruction.firstOperand = operands.size();
  instruction.numOperands = op.getNumOperands();
  for (Value operand : op.getOperands())
    operands.push_back(slot(operand));
  auto finish = [&](Step step) {
    instruction.step = step;
    instructions[index] = instruction;
  };
  auto compileMemoryAccess = [&](Value memref) -> MemoryInstruction * {
    instruction.immediate = compileMemoryInstruction(memref);
    return &memoryInstructions.back();
  };

  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return finish(id.getDimension() == gpu::Dimension::x ? Step::ThreadIdX
                                                         : Step::Zero);
  if (isa<gpu::BlockIdOp>(op))
    return finish(Step::Zero);
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return finish(dim.getDimension() == gpu::Dimension::x ? Step::BlockDimX
                                                          : Step::One);
  if (isa<gpu::BarrierOp, NVVM::SyncWarpOp>(op))
    return finish(Step::Barrier);
  if (isa<gpu::ReturnOp, scf::YieldOp>(op))
    return finish(Step::Nothing);
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    MemoryInstruction *access = compileMemoryAccess(load.getMemRef());
    // A constant table (compact's positions, a shuffle) is known data.
    if (auto get = load.getMemRef().getDefiningOp<memref::GetGlobalOp>()) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      auto entries = global && global.getConstant()
                         ? dyn_cast_if_present<DenseIntElementsAttr>(
                               global.getInitialValueAttr())
                         : DenseIntElementsAttr();
      if (entries) {
        access->table.emplace();
        if (entries.isSplat())
          access->table->assign(access->numElements,
                                entries.getSplatValue<APInt>().getSExtValue());
        else
          for (const APInt &entry : entries.getValues<APInt>())
            access->table->push_back(entry.getSExtValue());
        instruction.resultWidth = getIntegerWidth(load.getType());
      }
    }
    return finish(Step::Load);
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    compileMemoryAccess(store.getMemRef());
    return finish(Step::Store);
  }
  if (isa<memref::ViewOp>(op))
    return finish(Step::View);
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType()))
    return finish(Step::SelectMemref);
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    IfInstruction compiled;
    compiled.holdsBarrier = holdsBarrier(ifOp.getThenRegion()) ||
                            holdsBarrier(ifOp.getElseRegion());
    std::tie(compiled.thenBegin, compiled.thenEnd) =
        compileRegion(ifOp.getThenRegion());
    std::tie(compiled.elseBegin, compiled.elseEnd) =
        compileRegion(ifOp.getElseRegion());
    auto yields = [&](Region &region, SmallVector<uint32_t> &into) {
      if (!region.empty())
        for (Value yielded : region.front().getTerminator()->getOperands())
          into.push_back(slot(yielded));
    };
    yields(ifOp.getThenRegion(), compiled.thenYields);
    yields(ifOp.getElseRegion(), compiled.elseYields);
    instruction.immediate = ifs.size();
    ifs.push_back(std::move(compiled));
    return finish(Step::If);
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    ForInstruction compiled;
    compiled.lower = slot(loop.getLowerBound());
    compiled.upper = slot(loop.getUpperBound());
    compiled.step = slot(loop.getStep());
    compiled.inductionVar = slot(loop.getInductionVar());
    for (Value carried : loop.getRegionIterArgs())
      compiled.iterArgs.push_back(slot(carried));
    compiled.skipped = isSkippable(loop);
    if (compiled.skipped)
      loop.getBody()->walk([&](memref::LoadOp load) {
        if (tracked.contains(load.getMemRef()))
          compiled.skippedLoads.push_back(
              {load, compileMemoryInstruction(load.getMemRef())});
      });
    std::tie(compiled.bodyBegin, compiled.bodyEnd) =
        compileRegion(loop.getRegion());
    instruction.immediate = fors.size();
    fors.push_back(std::move(compiled));
    return finish(Step::For);
  }
  if (op.getNumRegions())
    return finish(Step::CannotFollow);
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
  return finish(Step::Direct);
}

void ThreadRunner::start(unsigned newThread) {
  thread = newThread;
  epoch += 2;
  order = 0;
  passed.clear();
}

Attribute ThreadRunner::integerAttr(Type type, int64_t value) {
  Attribute &attribute = integerAttrs[{type, value}];
  if (!attribute)
    attribute = IntegerAttr::get(type, value);
  return attribute;
}

LogicalResult ThreadRunner::recordAccess(Operation *op,
                                         const MemoryInstruction &memoryAccess,
                                         const uint32_t *indices, bool write,
                                         bool wholeBuffer) {
  if (!isPointerKnown(memoryAccess.memref)) {
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
  const Pointer &pointer = pointers[memoryAccess.memref];
  Access access{static_cast<unsigned>(passed.size()),
                thread,
                order++,
                write,
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
    uint32_t index = indices[i];
    if (!isKnown(index))
      allKnown = false;
    else
      linear = linear * memoryAccess.shape[i] + values[index];
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

LogicalResult ThreadRunner::runRange(uint32_t begin, uint32_t end) {
  for (uint32_t i = begin; i < end; ++i)
    if (failed(runInstruction(program.instructions[i])))
      return failure();
  return success();
}

LogicalResult ThreadRunner::runInstruction(const Instruction &instruction) {
  switch (instruction.step) {
  case Step::Nothing:
    return success();
  case Step::Unknown:
    forgetResults(instruction);
    return success();
  case Step::Constant:
    setInt(instruction.firstResult, instruction.immediate);
    return success();
  case Step::Direct:
  case Step::Fold: {
    int64_t operandValues[3];
    SmallVector<int64_t, 4> manyValues;
    int64_t *known = operandValues;
    if (instruction.numOperands > 3) {
      manyValues.resize(instruction.numOperands);
      known = manyValues.data();
    }
    for (unsigned i = 0; i < instruction.numOperands; ++i) {
      uint32_t slot = operand(instruction, i);
      if (!isKnown(slot)) {
        forget(instruction.firstResult);
        return success();
      }
      known[i] = values[slot];
    }
    ArrayRef<int64_t> operandRange(known, instruction.numOperands);
    std::optional<int64_t> computed =
        instruction.step == Step::Direct
            ? computeIntegerOpcode(instruction.code, instruction.operandWidth,
                                   operandRange)
            : foldIntegerOp(*instruction.op, operandRange,
                            [&](Type type, int64_t value) {
                              return integerAttr(type, value);
                            });
    if (computed)
      setInt(instruction.firstResult,
             wrapToWidth(instruction.resultWidth, *computed));
    else
      forget(instruction.firstResult);
    return success();
  }
  case Step::ThreadIdX:
    setInt(instruction.firstResult, thread);
    return success();
  case Step::Zero:
    setInt(instruction.firstResult, 0);
    return success();
  case Step::BlockDimX:
    setInt(instruction.firstResult, run.threads);
    return success();
  case Step::One:
    setInt(instruction.firstResult, 1);
    return success();
  case Step::Barrier:
    passed.push_back(instruction.op);
    return success();
  case Step::Load: {
    const MemoryInstruction &load =
        program.memoryInstructions[instruction.immediate];
    forget(instruction.firstResult);
    if (load.table) {
      // An entry of a constant table at known indices is known.
      int64_t linear = 0;
      bool inside = true;
      for (unsigned i = 0; inside && i < load.shape.size(); ++i) {
        uint32_t index = operand(instruction, 1 + i);
        inside = isKnown(index) && values[index] >= 0 &&
                 values[index] < load.shape[i];
        if (inside)
          linear = linear * load.shape[i] + values[index];
      }
      if (inside)
        setInt(instruction.firstResult,
               wrapToWidth(instruction.resultWidth, (*load.table)[linear]));
    }
    // A load's indices follow its memref.
    return recordAccess(instruction.op, load,
                        &program.operands[instruction.firstOperand + 1],
                        /*write=*/false);
  }
  case Step::Store:
    // A store's indices follow its value and memref.
    return recordAccess(instruction.op,
                        program.memoryInstructions[instruction.immediate],
                        &program.operands[instruction.firstOperand + 2],
                        /*write=*/true);
  case Step::View: {
    uint32_t source = operand(instruction, 0);
    uint32_t shift = operand(instruction, 1);
    if (!isPointerKnown(source) || !isKnown(shift))
      return instruction.op->emitOpError()
             << "views memory the analysis cannot follow";
    Attribute owner = ObsDialect::OwnerAttrHelper(instruction.op->getContext())
                          .getAttr(instruction.op);
    const Pointer &viewed = pointers[source];
    pointers[instruction.firstResult] = {
        viewed.memory,
        viewed.byteOffset + static_cast<uint64_t>(values[shift]),
        owner ? owner : viewed.owner};
    pointerKnown(instruction.firstResult);
    return success();
  }
  case Step::SelectMemref: {
    uint32_t condition = operand(instruction, 0);
    if (!isKnown(condition))
      return instruction.op->emitOpError()
             << "chooses a buffer by a condition the analysis cannot follow";
    uint32_t chosen = operand(instruction, values[condition] ? 1 : 2);
    forget(instruction.firstResult);
    if (isPointerKnown(chosen)) {
      pointers[instruction.firstResult] = pointers[chosen];
      pointerKnown(instruction.firstResult);
    }
    return success();
  }
  case Step::If:
    return runIf(instruction);
  case Step::For:
    return runFor(instruction);
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

LogicalResult ThreadRunner::runIf(const Instruction &instruction) {
  const IfInstruction &ifInstruction = program.ifs[instruction.immediate];
  uint32_t condition = operand(instruction, 0);
  if (isKnown(condition)) {
    bool thenTaken = values[condition] != 0;
    if (failed(thenTaken ? runRange(ifInstruction.thenBegin,
                                    ifInstruction.thenEnd)
                         : runRange(ifInstruction.elseBegin,
                                    ifInstruction.elseEnd)))
      return failure();
    const SmallVector<uint32_t> &yields =
        thenTaken ? ifInstruction.thenYields : ifInstruction.elseYields;
    for (uint32_t i = 0; i < instruction.numResults; ++i) {
      uint32_t result = instruction.firstResult + i;
      if (i < yields.size() && isKnown(yields[i]))
        setInt(result, values[yields[i]]);
      else
        forget(result);
    }
    return success();
  }
  // A condition on data: either branch may run, so both are counted. A
  // barrier in either would be skipped by some threads.
  if (ifInstruction.holdsBarrier)
    return instruction.op->emitOpError()
           << "holds a barrier under a condition that depends on data";
  if (failed(runRange(ifInstruction.thenBegin, ifInstruction.thenEnd)) ||
      failed(runRange(ifInstruction.elseBegin, ifInstruction.elseEnd)))
    return failure();
  forgetResults(instruction);
  return success();
}

LogicalResult ThreadRunner::runFor(const Instruction &instruction) {
  const ForInstruction &loop = program.fors[instruction.immediate];
  if (!isKnown(loop.lower) || !isKnown(loop.upper) || !isKnown(loop.step) ||
      values[loop.step] <= 0)
    return instruction.op->emitOpError()
           << "is a loop whose bounds the analysis cannot follow";
  if (loop.skipped) {
    // A loop that only computes from global memory and private scratch (a
    // fold over an input, a thread's tree) touches nothing another thread
    // can see: it is skipped, its results unknown. Running it would cost
    // its whole trip count per thread. Its reads of global memory still
    // count, once each, as reads of anywhere in their buffer: a launch
    // whose output is a view of its input must order them before the
    // output's writes.
    for (auto [load, index] : loop.skippedLoads) {
      const MemoryInstruction &read = program.memoryInstructions[index];
      if (isPointerKnown(read.memref) &&
          failed(recordAccess(load, read, nullptr, /*write=*/false,
                              /*wholeBuffer=*/true)))
        return failure();
    }
    forgetResults(instruction);
    return success();
  }
  // Values a loop carries (a fold's accumulator, a rank) are data: an
  // access indexed by one counts as data-dependent.
  int64_t lower = values[loop.lower], upper = values[loop.upper],
          step = values[loop.step];
  for (int64_t i = lower; i < upper; i += step) {
    setInt(loop.inductionVar, i);
    for (uint32_t carried : loop.iterArgs)
      forget(carried);
    if (failed(runRange(loop.bodyBegin, loop.bodyEnd)))
      return failure();
  }
  forgetResults(instruction);
  return success();
}

FailureOr<BlockRun> BlockRun::simulate(gpu::GPUFuncOp kernel) {
  BlockRun run;
  std::optional<ArrayRef<int32_t>> blockSize = kernel.getKnownBlockSize();
  if (!blockSize)
    return kernel.emitOpError() << "needs known_block_size to be analysed";
  run.threads = (*blockSize)[0];

  SmallVector<std::tuple<Value, unsigned, Attribute>> roots;
  auto addMemory = [&](Value value, bool workgroup, Attribute owner) {
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type)
      return;
    roots.push_back({value, static_cast<unsigned>(run.memories.size()), owner});
    run.memories.push_back({value, workgroup, getTotalBytes(type)});
  };
  for (unsigned i = 0, e = kernel.getArgumentTypes().size(); i < e; ++i)
    addMemory(kernel.getArgument(i), /*workgroup=*/false, {});
  for (auto [index, buffer] :
       llvm::enumerate(kernel.getWorkgroupAttributions()))
    addMemory(buffer, /*workgroup=*/true,
              kernel.getWorkgroupAttributionAttr(
                  index, ObsDialect::OwnerAttrHelper(kernel.getContext())
                             .getName()));

  ThreadProgram program(kernel);
  ThreadRunner runner(run, program);
  SmallVector<Operation *> reference;
  for (unsigned thread = 0; thread < run.threads; ++thread) {
    runner.start(thread);
    for (auto [value, memory, owner] : roots)
      runner.bindMemory(value, memory, owner);
    if (failed(runner.runBody()))
      return failure();
    // Every thread must pass the same barriers in the same order.
    if (thread == 0) {
      reference = runner.passed;
      for (Operation *op : reference)
        run.barriers.push_back({op, isa<gpu::BarrierOp>(op)});
    } else if (runner.passed != reference) {
      Operation *culprit = kernel;
      for (auto [a, b] : llvm::zip(runner.passed, reference))
        if (a != b) {
          culprit = a;
          break;
        }
      return culprit->emitOpError()
             << "is a barrier that threads 0 and " << thread
             << " do not pass alike: some threads could skip it";
    }
  }
  return run;
}


SmallVector<Hazard> mlir::obs::findHazards(const BlockRun &run,
                                           unsigned warpSize,
                                           unsigned limit) {
  // Prefix counts of block barriers: a block barrier between phases a < b
  // orders everything; any barrier orders threads of one warp.
  ArrayRef<Barrier> barriers = run.getBarriers();
  SmallVector<unsigned> blockBarriersBefore(barriers.size() + 1, 0);
  for (auto [index, barrier] : llvm::enumerate(barriers))
    blockBarriersBefore[index + 1] =
        blockBarriersBefore[index] + (barrier.block ? 1 : 0);
  auto ordered = [&](const Access &a, const Access &b) {
    if (a.phase == b.phase)
      return false;
    const Access &early = a.phase < b.phase ? a : b;
    const Access &late = a.phase < b.phase ? b : a;
    if (blockBarriersBefore[late.phase] - blockBarriersBefore[early.phase] > 0)
      return true;
    return early.thread / warpSize == late.thread / warpSize;
  };

  // The accesses of each shared memory, in order, by memory.
  ArrayRef<Access> accesses = run.getAccesses();
  std::map<unsigned, std::vector<unsigned>> byMemory;
  for (auto [index, access] : llvm::enumerate(accesses))
    if (run.getMemories()[access.memory].workgroup)
      byMemory[access.memory].push_back(index);

  SmallVector<Hazard> hazards;
  llvm::DenseSet<std::pair<unsigned, unsigned>> reported;
  // Judges the accesses that cover one place, which begins at `byte`;
  // returns whether the limit is reached.
  // Accesses with a block barrier between them are ordered: only those
  // between the same two block barriers (of one epoch) can race.
  auto epochOf = [&](unsigned index) {
    return blockBarriersBefore[accesses[index].phase];
  };
  SmallVector<std::pair<unsigned, unsigned>> byEpoch;
  auto judge = [&](uint64_t byte, ArrayRef<unsigned> indices) {
    // A pair is judged once, at the first byte both access: the byte where
    // the later-starting one begins. The verdict does not depend on the
    // byte, and an access whose index the simulation could not tell spans
    // its whole buffer, so judging at every byte they share would make the
    // work its size times the square of the accesses. Partners are taken
    // in access order, so hazards come out in a deterministic order.
    // `byEpoch` holds the accesses by epoch, then by the place's order,
    // each marked with whether it begins here.
    byEpoch.clear();
    for (unsigned index : indices)
      byEpoch.push_back({epochOf(index), index});
    llvm::sort(byEpoch);
    for (unsigned w : indices) {
      const Access &write = accesses[w];
      if (!write.write)
        continue;
      unsigned epoch = epochOf(w);
      auto group = std::equal_range(
          byEpoch.begin(), byEpoch.end(), std::make_pair(epoch, 0u),
          [](const auto &a, const auto &b) { return a.first < b.first; });
      bool beginsHere = write.byteBegin == byte;
      for (auto it = group.first; it != group.second; ++it) {
        unsigned x = it->second;
        // A partner that begins before this place met the write at an
        // earlier one, unless the write itself begins here.
        if (x == w || (!beginsHere && accesses[x].byteBegin != byte))
          continue;
        const Access &other = accesses[x];
        if (other.write && x < w)
          continue; // Each pair of writes once.
        const Access *first = &write, *second = &other;
        if (other.phase < write.phase ||
            (other.phase == write.phase && other.thread == write.thread &&
             other.order < write.order))
          std::swap(first, second);
        if (first->phase == second->phase && first->thread == second->thread) {
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
        // One report per pair of ops and phase is enough.
        auto key = std::make_pair(
            static_cast<unsigned>(reinterpret_cast<uintptr_t>(first->op) ^
                                  (second->phase << 8)),
            static_cast<unsigned>(reinterpret_cast<uintptr_t>(second->op) ^
                                  first->phase));
        if (!reported.insert(key).second)
          continue;
        hazards.push_back({kind, *first, *second});
        if (hazards.size() >= limit)
          return true;
      }
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
    if (end <= (uint64_t(1) << 24)) {
      llvm::BitVector isCut(end + 1);
      for (unsigned index : indices) {
        isCut.set(accesses[index].byteBegin);
        isCut.set(accesses[index].byteEnd);
      }
      for (unsigned byte : isCut.set_bits())
        cuts.push_back(byte);
    } else {
      for (unsigned index : indices) {
        cuts.push_back(accesses[index].byteBegin);
        cuts.push_back(accesses[index].byteEnd);
      }
      llvm::sort(cuts);
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    }
    auto placeOf = [&](uint64_t byte) -> size_t {
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
    std::vector<unsigned> covering(start.back());
    std::vector<uint32_t> filled(start.begin(), start.end() - 1);
    for (auto [index, span] : llvm::zip_equal(indices, spans))
      for (uint32_t place = span.first; place < span.second; ++place)
        covering[filled[place]++] = index;
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
  ArrayRef<Barrier> barriers = run.getBarriers();
  SmallVector<unsigned> blockBarriersBefore(barriers.size() + 1, 0);
  for (auto [index, barrier] : llvm::enumerate(barriers))
    blockBarriersBefore[index + 1] =
        blockBarriersBefore[index] + (barrier.block ? 1 : 0);
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
