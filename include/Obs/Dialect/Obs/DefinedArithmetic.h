//===- DefinedArithmetic.h - element code without undefined behaviour -*- C++
//-*-===//
//
// Element code is arith and scf as MLIR defines them, where a division by
// zero is undefined behaviour and an overflowing `nsw` add, a shift by the
// width or more, a float out of an integer's range converted, and
// `ub.poison` are poison. LLVM is free to exploit either: a bounds check of a
// poison index folds away and the load runs, a division by zero traps on
// x86. obs proves kernels by running their code, so every op it emits must
// have one value on every target. The element emitter gives each op it
// emits the meaning obs documents (docs/Rationale.md, "Element code has no
// undefined behaviour"):
//
// - integers wrap: overflow flags and `exact` are dropped;
// - x / 0 is 0 and x % 0 is x (and MIN / -1 wraps to MIN, MIN % -1 is 0);
// - a shift by the width or more gives 0 (a signed right shift, the sign);
// - a float converts to an integer saturated, NaN to 0 (PTX's cvt.rzi);
// - `ub.poison` is 0;
// - a loop whose step is not positive runs no iteration.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_DIALECT_OBS_DEFINEDARITHMETIC_H
#define OBS_DIALECT_OBS_DEFINEDARITHMETIC_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include <optional>
#include <string>

namespace mlir {
namespace obs {

/// Takes out of `op` what MLIR makes poison and its folds may assume
/// away: overflow flags, `exact` and fast-math flags are dropped (integers
/// wrap), and a `ub.poison` of a scalar is replaced by 0 and erased, which
/// returns the 0. Element code means these the same on every target, so
/// obs-define-element-code does this before anything folds: a fold of
/// `x + poison` to poison, or of `(x * y nsw) / y` to `x`, would otherwise
/// choose a meaning the other targets do not.
std::optional<Value> takePoisonOut(Operation *op);

/// The range obs's meaning gives a division or remainder `op` whose
/// divisor's range (`operands[1]`, its dividend's `operands[0]`) holds zero:
/// arith's inference assumes a divisor above zero (its `x remui [0, 7]` is
/// at most 6, where obs's `8 remui 0` is 8). An unsigned quotient or
/// remainder is at most its dividend; a signed one may be anything. None
/// where arith's inference holds: `op` is no division, or its divisor
/// cannot be zero. Every range analysis obs reads asks it first.
std::optional<ConstantIntRanges>
inferDivisionByZeroRange(Operation *op, ArrayRef<ConstantIntRanges> operands);

/// Gives `op`, just created, a defined result for every operand, guarding
/// its operands and result where MLIR leaves them undefined. Returns the
/// values that stand for its results from now on: its own, or the guarded
/// ones (`op` itself may then be erased, as `ub.poison` is).
SmallVector<Value> defineArithmetic(Operation *op);

/// The same for every op nested in `op`'s regions (an `scf.while` cloned
/// whole), in place.
void defineNestedArithmetic(Operation *op);

/// The rounding mode `op` asks for (an arith op's `roundingmode`) where it
/// is not to_nearest_even, which no target's lowering honours (they round
/// to nearest); empty otherwise. Element code and host code refuse it.
StringRef getUnhonouredRoundingMode(Operation *op);

/// Why `op` reads memory in a way no target defines, with what to write
/// instead; empty otherwise. A `memref.view` of bytes as an integer whose
/// width is not whole bytes (`i1`, `i7`, `i12`, or vectors of them) is:
/// LLVM's load of such an integer leaves bytes it did not store undefined,
/// and its folds made an i1 byte of 255 stay 255 on cpu and in the PTX,
/// where ref took its low bit (hunt 30: a count of flags summed to 519; an
/// i7 of 255 the same, the review after it). Host code and kernels written
/// by hand refuse it.
std::string findUndefinedView(Operation *op);

/// Why a memref of type `type` (an op's result or a function's argument)
/// cannot be in host code or a kernel written by hand: its elements take
/// other bytes in memory than obs counts (hasExactByteSize); empty
/// otherwise.
std::string findInexactMemRef(Type type);

/// Rebuilds the switch `op` as scf.ifs that compare its index with each
/// case, in order: upstream's lowering compares them in i32, so index 0
/// met `case 4294967296` (and 2^32 met `case 0`). A switch of no cases is
/// left as it is.
void defineIndexSwitch(scf::IndexSwitchOp op);

/// Gives `op`, of host code or of a kernel written by hand, obs's meaning
/// in place: a loop (defineLoop), a switch (defineIndexSwitch), and any
/// other op (defineArithmetic); only its poison taken out where
/// `divisorChecked` (a division host code checks as it runs, stopping with
/// an error at a zero divisor).
void defineOp(Operation *op, bool divisorChecked);

/// Whether defineArithmetic gives `op` a result MLIR leaves undefined for
/// some operands (a division by zero, a shift by the width or more, a
/// conversion out of range, the minimum of +0 and -0): scalars only.
bool hasDefinedMeaning(Operation *op);

/// Why the arith or math op `op` computes differently on some target, or
/// not at all, for its types, attributes or name, with what to write
/// instead; empty where every target computes it alike. Element code, and
/// a kernel written by hand, refuse such an op.
std::string findUnportableOp(Operation *op);

/// Rebuilds `loop` as buildDefinedLoop builds one, its body moved in: a
/// counter that steps past its type's largest value ends the loop instead
/// of wrapping.
void defineLoop(scf::ForOp loop);

/// A loop buildDefinedLoop made. Where `tripLower` is set, the loop counts
/// its trips from 0 by 1, and its counter is `tripLower + i * tripStep`.
struct DefinedLoop {
  scf::ForOp loop;
  Value tripLower, tripStep;
};

/// An scf.for from `lower` to `upper` by `step`, carrying `inits`, as
/// element code's loop means it (MLIR's: lb <= iv < ub), which its lowering
/// keeps only while the counter cannot wrap. A counter of 32 bits or fewer
/// counts in i64, its bounds extended as `isUnsigned` compares them; a
/// 64-bit one that might step past its type's largest value (a step other
/// than 1, unless constant bounds leave room) counts its trips instead; a
/// loop whose step is not positive runs no iteration. Its body is empty.
DefinedLoop buildDefinedLoop(OpBuilder &builder, Location loc, Value lower,
                             Value upper, Value step, ValueRange inits,
                             bool isUnsigned);

/// The counter of `defined`, made by buildDefinedLoop over bounds of
/// `type`, as its body sees it: computed from the trip where it counts
/// trips, truncated back where it counts wider.
Value getDefinedCounter(OpBuilder &builder, const DefinedLoop &defined,
                        Type type);

} // namespace obs
} // namespace mlir

#endif // OBS_DIALECT_OBS_DEFINEDARITHMETIC_H
