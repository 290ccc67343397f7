//===- ObsToReference.cpp - the reference target --------------------------===//
//
// The oracle: kernels as plain sequential loops. It is deliberately naive and
// independent of everything the other targets decide (threads, work
// assignment, barriers, buffer reuse); its only shared piece is the index
// function of each op (lib/Dialect/Obs/PullArrays.cpp), which the pull-array
// tests check against the papers.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/Support/ByteSpan.h"
#include "Obs/Support/MemoryBytes.h"
#include "Obs/Support/RuntimeFunctions.h"
#include "Obs/Support/SourceLocation.h"
#include "Obs/Support/Statistics.h"
#include "ReferenceLaunch.h"
#include "ReferenceLowering.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSLOWERREFERENCE
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::reference;

Buffer ReferenceLowering::allocate(ArrType type, Location loc) {
  countBuffer();
  Buffer buffer;
  for (MemRefType memrefType : getStorageTypes(type)) {
    Value allocation = memref::AllocOp::create(builder, loc, memrefType);
    scopes.back().push_back(allocation);
    buffer.push_back(allocation);
    // An array's buffer the machine cannot give is an error as a host
    // allocation's is, where the stores into a null buffer faulted (found
    // by an adversarial run: an array of 2^32 i64; cpu, which keeps no
    // such buffer, answered).
    uint64_t bytes = getTotalBytes(memrefType);
    if (bytes == 0)
      continue;
    ImplicitLocOpBuilder b(loc, builder);
    emitAllocatedCheck(b, allocation, /*empty=*/nullptr,
                       describeLocation(loc) +
                           ": the reference target could not allocate the " +
                           std::to_string(bytes) + " bytes of an array of " +
                           std::to_string(type.getNumLeaves()) + " elements");
  }
  return buffer;
}

void ReferenceLowering::forEachLeaf(ArrType type, Location loc,
                                    function_ref<void(ValueRange)> body) {
  SmallVector<Value> lowerBounds, upperBounds, steps;
  for (uint64_t length : type.getShape()) {
    lowerBounds.push_back(constant(loc, 0));
    upperBounds.push_back(constant(loc, length));
    steps.push_back(constant(loc, 1));
  }
  scf::buildLoopNest(builder, loc, lowerBounds, upperBounds, steps,
                     [&](OpBuilder &nested, Location, ValueRange ivs) {
                       OpBuilder::InsertionGuard guard(builder);
                       builder.setInsertionPoint(nested.getInsertionBlock(),
                                                 nested.getInsertionPoint());
                       body(ivs);
                     });
}

std::unique_ptr<ElementEmitter> ReferenceLowering::makeEmitter(Location loc) {
  auto emitter = std::make_unique<ElementEmitter>(builder, loc);
  for (const auto &[value, buffer] : buffers) {
    auto present = presentLengths.find(buffer.front());
    if (present == presentLengths.end()) {
      emitter->setSource(value, makeStorageReader(buffer));
      continue;
    }
    emitter->setSource(value,
                       makePresentStorageReader(buffer, present->second.first,
                                                present->second.second));
    emitter->setReadsAnyPlace(value);
  }
  if (positioned)
    emitter->setBlockPosition(
        positioned, [this](OpBuilder &, Location) { return blockIdArgument; },
        [this](OpBuilder &, Location, unsigned argument) {
          return extentArguments[argument];
        });
  if (indexReport)
    emitter->setIndexReport([this](OpBuilder &b, Location loc, Value inside,
                                   Value index, uint64_t length) {
      emitIndexOutsideReport(b, loc, indexReport, inside,
                             positioned ? blockIdArgument : Value(), index,
                             length);
    });
  return emitter;
}

