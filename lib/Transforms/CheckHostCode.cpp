//===- CheckHostCode.cpp - host functions checked as they run -------------===//
//
// obs-check-host-code: kernels prove every place they touch and define
// their arithmetic; host functions index their memrefs and divide with
// values only the run knows. Each op of a host function that MLIR's
// RuntimeVerifiableOpInterface can check gets that check, with a message
// that names the op's source line; each view, affine access and integer
// division one of obs's own; obs-lower-host-checks turns them into calls of
// the runner's report. Writes into constant globals are refused here.
//
//===----------------------------------------------------------------------===//

#include "Obs/Analysis/Allocations.h"
#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/SourceLocation.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/DeviceExpansion.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSCHECKHOSTCODE
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// The one line a failed check of `op` reports: where, which op, and what
/// failed, in the words of a diagnostic.
static std::string describeFailure(Operation *op, StringRef what) {
  std::string failure = what.str();
  // Upstream's words for a load's or a store's place.
  if (what == "out-of-bounds access")
    failure = isa<memref::LoadOp>(op)
                  ? "reads outside its memref"
                  : (isa<memref::StoreOp>(op) ? "writes outside its memref"
                                              : "updates outside its memref");
  return describeLocation(op->getLoc()) + ": '" +
         op->getName().getStringRef().str() + "' op " + failure;
}

/// The memref `op` writes, if it writes one itself.
static Value getWrittenMemRef(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget();
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return atomic.getMemref();
  if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return atomic.getMemref();
  if (auto store = dyn_cast<affine::AffineStoreOp>(op))
    return store.getMemRef();
  return {};
}

/// Refuses every write into a constant global's memory in `module`'s host
/// functions, wherever the global reaches it: its uses followed forward
/// through views and casts, selects, scf.if and scf.for results and loop
/// values, and calls into the callee's arguments (a store in a function
/// that a constant global reached through a call, a select or a branch was
/// lost silently). Element code (obs ops' regions) writes no memref.
static LogicalResult refuseConstantGlobalWrites(ModuleOp module) {
  SymbolTableCollection symbols;
  SmallVector<Value> worklist;
  // Host functions only: a kernel takes no global (its proof follows
  // launches' operands), and their element code is the bulk of a module.
  for (auto function : module.getOps<func::FuncOp>())
    function.walk([&](memref::GetGlobalOp get) {
      if (isConstantGlobal(get.getResult()))
        worklist.push_back(get.getResult());
    });
  llvm::DenseSet<Value> reached(worklist.begin(), worklist.end());
  auto reach = [&](Value value) {
    if (reached.insert(value).second)
      worklist.push_back(value);
  };
  bool refused = false;
  while (!worklist.empty()) {
    Value memref = worklist.pop_back_val();
    for (OpOperand &use : memref.getUses()) {
      Operation *user = use.getOwner();
      if (getWrittenMemRef(user) == memref) {
        user->emitOpError() << "writes into a constant global, which is "
                               "read-only (through views, calls or branches)";
        refused = true;
      } else if (auto view = dyn_cast<ViewLikeOpInterface>(user);
                 view && view.getViewSource() == memref) {
        reach(user->getResult(0));
      } else if (isa<memref::CastOp, arith::SelectOp>(user)) {
        reach(user->getResult(0));
      } else if (auto yield = dyn_cast<scf::YieldOp>(user);
                 yield && isa<scf::IfOp, scf::ForOp>(yield->getParentOp())) {
        Operation *parent = yield->getParentOp();
        reach(parent->getResult(use.getOperandNumber()));
        if (auto loop = dyn_cast<scf::ForOp>(parent))
          reach(loop.getRegionIterArgs()[use.getOperandNumber()]);
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        // A loop value's start: the value in the body, and the result.
        if (BlockArgument inside = loop.getTiedLoopRegionIterArg(&use))
          reach(inside);
        if (OpResult result = loop.getTiedLoopResult(&use))
          reach(result);
      } else if (auto call = dyn_cast<func::CallOp>(user)) {
        auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (callee && !callee.isExternal())
          reach(callee.getArgument(use.getOperandNumber()));
      }
    }
  }
  return failure(refused);
}

