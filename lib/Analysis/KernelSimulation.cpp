//===- KernelSimulation.cpp - a kernel's block, run thread by thread ------===//

#include "Obs/Analysis/KernelSimulation.h"
#include "Obs/Analysis/SymbolicHazards.h"
#include "Obs/KernelLowering/Flatten.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/Statistics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include <map>
#include <mutex>
#include <numeric>

using namespace mlir;
using namespace mlir::obs;

/// A copy of `kernel` lowered as simulateKernel lowers it, with what the
/// lowering tells, and nothing run yet.
static FailureOr<KernelSimulation>
lowerForSimulation(KernelOp kernel, ChangedElementsCache *cache) {
  KernelSimulation simulation;
  OpBuilder builder(kernel.getContext());
  simulation.module = ModuleOp::create(kernel.getLoc());
  builder.setInsertionPointToEnd(simulation.module->getBody());
  auto copy = cast<KernelOp>(builder.clone(*kernel));
  // A kernel as written (the reference target proves those too) runs the
  // way the GPU targets run it: flattened. The copy's syncs are then merged
  // ones, which keep the locations of the syncs they come from.
  if (!isFlat(copy) && failed(flattenKernel(copy)))
    return failure();
  auto gpuModule =
      gpu::GPUModuleOp::create(builder, kernel.getLoc(), "simulation");
  if (DenseI64ArrayAttr overlaps =
          ObsDialect::LaunchOverlapsAttrHelper(kernel.getContext())
              .getAttr(kernel)) {
    ArrayRef<int64_t> values = overlaps.asArrayRef();
    for (size_t i = 0; i + 3 < values.size(); i += 4)
      simulation.globalOverlaps.push_back(
          {static_cast<unsigned>(values[i]),
           static_cast<uint64_t>(values[i + 1]),
           static_cast<unsigned>(values[i + 2]),
           static_cast<uint64_t>(values[i + 3])});
  }
  copy.walk([&](SyncOp sync) { simulation.syncs.push_back(sync); });
  GPULoweringCounters counters;
  counters.identityWrites = [&](uint64_t count) {
    simulation.identityWrites += count;
  };
  counters.inPlaceProspect = [&](InPlaceProspect prospect) {
    simulation.inPlaceProspects.push_back(std::move(prospect));
  };
  counters.forProof = true;
  FailureOr<gpu::GPUFuncOp> func = lowerKernelToGPUFunc(
      copy, gpuModule, copy.getSymName(), 1, counters, cache);
  if (failed(func))
    return failure();
  simulation.func = *func;
  ObsDialect::SyncIndexAttrHelper syncIndex(kernel.getContext());
  ObsDialect::InPlaceAttrHelper inPlace(kernel.getContext());
  func->walk([&](Operation *op) {
    IntegerAttr index = syncIndex.getAttr(op);
    if (index && inPlace.isAttrPresent(op) && index.getInt() >= 0)
      simulation.placedInPlace.insert(simulation.syncs[index.getInt()]);
  });
  return simulation;
}

/// Runs one block of `simulation`'s lowered copy.
static LogicalResult runSimulation(KernelSimulation &simulation) {
  FailureOr<BlockRun> run = BlockRun::simulate(simulation.func);
  if (failed(run))
    return failure();
  if (isCrossCheckingProofs() &&
      failed(crossCheckHazards(simulation.func, *run)))
    return failure();
  simulation.run = std::move(*run);
  return success();
}

FailureOr<KernelSimulation>
mlir::obs::simulateKernel(KernelOp kernel, ChangedElementsCache *cache) {
  FailureOr<KernelSimulation> simulation = lowerForSimulation(kernel, cache);
  if (failed(simulation) || failed(runSimulation(*simulation)))
    return failure();
  return simulation;
}

namespace {
/// The simulation of one lowered code in this context, while anything
/// holds it: obs-assign-work's copies of a kernel, one per strategy, often
/// lower to the same code (compact deals out a fresh stage as strided does,
/// and neither may keep more than eight rounds in registers), and then need
/// one run, not one each. Its lock is held while the code is run, so a copy
/// that lowers to the same code meanwhile waits for that run.
struct SharedRun {
  std::mutex mutex;
  std::weak_ptr<const KernelSimulation> simulation;
};
} // namespace

/// Calls `visit` on every op of `code` in program order (pre-order), after
/// numbering the values they define in that order: results, then the
/// arguments of their regions' blocks. Two codes are the same when they
/// visit alike, op by op.
static void walkNumbered(
    Operation *code,
    llvm::function_ref<void(Operation *, llvm::DenseMap<Value, unsigned> &,
                            llvm::DenseMap<Block *, unsigned> &)>
        visit) {
  llvm::DenseMap<Value, unsigned> values;
  llvm::DenseMap<Block *, unsigned> blocks;
  code->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value result : op->getResults())
      values.try_emplace(result, values.size());
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        blocks.try_emplace(&block, blocks.size());
        for (Value argument : block.getArguments())
          values.try_emplace(argument, values.size());
      }
    visit(op, values, blocks);
  });
}