LogicalResult ReferenceLowering::materialize(Value array, const Buffer &dest) {
  bool failed = false;
  forEachLeaf(
      cast<ArrType>(array.getType()), array.getLoc(), [&](ValueRange path) {
        std::unique_ptr<ElementEmitter> emitter = makeEmitter(array.getLoc());
        SmallVector<Value> leaf = emitter->emitLeaf(array, path);
        storeLeaf(builder, array.getLoc(), dest, leaf, path);
        failed |= emitter->failed();
      });
  return failure(failed);
}

void ReferenceLowering::copy(ArrType type, Location loc, const Buffer &from,
                             const OuterIndexMap &fromIndex, const Buffer &to,
                             const OuterIndexMap &toIndex) {
  forEachLeaf(type, loc, [&](ValueRange path) {
    SmallVector<Value> fromPath(path), toPath(path);
    fromPath[0] = fromIndex(path[0]);
    toPath[0] = toIndex(path[0]);
    SmallVector<Value> leaf = makeStorageReader(from)(builder, loc, fromPath);
    storeLeaf(builder, loc, to, leaf, toPath);
  });
}

FailureOr<SmallVector<Buffer>>
ReferenceLowering::lowerProgram(Region &body, ArrayRef<Buffer> arguments) {
  Block &block = body.front();
  for (auto [argument, buffer] :
       llvm::zip_equal(block.getArguments(), arguments))
    buffers[argument] = buffer;
  for (Operation &op : block.without_terminator())
    if (failed(lowerOp(&op)))
      return failure();
  SmallVector<Buffer> results;
  for (Value yielded : block.getTerminator()->getOperands())
    results.push_back(buffers.lookup(yielded));
  return results;
}

LogicalResult ReferenceLowering::lowerOp(Operation *op) {
  auto isArray = [](Type type) { return isa<ArrType>(type); };
  // Scalars (constants, obs.index and obs.reduce of arrays) are emitted where
  // an element needs them.
  if (llvm::none_of(op->getResultTypes(), isArray))
    return success();
  if (auto sync = dyn_cast<SyncOp>(op)) {
    buffers[sync.getResult()] = buffers.lookup(sync.getInput());
    return success();
  }
  if (auto two = dyn_cast<TwoOp>(op))
    return lowerParts(op, two.getBody(), two.getInput(), two.getResult());
  if (auto ilv = dyn_cast<IlvOp>(op))
    return lowerParts(op, ilv.getBody(), ilv.getInput(), ilv.getResult());
  if (auto one = dyn_cast<OneOp>(op))
    return lowerParts(op, one.getBody(), one.getInput(), one.getResult());
  if (auto repeat = dyn_cast<RepeatOp>(op))
    return lowerRepeat(repeat);
  if (auto scan = dyn_cast<ScanOp>(op))
    return lowerScan(scan);
  if (auto sort = dyn_cast<SortOp>(op))
    return lowerSort(sort);
  if (auto scatter = dyn_cast<ScatterOp>(op))
    return lowerScatter(scatter);
  if (auto carry = dyn_cast<CarryOp>(op))
    return lowerCarry(carry);
  for (Value result : op->getResults()) {
    Buffer buffer = allocate(cast<ArrType>(result.getType()), op->getLoc());
    if (failed(materialize(result, buffer)))
      return failure();
    buffers[result] = buffer;
  }
  return success();
}

