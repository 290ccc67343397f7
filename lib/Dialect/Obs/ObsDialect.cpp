//===- ObsDialect.cpp - the obs dialect, its types and attributes ---------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/Support/ErrorKinds.h"
#include "Obs/Support/ExactPrinting.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/InterleavedRange.h"
#include "llvm/Support/SHA256.h"

using namespace mlir;
using namespace mlir::obs;

#include "Obs/Dialect/Obs/ObsDialect.cpp.inc"
#include "Obs/Dialect/Obs/ObsEnums.cpp.inc"

/// Parses an array length: a non-negative integer of at most 64 bits (the
/// type's verifier sets the real limit), each other case a single error at
/// the number.
static FailureOr<uint64_t> parseArrayLength(AsmParser &parser) {
  SMLoc location = parser.getCurrentLocation();
  APInt value;
  OptionalParseResult parsed = parser.parseOptionalInteger(value);
  if (!parsed.has_value())
    return parser.emitError(location, "expected an array length");
  if (failed(*parsed))
    return failure();
  if (value.isNegative())
    return parser.emitError(location, "array length ")
           << llvm::toString(value, 10, /*Signed=*/true) << " is negative";
  if (value.getActiveBits() > 64)
    return parser.emitError(location, "array length ")
           << llvm::toString(value, 10, /*Signed=*/false)
           << " does not fit in 64 bits";
  return value.getZExtValue();
}

#define GET_TYPEDEF_CLASSES
#include "Obs/Dialect/Obs/ObsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Obs/Dialect/Obs/ObsAttributes.cpp.inc"

#include "Obs/Dialect/Obs/ObsAttrInterfaces.cpp.inc"
#include "Obs/Dialect/Obs/ObsOpInterfaces.cpp.inc"

// `!obs.arr<N x T>`.
Type ArrType::parse(AsmParser &parser) {
  SMLoc location = parser.getCurrentLocation();
  Type elementType;
  if (parser.parseLess())
    return {};
  FailureOr<uint64_t> length = parseArrayLength(parser);
  if (failed(length) || parser.parseKeyword("x") ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<ArrType>(location, parser.getContext(), *length,
                                    elementType);
}

void ArrType::print(AsmPrinter &printer) const {
  printer << '<' << getLength() << " x ";
  printer.printType(getElementType());
  printer << '>';
}

ParseResult mlir::obs::parseSyncPropertyList(AsmParser &parser,
                                             SyncProperties &properties) {
  MLIRContext *context = parser.getContext();
  // Every scope, placement and storage keyword, from their enums, and the
  // work assignments.
  SmallVector<StringRef> keywords{"strided", "blocked", "compact"};
  for (unsigned i = 0; i <= getMaxEnumValForSyncScope(); ++i)
    keywords.push_back(stringifySyncScope(static_cast<SyncScope>(i)));
  for (unsigned i = 0; i <= getMaxEnumValForPlacement(); ++i)
    keywords.push_back(stringifyPlacement(static_cast<Placement>(i)));
  for (unsigned i = 0; i <= getMaxEnumValForStorage(); ++i)
    keywords.push_back(stringifyStorage(static_cast<Storage>(i)));
  while (true) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (failed(parser.parseOptionalKeyword(&keyword, keywords)))
      return success();
    auto twice = [&](StringRef property) {
      return parser.emitError(loc)
             << "the sync's " << property << " is given twice";
    };
    // A scope, placement or storage is its enum's keyword; each once.
    auto setOnce = [&](auto &property, auto value,
                       StringRef what) -> LogicalResult {
      using Attr = std::remove_reference_t<decltype(property)>;
      if (property)
        return twice(what);
      property = Attr::get(context, value);
      return success();
    };
    if (std::optional<SyncScope> scope = symbolizeSyncScope(keyword)) {
      if (failed(setOnce(properties.scope, *scope, "scope")))
        return failure();
      continue;
    }
    if (std::optional<Placement> placement = symbolizePlacement(keyword)) {
      if (failed(setOnce(properties.placement, *placement, "placement")))
        return failure();
      continue;
    }
    if (std::optional<Storage> storage = symbolizeStorage(keyword)) {
      if (failed(setOnce(properties.storage, *storage, "storage")))
        return failure();
      continue;
    }
    if (properties.how)
      return twice("work assignment");
    uint64_t parameter;
    if (parser.parseLess() || parser.parseInteger(parameter) ||
        parser.parseGreater())
      return failure();
    auto emitError = [&] { return parser.emitError(loc); };
    Attribute &how = properties.how;
    if (keyword == "strided")
      how = StridedAttr::getChecked(emitError, context, parameter);
    else if (keyword == "blocked")
      how = BlockedAttr::getChecked(emitError, context, parameter);
    else
      how = CompactAttr::getChecked(emitError, context, parameter);
    if (!how)
      return failure();
  }
}