/// What identifies a lowered function's run: a hash of every op of its
/// module (the function and the constant tables it reads) in order,
/// with its name, attributes, properties, types, location, operands and
/// successors (by their numbers), and the shape of its regions. Attributes,
/// types and locations are uniqued in the context, so their addresses are
/// their values; equal keys are then checked op by op (mapSameCode).
static ObsDialect::CodeKey getRunKey(gpu::GPUFuncOp func) {
  llvm::hash_code hash = llvm::hash_value(func->getName().getAsOpaquePointer());
  walkNumbered(func->getParentOp(),
               [&](Operation *op, llvm::DenseMap<Value, unsigned> &values,
                   llvm::DenseMap<Block *, unsigned> &blocks) {
                 hash = llvm::hash_combine(
                     hash, op->getName().getAsOpaquePointer(),
                     op->getRawDictionaryAttrs().getAsOpaquePointer(),
                     op->hashProperties(), op->getLoc().getAsOpaquePointer(),
                     op->getNumRegions());
                 for (Type type : op->getResultTypes())
                   hash = llvm::hash_combine(hash, type.getAsOpaquePointer());
                 for (Value operand : op->getOperands())
                   hash = llvm::hash_combine(hash, values.lookup(operand));
                 for (Block *successor : op->getSuccessors())
                   hash = llvm::hash_combine(hash, blocks.lookup(successor));
                 for (Region &region : op->getRegions())
                   for (Block &block : region) {
                     hash = llvm::hash_combine(hash, block.getNumArguments());
                     for (Type type : block.getArgumentTypes())
                       hash =
                           llvm::hash_combine(hash, type.getAsOpaquePointer());
                   }
               });
  ObsDialect::CodeKey key = {};
  uint64_t value = static_cast<size_t>(hash);
  for (unsigned byte = 0; byte < sizeof(value); ++byte)
    key[byte] = static_cast<uint8_t>(value >> (8 * byte));
  return key;
}

/// Maps the ops, results and block arguments of `from`'s module (the
/// function and its constant tables) to `to`'s where the two are the same
/// code, op by op (what getRunKey hashes, compared whole);
/// fails where they part.
static FailureOr<IRMapping> mapSameCode(gpu::GPUFuncOp from,
                                        gpu::GPUFuncOp to) {
  SmallVector<Operation *> fromOps, toOps;
  from->getParentOp()->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { fromOps.push_back(op); });
  to->getParentOp()->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { toOps.push_back(op); });
  if (fromOps.size() != toOps.size())
    return failure();
  IRMapping mapping;
  llvm::DenseMap<Block *, Block *> blocks;
  auto alike = [&](Operation *a, Operation *b) {
    if (a->getName() != b->getName() ||
        a->getRawDictionaryAttrs() != b->getRawDictionaryAttrs() ||
        !a->getName().compareOpProperties(a->getPropertiesStorage(),
                                          b->getPropertiesStorage()) ||
        a->getLoc() != b->getLoc() ||
        a->getResultTypes() != b->getResultTypes() ||
        a->getNumOperands() != b->getNumOperands() ||
        a->getNumSuccessors() != b->getNumSuccessors() ||
        a->getNumRegions() != b->getNumRegions())
      return false;
    // Defined before their uses in program order, but for the arguments
    // of blocks, which their region's op maps first.
    for (auto [x, y] : llvm::zip_equal(a->getOperands(), b->getOperands()))
      if (mapping.lookupOrNull(x) != y)
        return false;
    mapping.map(a, b);
    mapping.map(a->getResults(), b->getResults());
    for (auto [ra, rb] : llvm::zip_equal(a->getRegions(), b->getRegions())) {
      if (ra.getBlocks().size() != rb.getBlocks().size())
        return false;
      for (auto [ba, bb] : llvm::zip_equal(ra, rb)) {
        if (ba.getArgumentTypes() != bb.getArgumentTypes())
          return false;
        blocks[&ba] = &bb;
        mapping.map(ba.getArguments(), bb.getArguments());
      }
    }
    return true;
  };
  for (auto [a, b] : llvm::zip_equal(fromOps, toOps))
    if (!alike(a, b))
      return failure();
  // Successors last: a branch may name a block whose op comes later.
  for (auto [a, b] : llvm::zip_equal(fromOps, toOps))
    for (auto [x, y] : llvm::zip_equal(a->getSuccessors(), b->getSuccessors()))
      if (blocks.lookup(x) != y)
        return failure();
  return mapping;
}

