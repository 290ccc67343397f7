//===- ObsOps.cpp - obs operations: verifiers, types, syntax, folds -------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/Formatting.h"
#include "OpVerifiers.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::detail;

bool mlir::obs::isSharedBufferOwner(Operation *op) {
  if (auto scatter = dyn_cast<ScatterOp>(op))
    return !scatter.getGlobal();
  return isa<SyncOp, RepeatOp, CarryOp>(op);
}

bool mlir::obs::isDealtOutByLeaf(ArrType type,
                                 WorkAssignmentAttrInterface how) {
  return type.getShape().size() > 1 && !isa_and_present<CompactAttr>(how);
}

uint64_t mlir::obs::getWorkLength(ArrType type,
                                  WorkAssignmentAttrInterface how) {
  return isDealtOutByLeaf(type, how) ? type.getNumLeaves() : type.getLength();
}

bool mlir::obs::hasGlobalResults(KernelOp kernel) {
  for (unsigned index = 0, e = kernel.getResultTypes().size(); index < e;
       ++index)
    if (kernel.getGlobalScatter(index))
      return true;
  return false;
}

SmallVector<unsigned> mlir::obs::getUncombinedGlobalResults(KernelOp kernel) {
  SmallVector<unsigned> results;
  for (unsigned index = 0, e = kernel.getResultTypes().size(); index < e;
       ++index)
    if (ScatterOp scatter = kernel.getGlobalScatter(index);
        scatter && !scatter.getCombine())
      results.push_back(index);
  return results;
}

ScatterOp KernelOp::getGlobalScatter(unsigned index) {
  auto ret = dyn_cast<ReturnOp>(getBody().front().getTerminator());
  if (!ret || index >= ret.getNumOperands())
    return {};
  auto scatter = ret.getOperand(index).getDefiningOp<ScatterOp>();
  return scatter && scatter.getGlobal() ? scatter : ScatterOp();
}

llvm::SetVector<Value>
mlir::obs::findStageSources(Value array, function_ref<bool(Value)> isSource) {
  llvm::SetVector<Value> sources;
  llvm::DenseSet<Value> visited;
  SmallVector<Value> worklist{array};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    if (isSource(value)) {
      sources.insert(value);
      continue;
    }
    Operation *producer = value.getDefiningOp();
    if (!producer)
      continue;
    llvm::append_range(worklist, producer->getOperands());
    producer->walk([&](Operation *nested) {
      llvm::append_range(worklist, nested->getOperands());
    });
  }
  return sources;
}

