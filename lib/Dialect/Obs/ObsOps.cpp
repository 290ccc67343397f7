//===- ObsOps.cpp - obs operations: verifiers, types, syntax, folds -------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/Formatting.h"
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

bool mlir::obs::isSharedBufferOwner(Operation *op) {
  if (auto scatter = dyn_cast<ScatterOp>(op))
    return !scatter.getGlobal();
  return isa<SyncOp, RepeatOp>(op);
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
      bool whole = index < kernel.getNumArguments()
                       ? isGlobalArgument(kernel, index)
                       : static_cast<bool>(kernel.getGlobalScatter(
                             index - kernel.getNumArguments()));
      for (unsigned c = 0, e = getFlattenedSize(array.getLeafType()); c < e;
           ++c)
        operands.push_back({index, array, c, whole});
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

/// Prints types as `(t1, t2)` for messages; one type is a range of one.
static std::string formatTypes(TypeRange types) {
  return formatParenthesized(types);
}

/// Checks the signature of a single-block region: its arguments and what its
/// `obs.yield` yields. `what` says in the user's terms what the region is.
static LogicalResult verifyRegionSignature(Operation *op, Region &region,
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

static LogicalResult requireEvenLength(Operation *op, ArrType type,
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
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult KernelOp::verify() {
  for (auto [index, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<ArrType>(type))
      return emitOpError() << "argument " << index << " must be an !obs.arr, "
                           << "but is " << type;
  for (auto [index, type] : llvm::enumerate(getResultTypes()))
    if (!isa<ArrType>(type))
      return emitOpError() << "result " << index << " must be an !obs.arr, "
                           << "but is " << type;
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

/// Element code holds only what every target computes alike and the proof
/// models: arith, math and ub ops, and scf's structured control flow
/// (`scf.if`, `scf.for`, `scf.while`). Anything else is an error at the op
/// (fail closed): a gpu op would compute with the thread or block that runs
/// it, which obs's code never sees, a call hides code from the proof, and
/// an op of another dialect may mean something no target runs. Ops of
/// unregistered dialects, which only tests allow, pass here and are
/// rejected by the proof if they reach it.
static LogicalResult verifyElementOp(Operation *op) {
  // math by its name: the dialect does not depend on it (a kernel that
  // uses it has it loaded).
  if (!op->isRegistered() ||
      isa_and_present<ObsDialect, arith::ArithDialect, ub::UBDialect>(
          op->getDialect()) ||
      op->getDialect()->getNamespace() == "math" ||
      isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::ConditionOp, scf::YieldOp>(
          op))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "cannot be in element code, which holds only "
                               "arith, math, ub, scf.if, scf.for, scf.while "
                               "and obs ops: ";
  StringRef name = op->getName().getStringRef();
  if (name == "gpu.block_id")
    diag << "the block's index is obs.block_id, the same in every target";
  else if (name == "gpu.thread_id" || name == "gpu.lane_id")
    diag << "which thread computes an element is its sync's work "
            "assignment, so compute from the element's index";
  else if (name == "gpu.shuffle")
    diag << "threads exchange values through an array kept in shuffles "
            "(obs.sync shuffle), which the proof checks";
  else if (isa<CallOpInterface>(op))
    diag << "the proof does not follow calls; write the callee's code here";
  else
    diag << "the proof models nothing else";
  return tagError(diag, ErrorKind::UnsafeProgram);
}

std::optional<ConstantIntRanges> mlir::obs::inferIntegerRange(
    Value value,
    function_ref<std::optional<ConstantIntRanges>(Value)> leafRange,
    unsigned depth) {
  unsigned width = value.getType().isIndex()
                       ? IndexType::kInternalStorageBitWidth
                       : value.getType().getIntOrFloatBitWidth();
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return ConstantIntRanges::constant(constant.sextOrTrunc(width));
  if (std::optional<ConstantIntRanges> leaf = leafRange(value))
    return leaf;
  auto inferring = value.getDefiningOp<InferIntRangeInterface>();
  if (!inferring || depth == 0 || inferring->getNumRegions())
    return std::nullopt;
  SmallVector<ConstantIntRanges> operands;
  for (Value operand : inferring->getOperands()) {
    if (!operand.getType().isIntOrIndex())
      return std::nullopt;
    std::optional<ConstantIntRanges> range =
        inferIntegerRange(operand, leafRange, depth - 1);
    if (!range)
      return std::nullopt;
    operands.push_back(*range);
  }
  std::optional<ConstantIntRanges> result;
  inferring.inferResultRanges(operands,
                              [&](Value produced, const ConstantIntRanges &r) {
                                if (produced == value)
                                  result = r;
                              });
  return result;
}

LogicalResult mlir::obs::verifyElementCode(Region &region) {
  WalkResult result = region.walk([](Operation *nested) {
    return failed(verifyElementOp(nested)) ? WalkResult::interrupt()
                                           : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
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
  if (result.wasInterrupted())
    return failure();
  return verifyElementCode(getBody());
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
        length = how.getThreadCount(length);
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
  if (!how)
    how = StridedAttr::get(getContext(), blockThreads);
  uint64_t rounds = how.getRoundCount(getType().getLength());
  if (rounds > kMostRegisterRounds)
    return "each thread computes " + std::to_string(rounds) +
           " rounds of it, and registers hold at most " +
           std::to_string(kMostRegisterRounds);
  return std::nullopt;
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
  return how.getThreadCount(getType().getLength());
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
  uint64_t length = getType().getLength();
  uint64_t needed = getThreadsNeeded();
  if (needed > uint64_t(*kernel.getThreads()))
    return tagError(emitOpError() << "work assignment " << how << " needs "
                                  << needed << " threads to cover " << length
                                  << " elements, but the kernel has "
                                  << *kernel.getThreads(),
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
// LaunchOp
//===----------------------------------------------------------------------===//

SmallVector<AffineMap> LaunchOp::getLayoutsOrChunks(KernelOp kernel) {
  if (ArrayAttr layouts = getLayoutsAttr())
    return llvm::map_to_vector(layouts, [](Attribute attr) {
      return cast<AffineMapAttr>(attr).getValue();
    });
  MLIRContext *context = getContext();
  AffineExpr block = getAffineDimExpr(0, context);
  AffineExpr element = getAffineDimExpr(1, context);
  return llvm::map_to_vector(
      getLaunchOperandArrays(kernel), [&](const LaunchOperandArray &operand) {
        // Every block sees a whole operand alike.
        if (operand.whole)
          return AffineMap::get(2, 0, element);
        return AffineMap::get(
            2, 0,
            block * static_cast<int64_t>(operand.type.getLength()) + element);
      });
}

FailureOr<SmallVector<std::pair<LaunchOp, KernelOp>>>
mlir::obs::collectLaunchesOfKernelsIn(Operation *module) {
  SmallVector<std::pair<LaunchOp, KernelOp>> launches;
  SymbolTableCollection symbolTables;
  WalkResult result = module->walk([&](LaunchOp launch) {
    auto kernel = symbolTables.lookupNearestSymbolFrom<KernelOp>(
        launch, launch.getKernelAttr());
    if (!kernel || kernel->getParentOp() != module) {
      launch.emitOpError()
          << "launches @" << launch.getKernel()
          << ", which is not an obs.kernel of the module being converted (a "
             "nested module's kernels and launches are converted on their "
             "own)";
      return WalkResult::interrupt();
    }
    launches.emplace_back(launch, kernel);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return launches;
}

/// `grid(2048)` or `grid(%blocks)`.
static ParseResult
parseGrid(OpAsmParser &parser,
          std::optional<OpAsmParser::UnresolvedOperand> &value,
          IntegerAttr &constant) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult parsedValue = parser.parseOptionalOperand(operand);
  if (parsedValue.has_value()) {
    if (failed(*parsedValue))
      return failure();
    value = operand;
    return success();
  }
  int64_t grid;
  if (parser.parseInteger(grid))
    return failure();
  constant = parser.getBuilder().getI64IntegerAttr(grid);
  return success();
}

static void printGrid(OpAsmPrinter &printer, Operation *, Value value,
                      IntegerAttr constant) {
  if (value)
    printer << value;
  else
    printer << constant.getInt();
}

void LaunchOp::build(OpBuilder &builder, OperationState &state,
                     StringRef kernel, int64_t grid, ValueRange inputs,
                     ValueRange outputs) {
  build(builder, state, kernel, /*dynamic_grid=*/Value(),
        builder.getI64IntegerAttr(grid), inputs, outputs, ArrayAttr());
}

void LaunchOp::build(OpBuilder &builder, OperationState &state,
                     StringRef kernel, Value grid, ValueRange inputs,
                     ValueRange outputs) {
  build(builder, state, kernel, grid, IntegerAttr(), inputs, outputs,
        ArrayAttr());
}

bool LaunchOp::hasDynamicSizes() {
  if (getDynamicGrid())
    return true;
  auto dynamic = [](Value memref) {
    return !cast<MemRefType>(memref.getType()).hasStaticShape();
  };
  return llvm::any_of(getInputs(), dynamic) ||
         llvm::any_of(getOutputs(), dynamic);
}

Value LaunchOp::buildGridSize(OpBuilder &builder) {
  if (Value grid = getDynamicGrid())
    return grid;
  return arith::ConstantIndexOp::create(builder, getLoc(),
                                        *getStaticGridSize());
}

LogicalResult LaunchOp::verify() {
  if (static_cast<bool>(getDynamicGrid()) == static_cast<bool>(getGridAttr()))
    return emitOpError() << "needs its grid as a constant or as an index "
                            "value, not both";
  auto checkMemRefs = [&](StringRef which,
                          ValueRange memrefs) -> LogicalResult {
    for (auto [index, memref] : llvm::enumerate(memrefs)) {
      auto type = cast<MemRefType>(memref.getType());
      if (llvm::any_of(type.getShape().drop_front(), ShapedType::isDynamic))
        return emitOpError()
               << which << " " << index << " has type " << type
               << ": only the outermost dimension of a launch's memref may "
                  "be dynamic (it holds the blocks' chunks)";
    }
    return success();
  };
  if (failed(checkMemRefs("ins", getInputs())) ||
      failed(checkMemRefs("outs", getOutputs())))
    return failure();
  if (getLayoutsAttr() && hasDynamicSizes())
    return emitOpError() << "has layouts and sizes known only at run time: "
                            "layouts place blocks in memrefs of static sizes";
  return success();
}

bool mlir::obs::isRowMajorAtAnyOffset(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (strides[d] != expected)
      return false;
    if (d > 0 && ShapedType::isDynamic(type.getDimSize(d)))
      return false;
    if (d > 0)
      expected *= type.getDimSize(d);
  }
  return true;
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError() << "launches @" << getKernel()
                         << ", which is not an obs.kernel";
  // Each array is passed as one memref per scalar of its element, holding
  // the chunks of all blocks, or as laid out. With sizes known at run time,
  // the outermost dimension may have any length.
  bool laidOut = static_cast<bool>(getLayoutsAttr());
  bool dynamic = hasDynamicSizes();
  std::optional<int64_t> grid = getStaticGridSize();
  // The memref each operand must be (getLaunchOperandArrays says which
  // array and scalar it stores): a global scatter's result is one memref
  // for every block.
  struct Slot {
    LaunchOperandArray operand;
    MemRefType expected;
  };
  SmallVector<Slot> slots;
  for (const LaunchOperandArray &operand : getLaunchOperandArrays(kernel)) {
    SmallVector<int64_t> shape;
    for (uint64_t length : operand.type.getShape())
      shape.push_back(static_cast<int64_t>(length));
    if (dynamic)
      shape[0] = ShapedType::kDynamic;
    else if (!operand.whole)
      shape[0] *= *grid;
    Type scalar =
        flattenElementType(operand.type.getLeafType())[operand.component];
    slots.push_back({operand, MemRefType::get(shape, scalar)});
  }
  // With layouts or dynamic sizes, the outermost dimension may differ; with
  // dynamic sizes, a memref may also start at an offset known only at run
  // time (a subview at a run-time place), row-major as the identity.
  auto matches = [&](MemRefType actual, MemRefType expected) {
    if (!laidOut && !dynamic)
      return actual == expected;
    return actual.getElementType() == expected.getElementType() &&
           actual.getRank() == expected.getRank() &&
           (dynamic ? isRowMajorAtAnyOffset(actual)
                    : actual.getLayout().isIdentity()) &&
           actual.getShape().drop_front() == expected.getShape().drop_front();
  };
  auto check = [&](StringRef which, ValueRange memrefs,
                   ArrayRef<Slot> slots) -> LogicalResult {
    bool ok = memrefs.size() == slots.size();
    for (auto [memref, slot] : llvm::zip(memrefs, slots))
      ok &= matches(cast<MemRefType>(memref.getType()), slot.expected);
    if (ok)
      return success();
    SmallVector<Type> expected = llvm::map_to_vector(
        slots, [](const Slot &slot) -> Type { return slot.expected; });
    InFlightDiagnostic diag = emitOpError() << "passes " << which << " "
                                            << formatTypes(memrefs.getTypes())
                                            << ", but @" << getKernel();
    if (grid && !dynamic)
      diag << " over " << *grid << " blocks";
    diag << " needs " << formatTypes(expected);
    if (laidOut)
      diag << " (with layouts, the outermost dimensions may differ)";
    else if (dynamic)
      diag << " (the outermost dimensions may have any length)";
    return diag;
  };
  auto firstOutput = llvm::find_if(slots, [&](const Slot &slot) {
    return slot.operand.array >= kernel.getNumArguments();
  });
  ArrayRef<Slot> inputs(slots.begin(), firstOutput),
      outputs(firstOutput, slots.end());
  if (failed(check("ins", getInputs(), inputs)) ||
      failed(check("outs", getOutputs(), outputs)))
    return failure();
  if (laidOut)
    for (auto [index, slot] : llvm::enumerate(inputs))
      if (slot.operand.whole) {
        InFlightDiagnostic diag =
            emitOpError() << "has layouts, but ins " << index
                          << " holds an 'obs.global' argument, which every "
                             "block sees whole: launch it without layouts";
        diag.attachNote(kernel.getLoc()) << "the kernel";
        return diag;
      }
  if (laidOut)
    for (auto [index, slot] : llvm::enumerate(outputs))
      if (slot.operand.whole) {
        InFlightDiagnostic diag =
            emitOpError()
            << "has layouts, but outs " << index << " holds a global "
            << "obs.scatter's result, which every block sees whole: launch "
               "it without layouts";
        diag.attachNote(
            kernel
                .getGlobalScatter(slot.operand.array - kernel.getNumArguments())
                .getLoc())
            << "the scatter";
        return diag;
      }
  if (dynamic) {
    // A partial block reads its absent elements as the kernel says.
    for (unsigned index = 0, e = kernel.getNumArguments(); index < e; ++index)
      if (!kernel.getArgAttr(index,
                             ObsDialect::AbsentAttrHelper::getNameStr())) {
        InFlightDiagnostic diag =
            emitOpError()
            << "has sizes known only at run time, so its last blocks may be "
               "partial, but argument "
            << index << " of @" << getKernel() << " does not say what its "
            << "absent elements read as: give it an 'obs.absent' value";
        diag.attachNote(kernel.getLoc()) << "the kernel";
        return diag;
      }
    return success();
  }
  if (!laidOut)
    return success();

  // Layouts: one map (b, i) -> (index) per memref, shared within an array.
  SmallVector<Value> memrefs(getInputs());
  llvm::append_range(memrefs, getOutputs());
  SmallVector<AffineMap> layouts = getLayoutsOrChunks(kernel);
  if (layouts.size() != memrefs.size())
    return emitOpError() << "has " << layouts.size() << " layouts for "
                         << memrefs.size() << " memrefs: give one per memref";
  for (auto [index, layout] : llvm::enumerate(layouts)) {
    if (layout.getNumDims() != 2 || layout.getNumSymbols() != 0 ||
        layout.getNumResults() != 1)
      return emitOpError() << "layout " << index << " must be a map "
                           << "(block, element) -> (index), but is "
                           << AffineMapAttr::get(layout);
    if (index > 0 &&
        slots[index].operand.array == slots[index - 1].operand.array &&
        layout != layouts[index - 1])
      return emitOpError() << "layouts " << index - 1 << " and " << index
                           << " differ, but their memrefs store one array: "
                              "give the memrefs of an array one layout";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ScatterOp
//===----------------------------------------------------------------------===//

void ScatterOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getGlobal())
    effects.emplace_back(MemoryEffects::Write::get());
}

Speculation::Speculatability ScatterOp::getSpeculatability() {
  return getGlobal() ? Speculation::NotSpeculatable : Speculation::Speculatable;
}

LogicalResult ScatterOp::verify() {
  ArrType values = arrType(getValues()), places = arrType(getPlaces());
  ArrType result = getType();
  if (values.getLength() != places.getLength())
    return emitOpError() << "writes one value per place, but has "
                         << values.getLength() << " values and "
                         << places.getLength() << " places";
  Type element = values.getElementType();
  if (!element.isIntOrFloat())
    return emitOpError() << "scatters scalars, not " << element;
  if (!places.getElementType().isInteger())
    return emitOpError() << "takes places that are integers, not "
                         << places.getElementType();
  if (result.getElementType() != element)
    return emitOpError() << "has a result of " << result.getElementType()
                         << " elements, but scatters " << element;
  if (static_cast<bool>(getInitialAttr()) == getGlobal())
    return emitOpError() << "needs either an `initial` value (a result in "
                            "shared memory) or `global` (a result that is "
                            "the launch's memref), and only one";
  if (getInitialAttr() && getInitialAttr().getType() != element)
    return emitOpError() << "has an initial value of type "
                         << getInitialAttr().getType()
                         << ", not the element type " << element;
  if (getGlobal()) {
    // Its result is the memref a launch passes for one of the kernel's
    // results: nothing inside the kernel may read it.
    Value result = getResult();
    auto ret = dyn_cast<ReturnOp>(getOperation()->getBlock()->getTerminator());
    if (!result.hasOneUse() || !ret || *result.user_begin() != ret)
      return emitOpError() << "is `global`, so its result must be returned "
                              "by its kernel, once, and have no other use";
  }
  if (std::optional<ScatterCombine> combine = getCombine();
      combine && isa<FloatType>(element) &&
      (*combine == ScatterCombine::Or || *combine == ScatterCombine::And))
    return emitOpError() << "cannot combine floats with `"
                         << stringifyScatterCombine(*combine)
                         << "`: `add`, `min` and `max` apply to floats";
  return success();
}

std::pair<Value, Value> ScatterOp::buildPlace(OpBuilder &builder, Location loc,
                                              Value place) {
  Value index =
      arith::IndexCastOp::create(builder, loc, builder.getIndexType(), place);
  // A negative place is past the end as an unsigned index.
  Value length =
      arith::ConstantIndexOp::create(builder, loc, getType().getLength());
  Value inside = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       index, length);
  return {index, inside};
}

std::pair<Value, Value> ScatterOp::buildPlace(OpBuilder &builder, Location loc,
                                              Value place, Value length) {
  auto [index, inside] = buildPlace(builder, loc, place);
  Value present = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        index, length);
  return {index, arith::AndIOp::create(builder, loc, inside, present)};
}

arith::AtomicRMWKind ScatterOp::getAtomicKind() {
  bool isFloat = isa<FloatType>(getType().getElementType());
  switch (*getCombine()) {
  case ScatterCombine::Add:
    return isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  case ScatterCombine::Min:
    return isFloat ? arith::AtomicRMWKind::minimumf
                   : arith::AtomicRMWKind::mins;
  case ScatterCombine::Max:
    return isFloat ? arith::AtomicRMWKind::maximumf
                   : arith::AtomicRMWKind::maxs;
  case ScatterCombine::Or:
    return arith::AtomicRMWKind::ori;
  case ScatterCombine::And:
    return arith::AtomicRMWKind::andi;
  }
  llvm_unreachable("unknown scatter combine");
}

//===----------------------------------------------------------------------===//
// BlockIdOp, ExtentOp
//===----------------------------------------------------------------------===//

LogicalResult BlockIdOp::verify() {
  if (!(*this)->getParentOfType<KernelOp>())
    return emitOpError() << "belongs in an obs.kernel";
  return success();
}

LogicalResult ExtentOp::verify() {
  auto argument = dyn_cast<BlockArgument>(getArray());
  if (!argument ||
      !isa_and_present<KernelOp>(argument.getOwner()->getParentOp()))
    return emitOpError() << "needs an argument of its kernel: only the "
                            "arrays a launch passes in have a present part";
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops: inferred result types
//===----------------------------------------------------------------------===//

/// Builds an array type, or reports (at `location`) that it is too large.
static FailureOr<ArrType> makeArrType(std::optional<Location> location,
                                      uint64_t length, Type element) {
  uint64_t innerLeaves = 1;
  if (auto inner = dyn_cast<ArrType>(element))
    innerLeaves = inner.getNumLeaves();
  if (innerLeaves != 0 && length > kMaxArrayLeaves / innerLeaves) {
    if (location)
      tagError(emitError(*location)
                   << "result of " << length << " x " << innerLeaves
                   << " elements is larger than the limit of "
                   << kMaxArrayLeaves << " elements",
               ErrorKind::CompilerLimit);
    return failure();
  }
  return ArrType::get(element.getContext(), length, element);
}

static LogicalResult evenOrError(std::optional<Location> location,
                                 StringRef opName, ArrType type,
                                 StringRef why) {
  if (type.getLength() % 2 == 0)
    return success();
  return emitOptionalError(
      location, "'", opName, "' op needs an array of even length to ", why,
      ", but ", type, " has ", type.getLength(), " elements");
}

LogicalResult IndexOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &inferred) {
  if (operands.empty())
    return failure();
  auto type = dyn_cast<ArrType>(operands[0].getType());
  if (!type)
    return failure();
  flattenElementType(type.getElementType(), inferred);
  return success();
}

LogicalResult HalveOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(operands[0].getType());
  if (!type ||
      failed(evenOrError(location, "obs.halve", type, "split it in halves")))
    return failure();
  ArrType half = type.withLength(type.getLength() / 2);
  inferred.assign({half, half});
  return success();
}

LogicalResult ConcOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       ValueRange operands, DictionaryAttr,
                                       OpaqueProperties, RegionRange,
                                       SmallVectorImpl<Type> &inferred) {
  auto first = dyn_cast<ArrType>(operands[0].getType());
  auto second = dyn_cast<ArrType>(operands[1].getType());
  if (!first || !second)
    return failure();
  if (first.getElementType() != second.getElementType())
    return emitOptionalError(location,
                             "'obs.conc' op concatenates arrays of one "
                             "element type, but has ",
                             first, " and ", second);
  FailureOr<ArrType> result = makeArrType(
      location, first.getLength() + second.getLength(), first.getElementType());
  if (failed(result))
    return failure();
  inferred.push_back(*result);
  return success();
}

LogicalResult PairOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       ValueRange operands, DictionaryAttr,
                                       OpaqueProperties, RegionRange,
                                       SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(operands[0].getType());
  if (!type ||
      failed(evenOrError(location, "obs.pair", type, "pair every element")))
    return failure();
  if (isa<ArrType>(type.getElementType()))
    return emitOptionalError(location,
                             "'obs.pair' op cannot pair nested arrays: a "
                             "tuple holds no arrays, but ",
                             type, " holds arrays");
  Type element = type.getElementType();
  inferred.push_back(
      ArrType::get(context, type.getLength() / 2,
                   TupleType::get(context, TypeRange{element, element})));
  return success();
}

LogicalResult UnpairOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         ValueRange operands, DictionaryAttr,
                                         OpaqueProperties, RegionRange,
                                         SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(operands[0].getType());
  if (!type)
    return failure();
  auto tuple = dyn_cast<TupleType>(type.getElementType());
  if (!tuple || tuple.size() != 2 || tuple.getType(0) != tuple.getType(1))
    return emitOptionalError(location,
                             "'obs.unpair' op needs an array of pairs of one "
                             "type, tuple<T, T>, but has ",
                             type);
  FailureOr<ArrType> result =
      makeArrType(location, 2 * type.getLength(), tuple.getType(0));
  if (failed(result))
    return failure();
  inferred.push_back(*result);
  return success();
}

LogicalResult ZipOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> location,
                                      ValueRange operands, DictionaryAttr,
                                      OpaqueProperties, RegionRange,
                                      SmallVectorImpl<Type> &inferred) {
  auto first = dyn_cast<ArrType>(operands[0].getType());
  auto second = dyn_cast<ArrType>(operands[1].getType());
  if (!first || !second)
    return failure();
  if (first.getLength() != second.getLength())
    return emitOptionalError(location,
                             "'obs.zip' op zips arrays of one length, but has ",
                             first, " and ", second);
  if (isa<ArrType>(first.getElementType()) ||
      isa<ArrType>(second.getElementType()))
    return emitOptionalError(location,
                             "'obs.zip' op cannot zip nested arrays: a tuple "
                             "holds no arrays");
  inferred.push_back(ArrType::get(
      context, first.getLength(),
      TupleType::get(context, TypeRange{first.getElementType(),
                                        second.getElementType()})));
  return success();
}

LogicalResult UnzipOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(operands[0].getType());
  if (!type)
    return failure();
  auto tuple = dyn_cast<TupleType>(type.getElementType());
  if (!tuple || tuple.size() != 2)
    return emitOptionalError(location,
                             "'obs.unzip' op needs an array of pairs, "
                             "tuple<A, B>, but has ",
                             type);
  inferred.push_back(ArrType::get(context, type.getLength(), tuple.getType(0)));
  inferred.push_back(ArrType::get(context, type.getLength(), tuple.getType(1)));
  return success();
}

LogicalResult RiffleOp::verify() {
  return requireEvenLength(*this, arrType(getInput()), "interleave its halves");
}

LogicalResult UnriffleOp::verify() {
  return requireEvenLength(*this, arrType(getInput()),
                           "separate even and odd elements");
}

//===----------------------------------------------------------------------===//
// Folds: the laws that need no new ops
//===----------------------------------------------------------------------===//

/// `x` when `value` is the result of an `OpTy` applied to `x`.
template <typename OpTy> static Value inputOf(Value value) {
  if (auto op = value.getDefiningOp<OpTy>())
    return op.getInput();
  return {};
}

OpFoldResult RevOp::fold(FoldAdaptor) {
  // rev ; rev = id, and reversing fewer than two elements changes nothing.
  if (arrType(getInput()).getLength() <= 1)
    return getInput();
  return inputOf<RevOp>(getInput());
}

OpFoldResult RiffleOp::fold(FoldAdaptor) {
  // unriffle ; riffle = id; riffle of two elements is the identity.
  if (arrType(getInput()).getLength() <= 2)
    return getInput();
  return inputOf<UnriffleOp>(getInput());
}

OpFoldResult UnriffleOp::fold(FoldAdaptor) {
  // riffle ; unriffle = id.
  if (arrType(getInput()).getLength() <= 2)
    return getInput();
  return inputOf<RiffleOp>(getInput());
}

OpFoldResult ConcOp::fold(FoldAdaptor) {
  // halve ; conc = id, when the halves are concatenated in order.
  auto halve = getFirst().getDefiningOp<HalveOp>();
  if (halve && getFirst() == halve.getLow() && getSecond() == halve.getHigh())
    return halve.getInput();
  return {};
}

OpFoldResult PairOp::fold(FoldAdaptor) {
  // unpair ; pair = id.
  return inputOf<UnpairOp>(getInput());
}

OpFoldResult UnpairOp::fold(FoldAdaptor) {
  // pair ; unpair = id.
  return inputOf<PairOp>(getInput());
}

#define GET_OP_CLASSES
#include "Obs/Dialect/Obs/ObsOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Device-level ops
//===----------------------------------------------------------------------===//

/// The scalars of memrefs `memrefs` (each of rank 1), or an error naming
/// `which` when one holds no array element scalar.
static FailureOr<SmallVector<Type>>
deviceScalars(Operation *op, ValueRange memrefs, StringRef which) {
  if (memrefs.empty())
    return op->emitOpError()
           << "needs at least one memref in `" << which << "`";
  SmallVector<Type> types;
  for (auto [index, memref] : llvm::enumerate(memrefs)) {
    auto type = cast<MemRefType>(memref.getType());
    if (!isScalarElementType(type.getElementType()) ||
        !type.getLayout().isIdentity())
      return op->emitOpError()
             << which << " " << index << " has type " << type
             << ": a device array is memrefs of i1, i8, i16, i32, i64, f16, "
                "f32 or f64 with no layout, one per scalar of its element";
    types.push_back(type.getElementType());
  }
  return types;
}

/// `identity` holds one typed constant of each of `types`.
static LogicalResult verifyIdentity(Operation *op, ArrayAttr identity,
                                    TypeRange types) {
  SmallVector<Type> given;
  for (Attribute value : identity)
    given.push_back(isa<IntegerAttr, FloatAttr>(value)
                        ? cast<TypedAttr>(value).getType()
                        : NoneType::get(op->getContext()));
  if (given != SmallVector<Type>(types))
    return op->emitOpError()
           << "identity must be one constant of each of " << formatTypes(types)
           << ", not of " << formatTypes(given);
  return success();
}

/// Inputs and outputs of one element type: its scalars.
static FailureOr<SmallVector<Type>>
verifySameElements(Operation *op, ValueRange inputs, ValueRange outputs) {
  FailureOr<SmallVector<Type>> in = deviceScalars(op, inputs, "ins");
  if (failed(in))
    return failure();
  FailureOr<SmallVector<Type>> out = deviceScalars(op, outputs, "outs");
  if (failed(out))
    return failure();
  if (*in != *out)
    return op->emitOpError()
           << "outs must hold the element type of ins, " << formatTypes(*in)
           << ", not " << formatTypes(*out);
  return in;
}

/// Inputs and outputs of one element type, the outputs of length 1 when
/// `single`.
static LogicalResult verifyFoldOperands(Operation *op, ValueRange inputs,
                                        ValueRange outputs, ArrayAttr identity,
                                        bool single) {
  FailureOr<SmallVector<Type>> in = verifySameElements(op, inputs, outputs);
  if (failed(in))
    return failure();
  if (single)
    for (auto [index, memref] : llvm::enumerate(outputs))
      if (cast<MemRefType>(memref.getType()).getShape() != ArrayRef<int64_t>{1})
        return op->emitOpError()
               << "outs " << index << " has type " << memref.getType()
               << ": the result is one element, a memref<1x...> per scalar";
  return verifyIdentity(op, identity, *in);
}

LogicalResult DeviceMapOp::verify() {
  if (failed(deviceScalars(*this, getInputs(), "ins")) ||
      failed(deviceScalars(*this, getOutputs(), "outs")))
    return failure();
  return success();
}

LogicalResult DeviceMapOp::verifyRegions() {
  SmallVector<Type> results;
  for (Value output : getOutputs())
    results.push_back(cast<MemRefType>(output.getType()).getElementType());
  if (failed(verifyElementCode(getBody())))
    return failure();
  return verifyRegionSignature(*this, getBody(), getElementTypes(), results,
                               "a scalar of each input, to one of each "
                               "output");
}

LogicalResult DeviceReduceOp::verify() {
  return verifyFoldOperands(*this, getInputs(), getOutputs(), getIdentity(),
                            /*single=*/true);
}

/// A fold's or scan's combine: two elements (`element`'s scalars each) to
/// one, the two in the order `order` says.
static LogicalResult verifyCombineRegion(Operation *op, Region &body,
                                         ArrayRef<Type> element,
                                         StringRef order) {
  if (failed(verifyElementCode(body)))
    return failure();
  SmallVector<Type> both(element);
  both.append(element.begin(), element.end());
  return verifyRegionSignature(op, body, both, element, order);
}

LogicalResult DeviceReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getBody(), getElementTypes(),
                             "the accumulated element and the next, to "
                             "their combination");
}

LogicalResult DeviceScanOp::verify() {
  return verifyFoldOperands(*this, getInputs(), getOutputs(), getIdentity(),
                            /*single=*/false);
}

LogicalResult DeviceSortOp::verify() {
  return verifySameElements(*this, getInputs(), getOutputs());
}

LogicalResult DeviceSortOp::verifyRegions() {
  if (failed(verifyElementCode(getBody())))
    return failure();
  SmallVector<Type> element = getElementTypes();
  SmallVector<Type> both(element);
  both.append(element.begin(), element.end());
  return verifyRegionSignature(*this, getBody(), both,
                               IntegerType::get(getContext(), 1),
                               "two elements, to whether the first must "
                               "come before the second");
}

LogicalResult DeviceScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getBody(), getElementTypes(),
                             "an earlier and a later element, to their "
                             "combination");
}
