//===- ElementEmitter.h - emits the index functions of pull arrays -*- C++
//-*-===//
//
// Obsidian's arrays are index functions; this is the machine that turns them
// into IR. Asked for one element of a pull array, the emitter follows the
// array back through the ops that define it (each one's PullArrayOpInterface)
// until it reaches an array that has a *source*: a buffer the caller has
// materialised, read through a LeafReader. Scalars the element code needs are
// re-emitted at the insertion point; region arguments are bound to elements.
//
// The reference target gives every array of a program a source (each op is
// materialised by its own loop); the kernel lowering gives sources only to
// kernel arguments and synced arrays, so each stage's pure computation is
// inlined into the thread that computes an element, as Obsidian does.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_DIALECT_OBS_ELEMENTEMITTER_H
#define OBS_DIALECT_OBS_ELEMENTEMITTER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <limits>

namespace mlir::obs {

/// Reads one leaf of a materialised array: given the leaf path (one index per
/// nesting level, outermost first), emits and returns its flattened scalars.
using LeafReader =
    std::function<SmallVector<Value>(OpBuilder &, Location, ValueRange path)>;

/// Emits one scalar the caller knows how to compute (the block's index).
using ScalarReader = std::function<Value(OpBuilder &, Location)>;

/// Emits what a target does, as the program runs, where a place an
/// obs.index reads is outside its array: `inside` is the check (an i1),
/// `index` the place and `length` the array's. The ref and cpu targets
/// report it to the runner (Obs/Support/RuntimeFunctions.h).
using IndexReport = std::function<void(OpBuilder &, Location, Value inside,
                                       Value index, uint64_t length)>;

/// An element of a pull array as a region receives it: the flattened scalars
/// of a scalar or tuple element, or, for a nested array, the array and the
/// outer indices that select it (evaluated lazily, leaf by leaf).
struct Element {
  SmallVector<Value> scalars;
  Value array;
  SmallVector<Value> prefix;

  bool isNestedArray() const { return static_cast<bool>(array); }
};

class ElementEmitter {
public:
  ElementEmitter(OpBuilder &builder, Location loc);

  OpBuilder &getBuilder() { return builder; }
  Location getLoc() const { return loc; }

  /// Makes the emitter read `array` through `reader` instead of following its
  /// definition.
  void setSource(Value array, LeafReader reader);

  /// Makes the emitter read `array` (a source) in every element together: a
  /// read of it, or a value computed from one, that the element code makes
  /// outside a branch is emitted before the branch even where only the
  /// branch uses it (the emitter otherwise computes values where they are
  /// needed). Reads that are shuffles must be, since every lane of a warp
  /// runs a shuffle together.
  void setReadEverywhere(Value array) { readEverywhere[array] = true; }

  /// Makes the emitter compute the scalar `value` (the result of an op with
  /// no index function, like obs.block_id) through `reader`, wherever it is
  /// needed.
  void setScalarSource(Value value, ScalarReader reader);
  /// Scalar sources for where a block is, for the obs.block_id and
  /// obs.extent ops inside `root`: `blockId` computes the block's index and
  /// `extentOf(k)` the present elements of the kernel's argument `k`.
  void setBlockPosition(
      Operation *root, ScalarReader blockId,
      std::function<Value(OpBuilder &, Location, unsigned)> extentOf);

  /// Says that `array`'s reader (see setSource) reads any place, one outside
  /// the array as a value of the caller's choosing (an obs.global
  /// argument's absent value): an obs.index of it needs no check.
  void setReadsAnyPlace(Value array) { anyPlace.insert(array); }
  bool readsAnyPlace(Value array) const { return anyPlace.contains(array); }

  /// Says what ranges the values the caller computes with take (a thread id
  /// from 0 to the block's threads less one), so that a place inside its
  /// array by range (inferIntegerRange) needs no check.
  void
  setValueRange(std::function<std::optional<ConstantIntRanges>(Value)> range) {
    valueRange = std::move(range);
  }

  /// Makes every place an obs.index reads that is not known to be inside
  /// its array call `report` where it is outside (see emitCheckedIndex).
  void setIndexReport(IndexReport report) { indexReport = std::move(report); }