/// Checks, before `op` (an affine.load or affine.store, which are not
/// memref ops when this pass runs: they become ones after it), that each
/// place its map computes lies within its memref's dimension.
static void emitAffineAccessCheck(Operation *op) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value memref;
  AffineMap map;
  ValueRange operands;
  if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
    memref = load.getMemRef();
    map = load.getAffineMap();
    operands = load.getMapOperands();
  } else {
    auto store = cast<affine::AffineStoreOp>(op);
    memref = store.getMemRef();
    map = store.getAffineMap();
    operands = store.getMapOperands();
  }
  std::optional<SmallVector<Value, 8>> places =
      affine::expandAffineMap(b, b.getLoc(), map, operands);
  if (!places)
    return;
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value holds = arith::ConstantIntOp::create(b, 1, 1);
  for (auto [dim, place] : llvm::enumerate(*places)) {
    Value size = memref::DimOp::create(b, memref, dim);
    holds = arith::AndIOp::create(
        b, holds,
        arith::AndIOp::create(
            b, arith::CmpIOp::create(b, arith::CmpIPredicate::sge, place, zero),
            arith::CmpIOp::create(b, arith::CmpIPredicate::slt, place, size)));
  }
  cf::AssertOp::create(b, holds,
                       describeFailure(op, isa<affine::AffineLoadOp>(op)
                                               ? "reads outside its memref"
                                               : "writes outside its memref"));
}

/// Whether `op` is an integer division or remainder of scalars, which LLVM
/// leaves undefined for a divisor of 0 (and, signed, the least integer by
/// -1): the host traps (SIGFPE) where kernels' element code defines them.
static bool isIntegerDivision(Operation *op) {
  return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op) &&
         op->getResult(0).getType().isIntOrIndex();
}

/// Checks, before `op` (isIntegerDivision), that its divisor is not 0 and,
/// for a signed one, that it is not the least integer divided by -1.
static void emitDivisionCheck(Operation *op) {
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Value dividend = op->getOperand(0), divisor = op->getOperand(1);
  Type type = divisor.getType();
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(type));
  Value holds =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, divisor, zero);
  bool isSigned = isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
                      arith::FloorDivSIOp>(op);
  if (isSigned) {
    // An index is 64 bits here, as on the host.
    unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    auto constant = [&](const APInt &value) -> Value {
      return arith::ConstantOp::create(b, b.getIntegerAttr(type, value));
    };
    Value notLeast =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, dividend,
                              constant(APInt::getSignedMinValue(width)));
    Value notMinusOne =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, divisor,
                              constant(APInt::getAllOnes(width)));
    holds = arith::AndIOp::create(
        b, holds, arith::OrIOp::create(b, notLeast, notMinusOne));
  }
  cf::AssertOp::create(
      b, holds,
      describeFailure(op, isSigned ? "divides by zero, or the least integer "
                                     "by -1, which overflows"
                                   : "divides by zero"));
}

/// An expand_shape MLIR cannot lower: a group of more than one size known
/// only at run time (upstream's lowering and its run-time check stop with a
/// crash on one).
static bool expandsIntoSeveralDynamicSizes(memref::ExpandShapeOp expand) {
  MemRefType type = expand.getResultType();
  return llvm::any_of(expand.getReassociationIndices(),
                      [&](const ReassociationIndices &group) {
                        return llvm::count_if(group, [&](int64_t dim) {
                                 return type.isDynamicDim(dim);
                               }) > 1;
                      });
}

/// Whether `op` makes a view that obs checks itself: upstream's checks of
/// subview and reinterpret_cast are missing or crash in LLVM 22 (a subview
/// at a run-time offset), and memref.view has none.
static bool isCheckedView(Operation *op) {
  return isa<memref::SubViewOp, memref::ReinterpretCastOp, memref::ViewOp,
             memref::CollapseShapeOp>(op);
}