/// `kernel`'s fingerprint with no scope on any sync, written or planned:
/// two kernels that differ only in their syncs' scopes have the same one.
static OperationFingerPrint fingerprintButScopes(KernelOp kernel) {
  // The scopes are taken off for the fingerprint and put back as they were
  // (the same attributes, so the kernel's own fingerprint is unchanged).
  SmallVector<std::tuple<SyncOp, SyncScopeAttr, SyncPlanAttr>> taken;
  kernel.walk([&](SyncOp sync) {
    SyncPlanAttr plan = sync.getPlanAttr();
    bool planned = plan && plan.getScope();
    if (!sync.getScopeAttr() && !planned)
      return;
    taken.push_back({sync, sync.getScopeAttr(), plan});
    sync.removeScopeAttr();
    if (planned)
      sync.setPlannedScope(nullptr);
  });
  OperationFingerPrint print(kernel);
  for (auto [sync, written, plan] : taken) {
    if (written)
      sync.setScopeAttr(written);
    if (plan)
      sync.setPlanAttr(plan);
    else
      sync.removePlanAttr();
  }
  return print;
}

/// The simulation of a kernel that differs from `base`'s only in its syncs'
/// scopes, `scopes` (the kernel's syncs' now, in program order, one for
/// each of `base`'s): `base`'s run with each barrier of a sync of the kind
/// the sync's scope asks for.
static std::shared_ptr<const KernelSimulation>
rescope(ArrayRef<SyncScope> scopes,
        std::shared_ptr<const KernelSimulation> base) {
  auto simulation = std::make_shared<KernelSimulation>();
  simulation->func = base->func;
  simulation->syncs = base->syncs;
  simulation->placedInPlace = base->placedInPlace;
  simulation->inPlaceProspects = base->inPlaceProspects;
  simulation->identityWrites = base->identityWrites;
  simulation->globalOverlaps = base->globalOverlaps;
  ObsDialect::SyncIndexAttrHelper syncIndex(simulation->func.getContext());
  ArrayRef<Barrier> barriers = base->run.getBarriers();
  simulation->run = base->run.withBarrierKinds([&](unsigned index) {
    const Barrier &barrier = barriers[index];
    IntegerAttr sync = syncIndex.getAttr(barrier.op);
    // A barrier of no sync (the lowering's own) keeps its kind.
    if (!sync || sync.getInt() < 0)
      return barrier.block;
    return scopes[sync.getInt()] == SyncScope::Block;
  });
  simulation->derivedFrom = std::move(base);
  return simulation;
}

/// The key under which a simulation of `kernel` may be rescoped: its
/// fingerprint without scopes, for a flat kernel only (the copy of another
/// is flattened, its syncs merged, so they are not the kernel's one for
/// one).
static std::optional<OperationFingerPrint> rescopeKeyOf(KernelOp kernel) {
  if (!isFlat(kernel))
    return std::nullopt;
  return fingerprintButScopes(kernel);
}

FailureOr<std::shared_ptr<const KernelSimulation>>
KernelSimulations::simulate(KernelOp kernel) {
  OperationFingerPrint now(kernel);
  for (auto it = recent.begin(); it != recent.end(); ++it) {
    if (it->plan != now)
      continue;
    ++reused;
    std::rotate(recent.begin(), it, std::next(it));
    return recent.front().simulation;
  }
  std::optional<OperationFingerPrint> rescopeKey = rescopeKeyOf(kernel);
  if (rescopeKey) {
    SmallVector<SyncScope> scopes;
    kernel.walk(
        [&](SyncOp sync) { scopes.push_back(sync.getScopeOrDefault()); });
    for (const Kept &kept : recent) {
      if (kept.rescopeKey != rescopeKey ||
          kept.simulation->syncs.size() != scopes.size())
        continue;
      ++rescoped;
      remember({now, rescopeKey, rescope(scopes, kept.simulation)});
      return recent.front().simulation;
    }
  }
  FailureOr<KernelSimulation> made = lowerForSimulation(kernel, &changed);
  if (failed(made))
    return failure();
  auto sameCode = cast<ObsDialect>(kernel->getDialect())
                      ->getCodeEntry<SharedRun>(getRunKey(made->func));
  std::lock_guard<std::mutex> lock(sameCode->mutex);
  // The first simulation of the code, whose run is taken over: the global
  // hazards read the overlaps too, which are the kernel's, not the code's.
  std::shared_ptr<const KernelSimulation> first = sameCode->simulation.lock();
  FailureOr<IRMapping> mapping = failure();
  if (first && first->globalOverlaps == made->globalOverlaps)
    mapping = mapSameCode(first->func, made->func);
  if (succeeded(mapping)) {
    made->run = first->run.inCopy(*mapping);
    made->fromFirst = std::make_shared<const IRMapping>(std::move(*mapping));
    made->first = std::move(first);
    ++shared;
  } else {
    if (failed(runSimulation(*made)))
      return failure();
    ++simulated;
  }
  auto simulation = std::make_shared<const KernelSimulation>(std::move(*made));
  if (!simulation->first)
    sameCode->simulation = simulation;
  remember({now, rescopeKey, std::move(simulation)});
  return recent.front().simulation;
}

