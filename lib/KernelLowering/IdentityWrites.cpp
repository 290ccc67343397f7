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
/// The element code of a probe, compiled once for all of its elements:
/// every value is a slot, every op an instruction on slots. Run with the
/// element's index known, it gives the integers the code computes and which
/// scalars are leaves it read unchanged. Nothing is built; an op whose value
/// is not known (data arithmetic, a loop) leaves its results unknown, which
/// can only make a write look changed.
class ProbeProgram {
public:
  /// Compiles `block`, whose arguments `leaves` are the placeholders of the
  /// scalars the code reads.
  ProbeProgram(Block &block, const llvm::DenseSet<Value> &leaves);

  /// Runs the code with `index` (a slot) holding `value`.
  void run(uint32_t index, int64_t value);

  /// Whether some run with `index` (a slot) known could end with every slot
  /// of `scalars` holding a leaf. A leaf reaches a slot only through a
  /// select or an if whose condition is known, so where every way to one
  /// of them goes through a condition on data (a sort's compare and
  /// exchange: `select(x < y, x, y)` of two leaves), no run can: then
  /// every element changes, and running each is not needed.
  bool mayAllBeLeaves(uint32_t index, ArrayRef<uint32_t> scalars) const;

  /// The slot of `value`: of the block, or from outside it (a constant is
  /// known in every run).
  uint32_t slotOf(Value value) {
    uint32_t at = slot(value);
    resize();
    return at;
  }
  std::optional<int64_t> intOf(uint32_t slot) const {
    if (known[slot] != epoch)
      return std::nullopt;
    return ints[slot];
  }
  /// The slot of the leaf `slot` holds, when it holds one.
  std::optional<uint32_t> leafOf(uint32_t slot) const {
    if (leafSlot[slot] == slot)
      return slot;
    if (aliasKnown[slot] != epoch)
      return std::nullopt;
    return aliases[slot];
  }

private:
  enum class Kind : uint8_t { Nothing, If, Select, Direct, Fold };
  struct Instruction {
    Kind kind = Kind::Nothing;
    IntegerOpcode code = IntegerOpcode::Fold;
    uint8_t resultWidth = 64, operandWidth = 64;
    uint32_t firstResult = 0, numResults = 0;
    uint32_t firstOperand = 0, numOperands = 0;
    /// An if's regions: instruction ranges and the slots they yield.
    uint32_t thenBegin = 0, thenEnd = 0, elseBegin = 0, elseEnd = 0;
    SmallVector<uint32_t> thenYields, elseYields;
    Operation *op = nullptr;
  };

  uint32_t slot(Value value);
  /// Sizes the run's state for every slot.
  void resize() {
    leafSlot.resize(slots.size(), ~0u);
    ints.resize(slots.size());
    known.resize(slots.size(), 0);
    aliases.resize(slots.size());
    aliasKnown.resize(slots.size(), 0);
  }
  std::pair<uint32_t, uint32_t> compileBlock(Block &block);
  std::pair<uint32_t, uint32_t> compileRegion(Region &region);
  void compile(Operation &op, uint32_t index);
  void runRange(uint32_t begin, uint32_t end);
  /// mayAllBeLeaves' pass over the instructions [begin, end): which slots
  /// are never known (data) and which may hold a leaf, in program order.
  void findMayBeLeaves(uint32_t begin, uint32_t end,
                       std::vector<uint8_t> &neverKnown,
                       std::vector<uint8_t> &mayBeLeaf) const;
  void setInt(uint32_t slot, int64_t value) {
    ints[slot] = value;
    known[slot] = epoch;
  }
  /// Gives `result` what `chosen` holds: an integer or a leaf.
  void copy(uint32_t result, uint32_t chosen) {
    if (std::optional<int64_t> value = intOf(chosen)) {
      setInt(result, *value);
    } else if (std::optional<uint32_t> leaf = leafOf(chosen)) {
      aliases[result] = *leaf;
      aliasKnown[result] = epoch;
    }
  }

  llvm::DenseMap<Value, uint32_t> slots;
  SmallVector<Instruction> instructions;
  SmallVector<uint32_t> operands;
  std::pair<uint32_t, uint32_t> body;
  /// Values from outside the block that are integer constants, known in
  /// every run.
  SmallVector<std::pair<uint32_t, int64_t>> constants;
  /// A leaf's own slot for placeholders, otherwise -1.
  std::vector<uint32_t> leafSlot;
  uint32_t epoch = 0;
  std::vector<int64_t> ints;
  std::vector<uint32_t> known, aliases, aliasKnown;
  llvm::DenseMap<std::pair<Type, int64_t>, Attribute> integerAttrs;
};
} // namespace

