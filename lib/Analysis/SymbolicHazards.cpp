//===- SymbolicHazards.cpp - races in shared memory, by Presburger sets ---===//

#include "Obs/Analysis/SymbolicHazards.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/KernelLowering/KernelLowering.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <unordered_map>

using namespace mlir;
using namespace mlir::obs;
using presburger::BoundType;

namespace {

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
std::optional<bool> constantTruth(const Constraint &constraint) {
  auto constant = dyn_cast<AffineConstantExpr>(constraint.expr);
  if (!constant)
    return std::nullopt;
  return constraint.equality ? constant.getValue() == 0
                             : constant.getValue() >= 0;
}

/// `a` and `b`, without their constant truths; nullopt when one is false.
std::optional<Conjunction> conjoin(ArrayRef<Constraint> a,
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

/// Whether `expr` is non-negative wherever the thread id and loop counters
/// are (all of them are), read off its form: the common case, which spares
/// a set.
bool isObviouslyNonNegative(AffineExpr expr) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() >= 0;
  if (isa<AffineDimExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  switch (binary.getKind()) {
  case AffineExprKind::Add:
  case AffineExprKind::Mul:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    return isObviouslyNonNegative(binary.getLHS()) &&
           isObviouslyNonNegative(binary.getRHS());
  case AffineExprKind::Mod:
    return true; // By a positive constant: in [0, divisor).
  default:
    return false;
  }
}

/// How many times `loop` runs, when its bounds are constants.
std::optional<int64_t> getConstantTripCount(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips)
    return std::nullopt;
  return trips->getSExtValue();
}

/// One load, store or atomic of shared memory.
struct SharedAccess {
  Operation *op;
  /// Its position in program order, and the barriers (of any scope, and
  /// block barriers) its thread has passed: in a loop that holds
  /// barriers, affine in the loop counters.
  unsigned order;
  AffineExpr phase, epoch;
  bool write, atomic, checkedScatter;
  uint8_t atomicKind;
  /// Its cases: under `conditions` (its branches', its buffer's and its
  /// place's), it covers the bytes [begin, begin + bytes) of `root` (a
  /// workgroup attribution), in a buffer of `owner`; `data` when its place
  /// depends on data, and it stands for its whole buffer.
  struct Place {
    Conjunction conditions;
    Value root;
    Attribute owner;
    AffineExpr begin;
    int64_t bytes;
    bool data;
  };
  SmallVector<Place, 2> places;
  /// The loops around it, outermost first.
  SmallVector<unsigned, 2> loops;
};

/// A workgroup buffer or a view of one, where `conditions` hold (a memref
/// chosen by a select is one buffer or another): its bytes begin at
/// `begin` of `root`.
struct Buffer {
  Conjunction conditions;
  Value root;
  AffineExpr begin;
  MemRefType type;
  Attribute owner;
};

class SymbolicProof {
public:
  SymbolicProof(gpu::GPUFuncOp func, unsigned warpSize)
      : func(func), warpSize(warpSize), context(func.getContext()),
        thread(getAffineDimExpr(0, context)) {}

  SymbolicVerdict prove();

private:
  LogicalResult undecided(Operation *op, const Twine &why) {
    verdict.undecided = why.str();
    verdict.where = op;
    return failure();
  }
  /// Walks `region` as threads meeting `path` (a disjunction) run it;
  /// `inBranch` when inside an scf.if, where a barrier is not followed.
  LogicalResult walk(Region &region, ArrayRef<Conjunction> path, bool inBranch);
  LogicalResult visit(Operation &op, ArrayRef<Conjunction> path, bool inBranch);
  /// The barriers, and the block barriers, that one run of `region`
  /// passes, where that is a constant.
  FailureOr<std::pair<int64_t, int64_t>> countBarriers(Region &region);
  LogicalResult visitIf(scf::IfOp ifOp, ArrayRef<Conjunction> path);
  LogicalResult visitFor(scf::ForOp loop, ArrayRef<Conjunction> path);
  LogicalResult visitAccess(Operation &op, Value memref, ValueRange indices,
                            bool write, ArrayRef<Conjunction> path);
  LogicalResult visitView(memref::ViewOp view);
  LogicalResult visitMemrefSelect(arith::SelectOp select);

  const Symbolic &valueOf(Value value);
  Symbolic constant(int64_t value) {
    Symbolic result;
    result.pieces.push_back({{}, getAffineConstantExpr(value, context)});
    return result;
  }
  Symbolic data() {
    Symbolic result;
    result.pieces.push_back({{}, AffineExpr()});
    return result;
  }
  static void *key(Value value) { return value.getAsOpaquePointer(); }
  Symbolic unsupported(Operation *op) {
    Symbolic result;
    result.unsupported = op;
    return result;
  }
  /// The result of `op` on values the proof knows: its integer meaning.
  Symbolic evaluate(Operation &op);
  Symbolic evaluateCompare(arith::CmpIOp compare);
  Symbolic evaluateBits(Operation &op, const Symbolic &value, uint64_t mask);
  /// `combine` applied piece by piece to `a` and `b` (data where either
  /// is); a null result from `combine` leaves `op` unexpressed.
  Symbolic
  combine(Operation &op, const Symbolic &a, const Symbolic &b,
          llvm::function_ref<AffineExpr(AffineExpr, AffineExpr)> combine);
  /// Whether `expr` is non-negative wherever `conditions` hold: what an
  /// unsigned op's meaning over the integers needs.
  bool isNonNegative(AffineExpr expr, ArrayRef<Constraint> conditions);
  /// The pieces of a boolean where it is `truth`, or data.
  SmallVector<Conjunction> casesWhere(const Symbolic &condition, bool truth);

