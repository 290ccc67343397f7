//===- IdentityWrites.cpp - elements an in-place stage leaves as they are -===//

#include "Obs/KernelLowering/IdentityWrites.h"
#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Support/IntegerEvaluation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/SHA1.h"

using namespace mlir;
using namespace mlir::obs;

namespace {
/// One element of a probe, run with its index known: the integers the
/// element's code computes, and which scalars are leaves it read unchanged.
/// Nothing is built; an op whose value is not known (data arithmetic, a
/// loop) leaves its results unknown, which can only make a write look
/// changed.
class ProbeRun {
public:
  explicit ProbeRun(llvm::DenseSet<Value> &leaves) : leaves(leaves) {}

  void set(Value value, int64_t known) { ints[value] = known; }
  std::optional<int64_t> intOf(Value value) const {
    auto it = ints.find(value);
    if (it != ints.end())
      return it->second;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return wrapToInteger(value.getType(), constant.getSExtValue());
    return std::nullopt;
  }
  /// The leaf `value` is, when it is one.
  Value leafOf(Value value) const {
    if (leaves.contains(value))
      return value;
    return aliases.lookup(value);
  }

  void run(Block &block) {
    for (Operation &op : block)
      runOp(op);
  }

private:
  /// Gives `result` what `chosen` holds: an integer or a leaf.
  void copy(Value result, Value chosen) {
    if (std::optional<int64_t> known = intOf(chosen))
      ints[result] = *known;
    else if (Value leaf = leafOf(chosen))
      aliases[result] = leaf;
  }

  void runOp(Operation &op) {
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      std::optional<int64_t> condition = intOf(ifOp.getCondition());
      if (!condition)
        return;
      Region &taken = *condition ? ifOp.getThenRegion() : ifOp.getElseRegion();
      if (taken.empty())
        return;
      run(taken.front());
      for (auto [result, yielded] :
           llvm::zip_equal(ifOp.getResults(),
                           taken.front().getTerminator()->getOperands()))
        copy(result, yielded);
      return;
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (std::optional<int64_t> condition = intOf(select.getCondition()))
        copy(select.getResult(),
             *condition ? select.getTrueValue() : select.getFalseValue());
      return;
    }
    if (op.getNumResults() != 1 || !op.getResult(0).getType().isIntOrIndex())
      return;
    SmallVector<int64_t, 3> operands;
    for (Value operand : op.getOperands()) {
      std::optional<int64_t> known = intOf(operand);
      if (!known)
        return;
      operands.push_back(*known);
    }
    if (std::optional<int64_t> result = evaluateIntegerOp(op, operands))
      ints[op.getResult(0)] = *result;
  }

  llvm::DenseSet<Value> &leaves;
  llvm::DenseMap<Value, int64_t> ints;
  llvm::DenseMap<Value, Value> aliases;
};
} // namespace

