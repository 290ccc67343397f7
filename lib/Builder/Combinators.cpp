//===- Combinators.cpp - Obsidian's combinators as C++ functions ----------===//

#include "Obs/Builder/Combinators.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::obs;

uint64_t dsl::length(Value array) { return arrType(array).getLength(); }

/// Builds the block of an element region: arguments of `argTypes`, the body
/// from `body`, and the `obs.yield` of what it returns.
static void
buildElementRegion(ImplicitLocOpBuilder &b, Region &region, TypeRange argTypes,
                   llvm::function_ref<SmallVector<Value>(ValueRange)> body) {
  Block &block = region.emplaceBlock();
  for (Type type : argTypes)
    block.addArgument(type, b.getLoc());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&block);
  YieldOp::create(b, body(block.getArguments()));
}

/// Builds a sub-program's block, unattached, and returns it with the array
/// it yields.
static std::pair<std::unique_ptr<Block>, Value>
buildProgramBlock(ImplicitLocOpBuilder &b, Type argType,
                  dsl::ProgramFn program) {
  auto block = std::make_unique<Block>();
  block->addArgument(argType, b.getLoc());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block.get());
  Value result = program(b, block->getArgument(0));
  YieldOp::create(b, result);
  return {std::move(block), result};
}

/// The flattened types of `count` elements of `array`.
static SmallVector<Type> elementTypes(Value array, unsigned count = 1) {
  SmallVector<Type> types;
  for (unsigned i = 0; i < count; ++i)
    flattenElementType(arrType(array).getElementType(), types);
  return types;
}

/// Calls a binary function on block arguments split into two elements.
static SmallVector<Value> callBinary(ImplicitLocOpBuilder &b, dsl::BinaryFn f,
                                     ValueRange arguments) {
  size_t width = arguments.size() / 2;
  return f(b, arguments.take_front(width), arguments.drop_front(width));
}

Value dsl::sync(ImplicitLocOpBuilder &b, Value array) {
  return SyncOp::create(b, array);
}

Value dsl::generate(ImplicitLocOpBuilder &b, ArrType type, IndexFn element) {
  auto op = GenerateOp::create(b, type);
  buildElementRegion(b, op.getBody(), b.getIndexType(),
                     [&](ValueRange args) { return element(b, args.front()); });
  return op;
}

Value dsl::map(ImplicitLocOpBuilder &b, ValueRange inputs, Type resultElement,
               ElementFn f) {
  assert(!inputs.empty() && "map needs an array to map over");
  SmallVector<Type> argTypes;
  for (Value input : inputs)
    llvm::append_range(argTypes, elementTypes(input));
  auto resultType = ArrType::get(length(inputs.front()), resultElement);
  auto op = MapOp::create(b, resultType, inputs);
  buildElementRegion(b, op.getBody(), argTypes,
                     [&](ValueRange args) { return f(b, args); });
  return op;
}

SmallVector<Value> dsl::index(ImplicitLocOpBuilder &b, Value array, Value i) {
  return SmallVector<Value>(IndexOp::create(b, array, i).getResults());
}

template <typename OpTy>
static Value buildNeighbourOp(ImplicitLocOpBuilder &b, Value array,
                              dsl::BinaryFn f) {
  auto op = OpTy::create(b, array.getType(), array);
  buildElementRegion(b, op.getBody(), elementTypes(array, 2),
                     [&](ValueRange args) { return callBinary(b, f, args); });
  return op;
}

Value dsl::evens(ImplicitLocOpBuilder &b, Value array, BinaryFn f) {
  return buildNeighbourOp<EvensOp>(b, array, f);
}
Value dsl::odds(ImplicitLocOpBuilder &b, Value array, BinaryFn f) {
  return buildNeighbourOp<OddsOp>(b, array, f);
}
Value dsl::fan(ImplicitLocOpBuilder &b, Value array, BinaryFn combine) {
  return buildNeighbourOp<FanOp>(b, array, combine);
}

Value dsl::rev(ImplicitLocOpBuilder &b, Value array) {
  return RevOp::create(b, array);
}
Value dsl::riffle(ImplicitLocOpBuilder &b, Value array) {
  return RiffleOp::create(b, array);
}
Value dsl::unriffle(ImplicitLocOpBuilder &b, Value array) {
  return UnriffleOp::create(b, array);
}
std::pair<Value, Value> dsl::halve(ImplicitLocOpBuilder &b, Value array) {
  auto op = HalveOp::create(b, array);
  return {op.getLow(), op.getHigh()};
}
Value dsl::conc(ImplicitLocOpBuilder &b, Value first, Value second) {
  return ConcOp::create(b, first, second);
}
Value dsl::pair(ImplicitLocOpBuilder &b, Value array) {
  return PairOp::create(b, array);
}
Value dsl::unpair(ImplicitLocOpBuilder &b, Value array) {
  return UnpairOp::create(b, array);
}
Value dsl::zip(ImplicitLocOpBuilder &b, Value first, Value second) {
  return ZipOp::create(b, first, second);
}
std::pair<Value, Value> dsl::unzip(ImplicitLocOpBuilder &b, Value array) {
  auto op = UnzipOp::create(b, array);
  return {op.getFirst(), op.getSecond()};
}

