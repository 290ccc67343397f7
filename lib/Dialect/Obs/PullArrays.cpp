//===- PullArrays.cpp - the index function of every obs array op ----------===//
//
// One emitElement per op: the semantics each op's description states
// (docs/generated/ObsDialect.md), read as index functions.
// Each method emits, for a leaf at `[index] ++ innerPath` of its result, the
// flattened scalars, asking the emitter for operand elements. Index arithmetic
// goes through the emitter's folding helpers, so that a constant index (one
// thread in one round, after specialisation) yields constant operand indices.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::obs;

/// `[head] ++ tail`.
static SmallVector<Value> prepend(Value head, ValueRange tail) {
  SmallVector<Value> path{head};
  path.append(tail.begin(), tail.end());
  return path;
}

/// The flattened scalar types of a leaf of `array`.
static SmallVector<Type> leafTypes(Value array) {
  return flattenElementType(arrType(array).getLeafType());
}

static YieldOp yieldOf(Region &region) {
  return cast<YieldOp>(region.front().getTerminator());
}

/// Chooses, per scalar, `first` when `pickFirst` holds and `second` otherwise.
static SmallVector<Value> selectScalars(ElementEmitter &emitter,
                                        Value pickFirst, ValueRange first,
                                        ValueRange second) {
  SmallVector<Value> chosen;
  for (auto [a, b] : llvm::zip_equal(first, second))
    chosen.push_back(emitter.getBuilder().createOrFold<arith::SelectOp>(
        emitter.getLoc(), pickFirst, a, b));
  return chosen;
}

/// Evaluates a 2-to-2 region on two elements and returns output `which`
/// (0 or 1, as an index value) at `innerPath`.
static SmallVector<Value> emitPairFunction(ElementEmitter &emitter,
                                           Region &body, Value array,
                                           Value firstIndex, Value which,
                                           ValueRange innerPath) {
  ElementEmitter::Scope scope(emitter);
  Value secondIndex = emitter.addIndex(firstIndex, 1);
  emitter.bindArguments(body.front(),
                        {emitter.emitElement(array, firstIndex),
                         emitter.emitElement(array, secondIndex)});
  ValueRange yielded = yieldOf(body).getValues();
  size_t width = yielded.size() / 2;
  Value isFirst = emitter.eqIndex(which, 0);
  if (!innerPath.empty()) {
    return emitter.emitChoice(
        isFirst, leafTypes(array),
        [&] { return emitter.emitLeaf(yielded[0], innerPath); },
        [&] { return emitter.emitLeaf(yielded[1], innerPath); });
  }
  SmallVector<Value> outputs = emitter.emitScalars(yielded);
  ArrayRef<Value> all(outputs);
  return selectScalars(emitter, isFirst, all.take_front(width),
                       all.drop_front(width));
}

//===----------------------------------------------------------------------===//
// Stages and index functions
//===----------------------------------------------------------------------===//

SmallVector<Value> SyncOp::emitElement(ElementEmitter &emitter, unsigned,
                                       Value index, ValueRange innerPath) {
  // On values a sync is the identity; only targets give it a buffer.
  return emitter.emitLeaf(getInput(), prepend(index, innerPath));
}

SmallVector<Value> GenerateOp::emitElement(ElementEmitter &emitter, unsigned,
                                           Value index, ValueRange innerPath) {
  ElementEmitter::Scope scope(emitter);
  emitter.bindScalar(getBody().getArgument(0), index);
  return emitter.emitYielded(yieldOf(getBody()).getValues(), innerPath);
}

SmallVector<Value> MapOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange innerPath) {
  ElementEmitter::Scope scope(emitter);
  SmallVector<Element> elements;
  for (Value input : getInputs())
    elements.push_back(emitter.emitElement(input, index));
  emitter.bindArguments(getBody().front(), elements);
  return emitter.emitYielded(yieldOf(getBody()).getValues(), innerPath);
}