SmallVector<Hazard> KernelSimulation::find(
    FoundHazards Findings::*found, unsigned limit,
    llvm::function_ref<SmallVector<Hazard>(const KernelSimulation &, unsigned)>
        search) const {
  const KernelSimulation &searched = first ? *first : *this;
  SmallVector<Hazard> hazards;
  {
    Findings &shared = getFindings();
    std::lock_guard<std::mutex> lock(shared.mutex);
    hazards = (shared.*found).get(limit, [&](unsigned n) {
      return search(searched, n);
    });
  }
  if (fromFirst)
    for (Hazard &hazard : hazards) {
      hazard.first.op = fromFirst->lookup(hazard.first.op);
      hazard.second.op = fromFirst->lookup(hazard.second.op);
    }
  return hazards;
}

BlockCost KernelSimulation::blockCost() const {
  Findings &shared = getFindings();
  std::lock_guard<std::mutex> lock(shared.mutex);
  if (!shared.cost)
    shared.cost =
        computeBlockCost(first ? first->run : run, KernelOp::kWarpSize);
  return *shared.cost;
}

void KernelSimulations::keep(
    KernelOp kernel, std::shared_ptr<const KernelSimulation> simulation) {
  remember({OperationFingerPrint(kernel), rescopeKeyOf(kernel),
            std::move(simulation)});
}

void KernelSimulations::remember(Kept kept) {
  // One entry per plan: a simulation kept again replaces the one before.
  llvm::erase_if(recent,
                 [&](const Kept &entry) { return entry.plan == kept.plan; });
  if (recent.size() == kKept)
    recent.pop_back();
  recent.insert(recent.begin(), std::move(kept));
}

std::shared_ptr<const BlockRun>
mlir::obs::findProvedRun(KernelOp kernel, const ObsDialect::ProofKey &key) {
  auto simulation = std::static_pointer_cast<const KernelSimulation>(
      cast<ObsDialect>(kernel->getDialect())->getKernelProof(key));
  if (!simulation)
    return nullptr;
  // Shares the simulation's ownership: the accesses point into its lowered
  // copy.
  return std::shared_ptr<const BlockRun>(simulation, &simulation->run);
}

SimulationCount::~SimulationCount() {
  addToStatistic(pass, made, "simulations",
                 simulations.getSimulated() - madeBefore);
  addToStatistic(pass, reused, "simulations-reused",
                 simulations.getReused() - reusedBefore);
  addToStatistic(pass, rescoped, "simulations-rescoped",
                 simulations.getRescoped() - rescopedBefore);
  addToStatistic(pass, shared, "simulations-shared",
                 simulations.getShared() - sharedBefore);
}

SyncOp mlir::obs::syncOfBarrier(const KernelSimulation &simulation,
                                unsigned barrier) {
  ArrayRef<Barrier> barriers = simulation.run.getBarriers();
  if (barrier >= barriers.size())
    return {};
  Operation *op = barriers[barrier].op;
  IntegerAttr index =
      ObsDialect::SyncIndexAttrHelper(op->getContext()).getAttr(op);
  if (!index || index.getInt() < 0)
    return {};
  return simulation.syncs[index.getInt()];
}

/// "element 5 of a shared buffer" (`element` -1: its index depends on
/// data); where the buffer comes from is a note.
static std::string describeElement(int64_t element, StringRef buffer) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (element >= 0)
    os << "element " << element;
  else
    os << "an element (its index depends on data)";
  os << " of " << buffer;
  return text;
}

/// Notes where the buffers of a hazard's accesses come from: the op whose
/// array each stores.
static void noteBuffers(InFlightDiagnostic &diagnostic, const Access &first,
                        const Access &second, bool reuse) {
  if (auto owner = dyn_cast_if_present<LocationAttr>(first.owner))
    diagnostic.attachNote(Location(owner))
        << "the buffer holds the array of this op";
  if (!reuse)
    return;
  if (auto owner = dyn_cast_if_present<LocationAttr>(second.owner))
    diagnostic.attachNote(Location(owner))
        << "the other buffer holds the array of this op";
}