/// Checks, after `view` (a subview, reinterpret_cast, view or collapse_shape,
/// which reads dimensions of run-time strides as one run even where they
/// are none: a transposed view, an overlapping one), that its
/// elements lie within its source's bytes (ByteSpan: in i128, so that no
/// size or offset wraps), and for a subview that each dimension's places
/// lie within the source's dimension, as the op means.
static void emitViewCheck(Operation *view) {
  ImplicitLocOpBuilder b(view->getLoc(), view->getBlock(),
                         std::next(view->getIterator()));
  Value source = view->getOperand(0);
  Value holds = emitSpanWithin(b, emitByteSpan(b, view->getResult(0)),
                               emitByteSpan(b, source));
  if (auto subview = dyn_cast<memref::SubViewOp>(view)) {
    Type wide = b.getIntegerType(128);
    auto widen = [&](OpFoldResult value) {
      return emitWideIndex(
          b, getValueOrCreateConstantIndexOp(b, b.getLoc(), value));
    };
    Value zero = arith::ConstantIntOp::create(b, wide, 0);
    Value one = arith::ConstantIntOp::create(b, wide, 1);
    for (auto [dim, offset, size, stride] :
         llvm::enumerate(subview.getMixedOffsets(), subview.getMixedSizes(),
                         subview.getMixedStrides())) {
      // Empty, or its first place at least 0 and its last below the
      // source's size (strides are positive in a subview's meaning). A
      // negative size is no view: the span above is implausible then.
      Value first = widen(offset), count = widen(size);
      Value last = arith::AddIOp::create(
          b, first,
          arith::MulIOp::create(b, arith::SubIOp::create(b, count, one),
                                widen(stride)));
      Value bound = widen(
          OpFoldResult(memref::DimOp::create(b, source, dim).getResult()));
      Value inside = arith::AndIOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::sge, first, zero),
          arith::CmpIOp::create(b, arith::CmpIPredicate::slt, last, bound));
      Value empty =
          arith::CmpIOp::create(b, arith::CmpIPredicate::eq, count, zero);
      holds = arith::AndIOp::create(b, holds,
                                    arith::OrIOp::create(b, empty, inside));
    }
  }
  cf::AssertOp::create(
      b, holds,
      describeFailure(view, "views places outside the memref it views"));
}

/// The most bytes a memref.alloca of run-time size may take: a thread's
/// stack is a few megabytes.
static constexpr int64_t kMostStackBytes = int64_t(1) << 22;

/// Checks that a host loop's step known only at run time is positive:
/// MLIR's scf.for needs one, and a step of 0 from data ran forever, one
/// of -1 walked down past the memory it read (an adversarial run).
static void emitLoopStepCheck(scf::ForOp loop) {
  ImplicitLocOpBuilder b(loop.getLoc(), loop);
  Value step = loop.getStep();
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(step.getType()));
  Value positive =
      arith::CmpIOp::create(b,
                            loop.getUnsignedCmp() ? arith::CmpIPredicate::ne
                                                  : arith::CmpIPredicate::sgt,
                            step, zero);
  cf::AssertOp::create(b, positive,
                       describeFailure(loop, "steps by 0 or less"));
}

