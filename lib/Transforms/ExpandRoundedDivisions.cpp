//===- ExpandRoundedDivisions.cpp - floordivsi, ceildivsi by divsi --------===//
//
// obs-expand-rounded-divisions: arith.floordivsi and arith.ceildivsi as the
// truncating quotient, adjusted by one where the remainder says so (see
// the pass's description for the two upstream defects this avoids).
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSEXPANDROUNDEDDIVISIONS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

/// `op` (a floordivsi or a ceildivsi of integers or indices) as divsi,
/// remsi and a select, at `op`; the op is left for its caller to erase.
static Value expandRoundedDivision(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value dividend = op->getOperand(0), divisor = op->getOperand(1);
  Type type = dividend.getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  Value one = arith::ConstantOp::create(b, loc, b.getOneAttr(type));
  Value quotient = arith::DivSIOp::create(b, loc, dividend, divisor);
  Value remainder = arith::RemSIOp::create(b, loc, dividend, divisor);
  // The exact quotient is not a whole number, and it is positive (the
  // remainder, which has the dividend's sign, has the divisor's) or
  // negative: the ceiling is one above the truncated quotient of a positive
  // one, the floor one below that of a negative one. Neither can overflow.
  Value inexact =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, remainder, zero);
  Value sameSigns = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, remainder, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, divisor, zero));
  bool ceiling = isa<arith::CeilDivSIOp>(op);
  Value adjusted =
      ceiling ? arith::AddIOp::create(b, loc, quotient, one).getResult()
              : arith::SubIOp::create(b, loc, quotient, one).getResult();
  Value moves = arith::AndIOp::create(
      b, loc, inexact,
      ceiling
          ? sameSigns
          : arith::XOrIOp::create(b, loc, sameSigns,
                                  arith::ConstantIntOp::create(b, loc, 1, 1)));
  return arith::SelectOp::create(b, loc, moves, adjusted, quotient);
}

namespace {
struct ObsExpandRoundedDivisionsPass
    : mlir::obs::impl::ObsExpandRoundedDivisionsBase<
          ObsExpandRoundedDivisionsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> divisions;
    getOperation()->walk([&](Operation *op) {
      // Scalars: a vector's division is lowered element by element.
      if (isa<arith::FloorDivSIOp, arith::CeilDivSIOp>(op) &&
          op->getResult(0).getType().isIntOrIndex())
        divisions.push_back(op);
    });
    for (Operation *op : divisions) {
      op->getResult(0).replaceAllUsesWith(expandRoundedDivision(op));
      op->erase();
    }
    addToStatistic(*this, numExpanded, "expanded", divisions.size());
  }
};
} // namespace
