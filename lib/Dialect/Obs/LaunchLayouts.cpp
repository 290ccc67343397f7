//===- LaunchLayouts.cpp - proving where a launch's blocks read and write -===//
//
// A launch's layouts are affine maps (block, element) -> index with floordiv
// and mod, which no cheap symbolic argument covers in general, so they are
// checked exactly: every block, every element, every memref. A bitonic merge
// stage over 2^20 elements visits two million places; the maps are compiled
// to a small stack program first, so that is a few milliseconds.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::obs;

namespace {
/// An affine expression of (block, element) as a postfix program.
class CompiledLayout {
public:
  explicit CompiledLayout(AffineExpr expr) { compile(expr); }

  /// The index, or none when the expression divides by zero.
  std::optional<int64_t> operator()(int64_t block, int64_t element) const {
    int64_t stack[32];
    unsigned depth = 0;
    for (const Step &step : steps) {
      switch (step.kind) {
      case Kind::Block:
        stack[depth++] = block;
        continue;
      case Kind::Element:
        stack[depth++] = element;
        continue;
      case Kind::Constant:
        stack[depth++] = step.constant;
        continue;
      default:
        break;
      }
      int64_t rhs = stack[--depth];
      int64_t &lhs = stack[depth - 1];
      switch (step.kind) {
      case Kind::Add:
        lhs += rhs;
        break;
      case Kind::Mul:
        lhs *= rhs;
        break;
      case Kind::FloorDiv:
        if (rhs == 0)
          return std::nullopt;
        lhs = llvm::divideFloorSigned(lhs, rhs);
        break;
      case Kind::CeilDiv:
        if (rhs == 0)
          return std::nullopt;
        lhs = llvm::divideCeilSigned(lhs, rhs);
        break;
      case Kind::Mod:
        if (rhs == 0)
          return std::nullopt;
        lhs = llvm::mod(lhs, rhs);
        break;
      default:
        break;
      }
    }
    return stack[0];
  }

  /// Whether the expression is too deep for the evaluator's stack.
  bool tooDeep() const { return maxDepth > 32; }

private:
  enum class Kind { Block, Element, Constant, Add, Mul, FloorDiv, CeilDiv, Mod };
  struct Step {
    Kind kind;
    int64_t constant = 0;
  };

  void compile(AffineExpr expr) {
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
  void push(Step step) {
    steps.push_back(step);
    maxDepth = std::max(maxDepth, ++depth);
  }

  SmallVector<Step> steps;
  unsigned depth = 0, maxDepth = 0;
};
} // namespace

LogicalResult LaunchOp::verifyLayoutPlaces(KernelOp kernel) {
  SmallVector<Value> memrefs(getInputs());
  llvm::append_range(memrefs, getOutputs());
  SmallVector<AffineMap> layouts = getLayoutsOrChunks(kernel);
  // The length of each memref's array, in the order of the memrefs.
  SmallVector<uint64_t> lengths;
  for (TypeRange arrays : {kernel.getArgumentTypes(), kernel.getResultTypes()})
    for (Type type : arrays) {
      auto array = cast<ArrType>(type);
      lengths.append(getFlattenedSize(array.getLeafType()), array.getLength());
    }
  int64_t grid = static_cast<int64_t>(getGrid());
  llvm::DenseMap<Value, llvm::BitVector> written;
  for (auto [index, layout] : llvm::enumerate(layouts)) {
    CompiledLayout place(layout.getResult(0));
    if (place.tooDeep())
      return emitOpError() << "layout " << index
                           << " is too deeply nested to check";
    bool isOutput = index >= getInputs().size();
    auto type = cast<MemRefType>(memrefs[index].getType());
    int64_t extent = type.getShape().front();
    // Two views of one memref (a merge's pairs) share its places.
    llvm::BitVector *places = nullptr;
    if (isOutput)
      places = &written.try_emplace(memrefs[index], llvm::BitVector(extent))
                    .first->second;
    int64_t length = static_cast<int64_t>(lengths[index]);
    for (int64_t block = 0; block < grid; ++block) {
      for (int64_t element = 0; element < length; ++element) {
        std::optional<int64_t> at = place(block, element);
        if (!at || *at < 0 || *at >= extent)
          return emitOpError()
                 << "layout " << index << " places element " << element
                 << " of block " << block << " at "
                 << (at ? std::to_string(*at) : std::string("no index"))
                 << ", outside " << type;
        if (!places)
          continue;
        if (places->test(*at))
          return emitOpError()
                 << "layout " << index << " writes index " << *at
                 << " of an output a second time, for element " << element
                 << " of block " << block;
        places->set(*at);
      }
    }
  }
  return success();
}