  void judge(const SharedAccess &a, const SharedAccess &b);
  bool isSatisfiable(ArrayRef<Constraint> constraints, unsigned numDims);
  /// Constraints that put the thread of dims [base, base + 1 + loops) in
  /// the block and its loop counters at zero or more.
  void addDomain(Conjunction &constraints, unsigned base);

  gpu::GPUFuncOp func;
  unsigned warpSize;
  MLIRContext *context;
  int64_t threads = 0;
  AffineExpr thread;
  /// Each value's meaning, by its opaque pointer: a node map, so that a
  /// reference to one stays valid while others are added.
  std::unordered_map<void *, Symbolic> values;
  llvm::DenseMap<Value, SmallVector<Buffer, 1>> buffers;
  /// The cases in which the threads run the op being visited: what an
  /// unsigned op's meaning may assume of its operands.
  ArrayRef<Conjunction> currentPath;
  /// The loops entered, as their dim positions.
  SmallVector<unsigned, 4> loopStack;
  unsigned numLoops = 0;
  unsigned order = 0;
  bool inBranch = false;
  /// The barriers (of any scope, and block barriers) passed before the op
  /// being visited.
  AffineExpr phase, epoch;
  std::vector<SharedAccess> accesses;
  SymbolicVerdict verdict;
};

} // namespace

const Symbolic &SymbolicProof::valueOf(Value value) {
  auto it = values.find(value.getAsOpaquePointer());
  if (it != values.end())
    return it->second;
  // A value from outside the function, or a block argument the walk did
  // not bind (a kernel's scalar argument): data, as the simulation has it.
  Symbolic result = data();
  if (value.getType().isIntOrIndex())
    if (auto argument = dyn_cast<BlockArgument>(value);
        argument && argument.getOwner()->getParentOp() != func)
      result = unsupported(argument.getOwner()->getParentOp());
  return values[key(value)] = std::move(result);
}

Symbolic SymbolicProof::combine(
    Operation &op, const Symbolic &a, const Symbolic &b,
    llvm::function_ref<AffineExpr(AffineExpr, AffineExpr)> combineExprs) {
  if (a.unsupported)
    return unsupported(a.unsupported);
  if (b.unsupported)
    return unsupported(b.unsupported);
  Symbolic result;
  for (const Piece &x : a.pieces)
    for (const Piece &y : b.pieces) {
      std::optional<Conjunction> conditions =
          conjoin(x.conditions, y.conditions);
      if (!conditions)
        continue;
      AffineExpr expr;
      if (x.expr && y.expr) {
        expr = combineExprs(x.expr, y.expr);
        if (!expr)
          return unsupported(&op);
      }
      result.pieces.push_back({std::move(*conditions), expr});
      if (result.pieces.size() > kMaxPieces)
        return unsupported(&op);
    }
  return result;
}

bool SymbolicProof::isNonNegative(AffineExpr expr,
                                  ArrayRef<Constraint> conditions) {
  if (isObviouslyNonNegative(expr))
    return true;
  // Negative for no thread that computes it: in none of the cases that
  // run the op.
  for (const Conjunction &where : currentPath) {
    std::optional<Conjunction> negative = conjoin(where, conditions);
    if (!negative)
      continue;
    addDomain(*negative, 0);
    negative->push_back({-expr - 1, false});
    if (isSatisfiable(*negative, 1 + numLoops))
      return false;
  }
  return true;
}

SmallVector<Conjunction> SymbolicProof::casesWhere(const Symbolic &condition,
                                                   bool truth) {
  SmallVector<Conjunction> cases;
  for (const Piece &piece : condition.pieces) {
    auto value = dyn_cast_if_present<AffineConstantExpr>(piece.expr);
    if (!piece.expr || (value && (value.getValue() != 0) == truth))
      cases.push_back(piece.conditions);
  }
  return cases;
}

Symbolic SymbolicProof::evaluateCompare(arith::CmpIOp compare) {
  const Symbolic &a = valueOf(compare.getLhs());
  const Symbolic &b = valueOf(compare.getRhs());
  if (a.unsupported || b.unsupported)
    return unsupported(a.unsupported ? a.unsupported : b.unsupported);
  using Predicate = arith::CmpIPredicate;
  Predicate predicate = compare.getPredicate();
  bool isUnsigned = predicate == Predicate::ult ||
                    predicate == Predicate::ule ||
                    predicate == Predicate::ugt || predicate == Predicate::uge;
  Symbolic result;
  AffineExpr one = getAffineConstantExpr(1, context);
  AffineExpr zero = getAffineConstantExpr(0, context);
  for (const Piece &x : a.pieces)
    for (const Piece &y : b.pieces) {
      std::optional<Conjunction> conditions =
          conjoin(x.conditions, y.conditions);
      if (!conditions)
        continue;
      if (!x.expr || !y.expr) {
        result.pieces.push_back({std::move(*conditions), AffineExpr()});
        continue;
      }
      // Unsigned compares mean the signed ones where both sides are
      // non-negative.
      if (isUnsigned && (!isNonNegative(x.expr, *conditions) ||
                         !isNonNegative(y.expr, *conditions)))
        return unsupported(compare);
      AffineExpr less = y.expr - x.expr - 1; // x < y  iff  less >= 0
      AffineExpr greater = x.expr - y.expr - 1;
      AffineExpr atMost = y.expr - x.expr, atLeast = x.expr - y.expr;
      // The cases, each a constraint and the compare's value there.
      SmallVector<std::pair<Constraint, AffineExpr>, 3> cases;
      switch (predicate) {
      case Predicate::eq:
      case Predicate::ne: {
        bool eq = predicate == Predicate::eq;
        cases = {{{atLeast, true}, eq ? one : zero},
                 {{less, false}, eq ? zero : one},
                 {{greater, false}, eq ? zero : one}};
        break;
      }
      case Predicate::slt:
      case Predicate::ult:
        cases = {{{less, false}, one}, {{atLeast, false}, zero}};
        break;
      case Predicate::sle:
      case Predicate::ule:
        cases = {{{atMost, false}, one}, {{greater, false}, zero}};
        break;
      case Predicate::sgt:
      case Predicate::ugt:
        cases = {{{greater, false}, one}, {{atMost, false}, zero}};
        break;
      case Predicate::sge:
      case Predicate::uge:
        cases = {{{atLeast, false}, one}, {{less, false}, zero}};
        break;
      }
      for (auto &[constraint, value] : cases) {
        std::optional<Conjunction> where = conjoin(*conditions, constraint);
        if (where)
          result.pieces.push_back({std::move(*where), value});
      }
      if (result.pieces.size() > kMaxPieces)
        return unsupported(compare);
    }
  return result;
}