void mlir::obs::printSyncPropertyList(AsmPrinter &printer,
                                      const SyncProperties &properties) {
  SmallVector<std::string> words;
  if (properties.scope)
    words.push_back(stringifySyncScope(properties.scope.getValue()).str());
  if (properties.placement)
    words.push_back(stringifyPlacement(properties.placement.getValue()).str());
  Attribute how = properties.how;
  if (auto strided = dyn_cast_if_present<StridedAttr>(how))
    words.push_back("strided<" + std::to_string(strided.getThreads()) + ">");
  else if (auto blocked = dyn_cast_if_present<BlockedAttr>(how))
    words.push_back("blocked<" +
                    std::to_string(blocked.getElementsPerThread()) + ">");
  else if (auto compact = dyn_cast_if_present<CompactAttr>(how))
    words.push_back("compact<" + std::to_string(compact.getThreads()) + ">");
  if (properties.storage)
    words.push_back(stringifyStorage(properties.storage.getValue()).str());
  llvm::interleave(words, printer.getStream(), " ");
}

SyncProperties mlir::obs::getPlannedProperties(SyncPlanAttr plan) {
  if (!plan)
    return {};
  return {plan.getScope(), plan.getPlacement(), plan.getHow(),
          plan.getStorage()};
}

SyncPlanAttr mlir::obs::getSyncPlan(MLIRContext *context,
                                    const SyncProperties &properties) {
  if (properties.empty())
    return {};
  return SyncPlanAttr::get(
      context, properties.scope, properties.placement,
      cast_if_present<WorkAssignmentAttrInterface>(properties.how),
      properties.storage);
}

// `#obs.plan<warp inplace strided<256>>`: the properties, as a sync prints
// them.
Attribute SyncPlanAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SyncProperties properties;
  if (parser.parseLess() || parseSyncPropertyList(parser, properties) ||
      parser.parseGreater())
    return {};
  if (properties.empty()) {
    parser.emitError(loc, "a sync's plan chooses at least one property");
    return {};
  }
  return getSyncPlan(parser.getContext(), properties);
}

void SyncPlanAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printSyncPropertyList(printer, getPlannedProperties(*this));
  printer << '>';
}

/// Checks the attributes obs puts on host code and modules; none where
/// `name` is not one of them.
static std::optional<LogicalResult>
verifyHostCodeAttribute(Operation *op, StringRef name, Attribute value) {
  auto misplaced = [&](StringRef what) {
    return op->emitError() << "'" << name << "' " << what;
  };
  if (name == ObsDialect::HostMemorySharedAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value) || !isa<ModuleOp>(op))
      return misplaced("is a unit attribute on a module");
    return success();
  }
  if (name == ObsDialect::HostCheckedAttrHelper::getNameStr()) {
    // Named, not cast: the dialect does not depend on func's.
    if (!isa<UnitAttr>(value) || op->getName().getStringRef() != "func.func")
      return misplaced("is a unit attribute on a host func.func");
    return success();
  }
  if (name == ObsDialect::RecordedLaunchesAttrHelper::getNameStr()) {
    auto names = dyn_cast<ArrayAttr>(value);
    if (!names || !isa<ModuleOp>(op) ||
        !llvm::all_of(
            names, [](Attribute name) { return isa<FlatSymbolRefAttr>(name); }))
      return misplaced("is an array of kernel symbols on a module");
    return success();
  }
  return std::nullopt;
}