/// The place `index` reads, checked against its array (see
/// ElementEmitter::emitCheckedIndex); null for an array of no elements,
/// which has nothing to read.
static Value checkedPlace(ElementEmitter &emitter, IndexOp index) {
  uint64_t length = index.getArrayType().getLength();
  // An array whose reader takes any place (an obs.global argument at
  // run-time sizes: past its memref's end, the unsigned view of a negative
  // place too, it reads its absent value) has no outside when its length
  // is the nominal 2^31 - 1, which stands for any. A shorter one is its
  // length, as a global scatter's is: index 20 of a global
  // `!obs.arr<16 x i32>` read place 20 of a longer memref.
  constexpr uint64_t kNominalLength = 2147483647;
  if (emitter.readsAnyPlace(index.getArray()) && length >= kNominalLength)
    return emitter.emitScalar(index.getIndex());
  Value place = emitter.emitCheckedIndex(emitter.emitScalar(index.getIndex()),
                                         length, index.getLoc());
  return length == 0 ? Value() : place;
}

SmallVector<Value> IndexOp::emitElement(ElementEmitter &emitter, unsigned,
                                        Value index, ValueRange innerPath) {
  // The result is a nested array: its leaf (index, inner...) is the leaf
  // (i, index, inner...) of the indexed array.
  Value place = checkedPlace(emitter, *this);
  if (!place)
    return emitter.emitPoison(leafTypes(getArray()));
  SmallVector<Value> path{place, index};
  path.append(innerPath.begin(), innerPath.end());
  return emitter.emitLeaf(getArray(), path);
}

SmallVector<Value> IndexOp::emitScalars(ElementEmitter &emitter) {
  Value place = checkedPlace(emitter, *this);
  if (!place)
    return emitter.emitPoison(leafTypes(getArray()));
  return emitter.emitLeaf(getArray(), place);
}

//===----------------------------------------------------------------------===//
// Permutations and shapes
//===----------------------------------------------------------------------===//

/// The index of the input element that element `index` of `permutation`
/// (a rev, riffle or unriffle) is.
static Value sourceIndex(ElementEmitter &emitter, Operation *permutation,
                         Value index) {
  uint64_t length = arrType(permutation->getOperand(0)).getLength();
  uint64_t half = length / 2;
  if (isa<RevOp>(permutation))
    return emitter.subIndex(emitter.constantIndex(length - 1), index);
  if (isa<RiffleOp>(permutation)) {
    // out[2i] = a[i], out[2i+1] = a[N/2+i].
    return emitter.addIndex(emitter.divIndex(index, 2),
                            emitter.mulIndex(emitter.remIndex(index, 2), half));
  }
  // unriffle: out[i] = a[2i], out[N/2+i] = a[2i+1]: a[2 (i mod N/2) + i div
  // N/2].
  return emitter.addIndex(emitter.mulIndex(emitter.remIndex(index, half), 2),
                          emitter.divIndex(index, half));
}

/// Where `value` is `argument` under rev, riffle and unriffle alone, those
/// permutations, the outermost first; nothing otherwise.
static std::optional<SmallVector<Operation *>> permutationsOf(Value value,
                                                              Value argument) {
  SmallVector<Operation *> permutations;
  for (; value != argument; value = permutations.back()->getOperand(0)) {
    Operation *op = value.getDefiningOp();
    if (!isa_and_present<RevOp, RiffleOp, UnriffleOp>(op))
      return std::nullopt;
    permutations.push_back(op);
  }
  return permutations;
}

SmallVector<Value> RevOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange innerPath) {
  return emitter.emitLeaf(
      getInput(), prepend(sourceIndex(emitter, *this, index), innerPath));
}

SmallVector<Value> RiffleOp::emitElement(ElementEmitter &emitter, unsigned,
                                         Value index, ValueRange innerPath) {
  return emitter.emitLeaf(
      getInput(), prepend(sourceIndex(emitter, *this, index), innerPath));
}

SmallVector<Value> UnriffleOp::emitElement(ElementEmitter &emitter, unsigned,
                                           Value index, ValueRange innerPath) {
  return emitter.emitLeaf(
      getInput(), prepend(sourceIndex(emitter, *this, index), innerPath));
}

SmallVector<Value> HalveOp::emitElement(ElementEmitter &emitter,
                                        unsigned resultNumber, Value index,
                                        ValueRange innerPath) {
  uint64_t half = arrType(getInput()).getLength() / 2;
  Value source = emitter.addIndex(index, int64_t(resultNumber * half));
  return emitter.emitLeaf(getInput(), prepend(source, innerPath));
}

