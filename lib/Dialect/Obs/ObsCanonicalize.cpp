//===- ObsCanonicalize.cpp - the algebraic laws as rewrite patterns -------===//
//
// Seed 001 optimises Obsidian programs by derivation: rewriting with laws
// that hold for all inputs (`unpair ->- pair = id`, `pair ->- unpair = id`,
// ...). The laws that a folder cannot express live here as canonicalization
// patterns. None of them looks through an obs.sync: a sync is where the user
// chose to store an array, and a law does not move work across it.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"

using namespace mlir;
using namespace mlir::obs;

static YieldOp yieldOf(Region &region) {
  return cast<YieldOp>(region.front().getTerminator());
}

/// Clones the single-block `region` at the rewriter's insertion point with
/// its arguments replaced by `arguments`, and returns what it yields.
static SmallVector<Value> inlineRegion(PatternRewriter &rewriter,
                                       Region &region, ValueRange arguments) {
  IRMapping mapping;
  mapping.map(region.getArguments(), arguments);
  for (Operation &op : region.front().without_terminator())
    rewriter.clone(op, mapping);
  return llvm::map_to_vector(yieldOf(region).getValues(), [&](Value v) {
    return mapping.lookupOrDefault(v);
  });
}

namespace {

/// halve (conc a b) = (a, b) when a and b have one length.
struct HalveOfConc : OpRewritePattern<HalveOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(HalveOp halve,
                                PatternRewriter &rewriter) const override {
    auto conc = halve.getInput().getDefiningOp<ConcOp>();
    if (!conc || conc.getFirst().getType() != conc.getSecond().getType())
      return failure();
    rewriter.replaceOp(halve, {conc.getFirst(), conc.getSecond()});
    return success();
  }
};

/// unzip (zip a b) = (a, b).
struct UnzipOfZip : OpRewritePattern<UnzipOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(UnzipOp unzip,
                                PatternRewriter &rewriter) const override {
    auto zip = unzip.getInput().getDefiningOp<ZipOp>();
    if (!zip)
      return failure();
    rewriter.replaceOp(unzip, {zip.getFirst(), zip.getSecond()});
    return success();
  }
};

/// zip (unzip p).0 (unzip p).1 = p.
struct ZipOfUnzip : OpRewritePattern<ZipOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ZipOp zip,
                                PatternRewriter &rewriter) const override {
    auto unzip = zip.getFirst().getDefiningOp<UnzipOp>();
    if (!unzip || zip.getFirst() != unzip.getFirst() ||
        zip.getSecond() != unzip.getSecond())
      return failure();
    rewriter.replaceOp(zip, unzip.getInput());
    return success();
  }
};

/// Map fusion: map g (.., map f ys, ..) = map (g . f) (.., ys, ..). The
/// inner map's region is inlined into the outer one in place of the
/// arguments that received its element.
struct FuseMaps : OpRewritePattern<MapOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MapOp outer,
                                PatternRewriter &rewriter) const override {
    auto producerIt = llvm::find_if(outer.getInputs(), [](Value input) {
      return input.getDefiningOp<MapOp>();
    });
    if (producerIt == outer.getInputs().end())
      return failure();
    unsigned fusedInput = producerIt - outer.getInputs().begin();
    auto inner = (*producerIt).getDefiningOp<MapOp>();

    SmallVector<Value> inputs;
    for (auto [index, input] : llvm::enumerate(outer.getInputs())) {
      if (index == fusedInput)
        llvm::append_range(inputs, inner.getInputs());
      else
        inputs.push_back(input);
    }
    auto fused = MapOp::create(rewriter, outer.getLoc(),
                               outer.getResult().getType(), inputs);
    SmallVector<Type> argTypes;
    for (Value input : inputs)
      flattenElementType(arrType(input).getElementType(), argTypes);
    SmallVector<Location> argLocs(argTypes.size(), outer.getLoc());
    Block *body = rewriter.createBlock(&fused.getBody(), {}, argTypes, argLocs);

    // Arguments before, of, and after the fused input, in the outer region
    // and in the new one.
    unsigned before = 0;
    for (Value input : outer.getInputs().take_front(fusedInput))
      before += getFlattenedSize(arrType(input).getElementType());
    unsigned innerArgs = inner.getBody().getNumArguments();
    SmallVector<Value> innerElement =
        inlineRegion(rewriter, inner.getBody(),
                     body->getArguments().slice(before, innerArgs));
    SmallVector<Value> outerArgs(body->getArguments().take_front(before));
    llvm::append_range(outerArgs, innerElement);
    llvm::append_range(outerArgs,
                       body->getArguments().drop_front(before + innerArgs));
    assert(outerArgs.size() == outer.getBody().getNumArguments());
    SmallVector<Value> yielded =
        inlineRegion(rewriter, outer.getBody(), outerArgs);
    YieldOp::create(rewriter, outer.getLoc(), yielded);
    rewriter.replaceOp(outer, fused.getResult());
    return success();
  }
};