  /// The place `index` of an array of `length` elements, as an obs.index at
  /// `at` reads it. One inside the array by its range (a constant, or what
  /// setValueRange and arith's range inference give) is itself. Any other is
  /// checked, `index < length` (an arith.cmpi tagged obs.index_bounds,
  /// located at `at`), which the proof evaluates in every thread, and the
  /// place read is `inside ? index : 0`: no read leaves its array, on any
  /// target, whatever the index (the report, if any, says so as it runs).
  Value emitCheckedIndex(Value index, uint64_t length, Location at);
  /// The index that `place`, a result of emitCheckedIndex, checks: what the
  /// place is wherever the proof holds. Any other value is itself.
  static Value getUncheckedIndex(Value place);

  /// Poison of `types`: what a read of an array of no elements gives, where
  /// its check fails (an obs.index of it is never right).
  SmallVector<Value> emitPoison(TypeRange types) { return placeholders(types); }

  /// Whether some element could not be emitted; the error has been reported
  /// (except for the read limit's, which is the caller's to report) and
  /// placeholders (poison) stand for the missing values.
  bool failed() const { return reportedErrorFlag || exceededReadLimit(); }

  /// Stops reading arrays after `limit` reads, of arrays with a reader
  /// (in memory) and arrays followed back through their definitions alike:
  /// fused element code grows with the product of the reads of every step
  /// since the last sync (`odds` reads its input three times, so n unsynced
  /// odds inline (3^n - 1) / 2 reads), and past some size lowering and
  /// compiling it takes minutes.
  /// Over the limit the emitter fails and `exceededReadLimit` says why.
  void setReadLimit(uint64_t limit) { readLimit = limit; }
  bool exceededReadLimit() const { return fusedReads > readLimit; }
  /// Whether an error was reported: a failure other than the read limit's.
  bool reportedError() const { return reportedErrorFlag; }
  /// Reads of arrays so far (see setReadLimit).
  uint64_t getFusedReads() const { return fusedReads; }

  /// Emits the flattened scalars of the leaf of `array` at `path`, which has
  /// one index per nesting level of the array's type.
  SmallVector<Value> emitLeaf(Value array, ValueRange path);

  /// Element `index` of `array`, as a region argument receives it.
  Element emitElement(Value array, Value index);

  /// Emits the value of the scalar `value` at the insertion point.
  Value emitScalar(Value value);
  SmallVector<Value> emitScalars(ValueRange values);

  /// Binds the block arguments of `block`, from `firstArg` on, to the
  /// elements in order (a scalar or tuple element binds as many arguments as
  /// it has scalars, a nested array one). Bindings live in the current scope.
  void bindArguments(Block &block, ArrayRef<Element> elements,
                     unsigned firstArg = 0);
  /// Evaluates an element region (one ending in `obs.yield`) on `arguments`
  /// in a scope of its own and returns the flattened scalars it yields.
  SmallVector<Value> emitRegionOn(Region &region, ArrayRef<Element> arguments);
  /// The same, for arguments that are flattened scalars.
  SmallVector<Value> emitRegionOn(Region &region, ValueRange lhs,
                                  ValueRange rhs);

  /// Binds a scalar block argument to `value` in the current scope.
  void bindScalar(Value argument, Value value) { mapScalar(argument, value); }

  /// Binds an array-typed block argument, in the current scope, to a virtual
  /// array whose leaves `reader` emits (a half, a segment, a nested element).
  void bindArray(Value argument, LeafReader reader);

  /// A reader for the nested array at `prefix` of `array`.
  LeafReader nestedReader(Value array, ValueRange prefix);

  /// The leaf at `innerPath` of what a region yields: the yielded scalars when
  /// `innerPath` is empty, otherwise the leaf of the single yielded array.
  SmallVector<Value> emitYielded(ValueRange yielded, ValueRange innerPath);

  /// Emits `cond ? thenFn() : elseFn()`, both of which return values of
  /// `types`. A constant condition emits only the branch taken; otherwise
  /// the branches are emitted into an scf.if, each in a scope of its own, so
  /// an element that is out of bounds in the branch not taken is never read.
  SmallVector<Value>
  emitChoice(Value cond, TypeRange types,
             llvm::function_ref<SmallVector<Value>()> thenFn,
             llvm::function_ref<SmallVector<Value>()> elseFn);