static std::string describeThread(uint64_t thread) {
  return ("thread " + Twine(thread) + " (warp " +
          Twine(thread / KernelOp::kWarpSize) + ")")
      .str();
}

void mlir::obs::reportRegisterViolation(const KernelSimulation &simulation,
                                        const RegisterReadViolation &wrong) {
  SyncOp sync = simulation.syncs[wrong.sync];
  InFlightDiagnostic diag = sync.emitOpError();
  tagError(diag, ErrorKind::RejectedChoice);
  auto computedBy = [&] {
    if (wrong.owner >= 0)
      diag << "which " << describeThread(wrong.owner) << " computes";
    else
      diag << "and which thread computes it depends on data";
  };
  switch (wrong.kind) {
  case RegisterReadViolation::OtherThread:
    diag << "registers are unsafe: " << describeThread(wrong.thread)
         << " reads " << describeElement(wrong.element, "this array") << ", ";
    computedBy();
    diag << "; a thread's registers hold only the elements it computed";
    break;
  case RegisterReadViolation::OtherWarp:
    diag << "shuffles are unsafe: " << describeThread(wrong.thread) << " reads "
         << describeElement(wrong.element, "this array") << ", ";
    computedBy();
    diag << "; a shuffle exchanges values only between the lanes of a warp";
    break;
  case RegisterReadViolation::NotTogether:
    diag << "shuffles are unsafe: " << describeThread(wrong.thread)
         << " runs a shuffle of this array under a branch, in a loop, or "
            "not with exactly the lanes of its mask; every lane a shfl.sync "
            "names must run it, outside any branch or loop";
    break;
  case RegisterReadViolation::NoSource:
    diag << "shuffles are unsafe: " << describeThread(wrong.thread)
         << " takes a value of this array from " << describeThread(wrong.source)
         << ", which does not run the shuffle";
    break;
  case RegisterReadViolation::WrongLane:
    diag << "shuffles are unsafe: " << describeThread(wrong.thread) << " reads "
         << describeElement(wrong.element, "this array") << ", ";
    computedBy();
    diag << ", but its shuffle takes the value of "
         << describeThread(wrong.source);
    break;
  }
  diag.attachNote(wrong.check->getLoc()) << "read here";
}

SyncOp mlir::obs::responsibleSync(const KernelSimulation &simulation,
                                  const Hazard &hazard) {
  if (hazard.sameStage())
    return syncOfBarrier(simulation, hazard.first.phase);
  for (unsigned barrier = hazard.first.phase; barrier < hazard.second.phase;
       ++barrier)
    if (SyncOp sync = syncOfBarrier(simulation, barrier))
      return sync;
  return {};
}

void mlir::obs::reportHazard(const KernelSimulation &simulation,
                             const Hazard &hazard) {
  const Access &first = hazard.first, &second = hazard.second;
  StringRef firstVerb = first.write ? "writes" : "reads";
  StringRef secondVerb = second.write ? "writes" : "reads";
  bool reuse = first.owner != second.owner;
  // A later access that is not later in the code went around a loop: the
  // two are in different iterations of a repeat.
  bool wrapsAround = false;
  if (first.phase < second.phase) {
    llvm::DenseMap<Operation *, unsigned> position;
    gpu::GPUFuncOp func = simulation.func;
    func.walk<WalkOrder::PreOrder>(
        [&](Operation *op) { position[op] = position.size(); });
    wrapsAround = position.lookup(second.op) <= position.lookup(first.op);
  }
  // Global memory meets itself only where a launch passes one memory as an
  // input and an output (obs-collect-launch-overlaps).
  bool global = !simulation.run.getMemories()[first.memory].workgroup;
  auto role = [](const Access &access) {
    return access.write ? "an output in global memory"
                        : "an input in global memory";
  };
  std::string where;
  if (global)
    where = describeElement(first.element, role(first)) +
            ", which the launch places at " +
            describeElement(second.element, role(second)) + ",";
  else
    where = describeElement(first.element, "a shared buffer");
  if (reuse && !global)
    where += ", which shares memory with " +
             describeElement(second.element, "another buffer");

  SyncOp sync = responsibleSync(simulation, hazard);
  if (hazard.sameStage()) {
    InFlightDiagnostic diagnostic =
        sync ? sync.emitOpError() : first.op->emitError();
    tagError(diagnostic, ErrorKind::RejectedChoice);
    if (sync && sync.getPlacementOrDefault() == Placement::InPlace && !reuse)
      diagnostic << "in place is unsafe: ";
    else
      diagnostic << "stage is unsafe: ";
    diagnostic << describeThread(first.thread) << " " << firstVerb << " "
               << where << " and " << describeThread(second.thread) << " "
               << secondVerb << " it in the same stage";
    if (first.thread == second.thread)
      diagnostic << ", after the stage overwrote it";
    else
      diagnostic << ", with no barrier between them";
    noteBuffers(diagnostic, first, second, reuse);
    return;
  }
  // The barriers between the two are all warp barriers: the first of them
  // is the sync whose scope is wrong (or whose buffer reuse is).
  InFlightDiagnostic diagnostic =
      sync ? sync.emitOpError() : second.op->emitError();
  tagError(diagnostic, ErrorKind::RejectedChoice);
  diagnostic << "warp scope is unsafe: " << describeThread(first.thread) << " "
             << firstVerb << " " << where << " before the barrier and "
             << describeThread(second.thread) << " " << secondVerb
             << " it after it (" << stringifyHazardKind(hazard.kind);
  if (reuse && !global)
    diagnostic << " through buffer reuse";
  if (wrapsAround)
    diagnostic << ", across repeat iterations";
  diagnostic << "); only a block barrier orders threads of different warps";
  noteBuffers(diagnostic, first, second, reuse);
}

