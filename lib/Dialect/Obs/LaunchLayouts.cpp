//===- LaunchLayouts.cpp - a launch layout, evaluated fast ----------------===//

#include "Obs/Dialect/Obs/CompiledLayout.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace mlir;
using namespace mlir::obs;

CompiledLayout::CompiledLayout(AffineExpr expr) { compile(expr); }

std::optional<int64_t> CompiledLayout::operator()(int64_t block,
                                                  int64_t element) const {
  int64_t stack[kStackDepth];
  unsigned top = 0;
  for (const Step &step : steps) {
    switch (step.kind) {
    case Kind::Block:
      stack[top++] = block;
      continue;
    case Kind::Element:
      stack[top++] = element;
      continue;
    case Kind::Constant:
      stack[top++] = step.constant;
      continue;
    default:
      break;
    }
    int64_t rhs = step.constantRight ? step.constant : stack[--top];
    if (!apply(step.kind, stack[top - 1], rhs))
      return std::nullopt;
  }
  return stack[0];
}

bool CompiledLayout::evaluateRange(int64_t block, int64_t first, size_t count,
                                   int64_t *out,
                                   std::vector<int64_t> &scratch) const {
  scratch.resize(std::max<size_t>(maxDepth, 1) * count);
  unsigned top = 0;
  auto row = [&](unsigned at) { return scratch.data() + at * count; };
  bool failed = false;
  for (const Step &step : steps) {
    switch (step.kind) {
    case Kind::Block:
      std::fill_n(row(top++), count, block);
      continue;
    case Kind::Element: {
      int64_t *elements = row(top++);
      for (size_t k = 0; k < count; ++k)
        elements[k] = first + static_cast<int64_t>(k);
      continue;
    }
    case Kind::Constant:
      std::fill_n(row(top++), count, step.constant);
      continue;
    default:
      break;
    }
    const int64_t *rhs = step.constantRight ? nullptr : row(--top);
    int64_t *lhs = row(top - 1);
    // The right operands: a row, or the constant in every place (a row
    // of one, read at 0).
    const int64_t *right = rhs ? rhs : &step.constant;
    size_t rightStride = rhs ? 1 : 0;
    // A division by a positive power of two, the usual divisor, is a
    // shift, and its remainder a mask (floor semantics: both are exact for
    // negative dividends in two's complement).
    if (!rhs && (step.kind == Kind::FloorDiv || step.kind == Kind::Mod) &&
        step.constant > 0 &&
        llvm::isPowerOf2_64(static_cast<uint64_t>(step.constant))) {
      unsigned shift = llvm::Log2_64(step.constant);
      int64_t mask = step.constant - 1;
      for (size_t k = 0; k < count; ++k)
        lhs[k] = step.kind == Kind::Mod ? (lhs[k] & mask) : (lhs[k] >> shift);
      continue;
    }
    for (size_t k = 0; k < count; ++k)
      failed |= !apply(step.kind, lhs[k], right[k * rightStride]);
  }
  std::copy_n(row(0), count, out);
  return !failed;
}

bool CompiledLayout::apply(Kind kind, int64_t &lhs, int64_t rhs) {
  switch (kind) {
  case Kind::Add:
    return !llvm::AddOverflow(lhs, rhs, lhs);
  case Kind::Mul:
    return !llvm::MulOverflow(lhs, rhs, lhs);
  default:
    break;
  }
  // The targets compute a layout as affine::expandAffineExpr writes it,
  // in 64-bit arithmetic: a ceildiv negates its dividend first, which
  // wraps for the least integer (the proof's exact quotient was -2^62
  // where every target's was 2^62, so it proved places the launch never
  // wrote: an adversarial run). Such a place is no place here either.
  if (rhs == 0 || (lhs == INT64_MIN && (rhs == -1 || kind == Kind::CeilDiv)))
    return false;
  lhs = kind == Kind::FloorDiv  ? llvm::divideFloorSigned(lhs, rhs)
        : kind == Kind::CeilDiv ? llvm::divideCeilSigned(lhs, rhs)
                                : llvm::mod(lhs, rhs);
  return true;
}

void CompiledLayout::compile(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    push({dim.getPosition() == 0 ? Kind::Block : Kind::Element});
    return;
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    push({Kind::Constant, constant.getValue()});
    return;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  compile(binary.getLHS());
  // A constant right operand (a stride, a divisor) is the operation's own.
  auto constantRight = dyn_cast<AffineConstantExpr>(binary.getRHS());
  if (!constantRight)
    compile(binary.getRHS());
  Kind kind = Kind::Add;
  switch (expr.getKind()) {
  case AffineExprKind::Mul:
    kind = Kind::Mul;
    break;
  case AffineExprKind::FloorDiv:
    kind = Kind::FloorDiv;
    break;
  case AffineExprKind::CeilDiv:
    kind = Kind::CeilDiv;
    break;
  case AffineExprKind::Mod:
    kind = Kind::Mod;
    break;
  default:
    break;
  }
  if (constantRight) {
    steps.push_back({kind, constantRight.getValue(), /*constantRight=*/true});
    return;
  }
  steps.push_back({kind});
  --depth;
}

void CompiledLayout::push(Step step) {
  steps.push_back(step);
  maxDepth = std::max(maxDepth, ++depth);
}