/// evens f = pair ->- map f ->- unpair (seed 001): an unpair of a map of a
/// pair is the evens combinator.
struct UnpairMapPairToEvens : OpRewritePattern<UnpairOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(UnpairOp unpair,
                                PatternRewriter &rewriter) const override {
    auto map = unpair.getInput().getDefiningOp<MapOp>();
    if (!map || map.getInputs().size() != 1)
      return failure();
    auto pair = map.getInputs().front().getDefiningOp<PairOp>();
    if (!pair || unpair.getType() != pair.getInput().getType())
      return failure();
    // pair (unpair x) is x: let that law fire first, so that seed 001's pfy
    // derivations end in a map over pairs rather than in an evens.
    if (pair.getInput().getDefiningOp<UnpairOp>())
      return failure();
    auto evens = EvensOp::create(rewriter, unpair.getLoc(), unpair.getType(),
                                 pair.getInput());
    rewriter.cloneRegionBefore(map.getBody(), evens.getBody(),
                               evens.getBody().end());
    rewriter.replaceOp(unpair, evens.getResult());
    return success();
  }
};

/// The range of a generated array's own index: 0 to its length less one.
static std::optional<ConstantIntRanges> generateIndexRange(Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  auto generate = argument
                      ? dyn_cast<GenerateOp>(argument.getOwner()->getParentOp())
                      : GenerateOp();
  if (!generate || generate.getType().getLength() == 0)
    return std::nullopt;
  unsigned width = IndexType::kInternalStorageBitWidth;
  return ConstantIntRanges::fromUnsigned(
      APInt::getZero(width), APInt(width, generate.getType().getLength() - 1));
}

/// Whether `index` is inside `[0, length)` whatever the data, as far as its
/// definition shows (inferIntegerRange from generated arrays' own indices). The
/// index laws below hold only for an index inside the array: applied to one
/// outside, they would read another element (or compute one) where obs.index's
/// check must fail.
static bool isKnownInside(Value index, uint64_t length) {
  std::optional<ConstantIntRanges> range =
      inferIntegerRange(index, generateIndexRange);
  return range && range->umax().getActiveBits() <= 64 &&
         range->umax().getZExtValue() < length;
}

/// Whether `body` holds more ops than an index law inlines: a chain of
/// stages without a sync, each reading its predecessor twice, doubles the
/// code at every step (2^22 copies took 75 s and 5 GB of canonicalizing,
/// before the emitter's limit on fused reads could say so). Past this, the
/// index stays, and the emitter, which inlines it anyway, reports the
/// limit.
static bool isTooLargeToInline(Region &body) {
  constexpr unsigned kMostInlinedOps = 8192;
  unsigned ops = 0;
  return body
      .walk([&](Operation *) {
        return ++ops > kMostInlinedOps ? WalkResult::interrupt()
                                       : WalkResult::advance();
      })
      .wasInterrupted();
}

/// `(mkArr f n) ! i = f i`: an element of a generated array is its index
/// function applied to the index, for i inside the array.
struct IndexOfGenerate : OpRewritePattern<IndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp index,
                                PatternRewriter &rewriter) const override {
    auto generate = index.getArray().getDefiningOp<GenerateOp>();
    if (!generate ||
        !isKnownInside(index.getIndex(), generate.getType().getLength()) ||
        isTooLargeToInline(generate.getBody()))
      return failure();
    rewriter.replaceOp(
        index, inlineRegion(rewriter, generate.getBody(), index.getIndex()));
    return success();
  }
};