/// Whether `name` is one of the attributes the kernel lowering records on
/// the code it emits (a gpu.func, and the host function the cpu target
/// makes of it), which the simulation, the proof and the targets read as
/// facts about that code.
static bool isLoweredCodeAttribute(StringRef name) {
  return llvm::is_contained({ObsDialect::SyncIndexAttrHelper::getNameStr(),
                             ObsDialect::InPlaceAttrHelper::getNameStr(),
                             ObsDialect::OwnerAttrHelper::getNameStr(),
                             ObsDialect::OwnerIndexAttrHelper::getNameStr(),
                             ObsDialect::ArenaAttrHelper::getNameStr(),
                             ObsDialect::DataAttrHelper::getNameStr(),
                             ObsDialect::CheckedScatterAttrHelper::getNameStr(),
                             ObsDialect::ChainPublishAttrHelper::getNameStr(),
                             ObsDialect::ChainObserveAttrHelper::getNameStr(),
                             ObsDialect::RegisterReadAttrHelper::getNameStr(),
                             ObsDialect::ShuffleReadAttrHelper::getNameStr(),
                             ObsDialect::IndexBoundsAttrHelper::getNameStr(),
                             ObsDialect::OwnLanesKeptAttrHelper::getNameStr()},
                            name);
}

/// Checks the plan's attributes other than launch_overlaps.
static LogicalResult verifyPlanAttribute(Operation *op,
                                         NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  Attribute value = attribute.getValue();
  if (std::optional<LogicalResult> host =
          verifyHostCodeAttribute(op, name, value))
    return *host;
  auto misplaced = [&](StringRef what) {
    return op->emitError() << "'" << name << "' " << what;
  };
  auto nonNegative = [](Attribute value, int64_t least) {
    auto integer = dyn_cast<IntegerAttr>(value);
    return integer && integer.getType().isInteger(64) &&
           integer.getInt() >= least;
  };
  if (name == ObsDialect::TiledColumnsAttrHelper::getNameStr()) {
    if (!isa<LaunchOp>(op) || !nonNegative(value, 1))
      return misplaced("belongs on an obs.launch, as the columns of the "
                       "tiled grid it was expanded from (a positive i64)");
    return success();
  }
  if (name == ObsDialect::SharedBytesAttrHelper::getNameStr()) {
    if (!isa<KernelOp>(op) || !nonNegative(value, 0))
      return misplaced("belongs on an obs.kernel, as its arena's bytes (a "
                       "non-negative i64)");
    return success();
  }
  if (name == ObsDialect::SharedOffsetsAttrHelper::getNameStr()) {
    auto offsets = dyn_cast<DenseI64ArrayAttr>(value);
    if (!isSharedBufferOwner(op) || !offsets)
      return misplaced("belongs on an obs.sync, obs.repeat or obs.scatter, "
                       "as the byte offsets of its buffer in the kernel's "
                       "arena");
    auto kernel = op->getParentOfType<KernelOp>();
    IntegerAttr bytes =
        kernel ? ObsDialect::SharedBytesAttrHelper(op->getContext())
                     .getAttr(kernel)
               : IntegerAttr();
    if (!bytes)
      return misplaced("needs the kernel's 'obs.shared_bytes': an offset is "
                       "into the arena the plan sizes");
    // An offset is inside the arena; a kernel whose buffers are all empty
    // (arrays of 0 elements) has an arena of 0 bytes, and its offsets 0.
    int64_t arena = bytes.getInt();
    for (int64_t offset : offsets.asArrayRef())
      if (offset < 0 || offset % 16 != 0 ||
          (arena ? offset >= arena : offset != 0))
        return misplaced("holds offset ")
               << offset << ", which is not a multiple of 16 within the "
               << bytes.getInt() << "-byte arena";
    return success();
  }
  if (name == ObsDialect::SharedPaddingAttrHelper::getNameStr()) {
    auto padding = dyn_cast<IntegerAttr>(value);
    // A lowered buffer's view carries its owner's padding too.
    if ((!ownsSharedRows(op) && !isa<memref::ViewOp>(op)) ||
        !nonNegative(value, 1) || padding.getInt() > 32)
      return misplaced("belongs on an obs.sync or obs.repeat of an array of "
                       "rows, or of at least 64 elements (rows of 32), as the "
                       "elements its buffers leave after each row (an i64 "
                       "from 1 to 32), or on the memref.view of its buffer");
    return success();
  }
  if (name == ObsDialect::SyncIndexAttrHelper::getNameStr()) {
    if (!nonNegative(value, -1))
      return misplaced("is the position of a sync in program order (an i64, "
                       "-1 for none)");
    return success();
  }
  if (name == ObsDialect::RegisterReadAttrHelper::getNameStr()) {
    if (!nonNegative(value, 0) || !isa<arith::CmpIOp>(op))
      return misplaced("belongs on the check beside a read of an array in "
                       "registers (an arith.cmpi), as the position of the "
                       "sync whose array it reads (a non-negative i64)");
    return success();
  }
  if (name == ObsDialect::ShuffleReadAttrHelper::getNameStr()) {
    if (!nonNegative(value, 0) ||
        (!isa<arith::CmpIOp>(op) &&
         op->getName().getStringRef() != "nvvm.shfl.sync"))
      return misplaced("belongs on the check beside a read of an array in "
                       "shuffles (an arith.cmpi) and on its nvvm.shfl.sync "
                       "ops, as the position of the sync whose array it "
                       "reads (a non-negative i64)");
    return success();
  }
  if (name == ObsDialect::IndexBoundsAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value) || !isa<arith::CmpIOp>(op))
      return misplaced("is a unit attribute on the check of a place an "
                       "obs.index reads (an arith.cmpi)");
    return success();
  }
  if (name == ObsDialect::KeepsFoldAttrHelper::getNameStr()) {
    auto scan = dyn_cast<ScanOp>(op);
    auto reduce = dyn_cast<ReduceOp>(op);
    if (!isa<UnitAttr>(value) || !(scan || reduce) ||
        (scan && scan.getNetwork()) || (reduce && reduce.getNetwork()))
      return misplaced("is a unit attribute on an obs.scan or obs.reduce "
                       "without a network");
    return success();
  }
  if (name == ObsDialect::OwnLanesKeptAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value) ||
        op->getName().getStringRef() != "nvvm.shfl.sync" ||
        !ObsDialect::ShuffleReadAttrHelper(op->getContext()).getAttr(op))
      return misplaced("is a unit attribute on an nvvm.shfl.sync of a read "
                       "in shuffles (one with 'obs.shuffle_read')");
    return success();
  }
  if (name == ObsDialect::OwnerIndexAttrHelper::getNameStr()) {
    if (!nonNegative(value, 0))
      return misplaced("is the position of a sync, repeat or scatter in "
                       "program order (a non-negative i64)");
    return success();
  }
  if (name == ObsDialect::InPlaceAttrHelper::getNameStr() ||
      name == ObsDialect::ArenaAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value))
      return misplaced("is a unit attribute");
    return success();
  }
  if (name == ObsDialect::DataAttrHelper::getNameStr()) {
    // Named, not cast: the dialect does not depend on gpu's.
    if (!isa<UnitAttr>(value) || op->getName().getStringRef() != "gpu.block_id")
      return misplaced("is a unit attribute on a gpu.block_id");
    return success();
  }
  if (name == ObsDialect::CheckedScatterAttrHelper::getNameStr()) {
    // Named, not cast: the dialect does not depend on memref's.
    if (!isa<UnitAttr>(value) || op->getName().getStringRef() != "memref.store")
      return misplaced("is a unit attribute on a memref.store");
    return success();
  }
  if (name == ObsDialect::ChainPublishAttrHelper::getNameStr() ||
      name == ObsDialect::ChainObserveAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(value) ||
        op->getName().getStringRef() != "memref.atomic_rmw")
      return misplaced("is a unit attribute on a memref.atomic_rmw");
    return success();
  }
  if (name == ObsDialect::AbsentAttrHelper::getNameStr() ||
      name == ObsDialect::GlobalAttrHelper::getNameStr() ||
      name == ObsDialect::ChainAttrHelper::getNameStr())
    return misplaced("belongs on an argument of an obs.kernel");
  if (name == ObsDialect::OwnerAttrHelper::getNameStr()) {
    if (!isa<LocationAttr>(value))
      return misplaced("is the location of the op whose array is stored");
    return success();
  }
  return misplaced("is not an attribute of the obs dialect");
}