Symbolic SymbolicProof::evaluateBits(Operation &op, const Symbolic &value,
                                     uint64_t mask) {
  // x & m, x | m and x ^ m, for a non-negative x, are sums of x's bits
  // (x floordiv 2^b) mod 2 at the bits b of m.
  if (value.unsupported)
    return unsupported(value.unsupported);
  if (llvm::popcount(mask) > 8 && !llvm::isMask_64(mask))
    return unsupported(&op);
  Symbolic result;
  for (const Piece &piece : value.pieces) {
    if (!piece.expr) {
      result.pieces.push_back(piece);
      continue;
    }
    if (!isNonNegative(piece.expr, piece.conditions))
      return unsupported(&op);
    AffineExpr x = piece.expr, expr;
    if (isa<arith::AndIOp>(op) && llvm::isMask_64(mask)) {
      expr = x % static_cast<int64_t>(mask + 1);
    } else {
      expr = isa<arith::AndIOp>(op) ? getAffineConstantExpr(0, context) : x;
      for (unsigned bit = 0; bit < 63; ++bit) {
        if (!(mask >> bit & 1))
          continue;
        int64_t weight = int64_t(1) << bit;
        AffineExpr set = x.floorDiv(weight) % 2;
        if (isa<arith::AndIOp>(op))
          expr = expr + set * weight;
        else if (isa<arith::OrIOp>(op))
          expr = expr + (1 - set) * weight;
        else
          expr = expr + (1 - set * 2) * weight;
      }
    }
    result.pieces.push_back({piece.conditions, expr});
  }
  return result;
}

