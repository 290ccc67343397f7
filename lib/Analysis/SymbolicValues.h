//===- SymbolicValues.h - integer values as quasi-affine pieces -*- C++ -*-===//
//
// The values of a gpu.func's index arithmetic as the symbolic proof
// (Obs/Analysis/SymbolicHazards.h) knows them: for every thread at once,
// quasi-affine expressions in the thread id (dim 0) and the loop counters
// (dims 1 and up), split into pieces by the selects, compares and branches
// that choose between them, and the Presburger sets that decide questions
// about them. Internal to lib/Analysis.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_LIB_ANALYSIS_SYMBOLICVALUES_H
#define OBS_LIB_ANALYSIS_SYMBOLICVALUES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <optional>
#include <unordered_map>

namespace mlir::obs::symbolic {

/// `expr >= 0`, or `expr == 0`.
struct Constraint {
  AffineExpr expr;
  bool equality;
};
using Conjunction = SmallVector<Constraint, 4>;

/// Where `conditions` hold, a value is `expr`; a null `expr` is data: any
/// value, as the simulation takes a value read from memory to be.
struct Piece {
  Conjunction conditions;
  AffineExpr expr;
};

/// A value as the proof knows it: pieces that cover every case its selects
/// and branches make, or nothing, when `unsupported` (the op whose result
/// the proof cannot express, though the simulation evaluates it).
struct Symbolic {
  SmallVector<Piece, 2> pieces;
  Operation *unsupported = nullptr;
};

/// A value's pieces multiply through selects and compares; past this many
/// the value is left unexpressed rather than the sets grown without bound.
constexpr size_t kMaxPieces = 64;

/// Whether a constant constraint holds (true), fails (false), or the
/// constraint is not constant.
inline std::optional<bool> constantTruth(const Constraint &constraint) {
  auto constant = dyn_cast<AffineConstantExpr>(constraint.expr);
  if (!constant)
    return std::nullopt;
  return constraint.equality ? constant.getValue() == 0
                             : constant.getValue() >= 0;
}

/// `a` and `b`, without their constant truths; nullopt when one is false.
inline std::optional<Conjunction> conjoin(ArrayRef<Constraint> a,
                                          ArrayRef<Constraint> b) {
  Conjunction both;
  for (ArrayRef<Constraint> side : {a, b})
    for (const Constraint &constraint : side) {
      std::optional<bool> truth = constantTruth(constraint);
      if (truth && !*truth)
        return std::nullopt;
      if (!truth)
        both.push_back(constraint);
    }
  return both;
}

/// The least and greatest values an expression takes: a cheap test that
/// spares a Presburger set where the bounds alone decide (a place in
/// another buffer, a value that is never negative). A bound at or past
/// kFar is no bound: `hi == kFar` is +infinity and `lo == -kFar` is
/// -infinity, while a finite range's values fit 63 bits, so that no
/// 64-bit arithmetic on them wraps. (Bounds that saturated at 2^40 and
/// then took part in sums and products passed for finite ones: `t * 2^41`
/// seemed to lie in [0, 2^40], and its quotient by 2^41 to be 0.)
struct Bounds {
  static constexpr int64_t kFar = int64_t(1) << 62;
  int64_t lo, hi;

  static int64_t clamp(__int128 value) {
    return static_cast<int64_t>(
        std::max<__int128>(-kFar, std::min<__int128>(kFar, value)));
  }
  bool isFinite() const { return -kFar < lo && hi < kFar; }
  /// Whether the range is one known value.
  bool isSingle() const { return lo == hi && isFinite(); }
  bool isBelow(const Bounds &other) const { return hi < other.lo; }
};

/// The meaning of a gpu.func's integer values, op by op in program order
/// (the proof's walk sets what loops and branches define), and the
/// Presburger sets that decide facts about them.
class SymbolicValues {
public:
  SymbolicValues(gpu::GPUFuncOp func, int64_t threads)
      : func(func), context(func.getContext()), threads(threads),
        thread(getAffineDimExpr(0, context)) {}