LogicalResult ObsDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  // The lowering's records never sit in an obs op's code: element code
  // written with one would be lowered with it, and the proof would take
  // the user's word for what obs's lowering did (which sync a barrier
  // ends, which compare checks a place).
  if (isLoweredCodeAttribute(attribute.getName().strref()))
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp())
      if (isa<ObsDialect>(parent->getDialect()))
        return op->emitError() << "'" << attribute.getName().strref()
                               << "' is the kernel lowering's record on the "
                               << "code it emits, not an attribute of code in '"
                               << parent->getName() << "'";
  if (attribute.getName() != LaunchOverlapsAttrHelper::getNameStr())
    return verifyPlanAttribute(op, attribute);
  auto kernel = dyn_cast<KernelOp>(op);
  auto pairs = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
  if (!kernel || !pairs || pairs.size() % 4 != 0)
    return op->emitError() << "'" << attribute.getName()
                           << "' belongs on an obs.kernel, as four integers "
                              "per pair of elements";
  // The operands: the components of the arguments, then of the results.
  SmallVector<uint64_t> leaves = llvm::map_to_vector(
      getLaunchOperandArrays(kernel), [](const LaunchOperandArray &operand) {
        return operand.type.getNumLeaves();
      });
  ArrayRef<int64_t> values = pairs.asArrayRef();
  for (size_t i = 0; i < values.size(); i += 4)
    for (size_t k : {i, i + 2})
      if (values[k] < 0 || values[k] >= static_cast<int64_t>(leaves.size()) ||
          values[k + 1] < 0 ||
          static_cast<uint64_t>(values[k + 1]) >= leaves[values[k]])
        return op->emitError()
               << "'" << attribute.getName() << "' names element "
               << values[k + 1] << " of operand " << values[k]
               << ", which the kernel does not have";
  return success();
}

