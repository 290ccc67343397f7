//===- CompiledLayout.h - a launch layout, evaluated fast -------*- C++ -*-===//
//
// A launch's layouts are affine maps (block, element) -> index with floordiv
// and mod, which no cheap symbolic argument covers in general, so the launch
// proof evaluates them at every block and element. A bitonic merge stage
// over 2^20 elements visits two million places; the map is compiled to a
// small stack program first, and run over a block's elements at once.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_DIALECT_OBS_COMPILEDLAYOUT_H
#define OBS_DIALECT_OBS_COMPILEDLAYOUT_H

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::obs {

/// An affine expression of (block, element) as a postfix program.
class CompiledLayout {
public:
  explicit CompiledLayout(AffineExpr expr);

  /// The index, or none when the expression divides by zero or overflows.
  std::optional<int64_t> operator()(int64_t block, int64_t element) const;

  /// The indices of elements [first, first + count) of `block`, into
  /// `out`, each step of the program run over all of them at once (a
  /// block's places, where one evaluation at a time spent most of its time
  /// dispatching steps); false when any of them divides by zero or
  /// overflows, which operator() then says of each. `scratch` holds the
  /// stack.
  bool evaluateRange(int64_t block, int64_t first, size_t count, int64_t *out,
                     std::vector<int64_t> &scratch) const;

  /// Whether the expression is too deep for the evaluator's stack.
  bool tooDeep() const { return maxDepth > kStackDepth; }

private:
  static constexpr unsigned kStackDepth = 32;
  enum class Kind {
    Block,
    Element,
    Constant,
    Add,
    Mul,
    FloorDiv,
    CeilDiv,
    Mod
  };
  struct Step {
    Kind kind;
    /// A constant's value; for an operation, its right operand's where
    /// `constantRight` (nothing is pushed for it then).
    int64_t constant = 0;
    bool constantRight = false;
  };

  /// `lhs` op `rhs` into `lhs` for an operation `kind`, as both
  /// evaluators compute it; false where it divides by zero or overflows.
  static bool apply(Kind kind, int64_t &lhs, int64_t rhs);
  void compile(AffineExpr expr);
  void push(Step step);

  SmallVector<Step> steps;
  unsigned depth = 0, maxDepth = 0;
};

} // namespace mlir::obs

#endif // OBS_DIALECT_OBS_COMPILEDLAYOUT_H