Symbolic SymbolicProof::evaluate(Operation &op) {
  Value resultValue = op.getResult(0);
  Type type = resultValue.getType();
  if (!type.isIntOrIndex())
    return data();
  APInt constantValue;
  if (matchPattern(resultValue, m_ConstantInt(&constantValue)))
    return constant(type.isInteger(1)
                        ? static_cast<int64_t>(constantValue.getZExtValue())
                        : constantValue.getSExtValue());
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
    if (id.getDimension() != gpu::Dimension::x)
      return constant(0);
    Symbolic result;
    result.pieces.push_back({{}, thread});
    return result;
  }
  // As in the simulation: the lowering addresses global memory for block
  // 0; the block index the kernel's own code computes with is any.
  if (isa<gpu::BlockIdOp>(op))
    return ObsDialect::DataAttrHelper(context).isAttrPresent(&op) ? data()
                                                                  : constant(0);
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return constant(dim.getDimension() == gpu::Dimension::x ? threads : 1);
  if (isa<memref::LoadOp>(op)) {
    // A constant table's entries are known to the simulation.
    auto get = cast<memref::LoadOp>(op)
                   .getMemRef()
                   .getDefiningOp<memref::GetGlobalOp>();
    return get ? unsupported(&op) : data();
  }
  // A shuffle's value is data whatever its lanes, as the simulation has
  // it; so is poison.
  if (isa<NVVM::ShflOp, gpu::ShuffleOp, ub::PoisonOp>(op))
    return data();

  // Integer arithmetic: data in, data out.
  // An operand that is data in every case makes the result data.
  bool anyUnsupported = false, anyData = false;
  for (Value operand : op.getOperands()) {
    const Symbolic &known = valueOf(operand);
    anyUnsupported |= known.unsupported != nullptr;
    anyData |= !known.unsupported &&
               llvm::all_of(known.pieces,
                            [](const Piece &piece) { return !piece.expr; });
  }
  auto operand = [&](unsigned i) -> const Symbolic & {
    return valueOf(op.getOperand(i));
  };
  auto constantOperand = [&](unsigned i) -> std::optional<int64_t> {
    APInt value;
    if (matchPattern(op.getOperand(i), m_ConstantInt(&value)))
      return value.getSExtValue();
    return std::nullopt;
  };
  auto binary = [&](auto combineExprs) {
    return combine(op, operand(0), operand(1), combineExprs);
  };
  auto byConstant = [&](bool needsNonNegative, auto apply) -> Symbolic {
    std::optional<int64_t> divisor = constantOperand(1);
    if (!divisor || *divisor <= 0)
      return anyData ? data() : unsupported(&op);
    const Symbolic &value = operand(0);
    if (value.unsupported)
      return unsupported(value.unsupported);
    Symbolic result;
    for (const Piece &piece : value.pieces) {
      if (piece.expr && needsNonNegative &&
          !isNonNegative(piece.expr, piece.conditions))
        return unsupported(&op);
      result.pieces.push_back(
          {piece.conditions,
           piece.expr ? apply(piece.expr, *divisor) : AffineExpr()});
    }
    return result;
  };

  bool isBoolean = type.isInteger(1);
  Symbolic result =
      llvm::TypeSwitch<Operation *, Symbolic>(&op)
          .Case<arith::AddIOp>([&](auto) {
            return binary([](AffineExpr a, AffineExpr b) { return a + b; });
          })
          .Case<arith::SubIOp>([&](auto) {
            return binary([](AffineExpr a, AffineExpr b) { return a - b; });
          })
          .Case<arith::MulIOp>([&](auto) {
            return binary([](AffineExpr a, AffineExpr b) {
              if (isa<AffineConstantExpr>(a) || isa<AffineConstantExpr>(b))
                return a * b;
              return AffineExpr();
            });
          })
          .Case<arith::DivUIOp, arith::DivSIOp>([&](auto) {
            return byConstant(
                true, [](AffineExpr x, int64_t d) { return x.floorDiv(d); });
          })
          .Case<arith::FloorDivSIOp>([&](auto) {
            return byConstant(
                false, [](AffineExpr x, int64_t d) { return x.floorDiv(d); });
          })
          .Case<arith::CeilDivUIOp>([&](auto) {
            return byConstant(
                true, [](AffineExpr x, int64_t d) { return x.ceilDiv(d); });
          })
          .Case<arith::RemUIOp, arith::RemSIOp>([&](auto) {
            return byConstant(true,
                              [](AffineExpr x, int64_t d) { return x % d; });
          })
          .Case<arith::ShLIOp>([&](auto) -> Symbolic {
            std::optional<int64_t> shift = constantOperand(1);
            if (!shift || *shift < 0 || *shift > 62)
              return anyData ? data() : unsupported(&op);
            return byConstant(false, [&](AffineExpr x, int64_t) {
              return x * (int64_t(1) << *shift);
            });
          })
          .Case<arith::ShRUIOp, arith::ShRSIOp>([&](auto) -> Symbolic {
            std::optional<int64_t> shift = constantOperand(1);
            if (!shift || *shift < 0 || *shift > 62)
              return anyData ? data() : unsupported(&op);
            return byConstant(isa<arith::ShRUIOp>(op),
                              [&](AffineExpr x, int64_t) {
                                return x.floorDiv(int64_t(1) << *shift);
                              });
          })
          .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
              [&](auto) -> Symbolic {
                if (isBoolean)
                  return binary([&](AffineExpr a, AffineExpr b) {
                    auto x = dyn_cast<AffineConstantExpr>(a);
                    auto y = dyn_cast<AffineConstantExpr>(b);
                    if (!x || !y)
                      return AffineExpr();
                    int64_t p = x.getValue() != 0, q = y.getValue() != 0;
                    int64_t value = isa<arith::AndIOp>(op)  ? (p & q)
                                    : isa<arith::OrIOp>(op) ? (p | q)
                                                            : (p ^ q);
                    return getAffineConstantExpr(value, context);
                  });
                for (unsigned side : {1u, 0u})
                  if (std::optional<int64_t> mask = constantOperand(side);
                      mask && *mask >= 0)
                    return evaluateBits(op, operand(1 - side), *mask);
                return anyData ? data() : unsupported(&op);
              })
          .Case<arith::CmpIOp>(
              [&](arith::CmpIOp compare) { return evaluateCompare(compare); })
          .Case<arith::SelectOp>([&](arith::SelectOp select) -> Symbolic {
            const Symbolic &condition = valueOf(select.getCondition());
            if (condition.unsupported)
              return unsupported(condition.unsupported);
            Symbolic chosen;
            for (bool truth : {true, false}) {
              const Symbolic &side = valueOf(truth ? select.getTrueValue()
                                                   : select.getFalseValue());
              if (side.unsupported)
                return unsupported(side.unsupported);
              for (const Conjunction &where : casesWhere(condition, truth))
                for (const Piece &piece : side.pieces)
                  if (std::optional<Conjunction> both =
                          conjoin(where, piece.conditions))
                    chosen.pieces.push_back({std::move(*both), piece.expr});
            }
            if (chosen.pieces.size() > kMaxPieces)
              return unsupported(&op);
            return chosen;
          })
          .Case<arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp, arith::MaxUIOp>(
              [&](auto) -> Symbolic {
                bool isMin = isa<arith::MinSIOp, arith::MinUIOp>(op);
                bool isUnsigned = isa<arith::MinUIOp, arith::MaxUIOp>(op);
                const Symbolic &a = operand(0), &b = operand(1);
                if (a.unsupported || b.unsupported)
                  return unsupported(a.unsupported ? a.unsupported
                                                   : b.unsupported);
                Symbolic chosen;
                for (const Piece &x : a.pieces)
                  for (const Piece &y : b.pieces) {
                    std::optional<Conjunction> both =
                        conjoin(x.conditions, y.conditions);
                    if (!both)
                      continue;
                    if (!x.expr || !y.expr) {
                      chosen.pieces.push_back({std::move(*both), AffineExpr()});
                      continue;
                    }
                    if (isUnsigned && (!isNonNegative(x.expr, *both) ||
                                       !isNonNegative(y.expr, *both)))
                      return unsupported(&op);
                    // x where x <= y for a min (x >= y for a max), else y.
                    AffineExpr xFirst =
                        isMin ? y.expr - x.expr : x.expr - y.expr;
                    if (auto whereX = conjoin(*both, Constraint{xFirst, false}))
                      chosen.pieces.push_back({std::move(*whereX), x.expr});
                    if (auto whereY =
                            conjoin(*both, Constraint{-xFirst - 1, false}))
                      chosen.pieces.push_back({std::move(*whereY), y.expr});
                  }
                if (chosen.pieces.size() > kMaxPieces)
                  return unsupported(&op);
                return chosen;
              })
          .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp>(
              [&](auto) { return operand(0); })
          .Case<arith::TruncIOp>([&](auto) -> Symbolic {
            if (isBoolean)
              return anyData ? data() : unsupported(&op);
            return operand(0);
          })
          .Case<arith::ExtSIOp>([&](arith::ExtSIOp extend) -> Symbolic {
            if (!extend.getIn().getType().isInteger(1))
              return operand(0);
            // A true i1 extends to -1.
            return combine(op, operand(0), constant(0),
                           [](AffineExpr a, AffineExpr) { return -a; });
          })
          .Default([&](Operation *) {
            return anyData && !anyUnsupported ? data() : unsupported(&op);
          });
  return result;
}