LogicalResult ReferenceLowering::lowerParts(Operation *op, Region &body,
                                            Value input, Value result) {
  Location loc = op->getLoc();
  auto inputType = cast<ArrType>(input.getType());
  auto resultType = cast<ArrType>(result.getType());
  int64_t half = inputType.getLength() / 2;
  auto partType =
      cast<ArrType>(body.front().getTerminator()->getOperand(0).getType());
  int64_t partLength = partType.getLength();
  const Buffer &from = buffers.lookup(input);
  Buffer out = allocate(resultType, loc);

  // Where element j of part s lives in the input and in the result:
  //   two: s*N/2 + j and s*M + j;  ilv: 2j + s in both;  one: N/2 + j.
  std::function<Value(Value, Value)> inputIndex, outputIndex;
  int64_t firstPart = 0;
  if (isa<TwoOp>(op)) {
    inputIndex = [&](Value s, Value j) { return affine(loc, s, half, j); };
    outputIndex = [&](Value s, Value j) {
      return affine(loc, s, partLength, j);
    };
  } else if (isa<IlvOp>(op)) {
    inputIndex =
        outputIndex = [&](Value s, Value j) { return affine(loc, j, 2, s); };
  } else {
    // one P keeps the first half as it is.
    firstPart = 1;
    copy(inputType.withLength(half), loc, from, identityIndex, out,
         identityIndex);
    inputIndex = outputIndex = [&](Value, Value j) {
      return affine(loc, j, 1, constant(loc, half));
    };
  }

  auto loop = scf::ForOp::create(builder, loc, constant(loc, firstPart),
                                 constant(loc, 2), constant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  Value segment = loop.getInductionVar();
  pushScope();
  Buffer part = allocate(inputType.withLength(half), loc);
  copy(
      inputType.withLength(half), loc, from,
      [&](Value j) { return inputIndex(segment, j); }, part, identityIndex);
  FailureOr<SmallVector<Buffer>> produced = lowerProgram(body, {part});
  if (failed(produced))
    return failure();
  copy(partType, loc, produced->front(), identityIndex, out,
       [&](Value j) { return outputIndex(segment, j); });
  popScope(loc);
  buffers[result] = out;
  return success();
}

LogicalResult ReferenceLowering::lowerRepeat(RepeatOp repeat) {
  Location loc = repeat.getLoc();
  auto type = cast<ArrType>(repeat.getType());
  Buffer current = allocate(type, loc);
  copy(type, loc, buffers.lookup(repeat.getInput()), identityIndex, current,
       identityIndex);
  auto loop =
      scf::ForOp::create(builder, loc, constant(loc, 0),
                         constant(loc, repeat.getCount()), constant(loc, 1));
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    pushScope();
    FailureOr<SmallVector<Buffer>> produced =
        lowerProgram(repeat.getBody(), {current});
    if (failed(produced))
      return failure();
    if (produced->front() != current)
      copy(type, loc, produced->front(), identityIndex, current, identityIndex);
    popScope(loc);
  }
  buffers[repeat.getResult()] = current;
  return success();
}