SmallVector<Value> ConcOp::emitElement(ElementEmitter &emitter, unsigned,
                                       Value index, ValueRange innerPath) {
  uint64_t firstLength = arrType(getFirst()).getLength();
  return emitter.emitChoice(
      emitter.ultIndex(index, firstLength), leafTypes(getResult()),
      [&] { return emitter.emitLeaf(getFirst(), prepend(index, innerPath)); },
      [&] {
        Value shifted =
            emitter.subIndex(index, emitter.constantIndex(firstLength));
        return emitter.emitLeaf(getSecond(), prepend(shifted, innerPath));
      });
}

SmallVector<Value> PairOp::emitElement(ElementEmitter &emitter, unsigned,
                                       Value index, ValueRange) {
  Value first = emitter.mulIndex(index, 2);
  SmallVector<Value> scalars = emitter.emitLeaf(getInput(), first);
  llvm::append_range(scalars,
                     emitter.emitLeaf(getInput(), emitter.addIndex(first, 1)));
  return scalars;
}

SmallVector<Value> UnpairOp::emitElement(ElementEmitter &emitter, unsigned,
                                         Value index, ValueRange) {
  SmallVector<Value> pair =
      emitter.emitLeaf(getInput(), emitter.divIndex(index, 2));
  ArrayRef<Value> both(pair);
  size_t width = both.size() / 2;
  Value isFirst = emitter.eqIndex(emitter.remIndex(index, 2), 0);
  return selectScalars(emitter, isFirst, both.take_front(width),
                       both.drop_front(width));
}

SmallVector<Value> ZipOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange) {
  SmallVector<Value> scalars = emitter.emitLeaf(getFirst(), index);
  llvm::append_range(scalars, emitter.emitLeaf(getSecond(), index));
  return scalars;
}

SmallVector<Value> UnzipOp::emitElement(ElementEmitter &emitter,
                                        unsigned resultNumber, Value index,
                                        ValueRange) {
  auto tuple = cast<TupleType>(arrType(getInput()).getElementType());
  unsigned firstWidth = getFlattenedSize(tuple.getType(0));
  SmallVector<Value> scalars = emitter.emitLeaf(getInput(), index);
  ArrayRef<Value> all(scalars);
  return SmallVector<Value>(resultNumber == 0 ? all.take_front(firstWidth)
                                              : all.drop_front(firstWidth));
}

//===----------------------------------------------------------------------===//
// Element-wise combinators
//===----------------------------------------------------------------------===//

SmallVector<Value> EvensOp::emitElement(ElementEmitter &emitter, unsigned,
                                        Value index, ValueRange innerPath) {
  Value first = emitter.mulIndex(emitter.divIndex(index, 2), 2);
  return emitPairFunction(emitter, getBody(), getInput(), first,
                          emitter.remIndex(index, 2), innerPath);
}

SmallVector<Value> OddsOp::emitElement(ElementEmitter &emitter, unsigned,
                                       Value index, ValueRange innerPath) {
  // a[0] and a[N-1] pass through; (a[2p+1], a[2p+2]) go through f.
  uint64_t length = arrType(getInput()).getLength();
  Value passesThrough = emitter.getBuilder().createOrFold<arith::OrIOp>(
      emitter.getLoc(), emitter.eqIndex(index, 0),
      emitter.eqIndex(index, length - 1));
  return emitter.emitChoice(
      passesThrough, leafTypes(getResult()),
      [&] { return emitter.emitLeaf(getInput(), prepend(index, innerPath)); },
      [&] {
        Value shifted = emitter.subIndex(index, emitter.constantIndex(1));
        Value first = emitter.addIndex(
            emitter.mulIndex(emitter.divIndex(shifted, 2), 2), 1);
        return emitPairFunction(emitter, getBody(), getInput(), first,
                                emitter.remIndex(shifted, 2), innerPath);
      });
}