LogicalResult SymbolicProof::visitIf(scf::IfOp ifOp,
                                     ArrayRef<Conjunction> path) {
  const Symbolic &condition = valueOf(ifOp.getCondition());
  if (condition.unsupported)
    return undecided(condition.unsupported,
                     "a branch condition the proof cannot express");
  Symbolic conditionCopy = condition;
  for (bool truth : {true, false}) {
    SmallVector<Conjunction> taken;
    for (const Conjunction &outer : path)
      for (const Conjunction &where : casesWhere(conditionCopy, truth))
        if (std::optional<Conjunction> both = conjoin(outer, where))
          taken.push_back(std::move(*both));
    if (taken.size() > kMaxPieces)
      return undecided(ifOp, "too many cases of branches");
    Region &region = truth ? ifOp.getThenRegion() : ifOp.getElseRegion();
    if (!taken.empty() && failed(walk(region, taken, /*inBranch=*/true)))
      return failure();
  }
  // Its results: the branch taken's yields.
  for (auto [index, result] : llvm::enumerate(ifOp.getResults())) {
    if (!result.getType().isIntOrIndex()) {
      values[key(result)] = data();
      continue;
    }
    Symbolic chosen;
    for (bool truth : {true, false}) {
      Region &region = truth ? ifOp.getThenRegion() : ifOp.getElseRegion();
      if (region.empty()) {
        chosen = unsupported(ifOp);
        break;
      }
      Symbolic yielded =
          valueOf(region.front().getTerminator()->getOperand(index));
      if (yielded.unsupported) {
        chosen = yielded;
        break;
      }
      for (const Conjunction &where : casesWhere(conditionCopy, truth))
        for (const Piece &piece : yielded.pieces)
          if (std::optional<Conjunction> both =
                  conjoin(where, piece.conditions))
            chosen.pieces.push_back({std::move(*both), piece.expr});
    }
    if (chosen.pieces.size() > kMaxPieces)
      chosen = unsupported(ifOp);
    values[key(result)] = std::move(chosen);
  }
  return success();
}

LogicalResult SymbolicProof::visitFor(scf::ForOp loop,
                                      ArrayRef<Conjunction> path) {
  const Symbolic &lower = valueOf(loop.getLowerBound());
  const Symbolic &upper = valueOf(loop.getUpperBound());
  APInt stepValue;
  auto isData = [](const Symbolic &value) {
    return llvm::any_of(value.pieces,
                        [](const Piece &piece) { return !piece.expr; });
  };
  if (lower.unsupported || upper.unsupported || isData(lower) ||
      isData(upper) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&stepValue)) ||
      stepValue.getSExtValue() <= 0)
    return undecided(loop, "a loop whose bounds the proof cannot express");
  int64_t step = stepValue.getSExtValue();
  unsigned dim = 1 + numLoops++;
  AffineExpr counter = getAffineDimExpr(dim, context);
  // The counter k runs from 0 while lower + step * k < upper.
  Symbolic inductionVar;
  SmallVector<Conjunction> body;
  for (const Piece &from : lower.pieces) {
    inductionVar.pieces.push_back(
        {from.conditions, from.expr + counter * step});
    for (const Piece &to : upper.pieces) {
      Conjunction bounds = {{counter, false},
                            {to.expr - from.expr - counter * step - 1, false}};
      std::optional<Conjunction> both = conjoin(from.conditions, to.conditions);
      if (!both)
        continue;
      for (const Conjunction &outer : path)
        if (auto within = conjoin(outer, *both))
          if (auto all = conjoin(*within, bounds))
            body.push_back(std::move(*all));
    }
  }
  if (body.size() > kMaxPieces)
    return undecided(loop, "too many cases of loop bounds");
  values[key(loop.getInductionVar())] = std::move(inductionVar);
  for (Value carried : loop.getRegionIterArgs())
    values[key(carried)] =
        carried.getType().isIntOrIndex() ? unsupported(loop) : data();
  for (Value result : loop.getResults())
    values[key(result)] =
        result.getType().isIntOrIndex() ? unsupported(loop) : data();
  // A loop that holds barriers runs as often in every thread (the
  // simulation requires it): iteration k starts after k times its body's
  // barriers.
  FailureOr<std::pair<int64_t, int64_t>> barriers =
      countBarriers(loop.getRegion());
  if (failed(barriers))
    return failure();
  auto [bodyPhases, bodyEpochs] = *barriers;
  std::optional<int64_t> trips = getConstantTripCount(loop);
  if ((bodyPhases || bodyEpochs) && !trips)
    return undecided(loop, "a loop that holds barriers and runs a number of "
                           "times the proof cannot tell");
  AffineExpr phaseBefore = phase, epochBefore = epoch;
  phase = phaseBefore + counter * bodyPhases;
  epoch = epochBefore + counter * bodyEpochs;
  loopStack.push_back(dim);
  LogicalResult walked = walk(loop.getRegion(), body, inBranch);
  loopStack.pop_back();
  phase = phaseBefore + trips.value_or(0) * bodyPhases;
  epoch = epochBefore + trips.value_or(0) * bodyEpochs;
  return walked;
}