/// A view of the shared-memory arena, and the bytes of the arena it holds.
struct ArenaView {
  Operation *view;
  uint64_t begin, end;
  /// Where the view's buffer is padded (obs.shared_padding): the bytes of
  /// each of its rows, and how many of them, at the row's end, are padding
  /// that no element occupies.
  uint64_t rowBytes = 0, paddingBytes = 0;
};

/// The views of the arena an op's memref may be: the memref.view the
/// lowering made of the arena for each component of an owner's array (at
/// the plan's offset), found from the op's memref through views and casts
/// of it, and through selects between views (a repeat's two buffers, which
/// each iteration chooses).
static SmallVector<ArenaView> getArenaViews(Operation *op) {
  SmallVector<ArenaView> views;
  SmallVector<Value> pending;
  for (Value operand : op->getOperands())
    if (isa<MemRefType>(operand.getType())) {
      pending.push_back(operand);
      break;
    }
  while (!pending.empty()) {
    Operation *defining = pending.pop_back_val().getDefiningOp();
    if (auto select = dyn_cast_if_present<arith::SelectOp>(defining)) {
      pending.append({select.getTrueValue(), select.getFalseValue()});
      continue;
    }
    if (auto view = dyn_cast_if_present<memref::ViewOp>(defining)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!shift || *shift < 0)
        continue;
      ArenaView found{view, static_cast<uint64_t>(*shift),
                      *shift + getTotalBytes(view.getType())};
      MemRefType type = view.getType();
      if (IntegerAttr padding =
              ObsDialect::SharedPaddingAttrHelper(view.getContext())
                  .getAttr(view);
          padding && padding.getInt() > 0 && type.getRank() >= 2 &&
          type.hasStaticShape()) {
        uint64_t elementBytes = getElementBytes(type);
        found.rowBytes = type.getShape().back() * elementBytes;
        found.paddingBytes = padding.getInt() * elementBytes;
      }
      views.push_back(found);
      continue;
    }
    if (auto view = dyn_cast_if_present<ViewLikeOpInterface>(defining))
      pending.push_back(view.getViewSource());
  }
  return views;
}

/// Of `views`, the one an access of `[begin, end)` goes through: the one
/// that holds those bytes, starting closest before them where views
/// overlap; null when none does.
static const ArenaView *getViewOfBytes(ArrayRef<ArenaView> views,
                                       uint64_t begin, uint64_t end) {
  const ArenaView *found = nullptr;
  for (const ArenaView &view : views)
    if (view.begin <= begin && end <= view.end &&
        (!found || view.begin >= found->begin))
      found = &view;
  return found;
}

/// The view of the arena that last wrote each byte, kept as runs of bytes
/// that one view wrote last: a read or write through a data-dependent index
/// stands for its whole buffer, and walking its bytes one by one made the
/// check quadratic (the merge kernel of examples/device/sort_by.mlir took 8 s
/// in it). Bytes in no run were last written by no view.
class LastWriters {
public:
  /// Records that `view` (null: none) wrote `[begin, end)` last.
  void assign(uint64_t begin, uint64_t end, Operation *view) {
    if (begin >= end)
      return;
    split(begin);
    split(end);
    runs.erase(runs.lower_bound(begin), runs.lower_bound(end));
    if (!view)
      return;
    auto it = runs.insert({begin, {end, view}}).first;
    if (it != runs.begin()) {
      auto previous = std::prev(it);
      if (previous->second.end == begin && previous->second.view == view) {
        previous->second.end = end;
        runs.erase(it);
        it = previous;
      }
    }
    auto next = std::next(it);
    if (next != runs.end() && next->first == it->second.end &&
        next->second.view == view) {
      it->second.end = next->second.end;
      runs.erase(next);
    }
  }