LogicalResult ReferenceLowering::lowerScan(ScanOp scan) {
  Location loc = scan.getLoc();
  auto type = cast<ArrType>(scan.getType());
  Buffer out = allocate(type, loc);
  buffers[scan.getResult()] = out;
  if (type.getLength() == 0)
    return success();
  if (std::optional<ScanNetwork> network = scan.getNetwork()) {
    // Its order is its meaning for a combine that rounds.
    if (failed(materialize(scan.getInput(), out)))
      return failure();
    bool failed = false;
    scanInNetworkOrder(
        scan, out, type.getLength(), *network,
        *network == ScanNetwork::Serial ? getSerialNetworkThreads(scan) : 0,
        failed);
    return failure(failed);
  }
  // out[0] = a[0]; out[i] = out[i-1] + a[i].
  std::unique_ptr<ElementEmitter> emitter = makeEmitter(loc);
  Value zero = constant(loc, 0);
  storeLeaf(builder, loc, out, emitter->emitLeaf(scan.getInput(), zero), zero);
  auto loop =
      scf::ForOp::create(builder, loc, constant(loc, 1),
                         constant(loc, type.getLength()), constant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  Value i = loop.getInductionVar();
  Value previous = arith::SubIOp::create(builder, loc, i, constant(loc, 1));
  std::unique_ptr<ElementEmitter> body = makeEmitter(loc);
  SmallVector<Value> combined = body->emitRegionOn(
      scan.getBody(), makeStorageReader(out)(builder, loc, previous),
      body->emitLeaf(scan.getInput(), i));
  storeLeaf(builder, loc, out, combined, i);
  return failure(emitter->failed() || body->failed());
}

LogicalResult ReferenceLowering::lowerSort(SortOp sort) {
  Location loc = sort.getLoc();
  auto type = cast<ArrType>(sort.getType());
  Buffer out = allocate(type, loc);
  if (failed(materialize(sort.getInput(), out)))
    return failure();
  buffers[sort.getResult()] = out;
  uint64_t length = type.getLength();
  if (length < 2)
    return success();
  // A bottom-up merge sort: pass p merges the sorted runs of 2^p elements
  // pairwise into `merged`, which is copied back. A merge takes the right
  // run's element only where it strictly precedes the left run's, so
  // equivalent elements keep their order: for a strict weak order the
  // result is the one stable sort, the insertion sort's this replaced, in
  // O(N log N) comparisons instead of N^2 / 2 (a device sort's 4,096-key
  // tiles took 8.4 million each).
  //   for p in 0..ceil(log2 N): w = 2^p
  //     for lo in 0..N step 2w: mid = min(lo + w, N); hi = min(lo + 2w, N)
  //       i = lo; j = mid
  //       for k in lo..hi:
  //         right = j < hi && (i == mid || less(out[j], out[i]))
  //         merged[k] = right ? out[j++] : out[i++]
  //     out = merged
  Buffer merged = allocate(type, loc);
  Value zero = constant(loc, 0), one = constant(loc, 1);
  Value end = constant(loc, length);
  auto passes = scf::ForOp::create(
      builder, loc, zero, constant(loc, llvm::Log2_64_Ceil(length)), one);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(passes.getBody()->getTerminator());
  Value width =
      arith::ShLIOp::create(builder, loc, one, passes.getInductionVar());
  Value span = arith::ShLIOp::create(builder, loc, width, one);
  auto runs = scf::ForOp::create(builder, loc, zero, end, span);
  {
    OpBuilder::InsertionGuard runGuard(builder);
    builder.setInsertionPoint(runs.getBody()->getTerminator());
    Value lo = runs.getInductionVar();
    Value mid = arith::MinUIOp::create(
        builder, loc, arith::AddIOp::create(builder, loc, lo, width), end);
    Value hi = arith::MinUIOp::create(
        builder, loc, arith::AddIOp::create(builder, loc, lo, span), end);
    auto merge =
        scf::ForOp::create(builder, loc, lo, hi, one, ValueRange{lo, mid});
    // A loop with iteration arguments is made without its yield.
    builder.setInsertionPointToStart(merge.getBody());
    Value k = merge.getInductionVar();
    Value i = merge.getRegionIterArg(0), j = merge.getRegionIterArg(1);
    LeafReader read = makeStorageReader(out);
    // Whether the right run's element goes first; the runs' elements are
    // read only where both runs have one left.
    auto rightLeft =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, j, hi);
    auto ifRightLeft = scf::IfOp::create(builder, loc, builder.getI1Type(),
                                         rightLeft, /*withElse=*/true);
    std::unique_ptr<ElementEmitter> emitter = makeEmitter(loc);
    {
      OpBuilder::InsertionGuard branchGuard(builder);
      builder.setInsertionPointToStart(ifRightLeft.thenBlock());
      auto leftLeft = arith::CmpIOp::create(builder, loc,
                                            arith::CmpIPredicate::ult, i, mid);
      auto ifLeftLeft = scf::IfOp::create(builder, loc, builder.getI1Type(),
                                          leftLeft, /*withElse=*/true);
      scf::YieldOp::create(builder, loc, ifLeftLeft.getResults());
      builder.setInsertionPointToStart(ifLeftLeft.thenBlock());
      Value precedes = emitter
                           ->emitRegionOn(sort.getBody(), read(builder, loc, j),
                                          read(builder, loc, i))
                           .front();
      scf::YieldOp::create(builder, loc, precedes);
      builder.setInsertionPointToStart(ifLeftLeft.elseBlock());
      scf::YieldOp::create(
          builder, loc,
          arith::ConstantIntOp::create(builder, loc, 1, 1).getResult());
      builder.setInsertionPointToStart(ifRightLeft.elseBlock());
      scf::YieldOp::create(
          builder, loc,
          arith::ConstantIntOp::create(builder, loc, 0, 1).getResult());
    }
    Value right = ifRightLeft.getResult(0);
    Value from = arith::SelectOp::create(builder, loc, right, j, i);
    storeLeaf(builder, loc, merged, read(builder, loc, from), k);
    Value nextI = arith::SelectOp::create(
        builder, loc, right, i, arith::AddIOp::create(builder, loc, i, one));
    Value nextJ = arith::SelectOp::create(
        builder, loc, right, arith::AddIOp::create(builder, loc, j, one), j);
    scf::YieldOp::create(builder, loc, ValueRange{nextI, nextJ});
    if (emitter->failed())
      return failure();
  }
  copy(type, loc, merged, identityIndex, out, identityIndex);
  return success();
}