  /// Index arithmetic that folds when its operands are constants.
  Value constantIndex(int64_t value);
  Value addIndex(Value lhs, Value rhs);
  Value addIndex(Value lhs, int64_t rhs);
  Value subIndex(Value lhs, Value rhs);
  Value mulIndex(Value lhs, int64_t rhs);
  Value divIndex(Value lhs, int64_t rhs);
  Value remIndex(Value lhs, int64_t rhs);
  Value ultIndex(Value lhs, int64_t rhs);
  Value eqIndex(Value lhs, int64_t rhs);

  /// `op`, index arithmetic by a constant (or a sum) on the emitted
  /// `operands`, through the helpers above; null for any other op.
  Value emitIndexArithmetic(Operation *op, const IRMapping &operands);

  /// A scope of bindings and emitted values. Values emitted inside it are
  /// forgotten when it ends, so code emitted in a nested block (an scf.if
  /// branch, a loop body) is never reused where it does not dominate.
  ///
  /// A scope that *isolates* a region hides what outer scopes know about the
  /// values defined in that region. `repeat` needs it: evaluating iteration
  /// k-1 of its body happens inside the evaluation of iteration k, and must
  /// not reuse iteration k's values.
  class Scope {
  public:
    explicit Scope(ElementEmitter &emitter, Region *isolated = nullptr);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    ElementEmitter &emitter;
  };

private:
  /// What one scope knows: scalars already emitted or bound, and arrays bound
  /// to readers. The outermost scope holds the caller's sources.
  struct Bindings {
    IRMapping scalars;
    llvm::DenseMap<Value, LeafReader> arrays;
    Region *isolated = nullptr;
  };

  /// Whether a lookup of `value` may not go past `scope` to outer scopes.
  static bool stopsAt(const Bindings &scope, Value value);

  Value lookupScalar(Value value) const;
  /// The range of `value` by inferIntegerRange within `depth` ops, with
  /// the ranges setValueRange gives.
  std::optional<ConstantIntRanges> inferRange(Value value,
                                              unsigned depth = 16) const;
  /// The largest value `value` can take as an unsigned index, by
  /// inferRange; none where unknown (or 2^64 - 1). It bounds the value, and
  /// says nothing of whether the op that made it wrapped.
  std::optional<uint64_t> upperBound(Value value) const;
  /// Whether `value` is a multiple of `divisor` (above 0) as the 64-bit
  /// index it is: a constant multiple, or a product by one that does not
  /// wrap (or wraps, for a power of two).
  bool isMultipleOf(Value value, uint64_t divisor) const;
  /// `sum`, an addition, as (a multiple of `divisor`, the other addend).
  std::optional<std::pair<Value, Value>>
  splitOffMultiple(Value sum, uint64_t divisor) const;
  const LeafReader *lookupArray(Value value) const;
  /// Reports `message` at `culprit` (once) and returns poison of `types`.
  SmallVector<Value> fail(Value culprit, const Twine &message, TypeRange types);
  /// Poison of `types`, standing for values that could not be emitted.
  SmallVector<Value> placeholders(TypeRange types);
  void mapScalar(Value from, Value to) { scopes.back().scalars.map(from, to); }
  /// Clones the non-obs op defining `value` with its operands emitted.
  void cloneDefiningOp(Operation *op);

  OpBuilder &builder;
  Location loc;
  SmallVector<Bindings> scopes;
  llvm::DenseMap<Value, ScalarReader> scalarSources;
  /// Where the block is (setBlockPosition).
  struct BlockPosition {
    Operation *root;
    ScalarReader blockId;
    std::function<Value(OpBuilder &, Location, unsigned)> extentOf;
  };
  std::optional<BlockPosition> blockPosition;
  IndexReport indexReport;
  std::function<std::optional<ConstantIntRanges>(Value)> valueRange;
  llvm::DenseSet<Value> anyPlace;
  /// Whether a value reads a source marked by setReadEverywhere (or is an
  /// array that does, through its definition), as far as asked.
  llvm::DenseMap<Value, bool> readEverywhere;
  bool readsEverywhere(Value value);
  bool reportedErrorFlag = false;
  uint64_t readLimit = std::numeric_limits<uint64_t>::max();
  uint64_t fusedReads = 0;
};

} // namespace mlir::obs

#endif // OBS_DIALECT_OBS_ELEMENTEMITTER_H