/// Checks an allocation's sizes known only at run time: none negative
/// (`memref.alloc(-1)` allocated a huge size's worth of nothing), their
/// bytes in all within kMostPlausibleBytes (2^62 + 1 i32 wrapped to 4
/// bytes, and every index below it passed the store's check; 2^40
/// elements made malloc return null, and the first store segfaulted), and,
/// for the heap, the memory given (all three found by adversarial runs).
static void emitAllocationCheck(Operation *allocation) {
  ImplicitLocOpBuilder b(allocation->getLoc(), allocation);
  Value memref = allocation->getResult(0);
  auto type = cast<MemRefType>(memref.getType());
  bool onHeap = isa<memref::AllocOp>(allocation);
  std::string notGiven =
      describeFailure(allocation, "could not allocate its memory");
  OperandRange sizes =
      onHeap ? cast<memref::AllocOp>(allocation).getDynamicSizes()
             : cast<memref::AllocaOp>(allocation).getDynamicSizes();
  // Sizes known when compiling are plausible or refused (a stack's past
  // 4 MiB); the memory of a heap allocation of some bytes is checked (a
  // `memref<4294967295xi64>` made malloc return null, and the first store
  // faulted). On cuda the allocation is the device's, whose failure the
  // driver reports, and obs-host-memory-to-gpu takes the check out again
  // (a host op after the allocation split the launches' stream).
  if (sizes.empty()) {
    if (onHeap && getTotalBytes(type) > 0) {
      b.setInsertionPointAfter(allocation);
      emitAllocatedCheck(b, memref, /*empty=*/nullptr, notGiven);
    }
    return;
  }
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Type wide = b.getIntegerType(128);
  Value counted, bytes = arith::ConstantIntOp::create(
                     b, wide, static_cast<int64_t>(getElementBytes(type)));
  Value most = arith::ConstantIntOp::create(b, wide, kMostPlausibleBytes + 1);
  for (int64_t size : type.getShape())
    if (!ShapedType::isDynamic(size))
      bytes = arith::MinSIOp::create(
          b,
          arith::MulIOp::create(b, bytes,
                                arith::ConstantIntOp::create(b, wide, size)),
          most);
  for (Value size : sizes) {
    Value nonNegative =
        arith::CmpIOp::create(b, arith::CmpIPredicate::sge, size, zero);
    counted = counted
                  ? arith::AndIOp::create(b, counted, nonNegative).getResult()
                  : nonNegative;
    // Each size below 2^48 first, so that the product of at most a few
    // sizes stays within i128.
    Value capped = arith::MinSIOp::create(
        b, emitWideIndex(b, size),
        arith::ConstantIntOp::create(b, wide, kMostPlausibleBytes));
    bytes = arith::MinSIOp::create(b, arith::MulIOp::create(b, bytes, capped),
                                   most);
  }
  cf::AssertOp::create(
      b, counted,
      describeFailure(allocation, "allocates a negative number of elements"));
  Value fits = arith::CmpIOp::create(
      b, arith::CmpIPredicate::sle, bytes,
      arith::ConstantIntOp::create(b, wide, kMostPlausibleBytes));
  cf::AssertOp::create(
      b, fits, describeFailure(allocation, "allocates more than 2^48 bytes"));
  if (!onHeap) {
    // The stack holds megabytes: 2^40 bytes of alloca crashed.
    Value onStack = arith::CmpIOp::create(
        b, arith::CmpIPredicate::sle, bytes,
        arith::ConstantIntOp::create(b, wide, kMostStackBytes));
    cf::AssertOp::create(
        b, onStack,
        describeFailure(allocation, "allocates more than 4 MiB on the stack"));
    return;
  }
  b.setInsertionPointAfter(allocation);
  emitAllocatedCheck(
      b, memref,
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, bytes,
                            arith::ConstantIntOp::create(b, wide, 0)),
      notGiven);
}

void mlir::obs::emitTemporaryAllocationCheck(memref::AllocOp allocation) {
  MemRefType type = allocation.getType();
  if (llvm::is_contained(type.getShape(), 0) || getElementBytes(type) == 0)
    return;
  ImplicitLocOpBuilder b(allocation.getLoc(), allocation);
  b.setInsertionPointAfter(allocation);
  // An allocation of no bytes may be given no memory.
  Value empty;
  for (Value size : allocation.getDynamicSizes()) {
    Value none = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, size,
                                       arith::ConstantIndexOp::create(b, 0));
    empty = empty ? arith::OrIOp::create(b, empty, none).getResult() : none;
  }
  emitAllocatedCheck(
      b, allocation, empty,
      describeFailure(allocation, "could not allocate its memory"));
}

/// Checks, before `copy`, that its source and target share no byte: it
/// lowers to a memcpy (cuMemcpy on cuda), which leaves overlapping memory
/// undefined (a copy from a view into the same buffer one element on gave
/// [1, 1, 2, 3, ...] for [1, 2, 3, 4, ...]: an adversarial run). A memref
/// copied onto itself is left alone.
static void emitCopyOverlapCheck(memref::CopyOp copy) {
  if (copy.getSource() == copy.getTarget())
    return;
  ImplicitLocOpBuilder b(copy.getLoc(), copy);
  Value apart = emitSpansApart(b, emitByteSpan(b, copy.getSource()),
                               emitByteSpan(b, copy.getTarget()));
  cf::AssertOp::create(
      b, apart,
      describeFailure(copy, "copies between memrefs that share memory, which "
                            "a copy leaves undefined"));
}