LogicalResult ReferenceLowering::lowerScatter(ScatterOp scatter) {
  Location loc = scatter.getLoc();
  ArrType type = scatter.getType();
  Buffer out;
  Value written, length;
  func::FuncOp report;
  if (!scatter.getCombine()) {
    FailureOr<func::FuncOp> declared =
        getScatterCollisionReport(builder.getInsertionBlock()->getParentOp());
    if (failed(declared))
      return failure();
    report = *declared;
  }
  if (scatter.getGlobal()) {
    // Into the launch's memref as it is, up to its length.
    auto [memref, table] = globalScatters.lookup(scatter);
    out.push_back(memref);
    written = table;
    length = memref::DimOp::create(builder, loc, memref, 0);
  } else {
    out = allocate(type, loc);
    Value initial =
        arith::ConstantOp::create(builder, loc, scatter.getInitialAttr());
    Value no;
    if (report) {
      written =
          allocate(ArrType::get(type.getLength(), builder.getI1Type()), loc)
              .front();
      no = arith::ConstantIntOp::create(builder, loc, 0, 1);
    }
    forEachLeaf(type, loc, [&](ValueRange path) {
      storeLeaf(builder, loc, out, initial, path);
      if (written)
        memref::StoreOp::create(builder, loc, no, written, path);
    });
  }
  buffers[scatter.getResult()] = out;
  auto loop = scf::ForOp::create(
      builder, loc, constant(loc, 0),
      constant(loc, arrType(scatter.getValues()).getLength()),
      constant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  Value i = loop.getInductionVar();
  std::unique_ptr<ElementEmitter> emitter = makeEmitter(loc);
  Value value = emitter->emitLeaf(scatter.getValues(), i).front();
  // A place outside the result writes nothing.
  Value placeValue = emitter->emitLeaf(scatter.getPlaces(), i).front();
  auto [place, isInside] =
      length ? scatter.buildPlace(builder, loc, placeValue, length)
             : scatter.buildPlace(builder, loc, placeValue);
  auto inside =
      scf::IfOp::create(builder, loc, isInside, /*withElseRegion=*/false);
  builder.setInsertionPointToStart(inside.thenBlock());
  if (scatter.getCombine()) {
    Value old = memref::LoadOp::create(builder, loc, out.front(), place);
    value = arith::getReductionOp(scatter.getAtomicKind(), builder, loc, old,
                                  value);
  } else {
    Value again = memref::LoadOp::create(builder, loc, written, place);
    auto collision =
        scf::IfOp::create(builder, loc, again, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard reportGuard(builder);
      builder.setInsertionPointToStart(collision.thenBlock());
      emitScatterCollisionReport(
          builder, loc, report, positioned ? blockIdArgument : constant(loc, 0),
          place);
    }
    memref::StoreOp::create(builder, loc,
                            arith::ConstantIntOp::create(builder, loc, 1, 1),
                            written, place);
  }
  memref::StoreOp::create(builder, loc, value, out.front(), place);
  return failure(emitter->failed());
}

LogicalResult ReferenceLowering::lowerCarry(CarryOp carry) {
  Location loc = carry.getLoc();
  Value tile = positioned ? blockIdArgument : constant(loc, 0);
  Value chain = buffers.lookup(carry.getChain()).front();
  Buffer out = allocate(carry.getType(), loc);
  uint64_t perTile = carry.getWordsPerTile();
  auto elements = scf::ForOp::create(builder, loc, constant(loc, 0),
                                     constant(loc, perTile), constant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(elements.getBody()->getTerminator());
  Value element = elements.getInductionVar();
  // Element e's inclusive prefix in tile t is its chain word, after a
  // flag (2) in the high 32 bits.
  auto wordOf = [&](Value tile) {
    return carry.buildChainWord(builder, loc, tile, element);
  };
  std::unique_ptr<ElementEmitter> emitter = makeEmitter(loc);
  Value value = emitter->emitLeaf(carry.getValue(), element).front();
  Type valueType = value.getType();
  // The first tile has none before it: it takes the combine's identity.
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      tile, constant(loc, 0));
  auto ifFirst = scf::IfOp::create(builder, loc, TypeRange{valueType}, first,
                                   /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifFirst.thenBlock());
    scf::YieldOp::create(builder, loc, carry.buildIdentity(builder, loc));
    builder.setInsertionPointToStart(ifFirst.elseBlock());
    Value previous =
        arith::SubIOp::create(builder, loc, tile, constant(loc, 1));
    Value word = memref::LoadOp::create(builder, loc, chain, wordOf(previous));
    scf::YieldOp::create(
        builder, loc,
        arith::TruncIOp::create(builder, loc, valueType, word).getResult());
  }
  Value before = ifFirst.getResult(0);
  Value prefix = carry.buildCombine(builder, loc, before, value);
  Value state = arith::OrIOp::create(
      builder, loc,
      arith::ExtUIOp::create(builder, loc, builder.getI64Type(), prefix),
      arith::ConstantIntOp::create(builder, loc, int64_t(2) << 32, 64));
  // A kernel run alone, as one block, may be given a chain of one word.
  Value word = wordOf(tile);
  Value inside =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, word,
                            memref::DimOp::create(builder, loc, chain, 0));
  auto store =
      scf::IfOp::create(builder, loc, inside, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(store.thenBlock());
    memref::StoreOp::create(builder, loc, state, chain, ValueRange{word});
  }
  memref::StoreOp::create(builder, loc, before, out.front(),
                          ValueRange{element});
  buffers[carry.getResult()] = out;
  return failure(emitter->failed());
}