LogicalResult ObsDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name != AbsentAttrHelper::getNameStr() &&
      name != GlobalAttrHelper::getNameStr() &&
      name != ChainAttrHelper::getNameStr() &&
      name != HaloAttrHelper::getNameStr())
    return op->emitError() << "'" << name
                           << "' is not an argument attribute of the obs "
                              "dialect";
  auto kernel = dyn_cast<KernelOp>(op);
  if (!kernel || regionIndex != 0)
    return op->emitError() << "'" << name
                           << "' belongs on an argument of an obs.kernel";
  if (name == HaloAttrHelper::getNameStr()) {
    auto halo = dyn_cast<HaloAttr>(attribute.getValue());
    if (!halo)
      return kernel.emitOpError() << "argument " << argIndex << "'s '" << name
                                  << "' is an #obs.halo<width, boundary>, not "
                                  << attribute.getValue();
    if (kernel.getArgAttr(argIndex, GlobalAttrHelper::getNameStr()))
      return kernel.emitOpError()
             << "argument " << argIndex
             << " has a halo and is 'obs.global': a global argument is the "
                "whole memref already";
    auto array =
        dyn_cast<ArrType>(kernel.getBody().getArgument(argIndex).getType());
    // A tile of at least one place: 2 width < length, without overflow.
    if (array && (halo.getWidth() == 0 || array.getDepth() != 1 ||
                  array.getLength() < 3 ||
                  halo.getWidth() > (array.getLength() - 1) / 2))
      return kernel.emitOpError()
             << "argument " << argIndex << " of type " << array
             << " cannot have a halo of width " << halo.getWidth()
             << ": a halo is at least one place on each side of a tile of "
                "at least one place, of an array of rank 1";
    return success();
  }
  if (name == ChainAttrHelper::getNameStr())
    return verifyChainArgument(kernel, argIndex, attribute);
  if (name == GlobalAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attribute.getValue()))
      return kernel.emitOpError()
             << "argument " << argIndex << "'s '" << name
             << "' is a unit attribute, not " << attribute.getValue();
    return success();
  }
  auto array =
      dyn_cast<ArrType>(kernel.getBody().getArgument(argIndex).getType());
  if (!array)
    return success(); // The kernel's verifier reports the argument.
  SmallVector<Type> scalars = flattenElementType(array.getLeafType());
  SmallVector<Attribute> values;
  if (auto list = dyn_cast<ArrayAttr>(attribute.getValue()))
    llvm::append_range(values, list);
  else
    values.push_back(attribute.getValue());
  bool matches = values.size() == scalars.size();
  for (auto [value, type] : llvm::zip(values, scalars)) {
    auto typed = dyn_cast<TypedAttr>(value);
    matches &=
        typed && isa<IntegerAttr, FloatAttr>(typed) && typed.getType() == type;
  }
  std::string types;
  llvm::raw_string_ostream(types) << llvm::interleaved(scalars);
  if (!matches)
    return kernel.emitOpError()
           << "argument " << argIndex << "'s '" << name << "' must give one "
           << (scalars.size() == 1 ? "" : "typed ")
           << "constant per scalar of its element, of types " << types
           << ", as "
           << (scalars.size() == 1 ? "a typed constant"
                                   : "an array of typed constants")
           << ", not " << attribute.getValue();
  return success();
}