/// (fmap f a) ! i = f (a ! i).
struct IndexOfMap : OpRewritePattern<IndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp index,
                                PatternRewriter &rewriter) const override {
    auto map = index.getArray().getDefiningOp<MapOp>();
    if (!map || isTooLargeToInline(map.getBody()))
      return failure();
    SmallVector<Value> elements;
    for (Value input : map.getInputs())
      llvm::append_range(elements, IndexOp::create(rewriter, index.getLoc(),
                                                   input, index.getIndex())
                                       .getResults());
    rewriter.replaceOp(index, inlineRegion(rewriter, map.getBody(), elements));
    return success();
  }
};

/// Permutations compose at the index: (perm a) ! i = a ! perm^-1(i) for rev,
/// riffle, unriffle and the halves of halve, for i inside the array.
struct IndexOfPermutation : OpRewritePattern<IndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexOp index,
                                PatternRewriter &rewriter) const override {
    Operation *producer = index.getArray().getDefiningOp();
    if (!isa_and_present<RevOp, RiffleOp, UnriffleOp, HalveOp>(producer) ||
        !isKnownInside(index.getIndex(), index.getArrayType().getLength()))
      return failure();
    Location loc = index.getLoc();
    Value input = producer->getOperand(0);
    uint64_t length = arrType(input).getLength();
    uint64_t half = length / 2;
    Value i = index.getIndex();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value source;
    if (isa<RevOp>(producer)) {
      source = arith::SubIOp::create(rewriter, loc, constant(length - 1), i);
    } else if (isa<RiffleOp>(producer)) {
      // out[2j] = a[j], out[2j+1] = a[N/2+j].
      Value pairIndex = arith::DivUIOp::create(rewriter, loc, i, constant(2));
      Value which = arith::RemUIOp::create(rewriter, loc, i, constant(2));
      source = arith::AddIOp::create(
          rewriter, loc, pairIndex,
          arith::MulIOp::create(rewriter, loc, which, constant(half)));
    } else if (isa<UnriffleOp>(producer)) {
      // out[j] = a[2j], out[N/2+j] = a[2j+1].
      Value within = arith::RemUIOp::create(rewriter, loc, i, constant(half));
      Value which = arith::DivUIOp::create(rewriter, loc, i, constant(half));
      source = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, within, constant(2)), which);
    } else {
      unsigned resultNumber =
          cast<OpResult>(index.getArray()).getResultNumber();
      source = resultNumber == 0
                   ? i
                   : arith::AddIOp::create(rewriter, loc, i, constant(half))
                         .getResult();
    }
    rewriter.replaceOpWithNewOp<IndexOp>(index, input, source);
    return success();
  }
};

} // namespace

void HalveOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *context) {
  patterns.add<HalveOfConc>(context);
}

void UnzipOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *context) {
  patterns.add<UnzipOfZip>(context);
}

void ZipOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<ZipOfUnzip>(context);
}

void MapOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<FuseMaps>(context);
}

void UnpairOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<UnpairMapPairToEvens>(context);
}

void IndexOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                          MLIRContext *context) {
  patterns.add<IndexOfGenerate, IndexOfMap, IndexOfPermutation>(context);
}

//===----------------------------------------------------------------------===//
// Folds of program combinators
//===----------------------------------------------------------------------===//

/// Whether a sub-program yields its argument unchanged.
static bool isIdentityProgram(Region &body) {
  ValueRange yielded = yieldOf(body).getValues();
  return yielded.size() == 1 && yielded.front() == body.getArgument(0);
}

OpFoldResult TwoOp::fold(FoldAdaptor) {
  // two id = id.
  return isIdentityProgram(getBody()) ? getInput() : Value();
}

OpFoldResult IlvOp::fold(FoldAdaptor) {
  // ilv id = riffle . unriffle = id.
  return isIdentityProgram(getBody()) ? getInput() : Value();
}

OpFoldResult OneOp::fold(FoldAdaptor) {
  // one id = id.
  return isIdentityProgram(getBody()) ? getInput() : Value();
}

OpFoldResult RepeatOp::fold(FoldAdaptor) {
  // repeat 0 P = id, and repeat k id = id.
  if (getCount() == 0 || isIdentityProgram(getBody()))
    return getInput();
  return {};
}