  /// What the proof knows of `value`.
  const Symbolic &valueOf(Value value);
  void setValue(Value value, Symbolic meaning) {
    values[key(value)] = std::move(meaning);
  }
  /// Sets the results of `op`, which has no regions, from its operands.
  void evaluateResults(Operation &op);

  Symbolic constant(int64_t value) const {
    Symbolic result;
    result.pieces.push_back({{}, getAffineConstantExpr(value, context)});
    return result;
  }
  static Symbolic data() {
    Symbolic result;
    result.pieces.push_back({{}, AffineExpr()});
    return result;
  }
  static Symbolic unsupported(Operation *op) {
    Symbolic result;
    result.unsupported = op;
    return result;
  }
  /// `ifTrue` where `condition` holds and `ifFalse` where it does not: an
  /// scf.if's result, or with `needsBoth` a select's value. As in the
  /// simulation, the value is data where the condition is (a branch on data
  /// yields nothing known), and a select's where either choice is (the run
  /// knows an op's result only where it knows every operand).
  Symbolic choose(Operation *op, const Symbolic &condition,
                  const Symbolic &ifTrue, const Symbolic &ifFalse,
                  bool needsBoth);
  /// The pieces of a boolean where it is `truth`, or data (with
  /// `dataEitherWay`: a branch on data runs both ways).
  static SmallVector<Conjunction>
  casesWhere(const Symbolic &condition, bool truth, bool dataEitherWay = true);

  /// A new loop counter, whose greatest value is `counterMax` (Bounds::kFar
  /// when not known): its dim.
  unsigned addLoopCounter(int64_t counterMax);
  unsigned getNumLoops() const { return counterMax.size(); }
  /// The values `expr` (over one side's dims) takes, from the thread's and
  /// the loop counters' ranges alone.
  Bounds rangeOf(AffineExpr expr) const;
  /// `expr` floordiv and mod a positive constant, simplified where the
  /// bounds or a remainder inside decide.
  AffineExpr floorDivBy(AffineExpr expr, int64_t divisor) const;
  AffineExpr modBy(AffineExpr expr, int64_t modulus) const;
  /// Whether some integer point of `numDims` dims meets `constraints`.
  bool isSatisfiable(ArrayRef<Constraint> constraints, unsigned numDims);
  /// A point that meets `constraints`, its dims' values first when
  /// `wantValues` (none when the constraints are not all quasi-affine,
  /// and taken as met).
  std::optional<SmallVector<int64_t>>
  findPoint(ArrayRef<Constraint> constraints, unsigned numDims,
            bool wantValues);
  /// Constraints that put the thread of dims [base, base + 1 + loops) in
  /// the block and its loop counters at zero or more.
  void addDomain(Conjunction &constraints, unsigned base) const;
  unsigned getSetsChecked() const { return setsChecked; }
  /// Whether the last set checked had more local variables (floordivs
  /// and mods) than the sets decide quickly, and was taken as met.
  bool wasLastSetTooDeep() const { return lastSetTooDeep; }
  /// Whether the last set held a constraint the Presburger builder could
  /// not flatten (a coefficient past 64 bits, a negative divisor): it was
  /// taken as met.
  bool wasLastSetInexpressible() const { return lastSetInexpressible; }
  static constexpr unsigned kMaxLocals = 12;
  /// How many evaluations of a local or a row a search of a set's box of
  /// dims may take (SymbolicSets.cpp), as powers of two: 2^(12 + 2 l) for a
  /// set of l locals, at most 2^18 (a millisecond or two), and 2^24 (tens
  /// of milliseconds) past kMaxLocals, where the simplex is not tried. A
  /// search costs nanoseconds a point; the simplex costs tens of
  /// microseconds on a set of no locals, tens of milliseconds at 7 (two
  /// threads of a warp through a bit-permuted place, in 1,024 sets of one
  /// kernel), and seconds where its numbers outgrow 64 bits (12 locals, a
  /// periodic network reversed and riffled). With 2^24 for every set of
  /// many locals, searches of large boxes the simplex decides at once made
  /// one fuzzed kernel's cross-check three times as slow.
  static constexpr unsigned kBoxWorkLog2 = 12, kBoxWorkLog2PerLocal = 2,
                            kMaxBoxWorkLog2 = 18, kDeepBoxWorkLog2 = 24;
  static uint64_t getMaxBoxWork(unsigned numLocals) {
    if (numLocals > kMaxLocals)
      return uint64_t(1) << kDeepBoxWorkLog2;
    return uint64_t(1) << std::min(kBoxWorkLog2 +
                                       kBoxWorkLog2PerLocal * numLocals,
                                   kMaxBoxWorkLog2);
  }

protected:
  /// Whether `expr` is non-negative wherever `conditions` hold: what an
  /// unsigned op's meaning over the integers needs.
  bool isNonNegative(AffineExpr expr, ArrayRef<Constraint> conditions);
  /// `combine` applied piece by piece to `a` and `b` (data where either
  /// is); a null result from `combine` leaves `op` unexpressed.
  Symbolic
  combine(Operation &op, const Symbolic &a, const Symbolic &b,
          llvm::function_ref<AffineExpr(AffineExpr, AffineExpr)> combine);
  /// The cases in which the threads run the op being evaluated: what an
  /// unsigned op's meaning may assume of its operands.
  ArrayRef<Conjunction> currentPath;