  /// The first byte of `[begin, end)` that a view other than `view` wrote
  /// last, and that view.
  std::optional<std::pair<uint64_t, Operation *>>
  findOther(uint64_t begin, uint64_t end, Operation *view) const {
    // An access of no bytes (an array of no elements) reads nothing.
    if (begin >= end)
      return std::nullopt;
    auto it = runs.upper_bound(begin);
    if (it != runs.begin() && std::prev(it)->second.end > begin)
      --it;
    for (; it != runs.end() && it->first < end; ++it)
      if (it->second.view != view)
        return std::make_pair(std::max(it->first, begin), it->second.view);
    return std::nullopt;
  }

private:
  /// Cuts the run that holds `at` in two there.
  void split(uint64_t at) {
    auto it = runs.upper_bound(at);
    if (it == runs.begin())
      return;
    --it;
    if (it->first < at && at < it->second.end) {
      runs.insert({at, {it->second.end, it->second.view}});
      it->second.end = at;
    }
  }

  struct Run {
    uint64_t end;
    Operation *view;
  };
  std::map<uint64_t, Run> runs;
};

/// The first byte that `read`, through `view`, reads up to `end` and a view
/// other than `view` wrote last, and that view. A read that stands for its
/// whole buffer (an index that depends on data) reads one of its elements,
/// never a padded row's padding, which no element occupies and which the
/// buffer's own stage never writes: what another buffer left there is no
/// overlap (found by obs-fuzz seed 2026120203 #4617, a read of a padded
/// array at a place from data, whose padding held a dead array's bytes).
static std::optional<std::pair<uint64_t, Operation *>>
findOtherWriter(const LastWriters &lastWriters, const ArenaView &view,
                const Access &read, uint64_t end) {
  if (read.element >= 0 || !view.paddingBytes)
    return lastWriters.findOther(read.byteBegin, end, view.view);
  uint64_t elementBytes = view.rowBytes - view.paddingBytes;
  uint64_t row = (read.byteBegin - view.begin) / view.rowBytes;
  for (uint64_t rowBegin = view.begin + row * view.rowBytes; rowBegin < end;
       rowBegin += view.rowBytes) {
    uint64_t begin = std::max(rowBegin, read.byteBegin);
    uint64_t last = std::min(rowBegin + elementBytes, end);
    if (begin < last)
      if (auto other = lastWriters.findOther(begin, last, view.view))
        return other;
  }
  return std::nullopt;
}