ProbeProgram::ProbeProgram(Block &block, const llvm::DenseSet<Value> &leaves) {
  for (Value leaf : leaves)
    slot(leaf);
  body = compileBlock(block);
  resize();
  for (Value leaf : leaves)
    leafSlot[slots.lookup(leaf)] = slots.lookup(leaf);
}

uint32_t ProbeProgram::slot(Value value) {
  auto [it, inserted] = slots.try_emplace(value, slots.size());
  if (inserted) {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      constants.push_back({it->second, wrapToInteger(value.getType(),
                                                     constant.getSExtValue())});
  }
  return it->second;
}

std::pair<uint32_t, uint32_t> ProbeProgram::compileRegion(Region &region) {
  if (region.empty())
    return {instructions.size(), instructions.size()};
  return compileBlock(region.front());
}

std::pair<uint32_t, uint32_t> ProbeProgram::compileBlock(Block &block) {
  uint32_t begin = instructions.size();
  for (Value argument : block.getArguments())
    slot(argument);
  SmallVector<Operation *> ops;
  for (Operation &op : block) {
    ops.push_back(&op);
    for (Value result : op.getResults())
      slot(result);
  }
  instructions.resize(begin + ops.size());
  for (auto [index, op] : llvm::enumerate(ops))
    compile(*op, begin + index);
  return {begin, begin + static_cast<uint32_t>(ops.size())};
}

void ProbeProgram::compile(Operation &op, uint32_t index) {
  Instruction instruction;
  instruction.op = &op;
  instruction.numResults = op.getNumResults();
  if (op.getNumResults())
    instruction.firstResult = slot(op.getResult(0));
  instruction.firstOperand = operands.size();
  instruction.numOperands = op.getNumOperands();
  for (Value operand : op.getOperands())
    operands.push_back(slot(operand));
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    instruction.kind = Kind::If;
    std::tie(instruction.thenBegin, instruction.thenEnd) =
        compileRegion(ifOp.getThenRegion());
    std::tie(instruction.elseBegin, instruction.elseEnd) =
        compileRegion(ifOp.getElseRegion());
    auto yields = [&](Region &region, SmallVector<uint32_t> &into) {
      if (!region.empty())
        for (Value yielded : region.front().getTerminator()->getOperands())
          into.push_back(slot(yielded));
    };
    yields(ifOp.getThenRegion(), instruction.thenYields);
    yields(ifOp.getElseRegion(), instruction.elseYields);
  } else if (isa<arith::SelectOp>(op)) {
    instruction.kind = Kind::Select;
  } else if (matchPattern(&op, m_Constant())) {
    // Known in every run: `constants` sets it.
  } else if (op.getNumResults() == 1 &&
             isEvaluatedIntegerType(op.getResult(0).getType()) &&
             llvm::all_of(op.getOperandTypes(), [](Type type) {
               return isEvaluatedIntegerType(type);
             })) {
    instruction.resultWidth = getIntegerWidth(op.getResult(0).getType());
    instruction.code = classifyIntegerOp(op);
    instruction.kind = Kind::Fold;
    if (instruction.code != IntegerOpcode::Fold) {
      instruction.kind = Kind::Direct;
      instruction.operandWidth = getIntegerWidth(
          op.getOperand(instruction.code == IntegerOpcode::Select ? 1 : 0)
              .getType());
    }
  }
  instructions[index] = std::move(instruction);
}

void ProbeProgram::run(uint32_t index, int64_t value) {
  ++epoch;
  for (auto [slot, constant] : constants)
    setInt(slot, constant);
  setInt(index, value);
  runRange(body.first, body.second);
}

bool ProbeProgram::mayAllBeLeaves(uint32_t index,
                                  ArrayRef<uint32_t> scalars) const {
  // A slot no instruction sets is never known (an opaque argument), but
  // for the constants and the index, which every run sets.
  std::vector<uint8_t> neverKnown(slots.size(), 1), mayBeLeaf(slots.size(), 0);
  for (auto [slot, constant] : constants)
    neverKnown[slot] = 0;
  neverKnown[index] = 0;
  for (auto [slot, leaf] : llvm::enumerate(leafSlot))
    if (leaf == slot)
      mayBeLeaf[slot] = 1;
  findMayBeLeaves(body.first, body.second, neverKnown, mayBeLeaf);
  return llvm::all_of(scalars,
                      [&](uint32_t scalar) { return mayBeLeaf[scalar]; });
}