llvm::BitVector mlir::obs::findChangedElements(SyncOp sync, Value overwritten,
                                               ArrayRef<Value> sources) {
  // The element's code is built once, for an unknown index, reading
  // placeholders, and then run for every index without building anything:
  // an element whose every leaf scalar is exactly what the overwritten array
  // holds at the same place is an identity write.
  Value array = sync.getInput();
  ArrType type = arrType(array);
  llvm::BitVector changed(type.getLength(), true);
  Block scratch;
  auto eraseScratch = llvm::make_scope_exit([&] {
    scratch.dropAllDefinedValueUses();
    scratch.dropAllReferences();
  });
  OpBuilder scratchBuilder(sync.getContext());
  scratchBuilder.setInsertionPointToStart(&scratch);
  // What each placeholder stands for: the array, its leaf path and scalar.
  struct Placeholder {
    Value source;
    SmallVector<Value> path;
    unsigned component;
  };
  llvm::DenseMap<Value, Placeholder> placeholders;
  llvm::DenseSet<Value> leaves;
  ElementEmitter emitter(scratchBuilder, sync.getLoc());
  for (Value source : sources) {
    emitter.setSource(source, [&, source](OpBuilder &b, Location loc,
                                          ValueRange path) {
      SmallVector<Value> scalars;
      SmallVector<Type> types =
          flattenElementType(arrType(source).getLeafType());
      for (auto [component, scalarType] : llvm::enumerate(types)) {
        // An opaque value: a block argument, which no folder can see
        // through (poison would fold, `select(poison_c, y, x)` to `y`).
        Value placeholder = scratch.addArgument(scalarType, loc);
        placeholders[placeholder] = {source, SmallVector<Value>(path),
                                     static_cast<unsigned>(component)};
        leaves.insert(placeholder);
        scalars.push_back(placeholder);
      }
      return scalars;
    });
  }
  Value index = scratch.addArgument(IndexType::get(sync.getContext()), sync.getLoc());
  // Every leaf of the element, in row-major order, with its inner indices.
  SmallVector<uint64_t> innerShape(ArrayRef(type.getShape()).drop_front());
  SmallVector<std::pair<SmallVector<int64_t>, SmallVector<Value>>> leafCode;
  SmallVector<int64_t> inner(innerShape.size(), 0);
  while (true) {
    SmallVector<Value> path{index};
    for (int64_t at : inner)
      path.push_back(emitter.constantIndex(at));
    leafCode.push_back({inner, emitter.emitLeaf(array, path)});
    unsigned dim = inner.size();
    while (dim > 0 && ++inner[dim - 1] == (int64_t)innerShape[dim - 1])
      inner[--dim] = 0;
    if (dim == 0)
      break;
  }
  if (emitter.failed())
    return changed;
  for (uint64_t e = 0; e < type.getLength(); ++e) {
    ProbeRun run(leaves);
    run.set(index, static_cast<int64_t>(e));
    run.run(scratch);
    bool identity = true;
    for (const auto &[innerIndices, scalars] : leafCode) {
      for (auto [component, scalar] : llvm::enumerate(scalars)) {
        Value leaf = run.leafOf(scalar);
        auto it = leaf ? placeholders.find(leaf) : placeholders.end();
        identity = it != placeholders.end() &&
                   it->second.source == overwritten &&
                   it->second.component == component &&
                   it->second.path.size() == innerIndices.size() + 1 &&
                   run.intOf(it->second.path.front()) ==
                       std::optional<int64_t>(e);
        for (unsigned dim = 0; identity && dim < innerIndices.size(); ++dim)
          identity = run.intOf(it->second.path[dim + 1]) ==
                     std::optional<int64_t>(innerIndices[dim]);
        if (!identity)
          break;
      }
      if (!identity)
        break;
    }
    changed[e] = !identity;
  }
  return changed;
}

/// Whether `array` is read by no stage but `stage`: its uses, followed

std::array<uint8_t, 20> mlir::obs::fingerprintKernelCode(KernelOp kernel) {
  llvm::SHA1 hasher;
  auto add = [&](const auto &data) {
    hasher.update(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&data),
                                    sizeof(data)));
  };
  // Values by their order of definition, so that a copy numbers them alike.
  llvm::DenseMap<Value, uint64_t> numbers;
  auto number = [&](Value value) {
    return numbers.try_emplace(value, numbers.size()).first->second;
  };
  Dialect *obs = kernel->getDialect();
  kernel->walk<WalkOrder::PreOrder>([&](Operation *op) {
    add(op->getName().getAsOpaquePointer());
    // A sync's attributes are all plan or claims about it (scope,
    // placement, work assignment), none of what its stage computes.
    if (!isa<SyncOp>(op)) {
      NamedAttrList attributes;
      for (NamedAttribute attribute : op->getAttrDictionary())
        if (attribute.getNameDialect() != obs)
          attributes.push_back(attribute);
      add(attributes.getDictionary(op->getContext()).getAsOpaquePointer());
    }
    add(op->getNumOperands());
    for (Value operand : op->getOperands())
      add(number(operand));
    add(op->getNumResults());
    for (Value result : op->getResults()) {
      number(result);
      add(result.getType().getAsOpaquePointer());
    }
    add(op->getNumRegions());
    for (Region &region : op->getRegions()) {
      add(region.getBlocks().size());
      for (Block &block : region) {
        add(block.getNumArguments());
        for (BlockArgument argument : block.getArguments()) {
          number(argument);
          add(argument.getType().getAsOpaquePointer());
        }
      }
    }
  });
  return hasher.final();
}

void ChangedElementsCache::validate(KernelOp kernel) {
  std::array<uint8_t, 20> now = fingerprintKernelCode(kernel);
  if (now == code)
    return;
  changed.clear();
  code = now;
}