FailureOr<std::pair<int64_t, int64_t>>
SymbolicProof::countBarriers(Region &region) {
  std::pair<int64_t, int64_t> count = {0, 0};
  for (Operation &op : region.getOps()) {
    if (isLoweredBarrier(&op)) {
      ++count.first;
      count.second += isa<gpu::BarrierOp>(op);
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      FailureOr<std::pair<int64_t, int64_t>> inner =
          countBarriers(loop.getRegion());
      if (failed(inner))
        return failure();
      if (!inner->first)
        continue;
      std::optional<int64_t> trips = getConstantTripCount(loop);
      if (!trips) {
        (void)undecided(loop, "a loop that holds barriers and runs a number "
                              "of times the proof cannot tell");
        return failure();
      }
      count.first += *trips * inner->first;
      count.second += *trips * inner->second;
      continue;
    }
    bool holdsBarrier = false;
    op.walk([&](Operation *inner) { holdsBarrier |= isLoweredBarrier(inner); });
    if (holdsBarrier) {
      (void)undecided(&op, "a barrier inside a branch");
      return failure();
    }
  }
  return count;
}

LogicalResult SymbolicProof::visitView(memref::ViewOp view) {
  auto parent = buffers.find(view.getSource());
  if (parent == buffers.end())
    return success();
  const Symbolic &shift = valueOf(view.getByteShift());
  if (shift.unsupported || shift.pieces.size() != 1 ||
      !shift.pieces.front().expr || !view.getType().hasStaticShape() ||
      !view.getType().getLayout().isIdentity())
    return undecided(view, "a view of shared memory the proof cannot "
                           "express");
  Attribute owner = ObsDialect::OwnerAttrHelper(context).getAttr(view);
  SmallVector<Buffer, 1> viewed;
  for (const Buffer &source : parent->second)
    viewed.push_back({source.conditions, source.root,
                      source.begin + shift.pieces.front().expr, view.getType(),
                      owner ? owner : source.owner});
  buffers[view.getResult()] = std::move(viewed);
  return success();
}

LogicalResult SymbolicProof::visitMemrefSelect(arith::SelectOp select) {
  auto trueCases = buffers.find(select.getTrueValue());
  auto falseCases = buffers.find(select.getFalseValue());
  if (trueCases == buffers.end() && falseCases == buffers.end())
    return success();
  const Symbolic &condition = valueOf(select.getCondition());
  if (trueCases == buffers.end() || falseCases == buffers.end() ||
      condition.unsupported)
    return undecided(select, "a choice of shared memory the proof cannot "
                             "express");
  SmallVector<Buffer, 1> chosen;
  for (bool truth : {true, false})
    for (const Conjunction &where : casesWhere(condition, truth))
      for (const Buffer &buffer : (truth ? trueCases : falseCases)->second)
        if (std::optional<Conjunction> both = conjoin(where, buffer.conditions))
          chosen.push_back({std::move(*both), buffer.root, buffer.begin,
                            buffer.type, buffer.owner});
  if (chosen.size() > kMaxPieces)
    return undecided(select, "too many cases of a choice of shared memory");
  buffers[select.getResult()] = std::move(chosen);
  return success();
}

LogicalResult SymbolicProof::visitAccess(Operation &op, Value memref,
                                         ValueRange indices, bool write,
                                         ArrayRef<Conjunction> path) {
  auto found = buffers.find(memref);
  if (found == buffers.end()) {
    // Global memory (the kernel's arguments) is the launch proof's; a
    // thread's own scratch and a constant table are no one else's.
    // Memory reached otherwise is not followed.
    Value root = memref;
    while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
      root = view.getViewSource();
    if (auto argument = dyn_cast<BlockArgument>(root);
        argument && argument.getOwner()->getParentOp() == func &&
        !llvm::is_contained(func.getWorkgroupAttributions(), argument))
      return success();
    if (root.getDefiningOp<memref::AllocaOp>())
      return success();
    if (auto get = root.getDefiningOp<memref::GetGlobalOp>()) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      if (global && global.getConstant() && !write)
        return success();
    }
    return undecided(&op, "memory the proof cannot follow");
  }
  ArrayRef<Buffer> cases = found->second;
  MemRefType type = cast<MemRefType>(memref.getType());
  if (!type.getLayout().isIdentity() || !type.hasStaticShape())
    return undecided(&op, "a shared buffer with a layout");
  SharedAccess access;
  access.op = &op;
  access.order = order;
  access.phase = phase;
  access.epoch = epoch;
  access.write = write;
  access.atomic = false;
  access.atomicKind = 0;
  access.checkedScatter =
      write && ObsDialect::CheckedScatterAttrHelper(context).isAttrPresent(&op);
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
    access.atomic = true;
    access.atomicKind = static_cast<uint8_t>(atomic.getKind());
  }
  access.loops.assign(loopStack.begin(), loopStack.end());
  // The element's place: indices linearized by the static shape.
  int64_t elementBytes = getElementBytes(type);
  Symbolic place = constant(0);
  ArrayRef<int64_t> shape = type.getShape();
  for (auto [index, size] : llvm::zip(indices, shape)) {
    int64_t extent = size;
    place = combine(op, place, valueOf(index),
                    [&](AffineExpr a, AffineExpr b) { return a * extent + b; });
    if (place.unsupported)
      return undecided(place.unsupported,
                       "an index of shared memory the proof cannot express");
  }
  int64_t bufferBytes = getTotalBytes(type);
  for (const Conjunction &where : path)
    for (const Buffer &buffer : cases)
      for (const Piece &piece : place.pieces) {
        std::optional<Conjunction> inBuffer = conjoin(where, buffer.conditions);
        std::optional<Conjunction> both =
            inBuffer ? conjoin(*inBuffer, piece.conditions) : std::nullopt;
        if (!both)
          continue;
        if (!piece.expr)
          access.places.push_back({std::move(*both), buffer.root, buffer.owner,
                                   buffer.begin, bufferBytes, true});
        else
          access.places.push_back({std::move(*both), buffer.root, buffer.owner,
                                   buffer.begin + piece.expr * elementBytes,
                                   elementBytes, false});
        if (access.places.size() > kMaxPieces)
          return undecided(&op, "too many cases of a place");
      }
  if (access.places.size() > kMaxPieces)
    return undecided(&op, "too many cases of a place");
  accesses.push_back(std::move(access));
  return success();
}