/// Emits `op`'s run-time check, if it has one; whether it had.
static bool emitCheck(Operation *op) {
  if (isCheckedView(op)) {
    emitViewCheck(op);
  } else if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
    emitAllocationCheck(op);
  } else if (auto loop = dyn_cast<scf::ForOp>(op);
             loop && !getConstantIntValue(loop.getStep())) {
    emitLoopStepCheck(loop);
  } else if (isa<affine::AffineLoadOp, affine::AffineStoreOp>(op)) {
    emitAffineAccessCheck(op);
  } else if (isIntegerDivision(op)) {
    emitDivisionCheck(op);
  } else if (auto verifiable = dyn_cast<RuntimeVerifiableOpInterface>(op)) {
    if (auto copy = dyn_cast<memref::CopyOp>(op))
      emitCopyOverlapCheck(copy);
    OpBuilder b(op);
    verifiable.generateRuntimeVerification(b, op->getLoc(), describeFailure);
  } else {
    return false;
  }
  return true;
}

/// Refuses `op` where it calls, or takes as a value, a function the module
/// declares without a body. The JIT resolves such a declaration from the
/// process that runs the program: host code called obs-run's own exit, free
/// and abort, and could call obs's runtime functions with any arguments
/// (a chain state published at any address, a message printed from any
/// pointer). Only the runtime functions obs's own passes call from host
/// code (and which a program they printed holds when read again) take
/// nothing but numbers they report.
static LogicalResult refuseCallOfDeclaration(Operation *op) {
  if (!isa<func::CallOp, func::ConstantOp>(op))
    return success();
  auto callee = op->getAttrOfType<FlatSymbolRefAttr>(
      isa<func::CallOp>(op) ? "callee" : "value");
  auto declared =
      callee ? SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, callee)
             : func::FuncOp();
  if (!declared || !declared.isExternal() ||
      llvm::is_contained({kLaunchContractFunction, kArgumentContractFunction,
                          kRecordLaunchFunction},
                         declared.getSymName()))
    return success();
  return op->emitOpError()
         << (isa<func::CallOp>(op) ? "calls @" : "takes @")
         << declared.getSymName()
         << ", which the program declares but does not define: host code "
            "calls only the program's own functions (a declaration would "
            "call into the process that runs it); math's ops compute what "
            "the C library's math does";
}