/// Where the first memref of `kernel`'s result `index` is among the buffers
/// (after every scalar of the arrays before it).
static unsigned bufferOfResult(KernelOp kernel,
                               ArrayRef<LaunchOperandArray> operandArrays,
                               unsigned index) {
  return getFirstOperandOf(operandArrays, kernel.getNumArguments() + index);
}

SmallVector<Type> ReferenceLowering::blockFunctionTypes(
    KernelOp kernel, ArrayRef<Type> argumentTypes,
    ArrayRef<LaunchOperandArray> operandArrays,
    ArrayRef<unsigned> checkedResults) {
  SmallVector<Type> blockTypes(argumentTypes);
  for (unsigned index = 0, e = kernel.getResultTypes().size(); index < e;
       ++index)
    if (kernel.getGlobalScatter(index)) {
      Type &type = blockTypes[bufferOfResult(kernel, operandArrays, index)];
      type = anyViewMemRefType(cast<MemRefType>(type));
    }
  for (auto [buffer, operand] : llvm::enumerate(operandArrays))
    if (operand.whole && operand.array < kernel.getNumArguments())
      blockTypes[buffer] =
          anyViewMemRefType(cast<MemRefType>(blockTypes[buffer]));
  blockTypes.append(checkedResults.size(),
                    wholeMemRefType(builder.getI1Type()));
  return blockTypes;
}