LogicalResult
ObsDialect::verifyRegionResultAttribute(Operation *op, unsigned regionIndex,
                                        unsigned resultIndex,
                                        NamedAttribute attribute) {
  // The obs dialect's function attributes all describe an argument.
  return op->emitError() << "'" << attribute.getName().getValue()
                         << "' is not a result attribute of the obs dialect: "
                            "obs's attributes of a kernel's arrays belong on "
                            "its arguments";
}

void ObsDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Obs/Dialect/Obs/ObsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Obs/Dialect/Obs/ObsAttributes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Obs/Dialect/Obs/ObsOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

bool mlir::obs::isScalarElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return type.isF16() || type.isF32() || type.isF64();
}

/// A tuple component: a scalar, or a non-empty tuple of components.
static bool isTupleComponent(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return tuple.size() > 0 && llvm::all_of(tuple.getTypes(), isTupleComponent);
  return isScalarElementType(type);
}

bool mlir::obs::isElementType(Type type) {
  return isa<ArrType>(type) || isTupleComponent(type);
}

void mlir::obs::flattenElementType(Type type,
                                   SmallVectorImpl<Type> &flattened) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type component : tuple.getTypes())
      flattenElementType(component, flattened);
    return;
  }
  flattened.push_back(type);
}

SmallVector<Type> mlir::obs::flattenElementType(Type type) {
  SmallVector<Type> flattened;
  flattenElementType(type, flattened);
  return flattened;
}

unsigned mlir::obs::getFlattenedSize(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    unsigned size = 0;
    for (Type component : tuple.getTypes())
      size += getFlattenedSize(component);
    return size;
  }
  return 1;
}

//===----------------------------------------------------------------------===//
// ArrType
//===----------------------------------------------------------------------===//

LogicalResult ArrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              uint64_t length, Type elementType) {
  if (!elementType || !isElementType(elementType))
    return emitError() << elementType
                       << " is not an array element type: expected i1, i8, "
                          "i16, i32, i64, f16, f32, f64, a non-empty tuple of "
                          "those, or an !obs.arr";
  uint64_t innerLeaves = 1;
  if (auto inner = dyn_cast<ArrType>(elementType))
    innerLeaves = inner.getNumLeaves();
  if (innerLeaves != 0 && length > kMaxArrayLeaves / innerLeaves)
    return tagError(emitError() << "array of " << length << " x " << innerLeaves
                                << " elements is larger than the limit of "
                                << kMaxArrayLeaves << " elements",
                    ErrorKind::CompilerLimit);
  return success();
}

unsigned ArrType::getDepth() const {
  unsigned depth = 1;
  for (Type t = getElementType(); auto inner = dyn_cast<ArrType>(t);
       t = inner.getElementType())
    ++depth;
  return depth;
}

Type ArrType::getLeafType() const {
  Type t = getElementType();
  while (auto inner = dyn_cast<ArrType>(t))
    t = inner.getElementType();
  return t;
}

SmallVector<uint64_t> ArrType::getShape() const {
  SmallVector<uint64_t> shape{getLength()};
  for (Type t = getElementType(); auto inner = dyn_cast<ArrType>(t);
       t = inner.getElementType())
    shape.push_back(inner.getLength());
  return shape;
}

uint64_t ArrType::getNumLeaves() const {
  uint64_t leaves = 1;
  for (uint64_t length : getShape())
    leaves *= length;
  return leaves;
}

//===----------------------------------------------------------------------===//
// Work assignments
//===----------------------------------------------------------------------===//

LogicalResult StridedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  uint64_t threads) {
  if (threads == 0 || threads > KernelOp::kMaxThreads)
    return tagError(emitError()
                        << "strided<" << threads << "> needs between 1 and "
                        << KernelOp::kMaxThreads << " threads",
                    ErrorKind::RejectedChoice);
  return success();
}

uint64_t StridedAttr::getThreadCount(uint64_t length) const {
  return std::min(getThreads(), length);
}