/// The first half of `input` passes through to `result`; the element of the
/// second half comes from `secondHalf`.
static SmallVector<Value>
emitFirstHalfThen(ElementEmitter &emitter, Value input, Value result,
                  Value index, ValueRange innerPath,
                  function_ref<SmallVector<Value>(uint64_t half)> secondHalf) {
  uint64_t half = arrType(input).getLength() / 2;
  return emitter.emitChoice(
      emitter.ultIndex(index, half), leafTypes(result),
      [&] { return emitter.emitLeaf(input, prepend(index, innerPath)); },
      [&] { return secondHalf(half); });
}

SmallVector<Value> FanOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange innerPath) {
  return emitFirstHalfThen(
      emitter, getInput(), getResult(), index, innerPath, [&](uint64_t half) {
        ElementEmitter::Scope scope(emitter);
        Value lastOfFirst = emitter.constantIndex(half - 1);
        emitter.bindArguments(getBody().front(),
                              {emitter.emitElement(getInput(), lastOfFirst),
                               emitter.emitElement(getInput(), index)});
        return emitter.emitYielded(yieldOf(getBody()).getValues(), innerPath);
      });
}

//===----------------------------------------------------------------------===//
// Program combinators
//===----------------------------------------------------------------------===//

/// Evaluates a sub-program whose argument is the virtual array
/// `input[offset + stride * j]` (j the argument's own index), at the leaf
/// `[local] ++ innerPath` of what it yields.
static SmallVector<Value> emitOnPart(ElementEmitter &emitter, Region &body,
                                     Value input, Value offset, int64_t stride,
                                     Value local, ValueRange innerPath) {
  ElementEmitter::Scope scope(emitter);
  emitter.bindArray(body.getArgument(0), [&emitter, input, offset,
                                          stride](OpBuilder &, Location,
                                                  ValueRange path) {
    SmallVector<Value> shifted(path);
    shifted[0] = emitter.addIndex(emitter.mulIndex(path[0], stride), offset);
    return emitter.emitLeaf(input, shifted);
  });
  return emitter.emitLeaf(yieldOf(body).getValues().front(),
                          prepend(local, innerPath));
}

SmallVector<Value> TwoOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange innerPath) {
  // Element i is element i mod M of P applied to half i div M.
  uint64_t half = arrType(getInput()).getLength() / 2;
  uint64_t partLength = arrType(getResult()).getLength() / 2;
  Value segment = emitter.divIndex(index, partLength);
  return emitOnPart(emitter, getBody(), getInput(),
                    emitter.mulIndex(segment, half), 1,
                    emitter.remIndex(index, partLength), innerPath);
}

SmallVector<Value> IlvOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange innerPath) {
  // riffle (conc (P evens) (P odds)): element i is element i div 2 of P
  // applied to the elements whose index is i mod 2 modulo 2.
  return emitOnPart(emitter, getBody(), getInput(), emitter.remIndex(index, 2),
                    2, emitter.divIndex(index, 2), innerPath);
}

SmallVector<Value> OneOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange innerPath) {
  // A second half that is only permuted (bitonic's `one rev`) moves
  // elements without computing: element i is the input's at an index
  // chosen by arithmetic, with no branch between two reads (which would
  // keep a read of an array in shuffles from being one).
  // (The second half's own index is taken as `i mod N/2`, not `i - N/2`,
  // which is negative for the first half's i: obs-gpu-index-width keeps 32
  // bits only where every unsigned operand is known not negative.)
  if (std::optional<SmallVector<Operation *>> permutations = permutationsOf(
          yieldOf(getBody()).getValues().front(), getBody().getArgument(0))) {
    uint64_t half = arrType(getInput()).getLength() / 2;
    Value permuted = emitter.remIndex(index, half);
    for (Operation *permutation : *permutations)
      permuted = sourceIndex(emitter, permutation, permuted);
    Value source = emitter.getBuilder().createOrFold<arith::SelectOp>(
        emitter.getLoc(), emitter.ultIndex(index, half), index,
        emitter.addIndex(permuted, int64_t(half)));
    return emitter.emitLeaf(getInput(), prepend(source, innerPath));
  }
  return emitFirstHalfThen(
      emitter, getInput(), getResult(), index, innerPath, [&](uint64_t half) {
        Value offset = emitter.constantIndex(half);
        return emitOnPart(emitter, getBody(), getInput(), offset, 1,
                          emitter.subIndex(index, offset), innerPath);
      });
}