LogicalResult SymbolicProof::visit(Operation &op, ArrayRef<Conjunction> path,
                                   bool inBranch) {
  ++order;
  if (isLoweredBarrier(&op)) {
    if (inBranch)
      return undecided(&op, "a barrier inside a branch");
    phase = phase + 1;
    if (isa<gpu::BarrierOp>(op))
      epoch = epoch + 1;
    return success();
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return visitIf(ifOp, path);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return visitFor(loop, path);
  if (isa<scf::WhileOp>(op) || isa<scf::ParallelOp>(op)) {
    // Followed, as by the simulation, only where any number of iterations
    // changes nothing another thread sees: no writes, barriers or
    // exchanges, and reads only of global memory, scratch or tables.
    bool touches = false;
    op.walk([&](Operation *inner) {
      if (isLoweredBarrier(inner) || isa<NVVM::ShflOp, gpu::ShuffleOp>(inner)) {
        touches = true;
        return;
      }
      if (inner == &op || isMemoryEffectFree(inner) ||
          isa<memref::AllocaOp>(inner))
        return;
      auto load = dyn_cast<memref::LoadOp>(inner);
      touches |= !load || buffers.contains(load.getMemRef());
    });
    if (touches)
      return undecided(&op, "a loop whose trip count depends on data");
    for (Value result : op.getResults())
      values[key(result)] =
          result.getType().isIntOrIndex() ? unsupported(&op) : data();
    return success();
  }
  if (auto view = dyn_cast<memref::ViewOp>(op))
    return visitView(view);
  if (auto select = dyn_cast<arith::SelectOp>(op);
      select && isa<MemRefType>(select.getType()))
    return visitMemrefSelect(select);
  if (auto load = dyn_cast<memref::LoadOp>(op))
    if (failed(
            visitAccess(op, load.getMemRef(), load.getIndices(), false, path)))
      return failure();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return visitAccess(op, store.getMemRef(), store.getIndices(), true, path);
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    if (failed(visitAccess(op, atomic.getMemref(), atomic.getIndices(), true,
                           path)))
      return failure();
  if (op.getNumRegions())
    return undecided(&op, "an op with regions the proof does not know");
  // Memory is followed only through loads, stores and atomics (fail
  // closed, as the simulation does); a thread's own scratch and the
  // cpu target's reports of a wrong run touch nothing another sees.
  if (!isMemoryEffectFree(&op) &&
      !isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
           memref::AllocaOp, NVVM::ShflOp, gpu::ShuffleOp>(op)) {
    auto call = dyn_cast<func::CallOp>(op);
    if (!call || (call.getCallee() != kScatterCollisionFunction &&
                  call.getCallee() != kIndexOutsideFunction))
      return undecided(&op, "an op whose memory effects the proof does not "
                            "follow");
  }
  if (op.getNumResults() == 1)
    values[key(op.getResult(0))] = evaluate(op);
  else
    for (Value result : op.getResults())
      values[key(result)] =
          result.getType().isIntOrIndex() ? unsupported(&op) : data();
  return success();
}

LogicalResult SymbolicProof::walk(Region &region, ArrayRef<Conjunction> path,
                                  bool inBranch) {
  if (region.empty())
    return success();
  if (!region.hasOneBlock())
    return undecided(region.getParentOp(), "a region of several blocks");
  ArrayRef<Conjunction> outerPath = currentPath;
  currentPath = path;
  llvm::scope_exit restore([&] { currentPath = outerPath; });
  for (Operation &op : region.front())
    if (failed(visit(op, path, inBranch)))
      return failure();
  return success();
}

void SymbolicProof::addDomain(Conjunction &constraints, unsigned base) {
  AffineExpr id = getAffineDimExpr(base, context);
  constraints.push_back({id, false});
  constraints.push_back({threads - 1 - id, false});
  for (unsigned loop = 0; loop < numLoops; ++loop)
    constraints.push_back({getAffineDimExpr(base + 1 + loop, context), false});
}

bool SymbolicProof::isSatisfiable(ArrayRef<Constraint> constraints,
                                  unsigned numDims) {
  ++verdict.sets;
  FlatLinearConstraints set(numDims);
  for (const Constraint &constraint : constraints) {
    if (std::optional<bool> truth = constantTruth(constraint)) {
      if (!*truth)
        return false;
      continue;
    }
    // A new variable equal to the expression (floordivs and mods become
    // local variables), then bounded.
    unsigned position = set.appendDimVar();
    AffineMap map =
        AffineMap::get(set.getNumDimVars(), 0, constraint.expr, context);
    if (failed(set.addBound(BoundType::EQ, position, map)))
      return true; // Not expressible: taken as possible.
    set.addBound(constraint.equality ? BoundType::EQ : BoundType::LB, position,
                 int64_t(0));
  }
  return !set.isIntegerEmpty();
}

void SymbolicProof::judge(const SharedAccess &a, const SharedAccess &b) {
  if (!a.write && !b.write)
    return;
  if (a.atomic && b.atomic && a.atomicKind == b.atomicKind)
    return;
  unsigned side = 1 + numLoops;
  auto shifted = [&](AffineExpr expr) { return expr.shiftDims(side, side); };
  auto shiftedAll = [&](ArrayRef<Constraint> constraints, Conjunction &into) {
    for (const Constraint &constraint : constraints)
      into.push_back({shifted(constraint.expr), constraint.equality});
  };
  AffineExpr threadA = thread, threadB = getAffineDimExpr(side, context);
  // In one epoch (the same number of block barriers passed).
  AffineExpr phaseA = a.phase, phaseB = shifted(b.phase);
  Constraint oneEpoch = {a.epoch - shifted(b.epoch), true};
  if (constantTruth(oneEpoch) == false)
    return;
  ++verdict.pairs;
  // What orders two instances of one thread within one phase: the first
  // loop counter they differ in, or, in one iteration, the ops' order.
  Constraint samePhase = {phaseA - phaseB, true};
  SmallVector<Conjunction> sameThreadOrders;
  if (constantTruth(samePhase) != false && a.write != b.write) {
    const SharedAccess &written = a.write ? a : b;
    const SharedAccess &read = a.write ? b : a;
    bool aIsWritten = &written == &a;
    unsigned common = 0;
    while (common < a.loops.size() && common < b.loops.size() &&
           a.loops[common] == b.loops[common])
      ++common;
    auto counter = [&](bool ofA, unsigned loop) {
      AffineExpr dim = getAffineDimExpr(1 + loop, context);
      return ofA ? dim : shifted(dim);
    };
    for (unsigned depth = 0; depth <= common; ++depth) {
      Conjunction order = {samePhase, {threadA - threadB, true}};
      for (unsigned outer = 0; outer < depth; ++outer)
        order.push_back(
            {counter(true, a.loops[outer]) - counter(false, a.loops[outer]),
             true});
      if (depth < common) {
        AffineExpr writeCounter = counter(aIsWritten, a.loops[depth]);
        AffineExpr readCounter = counter(!aIsWritten, a.loops[depth]);
        order.push_back({readCounter - writeCounter - 1, false});
      } else if (written.order >= read.order) {
        continue;
      }
      sameThreadOrders.push_back(std::move(order));
    }
  }
  // Which threads race: any two in one phase; in different phases (a warp
  // barrier between), two of different warps.
  SmallVector<Conjunction> threadPairs;
  auto addCase = [&](Conjunction constraints) {
    if (std::optional<Conjunction> kept = conjoin(constraints, {}))
      threadPairs.push_back(std::move(*kept));
  };
  addCase({samePhase, {threadB - threadA - 1, false}});
  addCase({samePhase, {threadA - threadB - 1, false}});
  AffineExpr warpA = threadA.floorDiv(warpSize);
  AffineExpr warpB = threadB.floorDiv(warpSize);
  for (AffineExpr apart : {phaseB - phaseA - 1, phaseA - phaseB - 1}) {
    addCase({{apart, false}, {warpB - warpA - 1, false}});
    addCase({{apart, false}, {warpA - warpB - 1, false}});
  }
  for (const Conjunction &order : sameThreadOrders)
    addCase(order);

  bool scatters = a.checkedScatter && b.checkedScatter;
  for (const SharedAccess::Place &x : a.places)
    for (const SharedAccess::Place &y : b.places) {
      if (x.root != y.root)
        continue;
      if (scatters && x.owner == y.owner && (x.data || y.data))
        continue;
      Conjunction base = {oneEpoch};
      addDomain(base, 0);
      addDomain(base, side);
      base.append(x.conditions.begin(), x.conditions.end());
      shiftedAll(y.conditions, base);
      // The two byte ranges meet.
      AffineExpr beginA = x.begin, beginB = shifted(y.begin);
      base.push_back({beginB + (y.bytes - 1) - beginA, false});
      base.push_back({beginA + (x.bytes - 1) - beginB, false});
      for (const Conjunction &threadsMeet : threadPairs) {
        Conjunction all = base;
        all.append(threadsMeet.begin(), threadsMeet.end());
        if (isSatisfiable(all, 2 * side)) {
          verdict.races.push_back({a.op, b.op});
          return;
        }
      }
    }
}

SymbolicVerdict SymbolicProof::prove() {
  std::optional<ArrayRef<int32_t>> blockSize = func.getKnownBlockSize();
  if (!blockSize) {
    (void)undecided(func, "no known block size");
    return verdict;
  }
  threads = 1;
  for (int32_t extent : *blockSize)
    threads *= extent;
  if ((*blockSize)[1] != 1 || (*blockSize)[2] != 1) {
    (void)undecided(func, "a block of more than one dimension");
    return verdict;
  }
  for (auto [index, buffer] : llvm::enumerate(func.getWorkgroupAttributions()))
    if (auto type = dyn_cast<MemRefType>(buffer.getType()))
      buffers[buffer] = {
          {{},
           buffer,
           getAffineConstantExpr(0, context),
           type,
           func.getWorkgroupAttributionAttr(
               index, ObsDialect::OwnerAttrHelper(context).getName())}};
  phase = epoch = getAffineConstantExpr(0, context);
  SmallVector<Conjunction> everyone = {Conjunction()};
  if (failed(walk(func.getBody(), everyone, /*inBranch=*/false)))
    return verdict;
  // Each pair once, in program order; those of different epochs, known
  // from the barriers alone, are skipped by judge.
  for (size_t i = 0; i < accesses.size(); ++i)
    for (size_t j = i; j < accesses.size(); ++j)
      judge(accesses[i], accesses[j]);
  return verdict;
}

SymbolicVerdict mlir::obs::findHazardsSymbolically(gpu::GPUFuncOp func,
                                                   unsigned warpSize) {
  return SymbolicProof(func, warpSize).prove();
}