uint64_t StridedAttr::getRoundCount(uint64_t length) const {
  return llvm::divideCeil(length, getThreads());
}

std::optional<uint64_t> StridedAttr::getElement(uint64_t thread, uint64_t round,
                                                uint64_t length) const {
  uint64_t element = thread + round * getThreads();
  if (thread >= getThreads() || element >= length)
    return std::nullopt;
  return element;
}

uint64_t StridedAttr::getThread(uint64_t element) const {
  return element % getThreads();
}

Value StridedAttr::buildThread(OpBuilder &builder, Location loc,
                               Value element) const {
  Value threads = arith::ConstantIndexOp::create(builder, loc, getThreads());
  return arith::RemUIOp::create(builder, loc, element, threads);
}

Value StridedAttr::buildRound(OpBuilder &builder, Location loc,
                              Value element) const {
  Value threads = arith::ConstantIndexOp::create(builder, loc, getThreads());
  return arith::DivUIOp::create(builder, loc, element, threads);
}

Value StridedAttr::buildRoundInThread(OpBuilder &builder, Location loc,
                                      Value element, Value thread) const {
  Value threads = arith::ConstantIndexOp::create(builder, loc, getThreads());
  return arith::DivUIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, element, thread),
      threads);
}

Value StridedAttr::buildElementIndex(OpBuilder &builder, Location loc,
                                     Value thread, Value round) const {
  Value threads = arith::ConstantIndexOp::create(builder, loc, getThreads());
  Value offset = builder.createOrFold<arith::MulIOp>(loc, round, threads);
  return builder.createOrFold<arith::AddIOp>(loc, thread, offset);
}

LogicalResult BlockedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  uint64_t elementsPerThread) {
  if (elementsPerThread == 0)
    return tagError(emitError() << "blocked<0> gives threads no elements",
                    ErrorKind::RejectedChoice);
  // More than any array holds: a thread's first element, its id times
  // this, would leave 64 bits (blocked<-1> reads as 2^64 - 1), and the
  // lowering's places with it (hunt 34).
  if (elementsPerThread > kMaxArrayLeaves)
    return tagError(emitError()
                        << "blocked<" << elementsPerThread
                        << "> gives each thread more elements than an array "
                           "may hold (at most "
                        << kMaxArrayLeaves << ")",
                    ErrorKind::RejectedChoice);
  return success();
}

uint64_t BlockedAttr::getThreadCount(uint64_t length) const {
  return llvm::divideCeil(length, getElementsPerThread());
}

uint64_t BlockedAttr::getRoundCount(uint64_t length) const {
  return std::min(getElementsPerThread(), length);
}

std::optional<uint64_t> BlockedAttr::getElement(uint64_t thread, uint64_t round,
                                                uint64_t length) const {
  if (round >= getElementsPerThread())
    return std::nullopt;
  uint64_t element = thread * getElementsPerThread() + round;
  if (element >= length)
    return std::nullopt;
  return element;
}

uint64_t BlockedAttr::getThread(uint64_t element) const {
  return element / getElementsPerThread();
}

Value BlockedAttr::buildThread(OpBuilder &builder, Location loc,
                               Value element) const {
  Value perThread =
      arith::ConstantIndexOp::create(builder, loc, getElementsPerThread());
  return arith::DivUIOp::create(builder, loc, element, perThread);
}

Value BlockedAttr::buildRound(OpBuilder &builder, Location loc,
                              Value element) const {
  Value perThread =
      arith::ConstantIndexOp::create(builder, loc, getElementsPerThread());
  return arith::RemUIOp::create(builder, loc, element, perThread);
}

Value BlockedAttr::buildRoundInThread(OpBuilder &builder, Location loc,
                                      Value element, Value thread) const {
  Value perThread =
      arith::ConstantIndexOp::create(builder, loc, getElementsPerThread());
  return arith::SubIOp::create(
      builder, loc, element,
      arith::MulIOp::create(builder, loc, thread, perThread));
}

Value BlockedAttr::buildElementIndex(OpBuilder &builder, Location loc,
                                     Value thread, Value round) const {
  Value perThread =
      arith::ConstantIndexOp::create(builder, loc, getElementsPerThread());
  Value first = builder.createOrFold<arith::MulIOp>(loc, thread, perThread);
  return builder.createOrFold<arith::AddIOp>(loc, first, round);
}

