//===- ThreadProgram.cpp - a kernel compiled for the block run
//--------------===//

#include "ThreadProgram.h"
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
#include "mlir/Interfaces/InferIntRangeInterface.h"
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
using namespace mlir::obs::block_run;

bool mlir::obs::block_run::holdsBarrier(Region &region) {
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
       // A shape known only at run time has no count here (recordAccess
       // takes such a shared view to its buffer's end).
       type.hasStaticShape() ? static_cast<uint64_t>(type.getNumElements()) : 0,
       std::nullopt});
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
    else if (!isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::IndexSwitchOp,
                  scf::ExecuteRegionOp, scf::YieldOp, scf::ConditionOp,
                  memref::AllocaOp>(op) &&
             !isMemoryEffectFree(op))
      // Run it: its effects get checked (an op with a region of its own,
      // memref.generic_atomic_rmw on shared memory, was skipped unseen).
      return WalkResult::interrupt();
    else
      return WalkResult::advance();
    if (loop->isAncestor(memref.getParentRegion()->getParentOp()))
      return WalkResult::interrupt(); // A view made inside: run it.
    // A thread's own scratch, and a constant table it reads, are no other
    // thread's. Memory reached otherwise (a subview of a shared buffer, an
    // scf.if's memref) is run, where its accesses are followed or refused:
    // skipped, a race through it went unseen (hunt 28).
    if (!tracked.contains(memref)) {
      UntrackedMemory kind = classifyUntracked(memref);
      return kind == UntrackedMemory::Private ||
                     (kind == UntrackedMemory::Constant && !store)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    }
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
  instruction.step = compileStep(op, instruction);
  instructions[index] = instruction;
}

Step ThreadProgram::compileStep(Operation &op, Instruction &instruction) {
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return id.getDimension() == gpu::Dimension::x ? Step::ThreadIdX
                                                  : Step::Zero;
  // The block the lowering addresses global memory for is block 0; the
  // block index the kernel's own code computes with (obs.data) is any.
  if (isa<gpu::BlockIdOp>(op))
    return ObsDialect::DataAttrHelper(op.getContext()).isAttrPresent(&op)
               ? Step::Unknown
               : Step::Zero;
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return dim.getDimension() == gpu::Dimension::x ? Step::BlockDimX
                                                   : Step::One;
  if (isLoweredBarrier(&op))
    return Step::Barrier;
  if (isa<gpu::ReturnOp, scf::YieldOp>(op))
    return Step::Nothing;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return compileLoad(load, instruction);
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    instruction.immediate = compileMemoryInstruction(store.getMemRef());
    memoryInstructions.back().checkedScatter =
        ObsDialect::CheckedScatterAttrHelper(op.getContext())
            .isAttrPresent(store);
    return Step::Store;
  }
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
    instruction.immediate = compileMemoryInstruction(atomic.getMemref());
    memoryInstructions.back().atomic = true;
    memoryInstructions.back().atomicKind =
        static_cast<uint8_t>(atomic.getKind());
    return Step::Atomic;
  }
  // The cpu target's reports of a place a scatter writes twice and of a
  // read outside an array stop the run; they touch nothing the proof
  // follows.
  if (auto call = dyn_cast<func::CallOp>(op);
      call && (call.getCallee() == kScatterCollisionFunction ||
               call.getCallee() == kIndexOutsideFunction))
    return Step::Nothing;
  if (isa<memref::ViewOp>(op))
    return Step::View;
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType()))
    return Step::SelectMemref;
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    instruction.immediate = compileIf(ifOp);
    return Step::If;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    instruction.immediate = compileFor(loop);
    return Step::For;
  }
  // A loop whose trip count depends on data (Mandelbrot's escape loop) is
  // followed where it touches nothing another thread can see: any number
  // of iterations then changes no access but its reads of global memory,
  // which count as reads of anywhere in their buffers.
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    if (!isSkippable(loop))
      return Step::DataLoop;
    instruction.immediate = skippedLoops.size();
    skippedLoops.push_back(compileSkipped(loop));
    return Step::SkippedLoop;
  }
  if (op.getNumRegions())
    return Step::CannotFollow;
  if (IntegerAttr sync = readCheckSync(&op)) {
    instruction.immediate = compileRegisterRead(&op, sync);
    return Step::RegisterRead;
  }
  if (isa<NVVM::ShflOp>(op)) {
    IntegerAttr sync =
        ObsDialect::ShuffleReadAttrHelper(op.getContext()).getAttr(&op);
    instruction.immediate = sync ? sync.getInt() : -1;
    return Step::Shuffle;
  }
  if (hasUnseenEffects(
          op, [&](Value memref) { return classifyUntracked(memref); },
          [&](Value memref) { return tracked.contains(memref); }))
    return Step::UnseenEffects;
  return compileInteger(op, instruction);
}

