//===- LaunchLayouts.cpp - a launch layout, evaluated fast ----------------===//

#include "Obs/Dialect/Obs/CompiledLayout.h"
#include "llvm/Support/MathExtras.h"

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
    int64_t rhs = stack[--top];
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
  steps.push_back({kind});
  --depth;
}

void CompiledLayout::push(Step step) {
  steps.push_back(step);
  maxDepth = std::max(maxDepth, ++depth);
}