SmallVector<Value> RepeatOp::emitElement(ElementEmitter &emitter, unsigned,
                                         Value index, ValueRange innerPath) {
  // As an index function, P^k unrolls: iteration k reads iteration k-1. The
  // targets run repeat as a loop over materialised arrays instead.
  Region &body = getBody();
  Value yielded = yieldOf(body).getValues().front();
  std::function<SmallVector<Value>(uint64_t, ValueRange)> emitIteration =
      [&](uint64_t iteration, ValueRange path) -> SmallVector<Value> {
    if (iteration == 0)
      return emitter.emitLeaf(getInput(), path);
    ElementEmitter::Scope scope(emitter, &body);
    emitter.bindArray(body.getArgument(0),
                      [&, iteration](OpBuilder &, Location, ValueRange inner) {
                        return emitIteration(iteration - 1, inner);
                      });
    return emitter.emitLeaf(yielded, path);
  };
  return emitIteration(getCount(), prepend(index, innerPath));
}

//===----------------------------------------------------------------------===//
// Folds
//===----------------------------------------------------------------------===//

/// `f(...f(f(initial, a[lower]), a[lower+1])..., a[upper-1])` as an scf.for.
static SmallVector<Value> emitFold(ElementEmitter &emitter, Region &body,
                                   Value input, ValueRange initial, Value lower,
                                   Value upper) {
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  auto loop = scf::ForOp::create(builder, loc, lower, upper,
                                 emitter.constantIndex(1), initial);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(loop.getBody());
  {
    ElementEmitter::Scope scope(emitter);
    SmallVector<Value> next = emitter.emitRegionOn(
        body, loop.getRegionIterArgs(),
        emitter.emitElement(input, loop.getInductionVar()).scalars);
    scf::YieldOp::create(builder, loc, next);
  }
  return SmallVector<Value>(loop.getResults());
}

namespace {
/// Flattened elements on the thread's stack, allocated once at the start of
/// the enclosing function so that emitting a reduction inside a loop does
/// not grow the stack.
class ScratchArray {
public:
  ScratchArray(ElementEmitter &emitter, TypeRange types, uint64_t length)
      : emitter(emitter) {
    OpBuilder &builder = emitter.getBuilder();
    OpBuilder::InsertionGuard guard(builder);
    // The function, not the nearest automatic allocation scope: scf.for is
    // one, but its lowering to LLVM frees nothing per iteration, so a
    // reduction inside a loop would grow the stack by its scratch array
    // every iteration.
    Operation *scope = builder.getInsertionBlock()->getParentOp();
    while (scope && !isa<FunctionOpInterface>(scope))
      scope = scope->getParentOp();
    if (scope && !scope->getRegion(0).empty())
      builder.setInsertionPointToStart(&scope->getRegion(0).front());
    for (Type type : types)
      memrefs.push_back(memref::AllocaOp::create(
          builder, emitter.getLoc(),
          MemRefType::get({static_cast<int64_t>(length)}, type)));
  }

  SmallVector<Value> load(Value index) {
    return llvm::map_to_vector(memrefs, [&](Value memref) -> Value {
      return memref::LoadOp::create(emitter.getBuilder(), emitter.getLoc(),
                                    memref, index);
    });
  }
  void store(ValueRange values, Value index) {
    for (auto [value, memref] : llvm::zip_equal(values, memrefs))
      memref::StoreOp::create(emitter.getBuilder(), emitter.getLoc(), value,
                              memref, index);
  }

private:
  ElementEmitter &emitter;
  SmallVector<Value> memrefs;
};
} // namespace