void ReferenceLowering::emitBlockZeroCaller(KernelOp kernel,
                                            ArrayRef<Type> argumentTypes,
                                            ArrayRef<Type> blockTypes,
                                            unsigned numBuffers,
                                            ArrayRef<unsigned> checkedResults) {
  Location loc = kernel.getLoc();
  auto wrapper =
      func::FuncOp::create(builder, loc, kernel.getSymName(),
                           builder.getFunctionType(argumentTypes, {}));
  Block *entry = wrapper.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  SmallVector<Value> operands;
  for (auto [argument, type] : llvm::zip_equal(
           entry->getArguments(), blockTypes.take_front(numBuffers)))
    operands.push_back(
        argument.getType() == type
            ? Value(argument)
            : memref::CastOp::create(builder, loc, type, argument).getResult());
  SmallVector<Value> tables;
  for (unsigned index : checkedResults)
    tables.push_back(allocateWrittenTable(
        builder, loc,
        constant(loc,
                 cast<ArrType>(kernel.getResultTypes()[index]).getLength())));
  llvm::append_range(operands, tables);
  operands.push_back(constant(loc, 0));
  for (Type type : kernel.getArgumentTypes())
    operands.push_back(constant(loc, cast<ArrType>(type).getLength()));
  func::CallOp::create(builder, loc, blockFunctionName(kernel), TypeRange(),
                       operands);
  for (Value table : tables)
    memref::DeallocOp::create(builder, loc, table);
  func::ReturnOp::create(builder, loc);
}

void ReferenceLowering::bindBlockArguments(
    KernelOp kernel, Block *entry, unsigned numBuffers,
    ArrayRef<unsigned> checkedResults,
    ArrayRef<LaunchOperandArray> operandArrays) {
  unsigned numTables = checkedResults.size();
  positioned = kernel;
  blockIdArgument = entry->getArgument(numBuffers + numTables);
  extentArguments.assign(
      entry->getArguments().drop_front(numBuffers + numTables + 1).begin(),
      entry->getArguments().end());
  for (unsigned index = 0, e = kernel.getResultTypes().size(); index < e;
       ++index)
    if (ScatterOp scatter = kernel.getGlobalScatter(index))
      globalScatters[scatter] = {
          entry->getArgument(bufferOfResult(kernel, operandArrays, index)),
          Value()};
  for (auto [table, index] : llvm::enumerate(checkedResults))
    globalScatters[kernel.getGlobalScatter(index)].second =
        entry->getArgument(numBuffers + table);
}

void ReferenceLowering::findPresentLengths(KernelOp kernel,
                                           ArrayRef<Buffer> inputs,
                                           bool positionedKernel) {
  // An `obs.global` argument is the launch's memrefs whole: a place past a
  // memref's end reads as its absent value, where it has one (a launch of
  // run-time sizes; with static sizes the memref is the argument's length),
  // each memref by its own length, as the GPU targets read it.
  for (auto [index, buffer] : llvm::enumerate(inputs)) {
    std::optional<SmallVector<TypedAttr>> absent =
        getAbsentValues(kernel, index);
    if (!positionedKernel || !isGlobalArgument(kernel, index) || !absent)
      continue;
    SmallVector<Value> lengths;
    for (Value memref : buffer)
      lengths.push_back(
          memref::DimOp::create(builder, kernel.getLoc(), memref, 0));
    presentLengths[buffer.front()] = {lengths, *absent};
  }
}