void ProbeProgram::findMayBeLeaves(uint32_t begin, uint32_t end,
                                   std::vector<uint8_t> &neverKnown,
                                   std::vector<uint8_t> &mayBeLeaf) const {
  // What copy() gives `result` from whichever of `chosen` a known
  // condition picks (a missing choice gives nothing).
  auto choose = [&](uint32_t result, bool conditionNeverKnown,
                    ArrayRef<std::optional<uint32_t>> chosen) {
    bool allNeverKnown = true, anyLeaf = false;
    for (std::optional<uint32_t> choice : chosen) {
      allNeverKnown &= !choice || neverKnown[*choice];
      anyLeaf |= choice && mayBeLeaf[*choice];
    }
    neverKnown[result] = conditionNeverKnown || allNeverKnown;
    mayBeLeaf[result] = !conditionNeverKnown && anyLeaf;
  };
  for (uint32_t i = begin; i < end; ++i) {
    const Instruction &instruction = instructions[i];
    const uint32_t *operandSlots = &operands[instruction.firstOperand];
    switch (instruction.kind) {
    case Kind::Nothing:
      // Constants are known in every run; any other result never is.
      break;
    case Kind::If: {
      findMayBeLeaves(instruction.thenBegin, instruction.thenEnd, neverKnown,
                      mayBeLeaf);
      findMayBeLeaves(instruction.elseBegin, instruction.elseEnd, neverKnown,
                      mayBeLeaf);
      auto yielded = [](const SmallVector<uint32_t> &yields,
                        unsigned r) -> std::optional<uint32_t> {
        if (r < yields.size())
          return yields[r];
        return std::nullopt;
      };
      for (unsigned r = 0; r < instruction.numResults; ++r)
        choose(instruction.firstResult + r, neverKnown[operandSlots[0]],
               {yielded(instruction.thenYields, r),
                yielded(instruction.elseYields, r)});
      break;
    }
    case Kind::Select:
      choose(instruction.firstResult, neverKnown[operandSlots[0]],
             {operandSlots[1], operandSlots[2]});
      break;
    case Kind::Direct:
    case Kind::Fold:
      neverKnown[instruction.firstResult] =
          llvm::any_of(ArrayRef(operandSlots, instruction.numOperands),
                       [&](uint32_t operand) { return neverKnown[operand]; });
      mayBeLeaf[instruction.firstResult] = 0;
      break;
    }
  }
}

void ProbeProgram::runRange(uint32_t begin, uint32_t end) {
  for (uint32_t i = begin; i < end; ++i) {
    const Instruction &instruction = instructions[i];
    switch (instruction.kind) {
    case Kind::Nothing:
      break;
    case Kind::If: {
      std::optional<int64_t> condition =
          intOf(operands[instruction.firstOperand]);
      if (!condition)
        break;
      bool thenTaken = *condition != 0;
      if (thenTaken)
        runRange(instruction.thenBegin, instruction.thenEnd);
      else
        runRange(instruction.elseBegin, instruction.elseEnd);
      const SmallVector<uint32_t> &yields =
          thenTaken ? instruction.thenYields : instruction.elseYields;
      for (unsigned r = 0; r < instruction.numResults && r < yields.size(); ++r)
        copy(instruction.firstResult + r, yields[r]);
      break;
    }
    case Kind::Select: {
      const uint32_t *selectOperands = &operands[instruction.firstOperand];
      if (std::optional<int64_t> condition = intOf(selectOperands[0]))
        copy(instruction.firstResult,
             *condition ? selectOperands[1] : selectOperands[2]);
      break;
    }
    case Kind::Direct:
    case Kind::Fold: {
      SmallVector<int64_t, 3> values;
      bool allKnown = true;
      for (unsigned o = 0; o < instruction.numOperands && allKnown; ++o) {
        std::optional<int64_t> value =
            intOf(operands[instruction.firstOperand + o]);
        allKnown = value.has_value();
        if (allKnown)
          values.push_back(*value);
      }
      if (!allKnown)
        break;
      std::optional<int64_t> computed =
          instruction.kind == Kind::Direct
              ? computeIntegerOpcode(instruction.code, instruction.operandWidth,
                                     values)
              : foldIntegerOp(*instruction.op, values,
                              [&](Type type, int64_t v) {
                                Attribute &attribute = integerAttrs[{type, v}];
                                if (!attribute)
                                  attribute = IntegerAttr::get(type, v);
                                return attribute;
                              });
      if (computed)
        setInt(instruction.firstResult,
               wrapToWidth(instruction.resultWidth, *computed));
      break;
    }
    }
  }
}