bool mlir::obs::holdsSync(Operation *op) {
  return op->walk([](SyncOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

uint64_t mlir::obs::getSerialNetworkThreads(Operation *op) {
  auto kernel = dyn_cast<KernelOp>(op->getParentOp());
  return getSerialNetworkThreads(op, kernel ? kernel.getBlockThreads() : 0);
}

uint64_t mlir::obs::getSerialNetworkThreads(Operation *op,
                                            uint64_t kernelBlockThreads) {
  uint64_t length = arrType(op->getOperand(0)).getLength();
  auto kernel = dyn_cast<KernelOp>(op->getParentOp());
  if (!kernel)
    return length;
  if (std::optional<uint64_t> threads = kernel.getThreads())
    return *threads;
  return std::min(std::max(kernelBlockThreads, length), KernelOp::kMaxThreads);
}

bool mlir::obs::usesBlockPosition(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<BlockIdOp, ExtentOp>(nested) ? WalkResult::interrupt()
                                                : WalkResult::advance();
      })
      .wasInterrupted();
}

bool mlir::obs::isGlobalArgument(KernelOp kernel, unsigned index) {
  return static_cast<bool>(
      kernel.getArgAttr(index, ObsDialect::GlobalAttrHelper::getNameStr()));
}

HaloAttr mlir::obs::getHalo(KernelOp kernel, unsigned index) {
  return dyn_cast_or_null<HaloAttr>(
      kernel.getArgAttr(index, ObsDialect::HaloAttrHelper::getNameStr()));
}

LogicalResult mlir::obs::verifyHalosExpanded(KernelOp kernel) {
  for (unsigned index = 0, e = kernel.getNumArguments(); index < e; ++index)
    if (getHalo(kernel, index))
      return kernel.emitOpError()
             << "argument " << index
             << " has a halo, which obs-expand-device expands into a global "
                "argument and the reads of its places: run it first";
  return success();
}

LogicalResult mlir::obs::verifyDeviceExpanded(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    if (auto kernel = dyn_cast<KernelOp>(op))
      return failed(verifyHalosExpanded(kernel)) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
    if (auto launch = dyn_cast<LaunchOp>(op); launch && launch.isTiled()) {
      launch.emitOpError() << "tiles 2-D memrefs over a grid of rows and "
                              "columns, which obs-expand-device lowers to a "
                              "grid of one dimension: run it first";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

bool mlir::obs::hasGlobalArguments(KernelOp kernel) {
  for (unsigned index = 0, e = kernel.getNumArguments(); index < e; ++index)
    if (isGlobalArgument(kernel, index))
      return true;
  return false;
}

std::optional<SmallVector<TypedAttr>>
mlir::obs::getAbsentValues(KernelOp kernel, unsigned index) {
  Attribute absent =
      kernel.getArgAttr(index, ObsDialect::AbsentAttrHelper::getNameStr());
  if (!absent)
    return std::nullopt;
  SmallVector<TypedAttr> values;
  if (auto list = dyn_cast<ArrayAttr>(absent))
    for (Attribute value : list)
      values.push_back(cast<TypedAttr>(value));
  else
    values.push_back(cast<TypedAttr>(absent));
  return values;
}

SmallVector<LaunchOperandArray>
mlir::obs::getLaunchOperandArrays(KernelOp kernel) {
  SmallVector<LaunchOperandArray> operands;
  unsigned index = 0;
  for (TypeRange arrays : {kernel.getArgumentTypes(), kernel.getResultTypes()})
    for (Type type : arrays) {
      auto array = cast<ArrType>(type);
      bool chain =
          index < kernel.getNumArguments() && isChainArgument(kernel, index);
      bool whole = index < kernel.getNumArguments()
                       ? chain || isGlobalArgument(kernel, index)
                       : static_cast<bool>(kernel.getGlobalScatter(
                             index - kernel.getNumArguments()));
      for (unsigned c = 0, e = getFlattenedSize(array.getLeafType()); c < e;
           ++c)
        operands.push_back({index, array, c, whole, chain});
      ++index;
    }
  return operands;
}

unsigned mlir::obs::getFirstOperandOf(ArrayRef<LaunchOperandArray> operands,
                                      unsigned array) {
  const auto *first =
      llvm::find_if(operands, [&](const LaunchOperandArray &operand) {
        return operand.array == array;
      });
  assert(first != operands.end() && "the kernel has no such array");
  return first - operands.begin();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::string mlir::obs::detail::formatTypes(TypeRange types) {
  return formatParenthesized(types);
}

LogicalResult mlir::obs::detail::verifyRegionSignature(Operation *op,
                                                       Region &region,
                                                       TypeRange expectedArgs,
                                                       TypeRange expectedYields,
                                                       StringRef what) {
  Block &block = region.front();
  if (block.getArgumentTypes() != expectedArgs)
    return op->emitOpError()
           << "region must take " << formatTypes(expectedArgs) << " (" << what
           << "), but takes " << formatTypes(block.getArgumentTypes());
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << "region must end in 'obs.yield'";
  if (yield.getValues().getTypes() != expectedYields)
    return yield.emitOpError()
           << "must yield " << formatTypes(expectedYields) << " (" << what
           << "), but yields " << formatTypes(yield.getValues().getTypes());
  return success();
}

/// The flattened types of `count` elements of type `element`, concatenated.
static SmallVector<Type> repeatFlattened(Type element, unsigned count) {
  SmallVector<Type> types;
  for (unsigned i = 0; i < count; ++i)
    flattenElementType(element, types);
  return types;
}

LogicalResult mlir::obs::detail::requireEvenLength(Operation *op, ArrType type,
                                                   StringRef why) {
  if (type.getLength() % 2 != 0)
    return op->emitOpError()
           << "needs an array of even length to " << why << ", but " << type
           << " has " << type.getLength() << " elements";
  return success();
}

/// The region argument of a program combinator must be an array of `length`
/// elements of the input's element type; its yield must be one array.
static FailureOr<ArrType> verifySubProgram(Operation *op, Region &region,
                                           ArrType argType, StringRef what) {
  Block &block = region.front();
  if (block.getArgumentTypes() != TypeRange{argType})
    return op->emitOpError()
           << "region must take " << formatTypes(argType) << " (" << what
           << "), but takes " << formatTypes(block.getArgumentTypes());
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << "region must end in 'obs.yield'";
  if (yield.getValues().size() != 1 ||
      !isa<ArrType>(yield.getValues().front().getType()))
    return yield.emitOpError()
           << "must yield one array (the sub-program's result), but yields "
           << formatTypes(yield.getValues().getTypes());
  return arrType(yield.getValues().front());
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  Region *body = state.addRegion();
  Block *entry = new Block();
  body->push_back(entry);
  for (Type input : type.getInputs())
    entry->addArgument(input, state.location);
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (failed(function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildFuncType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name))))
    return failure();
  // `threads` and `strategy` written in the attribute dictionary become the
  // op's properties, and one of the wrong kind would be dropped without a
  // word (`threads = 1.5` ran on a thread per element).
  if (Attribute threads =
          result.attributes.get(getThreadsAttrName(result.name));
      threads && !isa<IntegerAttr>(threads))
    return parser.emitError(loc)
           << "'threads' must be a positive integer (an i64), not " << threads;
  if (Attribute strategy =
          result.attributes.get(getStrategyAttrName(result.name));
      strategy && !isa<WorkStrategyAttr>(strategy))
    return parser.emitError(loc)
           << "'strategy' must be a #obs.strategy<strided|blocked|compact|"
              "cost>, not "
           << strategy;
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult KernelOp::verify() {
  // Rows of no elements are memrefs with a dimension of 0 (memref<4x0xi8>),
  // which the GPU's calling convention cannot pass as a pointer: the PTX
  // lowering failed on them where ref and cpu ran (adversarial run). An
  // array of nothing is !obs.arr<0 x T>.
  auto checkArray = [&](StringRef what, unsigned index,
                        Type type) -> LogicalResult {
    auto array = dyn_cast<ArrType>(type);
    if (!array)
      return emitOpError() << what << " " << index
                           << " must be an !obs.arr, but is " << type;
    if (array.getDepth() > 1 && array.getNumLeaves() == 0)
      return emitOpError() << what << " " << index << " of type " << type
                           << " holds rows of no elements: a kernel passes "
                              "an array of nothing as "
                           << ArrType::get(0, array.getLeafType());
    return success();
  };
  for (auto [index, type] : llvm::enumerate(getArgumentTypes()))
    if (failed(checkArray("argument", index, type)))
      return failure();
  for (auto [index, type] : llvm::enumerate(getResultTypes()))
    if (failed(checkArray("result", index, type)))
      return failure();
  if (getThreads() && *getThreads() > int64_t(kMaxThreads))
    return tagError(emitOpError()
                        << "asks for " << *getThreads()
                        << " threads, more than a block's " << kMaxThreads,
                    ErrorKind::RejectedChoice);
  if (getBody().front().getArgumentTypes() != getArgumentTypes())
    return emitOpError() << "entry block arguments "
                         << formatTypes(getBody().front().getArgumentTypes())
                         << " do not match the signature "
                         << formatTypes(getArgumentTypes());
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  // Arrays live only in obs ops: everything that computes elements goes
  // through PullArrayOpInterface, so other dialects may neither make nor take
  // arrays, nor hide obs ops inside their regions.
  WalkResult result = getBody().walk([&](Operation *op) {
    if (isa_and_present<ObsDialect>(op->getDialect()))
      return WalkResult::advance();
    auto isArray = [](Type type) { return isa<ArrType>(type); };
    if (llvm::any_of(op->getOperandTypes(), isArray) ||
        llvm::any_of(op->getResultTypes(), isArray)) {
      op->emitOpError() << "cannot take or produce !obs.arr values: only obs "
                           "ops compute with arrays";
      return WalkResult::interrupt();
    }
    // Elements are computed on demand, from what an element yields: an op
    // whose effect is not a value it yields (a store, a print) would be
    // dropped on every target, and memory it touched would be invisible to
    // the proof. So a kernel's code is pure. (Ops of unregistered dialects,
    // which only tests allow, say nothing; the lowering's proof rejects
    // them if they reach it.)
    // A callee, pure or not, is code the proof does not follow.
    if (isa<CallOpInterface>(op)) {
      op->emitOpError() << "cannot be in a kernel's code: the proof does not "
                           "follow calls; write the callee's code here";
      return WalkResult::interrupt();
    }
    if (op->isRegistered() && !isMemoryEffectFree(op)) {
      op->emitOpError() << "has memory effects, but a kernel's code is pure: "
                           "its elements are computed from the values they "
                           "yield alone";
      return WalkResult::interrupt();
    }
    // The emitter rebuilds scf.if and scf.for around what it emits.
    if (isa<scf::IfOp, scf::ForOp>(op))
      return WalkResult::advance();
    bool holdsObsOps = false;
    for (Region &region : op->getRegions())
      region.walk([&](Operation *nested) {
        if (isa_and_present<ObsDialect>(nested->getDialect()))
          holdsObsOps = true;
      });
    if (holdsObsOps) {
      op->emitOpError() << "cannot hold obs ops in its regions (only scf.if "
                           "and scf.for may)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted() || failed(verifyElementCode(getBody())))
    return failure();
  if (const ObsDialect::KernelCheck &check =
          cast<ObsDialect>((*this)->getDialect())->getKernelCheck())
    return check(*this);
  return success();
}

LogicalResult KernelOp::checkSharedMemory(uint64_t bytes, uint64_t limit) {
  if (bytes <= limit)
    return success();
  return tagError(emitOpError() << "@" << getSymName() << " needs " << bytes
                                << " bytes of shared memory, more than the "
                                << limit << " a block may use",
                  ErrorKind::CompilerLimit);
}

uint64_t KernelOp::getBlockThreads() {
  if (std::optional<uint64_t> threads = getThreads())
    return *threads;
  uint64_t threads = 1;
  getBody().walk([&](Operation *op) {
    uint64_t length;
    if (auto sync = dyn_cast<SyncOp>(op)) {
      length = sync.getType().getLength();
      if (WorkAssignmentAttrInterface how = sync.getWorkAssignment())
        length = how.getThreadCount(getWorkLength(sync.getType(), how));
    } else if (auto scatter = dyn_cast<ScatterOp>(op)) {
      // A scatter is a stage of its own, which computes its values.
      length = arrType(scatter.getValues()).getLength();
    } else {
      return;
    }
    threads = std::max(threads, length);
  });
  // A global scatter's result is the launch's memref, not a stage.
  for (auto [index, result] : llvm::enumerate(getResultTypes()))
    if (!getGlobalScatter(index))
      threads = std::max(threads, cast<ArrType>(result).getLength());
  return threads;
}

LogicalResult ReturnOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (getResults().getTypes() != kernel.getResultTypes())
    return emitOpError() << "returns " << formatTypes(getResults().getTypes())
                         << " but the kernel's results are "
                         << formatTypes(kernel.getResultTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// SyncOp
//===----------------------------------------------------------------------===//

/// `[block|warp] [fresh|inplace] [strided<T>|blocked<k>|compact<T>]
/// [shared|registers] [plan(...)]`, each optional, the first four in any
/// order: the written properties, then the plan's.
static ParseResult parseSyncProperties(OpAsmParser &parser,
                                       SyncScopeAttr &scope,
                                       PlacementAttr &placement, Attribute &how,
                                       StorageAttr &storage, SyncPlanAttr &plan,
                                       OpAsmParser::UnresolvedOperand &input) {
  SyncProperties written;
  if (parseSyncPropertyList(parser, written))
    return failure();
  scope = written.scope;
  placement = written.placement;
  how = written.how;
  storage = written.storage;
  if (succeeded(parser.parseOptionalKeyword("plan"))) {
    SMLoc loc = parser.getCurrentLocation();
    SyncProperties planned;
    if (parser.parseLParen() || parseSyncPropertyList(parser, planned) ||
        parser.parseRParen())
      return failure();
    if (planned.empty())
      return parser.emitError(loc, "a sync's plan chooses at least one "
                                   "property");
    plan = getSyncPlan(parser.getContext(), planned);
  }
  return parser.parseOperand(input);
}

static void printSyncProperties(OpAsmPrinter &p, SyncOp op, SyncScopeAttr scope,
                                PlacementAttr placement, Attribute how,
                                StorageAttr storage, SyncPlanAttr plan,
                                Value input) {
  // Only what was written or chosen prints: an open property stays open.
  SyncProperties written{scope, placement, how, storage};
  if (!written.empty()) {
    printSyncPropertyList(p, written);
    p << " ";
  }
  if (plan) {
    p << "plan(";
    printSyncPropertyList(p, getPlannedProperties(plan));
    p << ") ";
  }
  p << input;
}

/// Sets `sync`'s plan to `change` applied to its properties (as planned so
/// far), dropping a plan left empty.
static void replan(SyncOp sync,
                   llvm::function_ref<void(SyncProperties &)> change) {
  SyncProperties planned = getPlannedProperties(sync.getPlanAttr());
  change(planned);
  if (SyncPlanAttr plan = getSyncPlan(sync.getContext(), planned))
    sync.setPlanAttr(plan);
  else
    sync.removePlanAttr();
}

void SyncOp::setPlannedScope(SyncScopeAttr scope) {
  replan(*this, [&](SyncProperties &planned) { planned.scope = scope; });
}

void SyncOp::setPlannedPlacement(PlacementAttr placement) {
  replan(*this,
         [&](SyncProperties &planned) { planned.placement = placement; });
}

void SyncOp::setPlannedHow(WorkAssignmentAttrInterface how) {
  replan(*this, [&](SyncProperties &planned) { planned.how = how; });
}

void SyncOp::setPlannedStorage(StorageAttr storage) {
  replan(*this, [&](SyncProperties &planned) { planned.storage = storage; });
}

bool SyncOp::isYieldedByRepeat() {
  return isa_and_present<RepeatOp>((*this)->getParentOp()) &&
         llvm::any_of(getResult().getUsers(),
                      [](Operation *user) { return isa<YieldOp>(user); });
}

std::optional<std::string> SyncOp::whyNotRegisters(uint64_t blockThreads) {
  if (getType().getShape().size() > 1)
    return std::string("its elements are arrays, and registers hold scalars "
                       "and tuples of them");
  if (isOutputOnly())
    return std::string("its array is only returned, so its stage writes the "
                       "kernel's results in global memory");
  if (isYieldedByRepeat())
    return std::string("the repeat body yields its array, which the next "
                       "iteration reads from memory");
  WorkAssignmentAttrInterface how = getWorkAssignment();
  if (isa_and_present<CompactAttr>(how))
    return std::string("compact work assignments deal out positions in a "
                       "list, which registers cannot be indexed by");
  uint64_t rounds = getRoundsPerThread(blockThreads);
  if (rounds > kMostRegisterRounds)
    return "each thread computes " + std::to_string(rounds) +
           " rounds of it, and registers hold at most " +
           std::to_string(kMostRegisterRounds);
  return std::nullopt;
}

uint64_t SyncOp::getRoundsPerThread(uint64_t blockThreads) {
  WorkAssignmentAttrInterface how = getWorkAssignment();
  if (!how)
    how = StridedAttr::get(getContext(), blockThreads);
  return how.getRoundCount(getType().getLength());
}

std::optional<std::string> SyncOp::whyNotShuffle(uint64_t blockThreads) {
  if (std::optional<std::string> why = whyNotRegisters(blockThreads))
    return why;
  for (Type scalar : flattenElementType(getType().getLeafType()))
    if (!isa<IntegerType, FloatType>(scalar) ||
        scalar.getIntOrFloatBitWidth() > 64) {
      std::string why;
      llvm::raw_string_ostream(why)
          << "its elements hold " << scalar
          << ", and a shuffle carries integers and floats of at most 64 bits";
      return why;
    }
  return std::nullopt;
}

uint64_t SyncOp::getThreadsNeeded() {
  WorkAssignmentAttrInterface how = getWorkAssignment();
  if (!how)
    return 0;
  if (auto strided = dyn_cast<StridedAttr>(how))
    return strided.getThreads();
  if (auto compact = dyn_cast<CompactAttr>(how))
    return compact.getThreads();
  return how.getThreadCount(getWorkLength(getType(), how));
}

LogicalResult SyncOp::verify() {
  // A sync is a stage of a program: every region between it and its kernel
  // must be a sub-program, never an element function.
  Operation *parent = (*this)->getParentOp();
  while (parent && !isa<KernelOp>(parent)) {
    if (!isa<TwoOp, IlvOp, OneOp, RepeatOp>(parent))
      return emitOpError() << "may only appear in a kernel or in the "
                              "sub-program of two, ilv, one or repeat inside "
                              "one, not inside '"
                           << parent->getName() << "'";
    parent = parent->getParentOp();
  }
  // The plan chooses only what the user left open: a written property is
  // kept or the kernel rejected, never replaced.
  if (SyncPlanAttr plan = getPlanAttr()) {
    auto clash = [&](StringRef property) {
      return emitOpError() << "plans its " << property
                           << ", which is written: a pass may choose only "
                              "the properties the user left open";
    };
    if (plan.getScope() && getScopeAttr())
      return clash("scope");
    if (plan.getPlacement() && getPlacementAttr())
      return clash("placement");
    if (plan.getHow() && getHowAttr())
      return clash("work assignment");
    if (plan.getStorage() && getStorageAttr())
      return clash("storage");
    if (plan.isEmpty())
      return emitOpError() << "has an empty plan";
  }
  // An array kept by its threads has no buffer and no barrier.
  if (isKeptByThreads()) {
    StringRef where = getStorageOrDefault() == Storage::Registers
                          ? "in registers"
                          : "in shuffles";
    if (getEffectiveScopeAttr())
      return tagError(emitOpError() << "keeps its array " << where
                                    << ", which need no barrier, but has a "
                                       "scope",
                      ErrorKind::RejectedChoice);
    if (getEffectivePlacementAttr())
      return tagError(emitOpError() << "keeps its array " << where
                                    << ", which have no buffer to place it "
                                       "in, but has a placement",
                      ErrorKind::RejectedChoice);
  }
  WorkAssignmentAttrInterface how = getWorkAssignment();
  auto kernel = dyn_cast_if_present<KernelOp>(parent);
  if (!how || !kernel || !kernel.getThreads())
    return success();
  uint64_t length = getWorkLength(getType(), how);
  uint64_t needed = getThreadsNeeded();
  if (needed > uint64_t(*kernel.getThreads()))
    return tagError(emitOpError()
                        << "work assignment " << how << " needs " << needed
                        << " threads to cover " << length
                        << (isDealtOutByLeaf(getType(), how) ? " leaves"
                                                             : " elements")
                        << ", but the kernel has " << *kernel.getThreads(),
                    ErrorKind::RejectedChoice);
  return success();
}

//===----------------------------------------------------------------------===//
// Element-region ops
//===----------------------------------------------------------------------===//

LogicalResult GenerateOp::verifyRegions() {
  Type element = arrType(getResult()).getElementType();
  return verifyRegionSignature(*this, getBody(), IndexType::get(getContext()),
                               flattenElementType(element),
                               "the index, to the element");
}

LogicalResult MapOp::verifyRegions() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one array (obs.generate makes "
                            "arrays from nothing)";
  uint64_t length = arrType(getResult()).getLength();
  SmallVector<Type> argTypes;
  for (Value input : getInputs()) {
    if (arrType(input).getLength() != length)
      return emitOpError() << "maps arrays of one length to an array of that "
                              "length, but has "
                           << input.getType() << " and result "
                           << getResult().getType();
    flattenElementType(arrType(input).getElementType(), argTypes);
  }
  return verifyRegionSignature(
      *this, getBody(), argTypes,
      flattenElementType(arrType(getResult()).getElementType()),
      "the elements of the inputs, to the element of the result");
}

static LogicalResult verifyNeighbourOp(Operation *op, Region &body, Value input,
                                       unsigned results, StringRef why,
                                       StringRef what) {
  ArrType type = arrType(input);
  if (failed(requireEvenLength(op, type, why)))
    return failure();
  return verifyRegionSignature(
      op, body, repeatFlattened(type.getElementType(), 2),
      repeatFlattened(type.getElementType(), results), what);
}

LogicalResult EvensOp::verifyRegions() {
  return verifyNeighbourOp(*this, getBody(), getInput(), 2,
                           "pair every element",
                           "two elements, to two elements");
}

LogicalResult OddsOp::verifyRegions() {
  return verifyNeighbourOp(*this, getBody(), getInput(), 2,
                           "pass the first and last elements through",
                           "two elements, to two elements");
}

LogicalResult FanOp::verifyRegions() {
  return verifyNeighbourOp(*this, getBody(), getInput(), 1,
                           "split it into halves",
                           "the last element of the first half and an "
                           "element of the second, to one element");
}

LogicalResult ReduceOp::verifyRegions() {
  ArrType type = arrType(getInput());
  if (type.getLength() == 0)
    return emitOpError() << "cannot reduce an empty array: it has no first "
                            "element to start from";
  if (isa<ArrType>(type.getElementType()))
    return emitOpError() << "reduces arrays of scalars or tuples, not " << type;
  SmallVector<Type> element = flattenElementType(type.getElementType());
  if (getResults().getTypes() != TypeRange(element))
    return emitOpError() << "results must be the flattened element "
                         << formatTypes(element) << ", but are "
                         << formatTypes(getResults().getTypes());
  return verifyRegionSignature(
      *this, getBody(), repeatFlattened(type.getElementType(), 2), element,
      "the accumulator and the next element, to the "
      "new accumulator");
}

//===----------------------------------------------------------------------===//
// Networks: `network(name)`, or nothing
//===----------------------------------------------------------------------===//

/// `keyword(value)` of an optional enum attribute: a network, a combine.
template <typename EnumAttrT>
static ParseResult parseEnumClause(OpAsmParser &parser, EnumAttrT &attribute,
                                   StringRef keyword, StringRef what) {
  using Enum = decltype(std::declval<EnumAttrT>().getValue());
  if (failed(parser.parseOptionalKeyword(keyword)))
    return success();
  StringRef name;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLParen() || parser.parseKeyword(&name) ||
      parser.parseRParen())
    return failure();
  std::optional<Enum> value = symbolizeEnum<Enum>(name);
  if (!value) {
    std::string known;
    // The cases are numbered from 0; an invalid value stringifies as "".
    for (uint32_t i = 0; !stringifyEnum(static_cast<Enum>(i)).empty(); ++i)
      known += (i ? ", " : "") + stringifyEnum(static_cast<Enum>(i)).str();
    return parser.emitError(loc) << "unknown " << what << " '" << name
                                 << "': expected one of " << known;
  }
  attribute = EnumAttrT::get(parser.getContext(), *value);
  return success();
}

template <typename EnumAttrT>
static void printEnumClause(OpAsmPrinter &p, EnumAttrT attribute,
                            StringRef keyword) {
  if (attribute)
    p << keyword << "(" << stringifyEnum(attribute.getValue()) << ")";
}

template <typename EnumAttrT>
static ParseResult parseNetwork(OpAsmParser &parser, EnumAttrT &network) {
  return parseEnumClause(parser, network, "network", "network");
}

template <typename EnumAttrT>
static void printNetwork(OpAsmPrinter &p, Operation *, EnumAttrT network) {
  printEnumClause(p, network, "network");
}

static ParseResult parseCombine(OpAsmParser &parser,
                                ScatterCombineAttr &combine) {
  return parseEnumClause(parser, combine, "combine", "combine");
}

static void printCombine(OpAsmPrinter &p, Operation *,
                         ScatterCombineAttr combine) {
  printEnumClause(p, combine, "combine");
}

/// scan and sort work on arrays of scalars or tuples; a sorting network
/// needs a power-of-two length, which its recursion halves down to one
/// (scan networks are defined for every length).
static LogicalResult verifyNetworkInput(Operation *op, ArrType type,
                                        std::optional<StringRef> network,
                                        StringRef verb,
                                        bool powerOfTwo = false) {
  if (isa<ArrType>(type.getElementType()))
    return op->emitOpError()
           << verb << " arrays of scalars or tuples, not " << type;
  uint64_t length = type.getLength();
  if (network && powerOfTwo && !llvm::has_single_bit(length))
    return op->emitOpError()
           << "network " << *network << " needs a power-of-two length, but "
           << type << " has " << length << " elements";
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  ArrType type = arrType(getInput());
  if (failed(verifyNetworkInput(
          *this, type,
          getNetwork() ? std::optional(stringifyEnum(*getNetwork()))
                       : std::nullopt,
          "scans")))
    return failure();
  return verifyRegionSignature(*this, getBody(),
                               repeatFlattened(type.getElementType(), 2),
                               flattenElementType(type.getElementType()),
                               "an earlier and a later element, to their "
                               "combination");
}

LogicalResult SortOp::verifyRegions() {
  ArrType type = arrType(getInput());
  if (failed(verifyNetworkInput(
          *this, type,
          getNetwork() ? std::optional(stringifyEnum(*getNetwork()))
                       : std::nullopt,
          "sorts", /*powerOfTwo=*/true)))
    return failure();
  Type i1 = IntegerType::get(getContext(), 1);
  return verifyRegionSignature(*this, getBody(),
                               repeatFlattened(type.getElementType(), 2), i1,
                               "two elements, to whether the first must come "
                               "before the second");
}

//===----------------------------------------------------------------------===//
// Program combinators
//===----------------------------------------------------------------------===//

/// two and ilv: P from N/2 elements to M; the result has 2M.
static LogicalResult verifyTwoLike(Operation *op, Region &body, Value input,
                                   Value result, StringRef why) {
  ArrType inputType = arrType(input);
  if (failed(requireEvenLength(op, inputType, why)))
    return failure();
  FailureOr<ArrType> produced = verifySubProgram(
      op, body, inputType.withLength(inputType.getLength() / 2),
      "half of the input, as an array");
  if (failed(produced))
    return failure();
  ArrType expected = produced->withLength(2 * produced->getLength());
  if (result.getType() != expected)
    return op->emitOpError()
           << "result must be " << expected << ", two of what the region "
           << "yields, but is " << result.getType();
  return success();
}

LogicalResult TwoOp::verifyRegions() {
  return verifyTwoLike(*this, getBody(), getInput(), getResult(),
                       "split it into halves");
}

LogicalResult IlvOp::verifyRegions() {
  return verifyTwoLike(*this, getBody(), getInput(), getResult(),
                       "split it into even- and odd-indexed elements");
}

LogicalResult OneOp::verifyRegions() {
  ArrType inputType = arrType(getInput());
  if (failed(requireEvenLength(*this, inputType, "split it into halves")))
    return failure();
  uint64_t half = inputType.getLength() / 2;
  FailureOr<ArrType> produced =
      verifySubProgram(*this, getBody(), inputType.withLength(half),
                       "the second half, as an "
                       "array");
  if (failed(produced))
    return failure();
  if (produced->getElementType() != inputType.getElementType())
    return emitOpError() << "region must keep the element type "
                         << inputType.getElementType() << ", but yields "
                         << *produced;
  ArrType expected = inputType.withLength(half + produced->getLength());
  if (getResult().getType() != expected)
    return emitOpError() << "result must be " << expected
                         << ", the first half followed by what the region "
                            "yields, but is "
                         << getResult().getType();
  return success();
}

LogicalResult RepeatOp::verifyRegions() {
  FailureOr<ArrType> produced = verifySubProgram(
      *this, getBody(), arrType(getInput()), "the array, as an array");
  if (failed(produced))
    return failure();
  if (*produced != getInput().getType())
    return emitOpError() << "region must yield what it takes, "
                         << getInput().getType() << ", but yields "
                         << *produced;
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp's syntax (its verifiers are in ObsLaunchOps.cpp)
//===----------------------------------------------------------------------===//

/// `grid(2048)`, `grid(%blocks)`, or `grid(32, 32)` (rows and columns of
/// blocks that tile 2-D memrefs).
static ParseResult
parseGrid(OpAsmParser &parser,
          std::optional<OpAsmParser::UnresolvedOperand> &value,
          IntegerAttr &constant, IntegerAttr &columns) {
  // Rows and columns tile 2-D memrefs by their static shapes: a grid
  // known only at run time is one number of blocks.
  auto runTimeRows = [&]() {
    return parser.emitError(parser.getCurrentLocation(),
                            "a grid of rows and columns takes constant sizes, "
                            "grid(R, C); a grid known only at run time is one "
                            "number of blocks, grid(%blocks)");
  };
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult parsedValue = parser.parseOptionalOperand(operand);
  if (parsedValue.has_value()) {
    if (failed(*parsedValue))
      return failure();
    value = operand;
    if (succeeded(parser.parseOptionalComma()))
      return runTimeRows();
    return success();
  }
  int64_t grid;
  if (parser.parseInteger(grid))
    return failure();
  constant = parser.getBuilder().getI64IntegerAttr(grid);
  if (succeeded(parser.parseOptionalComma())) {
    int64_t across;
    OptionalParseResult parsedColumns = parser.parseOptionalInteger(across);
    if (!parsedColumns.has_value())
      return runTimeRows();
    if (failed(*parsedColumns))
      return failure();
    columns = parser.getBuilder().getI64IntegerAttr(across);
  }
  return success();
}

static void printGrid(OpAsmPrinter &printer, Operation *, Value value,
                      IntegerAttr constant, IntegerAttr columns) {
  if (value)
    printer << value;
  else
    printer << constant.getInt();
  if (columns)
    printer << ", " << columns.getInt();
}

#define GET_OP_CLASSES
#include "Obs/Dialect/Obs/ObsOps.cpp.inc"