/// Rejects a shared-memory plan (obs.shared_offsets) under which one
/// buffer overwrites what another still holds: a read through one buffer's
/// view of a byte that another buffer wrote last. obs-plan-shared gives two
/// buffers one place only where the uses of one end before the other's
/// begin; a plan in the input is checked on the places the block touches,
/// never trusted (found by an adversarial run: two syncs at offset 0, the
/// first read again after the second wrote). Run after the hazard search:
/// with no race, every two accesses of one byte are ordered as (phase,
/// thread, program order) orders them.
static LogicalResult checkSharedPlan(const KernelSimulation &simulation) {
  const BlockRun &run = simulation.run;
  gpu::GPUFuncOp func = simulation.func;
  ObsDialect::ArenaAttrHelper arenaMark(func.getContext());
  unsigned firstWorkgroup =
      run.getMemories().size() - func.getNumWorkgroupAttributions();
  std::optional<unsigned> arena;
  for (unsigned index = 0; index < func.getNumWorkgroupAttributions(); ++index)
    if (func.getWorkgroupAttributionAttr(index, arenaMark.getName()))
      arena = firstWorkgroup + index;
  if (!arena)
    return success();
  // The arena's accesses by (phase, thread, order). The run's accesses are
  // in thread order, each thread's in its own (BlockRun::getAccesses), in
  // which its phases never fall: a stable count by phase orders them, where
  // a comparison sort took 5% of a radix sort's obs-optimize.
  ArrayRef<Access> accesses = run.getAccesses();
  std::vector<uint32_t> startOfPhase(run.getBarriers().size() + 2, 0);
  size_t arenaAccesses = 0;
  for (const Access &access : accesses)
    if (access.memory == *arena) {
      ++startOfPhase[access.phase + 1];
      ++arenaAccesses;
    }
  std::partial_sum(startOfPhase.begin(), startOfPhase.end(),
                   startOfPhase.begin());
  SmallVector<uint32_t> order(arenaAccesses);
  for (auto [index, access] : llvm::enumerate(accesses))
    if (access.memory == *arena)
      order[startOfPhase[access.phase]++] = index;
  uint64_t arenaBytes = run.getMemories()[*arena].bytes;
  LastWriters lastWriters;
  llvm::DenseMap<Operation *, SmallVector<ArenaView>> viewsOf;
  auto viewOf = [&](const Access &access) {
    auto [it, inserted] = viewsOf.try_emplace(access.op);
    if (inserted && access.op)
      it->second = getArenaViews(access.op);
    return getViewOfBytes(it->second, access.byteBegin, access.byteEnd);
  };
  for (auto [position, index] : llvm::enumerate(order)) {
    const Access &access = accesses[index];
    // An access the plan's views do not explain is left to the race
    // search; what it writes is no other buffer's.
    const ArenaView *arenaView = viewOf(access);
    Operation *view = arenaView ? arenaView->view : nullptr;
    uint64_t end = std::min<uint64_t>(access.byteEnd, arenaBytes);
    if (access.write) {
      lastWriters.assign(access.byteBegin, end, view);
      continue;
    }
    if (!view)
      continue;
    auto other = findOtherWriter(lastWriters, *arenaView, access, end);
    if (!other)
      continue;
    auto [byte, writer] = *other;
    // The write itself, for the message: the last before this read that
    // wrote the byte.
    const Access *write = nullptr;
    for (uint32_t earlier : llvm::reverse(ArrayRef(order).take_front(position)))
      if (const Access &candidate = accesses[earlier];
          candidate.write && candidate.byteBegin <= byte &&
          byte < candidate.byteEnd) {
        write = &candidate;
        break;
      }
    assert(write && "a byte some view wrote last has its write before");
    auto ownerLoc = [&](Operation *view) -> Location {
      if (auto owner = dyn_cast_if_present<LocationAttr>(
              ObsDialect::OwnerAttrHelper(func.getContext()).getAttr(view)))
        return Location(owner);
      return view->getLoc();
    };
    InFlightDiagnostic diag =
        mlir::emitError(ownerLoc(view))
        << "the shared-memory plan ('"
        << ObsDialect::SharedOffsetsAttrHelper::getNameStr()
        << "') puts this array's buffer over another's that is in use at "
           "the same time: in thread "
        << access.thread << ", a read of byte " << byte
        << " of the arena finds what thread " << write->thread
        << " wrote there for the other array; plan shared memory with "
           "obs-plan-shared";
    diag.attachNote(ownerLoc(writer)) << "the other array";
    tagError(diag, ErrorKind::RejectedChoice);
    return failure();
  }
  return success();
}

LogicalResult mlir::obs::reportUnsafeSyncs(const KernelSimulation &simulation) {
  bool reportedAny = false;
  // An in-place sync needs an array in shared memory to overwrite, and a
  // shared buffer of its own to write: a written placement that the
  // lowering could not honour is rejected, never dropped.
  for (SyncOp sync : simulation.syncs) {
    if (sync.getPlacementOrDefault() != Placement::InPlace ||
        simulation.placedInPlace.contains(sync))
      continue;
    InFlightDiagnostic diag = sync.emitOpError();
    tagError(diag, ErrorKind::RejectedChoice);
    reportedAny = true;
    if (sync.isOutputOnly()) {
      diag << "in place cannot apply: its array is only returned, so its "
              "stage writes the kernel's results in global memory, not a "
              "shared buffer";
      continue;
    }
    if (sync.isYieldedByRepeat()) {
      diag << "in place cannot apply: the repeat body yields its array, "
              "which then overwrites the buffer the iteration read only "
              "where its stage reads the repeat's own array and nothing "
              "else does; this stage reads another array too, or "
              "another stage reads the repeat's";
      continue;
    }
    // The lowering overwrites only the one array the stage reads from
    // shared memory (a stage reading two said "reads no array", found by
    // an adversarial run).
    diag << "in place has nothing to overwrite: a stage in place "
            "overwrites the one array it reads from shared memory, where "
            "that array is of its type "
         << sync.getType()
         << " and no later stage reads it; this stage reads no such array, "
            "or more than one array from shared memory";
  }
  // An array in registers read by a thread that did not compute the
  // element: the value is not in its registers.
  for (const RegisterReadViolation &wrong :
       simulation.run.getRegisterViolations()) {
    reportRegisterViolation(simulation, wrong);
    reportedAny = true;
  }
  // One report per responsible sync: the first hazard found for it.
  llvm::DenseSet<Operation *> reported;
  for (const Hazard &hazard : simulation.sharedHazards(/*limit=*/64)) {
    if (!reported.insert(responsibleSync(simulation, hazard)).second)
      continue;
    reportHazard(simulation, hazard);
    reportedAny = true;
  }
  if (!reportedAny && failed(checkSharedPlan(simulation)))
    return failure();
  return failure(reportedAny);
}