llvm::BitVector mlir::obs::findChangedElements(SyncOp sync, Value overwritten,
                                               ArrayRef<Value> sources) {
  // The element's code is built once, for an unknown index, reading
  // placeholders, and then run for every index without building anything:
  // an element whose every leaf scalar is exactly what the overwritten array
  // holds at the same place is an identity write.
  Value array = sync.getInput();
  ArrType type = arrType(array);
  llvm::BitVector changed(type.getLength(), true);
  // An element of empty rows has no leaf to compare, and the walk over its
  // leaves below would never end: nothing is an identity write.
  if (llvm::is_contained(ArrayRef(type.getShape()).drop_front(), 0))
    return changed;
  Block scratch;
  llvm::scope_exit eraseScratch([&] {
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
    emitter.setSource(
        source, [&, source](OpBuilder &b, Location loc, ValueRange path) {
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
  // Where the block is is any value: opaque too.
  auto opaqueIndex = [&](OpBuilder &, Location loc) -> Value {
    return scratch.addArgument(IndexType::get(sync.getContext()), loc);
  };
  emitter.setBlockPosition(sync->getParentOfType<KernelOp>(), opaqueIndex,
                           [&](OpBuilder &b, Location loc, unsigned) {
                             return opaqueIndex(b, loc);
                           });
  Value index =
      scratch.addArgument(IndexType::get(sync.getContext()), sync.getLoc());
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
  // The slots of what each leaf scalar is compared with, before any run.
  ProbeProgram probe(scratch, leaves);
  uint32_t indexSlot = probe.slotOf(index);
  SmallVector<std::pair<SmallVector<int64_t>, SmallVector<uint32_t>>> leafSlots;
  for (const auto &[innerIndices, scalars] : leafCode)
    leafSlots.push_back(
        {innerIndices, llvm::map_to_vector(scalars, [&](Value scalar) {
           return probe.slotOf(scalar);
         })});
  // Where some leaf scalar can never be a leaf, every element changes.
  SmallVector<uint32_t> scalarSlots;
  for (const auto &[innerIndices, scalars] : leafSlots)
    scalarSlots.append(scalars.begin(), scalars.end());
  if (!probe.mayAllBeLeaves(indexSlot, scalarSlots))
    return changed;
  struct PlaceholderSlots {
    const Placeholder *placeholder;
    SmallVector<uint32_t> path;
  };
  llvm::DenseMap<uint32_t, PlaceholderSlots> placeholderAt;
  for (const auto &[value, placeholder] : placeholders)
    placeholderAt[probe.slotOf(value)] = {
        &placeholder, llvm::map_to_vector(placeholder.path, [&](Value at) {
          return probe.slotOf(at);
        })};
  for (uint64_t e = 0; e < type.getLength(); ++e) {
    probe.run(indexSlot, static_cast<int64_t>(e));
    bool identity = true;
    for (const auto &[innerIndices, scalars] : leafSlots) {
      for (auto [component, scalar] : llvm::enumerate(scalars)) {
        std::optional<uint32_t> leaf = probe.leafOf(scalar);
        auto it = leaf ? placeholderAt.find(*leaf) : placeholderAt.end();
        identity =
            it != placeholderAt.end() &&
            it->second.placeholder->source == overwritten &&
            it->second.placeholder->component == component &&
            it->second.path.size() == innerIndices.size() + 1 &&
            probe.intOf(it->second.path.front()) == std::optional<int64_t>(e);
        for (unsigned dim = 0; identity && dim < innerIndices.size(); ++dim)
          identity = probe.intOf(it->second.path[dim + 1]) ==
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
  if (results && now == code)
    return;
  code = now;
  results = kernel->getContext()
                ->getLoadedDialect<ObsDialect>()
                ->getCodeEntry<Results>(now);
}
