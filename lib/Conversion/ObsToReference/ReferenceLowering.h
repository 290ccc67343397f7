//===- ReferenceLowering.h - the reference target's lowering -----*- C++
//-*-===//
//
// Internal to lib/Conversion/ObsToReference: the lowering of one kernel to
// sequential loops (ObsToReference.cpp), whose scans in a network's order
// are NetworkScan.cpp's.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_CONVERSION_OBSTOREFERENCE_REFERENCELOWERING_H
#define OBS_LIB_CONVERSION_OBSTOREFERENCE_REFERENCELOWERING_H

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "ReferenceLaunch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <memory>

namespace mlir::obs::reference {

/// The memrefs that store one materialised array (see Storage.h).
using Buffer = SmallVector<Value>;

/// Maps the outermost index of an array's leaf to the index it has in a
/// buffer (the part of a `two` lives at an offset of its parent, ...).
using OuterIndexMap = std::function<Value(Value)>;

inline Value identityIndex(Value index) { return index; }

class ReferenceLowering {
public:
  /// `countBuffer` is called for every buffer allocated.
  ReferenceLowering(OpBuilder &builder, std::function<void()> countBuffer)
      : builder(builder), countBuffer(std::move(countBuffer)) {}

  LogicalResult lowerKernel(KernelOp kernel);

private:
  /// Runs the program in `body` with its arguments stored in `arguments` and
  /// returns the buffers holding what it yields.
  FailureOr<SmallVector<Buffer>> lowerProgram(Region &body,
                                              ArrayRef<Buffer> arguments);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerParts(Operation *op, Region &body, Value input,
                           Value result);
  LogicalResult lowerRepeat(RepeatOp repeat);
  /// A scan as a running fold, and a sort as a stable merge sort: plain
  /// sequential algorithms, in O(N) and O(N log N) rather than the O(N^2)
  /// and O(N^3) of materialising their index functions.
  LogicalResult lowerScan(ScanOp scan);
  /// Turns the `length` elements in `data`, of `scan`'s element type, into
  /// their inclusive scan in the association order of `network` (the
  /// reference's own loops; lib/Builder/Networks.cpp builds the stages for
  /// the GPU targets), which a float scan checks bit for bit. sklansky,
  /// kogge_stone and brent_kung are levels in which some elements take in
  /// another: at distance d = 1, 2, 4, ... Sklansky's element i with bit d
  /// set the last of the left half of its block of 2d, Kogge-Stone's i >= d
  /// element i - d, Brent-Kung's up-sweep i + 1 = 0 mod 2d and down-sweep
  /// (d from a quarter of the length rounded up to a power of two, down)
  /// i + 1 = d mod 2d past 3d element i - d. serial among `threads`: each
  /// run of ceil(length / threads) consecutive elements folded left to
  /// right; the runs' totals scanned by Kogge-Stone within each warp of 32
  /// runs; the warps' totals folded left to right, or, past 32 warps,
  /// scanned the same way one level up; each run then takes in the fold
  /// before it (the warps' before the warp's).
  void scanInNetworkOrder(ScanOp scan, const Buffer &data, uint64_t length,
                          ScanNetwork network, uint64_t threads, bool &failed);
  /// The loops of one scanInNetworkOrder (below).
  class NetworkScan;
  LogicalResult lowerSort(SortOp sort);
  /// A scatter as a loop over its values, each written (or merged) at its
  /// place; without a combine, a table of written places catches a place
  /// written twice as it happens.
  LogicalResult lowerScatter(ScatterOp scatter);
  /// A carry, the tiles run in order: tile t reads each element of tile
  /// t - 1's inclusive prefix from the chain, and writes its own after it.
  LogicalResult lowerCarry(CarryOp carry);
  /// An emitter that reads every materialised array from its buffer.
  std::unique_ptr<ElementEmitter> makeEmitter(Location loc);
  /// The types of the block function of `kernel`: the buffers of
  /// `argumentTypes`, with each global scatter's memref and each `whole`
  /// argument's of any length, then a table of written places per result
  /// in `checkedResults`.
  SmallVector<Type>
  blockFunctionTypes(KernelOp kernel, ArrayRef<Type> argumentTypes,
                     ArrayRef<LaunchOperandArray> operandArrays,
                     ArrayRef<unsigned> checkedResults);
  /// The function named for `kernel` that runs its block function as
  /// block 0, whole: it casts the `numBuffers` buffers to the block
  /// function's types and gives each checked result a table of its own.
  void emitBlockZeroCaller(KernelOp kernel, ArrayRef<Type> argumentTypes,
                           ArrayRef<Type> blockTypes, unsigned numBuffers,
                           ArrayRef<unsigned> checkedResults);
  /// Takes where the block is, and each global scatter's memref and table,
  /// from the arguments of `entry`, the block function's entry block.
  void bindBlockArguments(KernelOp kernel, Block *entry, unsigned numBuffers,
                          ArrayRef<unsigned> checkedResults,
                          ArrayRef<LaunchOperandArray> operandArrays);
  /// Records the present lengths of the `obs.global` arguments of a
  /// positioned kernel among `inputs` (see presentLengths).
  void findPresentLengths(KernelOp kernel, ArrayRef<Buffer> inputs,
                          bool positionedKernel);

  Buffer allocate(ArrType type, Location loc);
  /// Computes every leaf of `array` with its index function and stores it.
  LogicalResult materialize(Value array, const Buffer &dest);
  /// Copies the leaves of an array of `type` between buffers, element i
  /// of the array living at `fromIndex(i)` and `toIndex(i)` respectively.
  void copy(ArrType type, Location loc, const Buffer &from,
            const OuterIndexMap &fromIndex, const Buffer &to,
            const OuterIndexMap &toIndex);
  void forEachLeaf(ArrType type, Location loc,
                   function_ref<void(ValueRange)> body);

  Value constant(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }
  Value affine(Location loc, Value index, int64_t scale, Value offset) {
    Value scaled =
        builder.createOrFold<arith::MulIOp>(loc, index, constant(loc, scale));
    return builder.createOrFold<arith::AddIOp>(loc, scaled, offset);
  }

  /// Buffers are freed at the end of the program region that made them.
  void pushScope() { scopes.emplace_back(); }
  void popScope(Location loc) {
    for (Value allocation : scopes.back())
      memref::DeallocOp::create(builder, loc, allocation);
    scopes.pop_back();
  }

  OpBuilder &builder;
  std::function<void()> countBuffer;
  /// Where the block is, for a kernel that asks (obs.block_id, obs.extent):
  /// arguments of its function.
  KernelOp positioned;
  Value blockIdArgument;
  /// The runner's report of a place an obs.index reads outside its array.
  func::FuncOp indexReport;
  SmallVector<Value> extentArguments;
  /// A global scatter's memref (the launch's, whole) and, without a
  /// combine, its table of written places, shared by the launch's blocks:
  /// arguments of the block function.
  llvm::DenseMap<Operation *, std::pair<Value, Value>> globalScatters;
  /// The `obs.global` arguments' buffers (by their first memref) whose
  /// places at or past each memref's length are absent: the lengths, and
  /// what an absent place of each reads as.
  llvm::DenseMap<Value, std::pair<SmallVector<Value>, SmallVector<TypedAttr>>>
      presentLengths;
  llvm::DenseMap<Value, Buffer> buffers;
  SmallVector<SmallVector<Value>> scopes;
};

} // namespace mlir::obs::reference

#endif // OBS_LIB_CONVERSION_OBSTOREFERENCE_REFERENCELOWERING_H