/// `body(i)` for i = 0 .. count-1, in increasing order, in an scf.for.
static void emitForEach(ElementEmitter &emitter, uint64_t count,
                        llvm::function_ref<void(Value)> body) {
  OpBuilder &builder = emitter.getBuilder();
  auto loop = scf::ForOp::create(
      builder, emitter.getLoc(), emitter.constantIndex(0),
      emitter.constantIndex(count), emitter.constantIndex(1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  ElementEmitter::Scope iteration(emitter);
  body(loop.getInductionVar());
}

/// Seed 004's tree: level by level, elements 2j and 2j+1 combine into j and
/// an odd last element moves up unchanged.
static SmallVector<Value> emitTreeReduce(ElementEmitter &emitter, Region &body,
                                         Value input) {
  uint64_t length = arrType(input).getLength();
  ScratchArray scratch(emitter, leafTypes(input), (length + 1) / 2);
  // Level by level; `read(i)` is element i of the level below. Writing j
  // while reading 2j and 2j+1 in increasing j never overwrites what is
  // still to be read, so the levels share the scratch array.
  auto level = [&](uint64_t count,
                   llvm::function_ref<SmallVector<Value>(Value)> read) {
    emitForEach(emitter, count / 2, [&](Value j) {
      Value left = emitter.mulIndex(j, 2);
      SmallVector<Value> lhs = read(left);
      SmallVector<Value> rhs = read(emitter.addIndex(left, 1));
      scratch.store(emitter.emitRegionOn(body, lhs, rhs), j);
    });
    if (count % 2) {
      ElementEmitter::Scope last(emitter);
      scratch.store(read(emitter.constantIndex(count - 1)),
                    emitter.constantIndex(count / 2));
    }
  };
  auto load = [&](Value index) { return scratch.load(index); };
  level(length,
        [&](Value index) { return emitter.emitElement(input, index).scalars; });
  for (uint64_t count = (length + 1) / 2; count > 1; count = (count + 1) / 2)
    level(count, load);
  return load(emitter.constantIndex(0));
}

/// The serial network's order (lib/Builder/Networks.cpp builds its stages
/// for the GPU targets; this is the reference's own): each of `threads`
/// runs of consecutive elements folded left to right, then within each
/// warp of 32 runs lane l takes in lane l + d for d = 1, 2, 4, ... where
/// that lane exists, then the warps' totals alike, level by level until
/// one group of 32 is left, which is folded left to right. At distance d
/// element
/// c reads c + d, which in increasing c is still the level below's: the
/// levels share one array.
static SmallVector<Value> emitSerialReduce(ElementEmitter &emitter,
                                           Region &body, Value input,
                                           uint64_t threads) {
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  uint64_t length = arrType(input).getLength();
  uint64_t run = getSerialRunLength(length, threads);
  uint64_t runs = llvm::divideCeil(length, run);
  constexpr uint64_t warp = KernelOp::kWarpSize;
  ScratchArray totals(emitter, leafTypes(input), runs);
  emitForEach(emitter, runs, [&](Value r) {
    Value first = emitter.mulIndex(r, run);
    Value end =
        arith::MinUIOp::create(builder, loc, emitter.addIndex(first, run),
                               emitter.constantIndex(length));
    totals.store(emitFold(emitter, body, input,
                          emitter.emitElement(input, first).scalars,
                          emitter.addIndex(first, 1), end),
                 r);
  });
  auto foldWithinWarps = [&](uint64_t count) {
    for (uint64_t distance = 1; distance < std::min(warp, count); distance *= 2)
      emitForEach(emitter, count, [&](Value c) {
        Value lane = arith::AndIOp::create(builder, loc, c,
                                           emitter.constantIndex(warp - 1));
        Value inWarp =
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, lane,
                                  emitter.constantIndex(warp - distance));
        Value other = emitter.addIndex(c, distance);
        Value inArray =
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                  other, emitter.constantIndex(count));
        auto takes = scf::IfOp::create(
            builder, loc, arith::AndIOp::create(builder, loc, inWarp, inArray),
            /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(takes.thenBlock()->getTerminator());
        ElementEmitter::Scope taken(emitter);
        totals.store(
            emitter.emitRegionOn(body, totals.load(c), totals.load(other)), c);
      });
  };
  // Level by level until one group of 32 is left. Group v's total moves to
  // v: in increasing v, 32v is never one of the places already written.
  // The last group of the warps' totals is folded left to right.
  for (uint64_t count = runs, level = 0;; ++level) {
    if (level > 0 && count <= warp) {
      emitForEach(emitter, count - 1, [&](Value v) {
        totals.store(emitter.emitRegionOn(body,
                                          totals.load(emitter.constantIndex(0)),
                                          totals.load(emitter.addIndex(v, 1))),
                     emitter.constantIndex(0));
      });
      break;
    }
    foldWithinWarps(count);
    uint64_t groups = llvm::divideCeil(count, warp);
    if (groups == 1)
      break;
    emitForEach(emitter, groups, [&](Value v) {
      totals.store(totals.load(emitter.mulIndex(v, warp)), v);
    });
    count = groups;
  }
  return totals.load(emitter.constantIndex(0));
}

SmallVector<Value> ReduceOp::emitScalars(ElementEmitter &emitter) {
  Value input = getInput();
  uint64_t length = arrType(input).getLength();
  if (length == 1)
    return emitter.emitLeaf(input, emitter.constantIndex(0));
  if (std::optional<ReduceNetwork> network = getNetwork()) {
    switch (*network) {
    case ReduceNetwork::Tree:
      return emitTreeReduce(emitter, getBody(), input);
    case ReduceNetwork::Serial:
      return emitSerialReduce(emitter, getBody(), input,
                              getSerialNetworkThreads(*this));
    }
  }
  SmallVector<Value> initial =
      emitter.emitLeaf(input, emitter.constantIndex(0));
  return emitFold(emitter, getBody(), input, initial, emitter.constantIndex(1),
                  emitter.constantIndex(length));
}

SmallVector<Value> ScanOp::emitElement(ElementEmitter &emitter, unsigned,
                                       Value index, ValueRange) {
  // Element i folds a[0..i] left to right, whatever the network: a network
  // only reassociates, and only at program level (--obs-expand-networks).
  Value input = getInput();
  SmallVector<Value> first = emitter.emitLeaf(input, emitter.constantIndex(0));
  return emitFold(emitter, getBody(), input, first, emitter.constantIndex(1),
                  emitter.addIndex(index, 1));
}

SmallVector<Value> SortOp::emitElement(ElementEmitter &emitter, unsigned,
                                       Value index, ValueRange) {
  // Element i is the element of stable rank i: a[j] has rank
  //   #{k : a[k] < a[j]} + #{k < j : a[k] equivalent to a[j]},
  // a permutation of 0..N-1 for any strict weak order.
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Value input = getInput();
  uint64_t length = arrType(input).getLength();
  Value zero = emitter.constantIndex(0);
  Value one = emitter.constantIndex(1);
  Value size = emitter.constantIndex(length);
  SmallVector<Value> initial = emitter.emitLeaf(input, zero);
  auto outer = scf::ForOp::create(builder, loc, zero, size, one, initial);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(outer.getBody());
  ElementEmitter::Scope outerScope(emitter);
  Value j = outer.getInductionVar();
  SmallVector<Value> candidate = emitter.emitElement(input, j).scalars;
  auto inner = scf::ForOp::create(builder, loc, zero, size, one, zero);
  {
    OpBuilder::InsertionGuard innerGuard(builder);
    builder.setInsertionPointToStart(inner.getBody());
    ElementEmitter::Scope innerScope(emitter);
    Value k = inner.getInductionVar();
    SmallVector<Value> other = emitter.emitElement(input, k).scalars;
    Value otherFirst =
        emitter.emitRegionOn(getBody(), other, candidate).front();
    Value candidateFirst =
        emitter.emitRegionOn(getBody(), candidate, other).front();
    Value earlier =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, k, j);
    Value trueValue = arith::ConstantIntOp::create(builder, loc, 1, 1);
    Value notAfter =
        arith::XOrIOp::create(builder, loc, candidateFirst, trueValue);
    Value tiedEarlier = arith::AndIOp::create(builder, loc, earlier, notAfter);
    Value counts = arith::OrIOp::create(builder, loc, otherFirst, tiedEarlier);
    Value step = arith::IndexCastUIOp::create(builder, loc,
                                              builder.getIndexType(), counts);
    Value rank = arith::AddIOp::create(builder, loc,
                                       inner.getRegionIterArgs().front(), step);
    scf::YieldOp::create(builder, loc, rank);
  }
  Value isWanted = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         inner.getResult(0), index);
  SmallVector<Value> chosen =
      selectScalars(emitter, isWanted, candidate, outer.getRegionIterArgs());
  scf::YieldOp::create(builder, loc, chosen);
  return SmallVector<Value>(outer.getResults());
}
