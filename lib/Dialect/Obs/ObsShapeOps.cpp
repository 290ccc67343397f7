//===- ObsShapeOps.cpp - the array-shape ops: result types and folds ------===//
//
// The ops that only reshape arrays (index, halve, conc, pair, unpair, zip,
// unzip, riffle, unriffle, rev): their result types, inferred, and the laws
// that fold them away with no new op.
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/Formatting.h"
#include "OpVerifiers.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::detail;

//===----------------------------------------------------------------------===//
// Shape ops: inferred result types
//===----------------------------------------------------------------------===//

/// Builds an array type, or reports (at `location`) that it is too large.
static FailureOr<ArrType> makeArrType(std::optional<Location> location,
                                      uint64_t length, Type element) {
  uint64_t innerLeaves = 1;
  if (auto inner = dyn_cast<ArrType>(element))
    innerLeaves = inner.getNumLeaves();
  if (innerLeaves != 0 && length > kMaxArrayLeaves / innerLeaves) {
    if (location)
      tagError(emitError(*location)
                   << "result of " << length << " x " << innerLeaves
                   << " elements is larger than the limit of "
                   << kMaxArrayLeaves << " elements",
               ErrorKind::CompilerLimit);
    return failure();
  }
  return ArrType::get(element.getContext(), length, element);
}

static LogicalResult evenOrError(std::optional<Location> location,
                                 StringRef opName, ArrType type,
                                 StringRef why) {
  if (type.getLength() % 2 == 0)
    return success();
  return emitOptionalError(
      location, "'", opName, "' op needs an array of even length to ", why,
      ", but ", type, " has ", type.getLength(), " elements");
}

LogicalResult IndexOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                        IndexOp::Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(adaptor.getArray().getType());
  if (!type)
    return failure();
  flattenElementType(type.getElementType(), inferred);
  return success();
}

LogicalResult HalveOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        HalveOp::Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(adaptor.getInput().getType());
  if (!type ||
      failed(evenOrError(location, "obs.halve", type, "split it in halves")))
    return failure();
  ArrType half = type.withLength(type.getLength() / 2);
  inferred.assign({half, half});
  return success();
}

LogicalResult ConcOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       ConcOp::Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  auto first = dyn_cast<ArrType>(adaptor.getFirst().getType());
  auto second = dyn_cast<ArrType>(adaptor.getSecond().getType());
  if (!first || !second)
    return failure();
  if (first.getElementType() != second.getElementType())
    return emitOptionalError(location,
                             "'obs.conc' op concatenates arrays of one "
                             "element type, but has ",
                             first, " and ", second);
  FailureOr<ArrType> result = makeArrType(
      location, first.getLength() + second.getLength(), first.getElementType());
  if (failed(result))
    return failure();
  inferred.push_back(*result);
  return success();
}

LogicalResult PairOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> location,
                                       PairOp::Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(adaptor.getInput().getType());
  if (!type ||
      failed(evenOrError(location, "obs.pair", type, "pair every element")))
    return failure();
  if (isa<ArrType>(type.getElementType()))
    return emitOptionalError(location,
                             "'obs.pair' op cannot pair nested arrays: a "
                             "tuple holds no arrays, but ",
                             type, " holds arrays");
  Type element = type.getElementType();
  inferred.push_back(
      ArrType::get(context, type.getLength() / 2,
                   TupleType::get(context, TypeRange{element, element})));
  return success();
}

LogicalResult UnpairOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         UnpairOp::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(adaptor.getInput().getType());
  if (!type)
    return failure();
  auto tuple = dyn_cast<TupleType>(type.getElementType());
  if (!tuple || tuple.size() != 2 || tuple.getType(0) != tuple.getType(1))
    return emitOptionalError(location,
                             "'obs.unpair' op needs an array of pairs of one "
                             "type, tuple<T, T>, but has ",
                             type);
  FailureOr<ArrType> result =
      makeArrType(location, 2 * type.getLength(), tuple.getType(0));
  if (failed(result))
    return failure();
  inferred.push_back(*result);
  return success();
}

LogicalResult ZipOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> location,
                                      ZipOp::Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  auto first = dyn_cast<ArrType>(adaptor.getFirst().getType());
  auto second = dyn_cast<ArrType>(adaptor.getSecond().getType());
  if (!first || !second)
    return failure();
  if (first.getLength() != second.getLength())
    return emitOptionalError(location,
                             "'obs.zip' op zips arrays of one length, but has ",
                             first, " and ", second);
  if (isa<ArrType>(first.getElementType()) ||
      isa<ArrType>(second.getElementType()))
    return emitOptionalError(location,
                             "'obs.zip' op cannot zip nested arrays: a tuple "
                             "holds no arrays");
  inferred.push_back(ArrType::get(
      context, first.getLength(),
      TupleType::get(context, TypeRange{first.getElementType(),
                                        second.getElementType()})));
  return success();
}

LogicalResult UnzipOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> location,
                                        UnzipOp::Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<ArrType>(adaptor.getInput().getType());
  if (!type)
    return failure();
  auto tuple = dyn_cast<TupleType>(type.getElementType());
  if (!tuple || tuple.size() != 2)
    return emitOptionalError(location,
                             "'obs.unzip' op needs an array of pairs, "
                             "tuple<A, B>, but has ",
                             type);
  inferred.push_back(ArrType::get(context, type.getLength(), tuple.getType(0)));
  inferred.push_back(ArrType::get(context, type.getLength(), tuple.getType(1)));
  return success();
}

LogicalResult RiffleOp::verify() {
  return requireEvenLength(*this, arrType(getInput()), "interleave its halves");
}

LogicalResult UnriffleOp::verify() {
  return requireEvenLength(*this, arrType(getInput()),
                           "separate even and odd elements");
}

//===----------------------------------------------------------------------===//
// Folds: the laws that need no new ops
//===----------------------------------------------------------------------===//

/// `x` when `value` is the result of an `OpTy` applied to `x`.
template <typename OpTy> static Value inputOf(Value value) {
  if (auto op = value.getDefiningOp<OpTy>())
    return op.getInput();
  return {};
}

OpFoldResult RevOp::fold(FoldAdaptor) {
  // rev ; rev = id, and reversing fewer than two elements changes nothing.
  if (arrType(getInput()).getLength() <= 1)
    return getInput();
  return inputOf<RevOp>(getInput());
}

OpFoldResult RiffleOp::fold(FoldAdaptor) {
  // unriffle ; riffle = id; riffle of two elements is the identity.
  if (arrType(getInput()).getLength() <= 2)
    return getInput();
  return inputOf<UnriffleOp>(getInput());
}

OpFoldResult UnriffleOp::fold(FoldAdaptor) {
  // riffle ; unriffle = id.
  if (arrType(getInput()).getLength() <= 2)
    return getInput();
  return inputOf<RiffleOp>(getInput());
}

OpFoldResult ConcOp::fold(FoldAdaptor) {
  // halve ; conc = id, when the halves are concatenated in order.
  auto halve = getFirst().getDefiningOp<HalveOp>();
  if (halve && getFirst() == halve.getLow() && getSecond() == halve.getHigh())
    return halve.getInput();
  return {};
}

OpFoldResult PairOp::fold(FoldAdaptor) {
  // unpair ; pair = id.
  return inputOf<UnpairOp>(getInput());
}

OpFoldResult UnpairOp::fold(FoldAdaptor) {
  // pair ; unpair = id.
  return inputOf<PairOp>(getInput());
}
