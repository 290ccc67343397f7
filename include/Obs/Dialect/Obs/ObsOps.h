//===- ObsOps.h - obs operations --------------------------------*- C++ -*-===//

#ifndef OBS_DIALECT_OBS_OBSOPS_H
#define OBS_DIALECT_OBS_OBSOPS_H

#include "Obs/Dialect/Obs/ObsAttributes.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsInterfaces.h"
#include "Obs/Dialect/Obs/ObsTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::obs {
class ScatterOp;
} // namespace mlir::obs

#define GET_OP_CLASSES
#include "Obs/Dialect/Obs/ObsOps.h.inc"

namespace mlir::obs {

/// The array type of `value`, which must be an array.
inline ArrType arrType(Value value) { return cast<ArrType>(value.getType()); }

/// Whether `op` owns shared buffers in a lowered kernel: a sync stores its
/// array, a repeat its two alternating ones, a scatter its result (unless
/// it is `global`: that result is the launch's memref). Their
/// program order numbers the buffers (obs.owner_index, obs.shared_offsets).
bool isSharedBufferOwner(Operation *op);

/// Whether `op` is or holds an obs.sync.
bool holdsSync(Operation *op);

/// The arrays the stage that computes `array` reads: walking back from it
/// through the ops that define it and the values their regions use, the
/// values `isSource` accepts (which the walk does not go past), in the
/// order found.
llvm::SetVector<Value> findStageSources(Value array,
                                        function_ref<bool(Value)> isSource);

/// Whether `op` holds obs.block_id or obs.extent: code that depends on
/// where its block is.
bool usesBlockPosition(Operation *op);

/// The values `value` (an integer or index) may take whatever the data, as
/// far as its definition shows within `depth` ops: constants, what
/// `leafRange` says of a value it knows, and what the ops' range inference
/// (arith's InferIntRangeInterface) gives from those; none otherwise.
std::optional<ConstantIntRanges> inferIntegerRange(
    Value value,
    function_ref<std::optional<ConstantIntRanges>(Value)> leafRange,
    unsigned depth = 16);

/// Whether `type` lays its elements out row-major and contiguous, as the
/// identity layout does, from any offset (static or known only at run
/// time): what a launch whose sizes are known only at run time takes.
bool isRowMajorAtAnyOffset(MemRefType type);

/// Checks that `region` holds only element code: arith, math, ub, obs ops
/// and scf's structured control flow, which every target computes alike and
/// the proof models; anything else (a gpu op, a call) is an error at it.
LogicalResult verifyElementCode(Region &region);

/// The threads among which the serial network shares the array of `op` (a
/// scan or reduce): the kernel's `threads` where `op` stands directly in a
/// kernel's body, else one per element as a kernel without `threads` runs
/// (at least as many as its stages need, at most a block's); its array's
/// length elsewhere (a sub-program's or an element's share of the block is
/// not known), which makes every run one element. Every target takes it
/// from the kernel as written, so that they associate the combine alike.
uint64_t getSerialNetworkThreads(Operation *op);
/// The same, given the block threads of `op`'s kernel as written
/// (KernelOp::getBlockThreads, a walk of the kernel), for a caller that
/// asks for many ops of one kernel.
uint64_t getSerialNetworkThreads(Operation *op, uint64_t kernelBlockThreads);

/// The elements of each thread's run in the serial network of `length`
/// elements among `threads`: ceil(length / threads), every run but the last
/// full. The reference target and the GPU targets' stages must agree.
inline uint64_t getSerialRunLength(uint64_t length, uint64_t threads) {
  return llvm::divideCeil(length, std::max<uint64_t>(threads, 1));
}

/// Whether `kernel` returns a `global` scatter's result (see
/// KernelOp::getGlobalScatter).
bool hasGlobalResults(KernelOp kernel);

/// The results of `kernel` that a `global` scatter without a combine
/// computes: the ones whose places the ref and cpu targets check across a
/// launch.
SmallVector<unsigned> getUncombinedGlobalResults(KernelOp kernel);

/// Whether `kernel`'s argument `index` is `obs.global`: the launch's memref
/// whole, the same in every block, which no operand of the launch writes.
bool isGlobalArgument(KernelOp kernel, unsigned index);
bool hasGlobalArguments(KernelOp kernel);
/// Whether `kernel`'s argument `index` is its chain (`obs.chain`): the
/// launch's memref whole, which only obs.carry reads and writes.
bool isChainArgument(KernelOp kernel, unsigned index);
/// The index of `kernel`'s chain argument, if it has one: then its blocks
/// take their tiles as tickets (obs.carry).
std::optional<unsigned> getChainArgument(KernelOp kernel);
/// The chain words each of `kernel`'s tiles takes: its carry's elements (0
/// without a chain). A chain holds one more, the ticket counter.
uint64_t getChainWordsPerTile(KernelOp kernel);
/// Fails, with an error at `launch`, where it passes `kernel` a chain of a
/// static length below its static grid's blocks times its words per tile,
/// plus one (the ticket counter); other lengths are checked at run time
/// (obs-check-launches).
LogicalResult verifyChainLength(LaunchOp launch, KernelOp kernel);
/// Verifies `attribute`, an `obs.chain` on `kernel`'s argument `index`.
LogicalResult verifyChainArgument(KernelOp kernel, unsigned index,
                                  NamedAttribute attribute);

/// `kernel`'s argument `index`'s halo (`obs.halo`), or null: each block's
/// array is its tile and the halo's width of places on each side.
HaloAttr getHalo(KernelOp kernel, unsigned index);
/// Fails, with the error at `kernel`, where an argument still has a halo:
/// obs-expand-device makes it a global argument and the reads of its
/// places, which every lowering and proof after it relies on.
LogicalResult verifyHalosExpanded(KernelOp kernel);
/// The same for every kernel under `root`, and fails where a launch under
/// `root` still tiles 2-D memrefs (LaunchOp::isTiled), which obs-expand-device
/// also lowers: every proof and lowering of launches starts with it.
LogicalResult verifyDeviceExpanded(Operation *root);

/// Whether a stage that computes an array of `type` under `how` deals out
/// its leaves rather than its elements: an array of rows (or deeper), under
/// any work assignment but compact (whose positions are the elements a
/// stage writes). Thread t of strided<T> then computes leaves t, t + T, ...
/// in row-major order, so a warp works on 32 consecutive leaves of a row:
/// one 128-byte line of a row of i32 per warp access, where a thread per
/// row would touch 32.
bool isDealtOutByLeaf(ArrType type, WorkAssignmentAttrInterface how);
/// The positions a stage of `type` deals out under `how`: its leaves where
/// isDealtOutByLeaf, its elements otherwise.
uint64_t getWorkLength(ArrType type, WorkAssignmentAttrInterface how);

/// The scalars an absent element of `kernel`'s argument `index` reads as
/// (its `obs.absent`, one typed constant per scalar of its element), or
/// none when it has none.
std::optional<SmallVector<TypedAttr>> getAbsentValues(KernelOp kernel,
                                                      unsigned index);
/// One memref operand of a launch of a kernel: which of the kernel's arrays
/// it stores (its arguments, then its results, counted together), that
/// array's type, and which scalar of its element. A `whole` operand is a
/// global scatter's result or an `obs.global` argument: every block sees all
/// of it, not a chunk. A `chain` operand (an `obs.chain` argument) is whole
/// too, and written although an input: only obs.carry touches it.
struct LaunchOperandArray {
  unsigned array;
  ArrType type;
  unsigned component;
  bool whole = false;
  bool chain = false;
};

/// The memref operands a launch of `kernel` takes, in order: ins then outs,
/// one per scalar of each argument's element, then of each result's.
SmallVector<LaunchOperandArray> getLaunchOperandArrays(KernelOp kernel);

/// The position among `operands` (getLaunchOperandArrays) of the first
/// memref of the kernel's array `array` (arguments, then results).
unsigned getFirstOperandOf(ArrayRef<LaunchOperandArray> operands,
                           unsigned array);

/// The launches inside `module`, each with its kernel, for a pass that
/// converts `module`'s kernels. A launch whose kernel is not one of them (a
/// launch inside a nested module, which names that module's kernels) is
/// reported as an error: the pass would leave it behind.
FailureOr<SmallVector<std::pair<LaunchOp, KernelOp>>>
collectLaunchesOfKernelsIn(Operation *module);
} // namespace mlir::obs

#endif // OBS_DIALECT_OBS_OBSOPS_H