  gpu::GPUFuncOp func;
  MLIRContext *context;
  int64_t threads;
  AffineExpr thread;

private:
  static void *key(Value value) { return value.getAsOpaquePointer(); }
  /// The result of `op` on values the proof knows: its integer meaning.
  Symbolic evaluate(Operation &op);
  /// The results of gpu ops and loads, which are known or data whatever
  /// their operands; nothing for other ops.
  std::optional<Symbolic> evaluateGPUOrMemory(Operation &op);
  Symbolic evaluateCompare(arith::CmpIOp compare);
  Symbolic evaluateComparison(arith::CmpIOp compare);
  Symbolic evaluateSelect(arith::SelectOp select);
  /// `op` case by case, where each case of its operands is data or
  /// constants.
  Symbolic evaluateCases(Operation &op);
  Symbolic evaluateMinMax(Operation &op);
  Symbolic evaluateBits(Operation &op, const Symbolic &value, uint64_t mask);
  /// `value` with each piece's expression `apply`'d to it under the
  /// piece's conditions (data stays data); `op` unexpressed where `apply`
  /// gives none.
  Symbolic mapExpressions(
      Operation &op, const Symbolic &value,
      function_ref<AffineExpr(AffineExpr, ArrayRef<Constraint>)> apply);
  /// `value` as the `width`-bit integer the simulation keeps
  /// (wrapToWidth): an expression e is ((e + 2^(w-1)) mod 2^w) - 2^(w-1),
  /// which the bounds reduce to e where it fits. At 64 bits, where the
  /// wrap has no quasi-affine form, an expression the bounds do not keep
  /// within 63 bits leaves `op` unexpressed. What the symbolic values
  /// compute is the integers' arithmetic; the program's is modular.
  Symbolic truncated(Operation &op, const Symbolic &value, unsigned width);
  /// `value`, a `width`-bit integer, zero-extended: e mod 2^w.
  Symbolic zeroExtended(Operation &op, const Symbolic &value, unsigned width);
  /// `value`, a `width`-bit integer, sign-extended: itself, but for an i1,
  /// whose true is 1 as kept and -1 extended.
  Symbolic signExtended(Operation &op, const Symbolic &value, unsigned width);

  /// Each value's meaning, by its opaque pointer: a node map, so that a
  /// reference to one stays valid while others are added.
  std::unordered_map<void *, Symbolic> values;
  /// Each loop's greatest counter (by its dim less one).
  SmallVector<int64_t, 4> counterMax;
  unsigned setsChecked = 0;
  bool lastSetTooDeep = false, lastSetInexpressible = false;
};

} // namespace mlir::obs::symbolic

#endif // OBS_LIB_ANALYSIS_SYMBOLICVALUES_H