Step ThreadProgram::compileLoad(memref::LoadOp load, Instruction &instruction) {
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
  return Step::Load;
}

uint32_t ThreadProgram::compileIf(scf::IfOp ifOp) {
  IfInstruction compiled;
  compiled.holdsBarrier =
      holdsBarrier(ifOp.getThenRegion()) || holdsBarrier(ifOp.getElseRegion());
  compiled.constantCondition = matchPattern(ifOp.getCondition(), m_Constant());
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
  ifs.push_back(std::move(compiled));
  return ifs.size() - 1;
}

uint32_t ThreadProgram::compileFor(scf::ForOp loop) {
  ForInstruction compiled;
  compiled.lower = slots.lookup(loop.getLowerBound());
  compiled.upper = slots.lookup(loop.getUpperBound());
  compiled.step = slots.lookup(loop.getStep());
  compiled.inductionVar = slots.lookup(loop.getInductionVar());
  compiled.width =
      ConstantIntRanges::getStorageBitwidth(loop.getInductionVar().getType());
  compiled.isUnsigned = loop.getUnsignedCmp();
  for (Value carried : loop.getRegionIterArgs())
    compiled.iterArgs.push_back(slots.lookup(carried));
  compiled.skippable = isSkippable(loop);
  compiled.skipped = compiled.skippable && !loop.getInitArgs().empty();
  if (compiled.skippable)
    compiled.whenSkipped = compileSkipped(loop);
  std::tie(compiled.bodyBegin, compiled.bodyEnd) =
      compileRegion(loop.getRegion());
  fors.push_back(std::move(compiled));
  return fors.size() - 1;
}

Step ThreadProgram::compileInteger(Operation &op, Instruction &instruction) {
  // Integer arithmetic, of addresses and conditions.
  if (op.getNumResults() != 1 ||
      !isEvaluatedIntegerType(op.getResult(0).getType()))
    return Step::Unknown;
  instruction.resultWidth = getIntegerWidth(op.getResult(0).getType());
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto integer = dyn_cast<IntegerAttr>(constant.getValue());
    if (!integer)
      return Step::Unknown;
    instruction.immediate =
        integer.getType().isInteger(1)
            ? static_cast<int64_t>(integer.getValue().getZExtValue())
            : integer.getValue().getSExtValue();
    instruction.immediate =
        wrapToWidth(instruction.resultWidth, instruction.immediate);
    return Step::Constant;
  }
  if (llvm::any_of(op.getOperandTypes(),
                   [](Type type) { return !isEvaluatedIntegerType(type); }))
    return Step::Unknown;
  instruction.code = classifyIntegerOp(op);
  if (instruction.code == IntegerOpcode::Fold)
    return Step::Fold;
  instruction.operandWidth = getIntegerWidth(
      op.getOperand(instruction.code == IntegerOpcode::Select ? 1 : 0)
          .getType());
  if (ObsDialect::IndexBoundsAttrHelper(op.getContext()).isAttrPresent(&op))
    return Step::IndexBounds;
  return Step::Direct;
}