LogicalResult CompactAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  uint64_t threads) {
  if (threads == 0 || threads > KernelOp::kMaxThreads)
    return tagError(emitError()
                        << "compact<" << threads << "> needs between 1 and "
                        << KernelOp::kMaxThreads << " threads",
                    ErrorKind::RejectedChoice);
  return success();
}

// For compact, the "elements" are positions in the list of elements the
// stage writes, which its threads sweep like strided<T> sweeps an array; the
// lowering maps positions to elements.
static StridedAttr sweep(CompactAttr compact) {
  return StridedAttr::get(compact.getContext(), compact.getThreads());
}

uint64_t CompactAttr::getThreadCount(uint64_t length) const {
  return sweep(*this).getThreadCount(length);
}

uint64_t CompactAttr::getRoundCount(uint64_t length) const {
  return sweep(*this).getRoundCount(length);
}

std::optional<uint64_t> CompactAttr::getElement(uint64_t thread, uint64_t round,
                                                uint64_t length) const {
  return sweep(*this).getElement(thread, round, length);
}

uint64_t CompactAttr::getThread(uint64_t position) const {
  return sweep(*this).getThread(position);
}

Value CompactAttr::buildThread(OpBuilder &builder, Location loc,
                               Value position) const {
  return sweep(*this).buildThread(builder, loc, position);
}

Value CompactAttr::buildRound(OpBuilder &builder, Location loc,
                              Value position) const {
  return sweep(*this).buildRound(builder, loc, position);
}

Value CompactAttr::buildElementIndex(OpBuilder &builder, Location loc,
                                     Value thread, Value round) const {
  return sweep(*this).buildElementIndex(builder, loc, thread, round);
}

/// What a kernel's proof reads: the kernel, every op, attribute, type and
/// value of it, printed in the generic form, hashed by SHA-256. With the
/// locations: no verdict depends on them, but the reports a kept proof
/// leads to (the launch proof's) name the kernel's ops by location. A
/// fingerprint of the ops in memory (OperationFingerPrint) would not do: it
/// hashes pointers, not op names, so a freed kernel's memory reused by
/// another could pass for it.
ObsDialect::ProofKey ObsDialect::getProofKey(Operation *kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  kernel->print(os, getExactPrintingFlags().useLocalScope().enableDebugInfo());
  return llvm::SHA256::hash(llvm::arrayRefFromStringRef(text));
}

void ObsDialect::recordProvedKernel(const ProofKey &key,
                                    std::shared_ptr<const void> proof) {
  std::lock_guard<std::mutex> lock(provedKernelsMutex);
  llvm::erase_if(provedKernels,
                 [&](const ProvedKernel &kept) { return kept.key == key; });
  if (provedKernels.size() == kProvedKernelsKept)
    provedKernels.pop_front();
  provedKernels.push_back({key, std::move(proof)});
  if (provedKernels.size() > kProofsKept)
    provedKernels[provedKernels.size() - 1 - kProofsKept].proof.reset();
}

std::shared_ptr<const void>
ObsDialect::getKernelProof(const ProofKey &key) const {
  std::lock_guard<std::mutex> lock(provedKernelsMutex);
  for (const ProvedKernel &kept : provedKernels)
    if (kept.key == key)
      return kept.proof;
  return nullptr;
}

std::shared_ptr<void>
ObsDialect::getCodeEntry(TypeID type, const CodeKey &key,
                         llvm::function_ref<std::shared_ptr<void>()> create) {
  std::lock_guard<std::mutex> lock(codeEntriesMutex);
  for (const CodeEntry &kept : codeEntries)
    if (kept.type == type && kept.key == key)
      return kept.entry;
  // Each type keeps its own most recent entries: the runs of every plan
  // simulated must not push out the changed elements of the code.
  auto ofType = [&](const CodeEntry &kept) { return kept.type == type; };
  if (llvm::count_if(codeEntries, ofType) == kCodeEntriesKept)
    codeEntries.erase(llvm::find_if(codeEntries, ofType));
  codeEntries.push_back({type, key, create()});
  return codeEntries.back().entry;
}

bool ObsDialect::isProvedKernel(const ProofKey &key) const {
  std::lock_guard<std::mutex> lock(provedKernelsMutex);
  return llvm::any_of(
      provedKernels, [&](const ProvedKernel &kept) { return kept.key == key; });
}
