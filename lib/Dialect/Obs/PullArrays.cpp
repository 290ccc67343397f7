//===- PullArrays.cpp - the index function of every obs array op ----------===//
//
// One emitElement per op: DESIGN section 4's table, read as index functions.
// Each method emits, for a leaf at `[index] ++ innerPath` of its result, the
// flattened scalars, asking the emitter for operand elements. Index arithmetic
// goes through the emitter's folding helpers, so that a constant index (one
// thread in one round, after specialisation) yields constant operand indices.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::obs;

static ArrType arrType(Value value) { return cast<ArrType>(value.getType()); }

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

SmallVector<Value> IndexOp::emitElement(ElementEmitter &emitter, unsigned,
                                        Value index, ValueRange innerPath) {
  // The result is a nested array: its leaf (index, inner...) is the leaf
  // (i, index, inner...) of the indexed array.
  SmallVector<Value> path{emitter.emitScalar(getIndex()), index};
  path.append(innerPath.begin(), innerPath.end());
  return emitter.emitLeaf(getArray(), path);
}

SmallVector<Value> IndexOp::emitScalars(ElementEmitter &emitter) {
  return emitter.emitLeaf(getArray(), emitter.emitScalar(getIndex()));
}

//===----------------------------------------------------------------------===//
// Permutations and shapes
//===----------------------------------------------------------------------===//

SmallVector<Value> RevOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange innerPath) {
  uint64_t length = arrType(getInput()).getLength();
  Value last = emitter.constantIndex(length - 1);
  return emitter.emitLeaf(getInput(),
                          prepend(emitter.subIndex(last, index), innerPath));
}

SmallVector<Value> RiffleOp::emitElement(ElementEmitter &emitter, unsigned,
                                         Value index, ValueRange innerPath) {
  // out[2i] = a[i], out[2i+1] = a[N/2+i].
  uint64_t half = arrType(getInput()).getLength() / 2;
  Value source = emitter.addIndex(
      emitter.divIndex(index, 2),
      emitter.mulIndex(emitter.remIndex(index, 2), half));
  return emitter.emitLeaf(getInput(), prepend(source, innerPath));
}

SmallVector<Value> UnriffleOp::emitElement(ElementEmitter &emitter, unsigned,
                                           Value index, ValueRange innerPath) {
  // out[i] = a[2i], out[N/2+i] = a[2i+1]: a[2 (i mod N/2) + i div N/2].
  uint64_t half = arrType(getInput()).getLength() / 2;
  Value source =
      emitter.addIndex(emitter.mulIndex(emitter.remIndex(index, half), 2),
                       emitter.divIndex(index, half));
  return emitter.emitLeaf(getInput(), prepend(source, innerPath));
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
        Value first =
            emitter.addIndex(emitter.mulIndex(emitter.divIndex(shifted, 2), 2),
                             1);
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
                                     Value input, Value offset,
                                     int64_t stride, Value local,
                                     ValueRange innerPath) {
  ElementEmitter::Scope scope(emitter);
  emitter.bindArray(body.getArgument(0),
                    [&emitter, input, offset, stride](OpBuilder &, Location,
                                                      ValueRange path) {
                      SmallVector<Value> shifted(path);
                      shifted[0] = emitter.addIndex(
                          emitter.mulIndex(path[0], stride), offset);
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
  return emitOnPart(emitter, getBody(), getInput(),
                    emitter.remIndex(index, 2), 2, emitter.divIndex(index, 2),
                    innerPath);
}

SmallVector<Value> OneOp::emitElement(ElementEmitter &emitter, unsigned,
                                      Value index, ValueRange innerPath) {
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

SmallVector<Value> ReduceOp::emitScalars(ElementEmitter &emitter) {
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Value input = getInput();
  uint64_t length = arrType(input).getLength();
  SmallVector<Value> initial = emitter.emitLeaf(input, emitter.constantIndex(0));
  if (length == 1)
    return initial;
  auto loop = scf::ForOp::create(builder, loc, emitter.constantIndex(1),
                                 emitter.constantIndex(length),
                                 emitter.constantIndex(1), initial);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(loop.getBody());
  {
    ElementEmitter::Scope scope(emitter);
    Element accumulator;
    accumulator.scalars.assign(loop.getRegionIterArgs().begin(),
                               loop.getRegionIterArgs().end());
    emitter.bindArguments(
        getBody().front(),
        {accumulator, emitter.emitElement(input, loop.getInductionVar())});
    SmallVector<Value> next =
        emitter.emitScalars(yieldOf(getBody()).getValues());
    scf::YieldOp::create(builder, loc, next);
  }
  return SmallVector<Value>(loop.getResults());
}