/// two and ilv: P on halves of N/2 elements, two of its results together.
template <typename OpTy>
static Value buildOnHalves(ImplicitLocOpBuilder &b, Value array,
                           dsl::ProgramFn program) {
  ArrType type = arrType(array);
  auto [block, produced] =
      buildProgramBlock(b, type.withLength(type.getLength() / 2), program);
  ArrType part = arrType(produced);
  auto op = OpTy::create(b, part.withLength(2 * part.getLength()), array);
  op.getBody().push_back(block.release());
  return op;
}

Value dsl::two(ImplicitLocOpBuilder &b, Value array, ProgramFn program) {
  return buildOnHalves<TwoOp>(b, array, program);
}
Value dsl::ilv(ImplicitLocOpBuilder &b, Value array, ProgramFn program) {
  return buildOnHalves<IlvOp>(b, array, program);
}

Value dsl::one(ImplicitLocOpBuilder &b, Value array, ProgramFn program) {
  ArrType type = arrType(array);
  auto [block, produced] =
      buildProgramBlock(b, type.withLength(type.getLength() / 2), program);
  auto op = OneOp::create(b, type, array);
  op.getBody().push_back(block.release());
  return op;
}

Value dsl::repeat(ImplicitLocOpBuilder &b, uint64_t count, Value array,
                  ProgramFn program) {
  auto [block, produced] = buildProgramBlock(b, array.getType(), program);
  auto op = RepeatOp::create(b, array.getType(), array, count);
  op.getBody().push_back(block.release());
  return op;
}

SmallVector<Value> dsl::reduce(ImplicitLocOpBuilder &b, Value array,
                               BinaryFn combine,
                               std::optional<ReduceNetwork> network) {
  ReduceNetworkAttr networkAttr;
  if (network)
    networkAttr = ReduceNetworkAttr::get(b.getContext(), *network);
  auto op = ReduceOp::create(b, elementTypes(array), array, networkAttr);
  buildElementRegion(
      b, op.getBody(), elementTypes(array, 2),
      [&](ValueRange args) { return callBinary(b, combine, args); });
  return SmallVector<Value>(op.getResults());
}

/// scan and sort: the op on `array`, its region from a binary function.
template <typename OpTy, typename NetworkAttrT, typename Network>
static Value buildNetworkOp(ImplicitLocOpBuilder &b, Value array,
                            dsl::BinaryFn body,
                            std::optional<Network> network) {
  NetworkAttrT networkAttr;
  if (network)
    networkAttr = NetworkAttrT::get(b.getContext(), *network);
  auto op = OpTy::create(b, array.getType(), array, networkAttr);
  buildElementRegion(
      b, op.getBody(), elementTypes(array, 2),
      [&](ValueRange args) { return callBinary(b, body, args); });
  return op;
}

Value dsl::scan(ImplicitLocOpBuilder &b, Value array, BinaryFn combine,
                std::optional<ScanNetwork> network) {
  return buildNetworkOp<ScanOp, ScanNetworkAttr>(b, array, combine, network);
}

Value dsl::sort(ImplicitLocOpBuilder &b, Value array, BinaryFn less,
                std::optional<SortNetwork> network) {
  return buildNetworkOp<SortOp, SortNetworkAttr>(b, array, less, network);
}

Value dsl::scatter(ImplicitLocOpBuilder &b, Value values, Value places,
                   uint64_t length, std::optional<ScatterCombine> combine,
                   TypedAttr initial) {
  auto type =
      ArrType::get(length, cast<ArrType>(values.getType()).getElementType());
  ScatterCombineAttr combineAttr;
  if (combine)
    combineAttr = ScatterCombineAttr::get(b.getContext(), *combine);
  return ScatterOp::create(b, type, values, places, combineAttr, initial,
                           /*global=*/!initial);
}

SmallVector<Value> dsl::compareSwap(ImplicitLocOpBuilder &b, BinaryFn less,
                                    ValueRange lhs, ValueRange rhs) {
  // Swap only when the second must come first: equivalent elements stay.
  Value swap = less(b, rhs, lhs).front();
  SmallVector<Value> ordered;
  for (auto [x, y] : llvm::zip_equal(lhs, rhs))
    ordered.push_back(arith::SelectOp::create(b, swap, y, x));
  for (auto [x, y] : llvm::zip_equal(lhs, rhs))
    ordered.push_back(arith::SelectOp::create(b, swap, x, y));
  return ordered;
}

SmallVector<Value> dsl::inlineRegion(ImplicitLocOpBuilder &b, Region &region,
                                     ValueRange arguments) {
  Block &block = region.front();
  IRMapping mapping;
  mapping.map(block.getArguments(), arguments);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  return llvm::map_to_vector(
      block.getTerminator()->getOperands(),
      [&](Value value) { return mapping.lookupOrDefault(value); });
}