LogicalResult ReferenceLowering::lowerKernel(KernelOp kernel) {
  Location loc = kernel.getLoc();
  // Another kernel's scatters and block are not this one's (an erased op's
  // address may come back).
  globalScatters.clear();
  positioned = {};
  // Reads by obs.index report a place outside their array as they run.
  indexReport = {};
  if (kernel.walk([](IndexOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    FailureOr<func::FuncOp> report = getIndexOutsideReport(kernel);
    if (failed(report))
      return failure();
    indexReport = *report;
  }
  // Arguments, then one destination per result, each as its memrefs.
  SmallVector<Type> argumentTypes;
  auto appendStorage = [&](Type type) {
    for (MemRefType memref : getStorageTypes(cast<ArrType>(type)))
      argumentTypes.push_back(memref);
  };
  llvm::for_each(kernel.getArgumentTypes(), appendStorage);
  llvm::for_each(kernel.getResultTypes(), appendStorage);
  unsigned numBuffers = argumentTypes.size();
  // A kernel that asks where its block is, or returns a global scatter,
  // runs through a block function, which also takes the block's index, the
  // present elements of each argument, and each global scatter's memref
  // (of any length) and table of written places; on its own it is block
  // 0, whole.
  bool positionedKernel = needsBlockFunction(kernel);
  SmallVector<unsigned> checkedResults = getUncombinedGlobalResults(kernel);
  SmallVector<LaunchOperandArray> operandArrays =
      getLaunchOperandArrays(kernel);
  SmallVector<Type> blockTypes =
      blockFunctionTypes(kernel, argumentTypes, operandArrays, checkedResults);
  if (positionedKernel) {
    emitBlockZeroCaller(kernel, argumentTypes, blockTypes, numBuffers,
                        checkedResults);
    argumentTypes = blockTypes;
    argumentTypes.append(1 + kernel.getNumArguments(), builder.getIndexType());
  }
  auto func = func::FuncOp::create(builder, loc,
                                   positionedKernel ? blockFunctionName(kernel)
                                                    : kernel.getSymName().str(),
                                   builder.getFunctionType(argumentTypes, {}));
  if (positionedKernel)
    func.setPrivate();
  Block *entry = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  if (positionedKernel)
    bindBlockArguments(kernel, entry, numBuffers, checkedResults,
                       operandArrays);
  presentLengths.clear();

  // Slices the entry block's arguments into the buffers of the arrays.
  unsigned nextArgument = 0;
  auto takeBuffer = [&](Type type) {
    unsigned width = getFlattenedSize(cast<ArrType>(type).getLeafType());
    Buffer buffer(entry->getArguments().slice(nextArgument, width));
    nextArgument += width;
    return buffer;
  };
  SmallVector<Buffer> inputs =
      llvm::map_to_vector(kernel.getArgumentTypes(), takeBuffer);
  findPresentLengths(kernel, inputs, positionedKernel);
  SmallVector<Buffer> destinations =
      llvm::map_to_vector(kernel.getResultTypes(), takeBuffer);

  pushScope();
  FailureOr<SmallVector<Buffer>> results =
      lowerProgram(kernel.getBody(), inputs);
  if (failed(results))
    return failure();
  for (auto [index, type, result, destination] :
       llvm::enumerate(kernel.getResultTypes(), *results, destinations))
    if (!kernel.getGlobalScatter(index))
      copy(cast<ArrType>(type), loc, result, identityIndex, destination,
           identityIndex);
  popScope(loc);
  func::ReturnOp::create(builder, loc);
  return success();
}

namespace {
struct ObsLowerReferencePass
    : mlir::obs::impl::ObsLowerReferenceBase<ObsLowerReferencePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(verifyDeviceExpanded(module)))
      return signalPassFailure();
    auto launches = collectLaunchesOfKernelsIn(module);
    if (failed(launches))
      return signalPassFailure();
    lowerLaunches(module, *launches);
    for (KernelOp kernel :
         llvm::make_early_inc_range(module.getOps<KernelOp>())) {
      OpBuilder builder(kernel);
      ReferenceLowering lowering(
          builder, [&] { addToStatistic(*this, numBuffers, "buffers"); });
      if (failed(lowering.lowerKernel(kernel)))
        return signalPassFailure();
      addToStatistic(*this, numKernels, "kernels");
      kernel.erase();
    }
  }
};
} // namespace