namespace {
struct ObsCheckHostCodePass
    : obs::impl::ObsCheckHostCodeBase<ObsCheckHostCodePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(refuseConstantGlobalWrites(module)))
      return signalPassFailure();
    ObsDialect::HostCheckedAttrHelper checkedMark(&getContext());
    bool failedAny = false;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal() || checkedMark.isAttrPresent(function))
        continue;
      failedAny |= failed(checkFunction(function));
      checkedMark.setAttr(function, UnitAttr::get(&getContext()));
    }
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult checkFunction(func::FuncOp function) {
    SmallVector<Operation *> ops;
    bool refused = false;
    auto inOtherMemory = [](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      return memref && memref.getMemorySpace();
    };
    // LLVM's promises about a function (its effects, that it returns, its
    // arguments' ranges) are taken as true, and no check could hold them
    // to it: a `noreturn` function that returned faulted, a store under
    // `memory_effects = none` vanished (found by an adversarial run).
    for (StringRef promise : {"passthrough", "memory_effects"})
      if (function->hasAttr(promise)) {
        function.emitOpError()
            << "promises LLVM something in '" << promise
            << "' that obs cannot check; host code keeps its meaning without";
        refused = true;
      }
    auto isLLVMPromise = [](NamedAttribute attribute) {
      return attribute.getName().strref().starts_with("llvm.");
    };
    for (unsigned index = 0; index < function.getNumArguments(); ++index)
      for (NamedAttribute attribute :
           function_interface_impl::getArgAttrs(function, index))
        if (isLLVMPromise(attribute)) {
          function.emitOpError()
              << "promises LLVM '" << attribute.getName().strref()
              << "' of argument " << index << ", which obs cannot check";
          refused = true;
        }
    for (auto [index, type] : llvm::enumerate(function.getArgumentTypes()))
      if (std::string why = findInexactMemRef(type); !why.empty()) {
        function.emitOpError()
            << "takes as argument " << index << " a memref that " << why;
        refused = true;
      }
    if (llvm::any_of(function.getArgumentTypes(), inOtherMemory)) {
      function.emitOpError()
          << "takes a memref in a memory space: host code's memrefs are in "
             "the default one";
      refused = true;
    }
    function.walk<WalkOrder::PreOrder>([&](Operation *op) {
      // An obs op's regions are element code, whose arithmetic obs defines
      // (a division by 0 is 0) and whose places the kernels' proofs cover.
      if (isa_and_present<ObsDialect>(op->getDialect()))
        return WalkResult::skip();
      if (StringRef mode = getUnhonouredRoundingMode(op); !mode.empty()) {
        op->emitOpError() << "rounds " << mode
                          << ", which no target's lowering honours (they "
                             "round to nearest)";
        refused = true;
      }
      // The checks know the ops of arith, math, memref, scf, cf and func:
      // the llvm dialect's (a raw sdiv by zero raised SIGFPE) and the index
      // dialect's (which ref and cpu could not lower, and cuda ran
      // unchecked) pass by them.
      if (isa_and_present<LLVM::LLVMDialect, index::IndexDialect>(
              op->getDialect())) {
        op->emitOpError() << "cannot be in host code, whose run-time checks "
                             "know arith's, memref's and scf's ops: write it "
                             "with those";
        refused = true;
      }
      if (failed(refuseCallOfDeclaration(op)))
        refused = true;
      if (std::string why = findUndefinedView(op); !why.empty()) {
        op->emitOpError() << why;
        refused = true;
      }
      for (Type type : op->getResultTypes())
        if (std::string why = findInexactMemRef(type); !why.empty()) {
          op->emitOpError() << "makes a memref that " << why;
          refused = true;
          break;
        }
      // A stack allocation in a loop takes more stack each iteration, and
      // one past 4 MiB faults before its check could run.
      if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
        if (alloca.getType().hasStaticShape() &&
            getTotalBytes(alloca.getType()) > uint64_t(kMostStackBytes)) {
          alloca.emitOpError() << "allocates more than 4 MiB on the stack";
          refused = true;
        }
        if (op->getParentOfType<LoopLikeOpInterface>() &&
            !op->getParentOfType<memref::AllocaScopeOp>()) {
          alloca.emitOpError()
              << "allocates on the stack in a loop, which takes more stack "
                 "every iteration: allocate before the loop, or in a "
                 "memref.alloca_scope";
          refused = true;
        }
      }
      // Memory in another space is a GPU's (shared, constant) or none the
      // host has (x86's segments): an LLVM error or a fault as it runs.
      if (llvm::any_of(op->getResultTypes(), inOtherMemory)) {
        op->emitOpError() << "makes a memref in a memory space: host code's "
                             "memrefs are in the default one";
        refused = true;
      }
      // A constant dimension outside the memref's rank: MLIR's folds index
      // the shape with it (a segmentation fault in canonicalization, and in
      // the launch proof's bounds), before the run-time check could say.
      if (auto dim = dyn_cast<memref::DimOp>(op)) {
        auto type = dyn_cast<MemRefType>(dim.getSource().getType());
        std::optional<int64_t> index = dim.getConstantIndex();
        if (type && index && (*index < 0 || *index >= type.getRank())) {
          dim.emitOpError()
              << "takes dimension " << *index << " of a memref of "
              << type.getRank() << " dimensions";
          refused = true;
        }
      }
      if (auto expand = dyn_cast<memref::ExpandShapeOp>(op);
          expand && expandsIntoSeveralDynamicSizes(expand)) {
        expand.emitOpError() << "expands one dimension into more than one of "
                                "run-time size, which MLIR cannot lower";
        refused = true;
      }
      ops.push_back(op);
      return WalkResult::advance();
    });
    if (refused)
      return failure();
    for (Operation *op : ops)
      if (emitCheck(op))
        addToStatistic(*this, numChecked, "checked-ops");
    // Then the code the checks test is given element code's meaning, before
    // anything folds. An overflow flag, `exact`, a fast-math flag or a
    // poison let MLIR and LLVM fold a check away (a place `n * k nsw` taken
    // to be no less than 0, a divisor `a * b nsw` taken to be no 0): they
    // are taken out, a poison being 0. What the checks do not test is
    // defined: a shift by the width or more gives 0 (or the sign), a float
    // converted out of range saturates and NaN gives 0, and a loop whose
    // counter would step past its type's largest value ends there. A
    // division keeps its check's error. (Found by an adversarial run: reads
    // and writes before a memref's start, SIGFPE, loops that never ended,
    // faults.)
    for (Operation *op : ops)
      defineOp(op, /*divisorChecked=*/isIntegerDivision(op));
    return success();
  }
};
} // namespace
