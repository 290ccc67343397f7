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
    int64_t &lhs = stack[top - 1];
    switch (step.kind) {
    case Kind::Add:
      if (llvm::AddOverflow(lhs, rhs, lhs))
        return std::nullopt;
      break;
    case Kind::Mul:
      if (llvm::MulOverflow(lhs, rhs, lhs))
        return std::nullopt;
      break;
    case Kind::FloorDiv:
      if (rhs == 0 || (lhs == INT64_MIN && rhs == -1))
        return std::nullopt;
      lhs = llvm::divideFloorSigned(lhs, rhs);
      break;
    case Kind::CeilDiv:
      if (rhs == 0 || (lhs == INT64_MIN && rhs == -1))
        return std::nullopt;
      lhs = llvm::divideCeilSigned(lhs, rhs);
      break;
    case Kind::Mod:
      if (rhs == 0 || (lhs == INT64_MIN && rhs == -1))
        return std::nullopt;
      lhs = llvm::mod(lhs, rhs);
      break;
    default:
      break;
    }
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
    bool powerOfTwo = !rhs && step.constant > 0 &&
                      llvm::isPowerOf2_64(static_cast<uint64_t>(step.constant));
    unsigned shift = powerOfTwo ? llvm::Log2_64(step.constant) : 0;
    switch (step.kind) {
    case Kind::Add:
      for (size_t k = 0; k < count; ++k)
        failed |= llvm::AddOverflow(lhs[k], right[k * rightStride], lhs[k]);
      break;
    case Kind::Mul:
      for (size_t k = 0; k < count; ++k)
        failed |= llvm::MulOverflow(lhs[k], right[k * rightStride], lhs[k]);
      break;
    case Kind::FloorDiv:
    case Kind::CeilDiv:
    case Kind::Mod:
      if (powerOfTwo && step.kind != Kind::CeilDiv) {
        int64_t mask = step.constant - 1;
        for (size_t k = 0; k < count; ++k)
          lhs[k] = step.kind == Kind::Mod ? (lhs[k] & mask) : (lhs[k] >> shift);
        break;
      }
      for (size_t k = 0; k < count; ++k) {
        int64_t divisor = right[k * rightStride];
        if (divisor == 0 || (lhs[k] == INT64_MIN && divisor == -1)) {
          failed = true;
          continue;
        }
        lhs[k] = step.kind == Kind::FloorDiv
                     ? llvm::divideFloorSigned(lhs[k], divisor)
                 : step.kind == Kind::CeilDiv
                     ? llvm::divideCeilSigned(lhs[k], divisor)
                     : llvm::mod(lhs[k], divisor);
      }
      break;
    default:
      break;
    }
  }
  std::copy_n(row(0), count, out);
  return !failed;
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
