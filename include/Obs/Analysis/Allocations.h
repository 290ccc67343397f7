//===- Allocations.h - memrefs followed to their allocations ----*- C++ -*-===//
//
// Host code passes kernels views of memory: subviews, reshapes and casts of
// allocations, and a host function's own arguments. The launch proof and the
// lowering of launches both need the allocation behind a view and where in
// it the view's elements lie: two views of one allocation are two sets of
// places in one memory, not two memories.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_ANALYSIS_ALLOCATIONS_H
#define OBS_ANALYSIS_ALLOCATIONS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::obs {

/// Where a memref's elements live: element `i` at byte
/// `baseBytes + (offset + sum_d i_d * strides[d]) * elementBytes` of the
/// allocation `root`. Every view's layout is relative to its allocation's
/// base, which only memref.view moves (by `baseBytes`).
///
/// A view at a place known only at run time (a subview at `%k`) has
/// `offsetAtRunTime`, and `offset` is then ShapedType::kDynamic: only its
/// allocation is known, and where it lies is a symbolic question
/// (provedApart).
struct AllocationView {
  Value root;
  int64_t baseBytes = 0;
  int64_t offset = 0;
  SmallVector<int64_t> strides;
  int64_t elementBytes = 1;
  bool offsetAtRunTime = false;
};

/// The alignment, in bytes, of the memref arguments of a function that
/// launches kernels: it checks it as it starts, so that kernels may load
/// and store vectors (cudaMalloc, cuMemAlloc, malloc and obs-run's buffers
/// give at least this much).
constexpr uint64_t kArgumentAlignment = 16;

/// The static offset and strides of `type`'s layout, or none.
std::optional<std::pair<int64_t, SmallVector<int64_t>>>
staticStrides(MemRefType type);

/// What the proof accepts as an allocation: a function's argument, or the
/// result of memref.alloc, memref.alloca or memref.get_global.
bool isAllocation(Value value);

/// Whether `root` is a constant global's memory.
bool isConstantGlobal(Value root);

/// The function `call` calls: its symbol's, or, for an indirect call, the
/// one a func.constant names; null when the code does not show it.
FunctionOpInterface resolveCalledFunction(CallOpInterface call,
                                          SymbolTableCollection &symbols);

/// The functions of `module` that hold an op `isLaunch` accepts, and those
/// that call one of them (directly, or through a func.constant, as
/// resolveCalledFunction follows calls), transitively.
llvm::SetVector<Operation *>
getLaunchingFunctions(ModuleOp module,
                      llvm::function_ref<bool(Operation *)> isLaunch);

/// Per function, the numbers of its arguments that reach an operand of
/// interest.
using ArgumentsReaching =
    llvm::DenseMap<Operation *, llvm::SmallSet<unsigned, 4>>;

/// Per function of `module`, the numbers of its entry-block arguments whose
/// memory reaches an operand `operandsOf` gives of one of its ops (the
/// `outs` of a launch, the operands of a kernel's launch), as `rootOf`
/// follows a memref to the value it views (null where it cannot), or that
/// it passes to a call in such an argument of the callee (directly, or
/// through a func.constant), transitively.
ArgumentsReaching getArgumentsReaching(
    ModuleOp module,
    llvm::function_ref<SmallVector<Value>(Operation *)> operandsOf,
    llvm::function_ref<Value(Value)> rootOf);

/// Follows `memref` through views to its allocation. `describe` names the
/// memref in an error, which is reported at `user`; with no `user`, it
/// fails without one. Views whose offset is known only at run time (their
/// strides static) are followed with `runTimeOffsets`, and refused
/// without.
FailureOr<AllocationView> followToAllocation(Value memref, Operation *user,
                                             const Twine &describe,
                                             bool runTimeOffsets = false);

/// Whether the memrefs `first` and `second`, views of one allocation, are
/// proved to hold no byte in common, whatever the values their places are
/// computed from: the bytes of each lie in an interval of the allocation's,
/// from its first element (an affine sum over the offsets of the subviews
/// and the byte shifts of the memref.views on the way, values or
/// constants) to the end of its last (placed by its sizes and static
/// strides), and ValueBoundsConstraintSet proves one interval ends before
/// the other starts. Views the sum cannot follow (a reinterpret_cast, a
/// transpose) or with strides known only at run time are not proved
/// apart.
bool provedApart(Value first, Value second);

/// Whether the memref `view`, a view of the allocation `root` (or `root`
/// itself), is proved to hold only elements of it, whatever the values its
/// places are computed from: its interval (as provedApart's) begins at or
/// after the allocation's and ends at or before it, as
/// ValueBoundsConstraintSet proves (a subview of the first min(n, size)
/// elements, an affine.min of the allocation's own size, is within).
bool provedWithin(Value view, Value root);

/// The bytes the pointer to the allocation `root` (which isAllocation
/// accepts) is known to be aligned to: a function argument's
/// kArgumentAlignment, an allocation's `alignment`, and at least its
/// element's bytes.
uint64_t getAllocationAlignment(Value root);

} // namespace mlir::obs

#endif // OBS_ANALYSIS_ALLOCATIONS_H
