//===- NVVMReductions.cpp - unused atomics as PTX `red` -------------------===//
//
// PTX has an instruction for an atomic update whose old value nobody reads,
// `red`; NVPTX only emits `atom`, into a dead register. ptxas may or may not
// make the same choice from the `atom`; the PTX obs emits says what it
// means instead. See the pass's description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/Chips.h"
#include "Obs/Support/Statistics.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSNVVMREDUCTIONS
#include "Obs/Transforms/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;
using namespace mlir::obs;

namespace {

/// PTX's `red` address space for an LLVM one, or none.
std::optional<StringRef> ptxSpace(unsigned addressSpace) {
  switch (addressSpace) {
  case 1:
    return StringRef(".global");
  case 3:
    return StringRef(".shared");
  default:
    return std::nullopt;
  }
}

/// The `op.type` of `red` for `kind` on `type` (".add.u32"), and the
/// inline-assembly constraint of the value, or none where `red` has no
/// such form (or, for an f64 add, where the chip `chipNumber` lacks it).
std::optional<std::pair<std::string, StringRef>>
ptxOperation(LLVM::AtomicBinOp kind, Type type,
             std::optional<unsigned> chipNumber) {
  if (!type.isIntOrFloat())
    return std::nullopt;
  unsigned width = type.getIntOrFloatBitWidth();
  if (width != 32 && width != 64)
    return std::nullopt;
  bool isFloat = isa<FloatType>(type);
  if (isFloat && (kind != LLVM::AtomicBinOp::fadd ||
                  (width == 64 && chipNumber && *chipNumber < 60)))
    return std::nullopt;
  // PTX has 64-bit and, or, min and max from sm_32 only (64-bit add from
  // the first chips): below it the atomic is left to LLVM's expansion
  // (a compare-and-swap loop), as its NVPTX backend expands it.
  if (!isFloat && width == 64 && kind != LLVM::AtomicBinOp::add && chipNumber &&
      *chipNumber < 32)
    return std::nullopt;
  StringRef constraint =
      isFloat ? (width == 32 ? "f" : "d") : (width == 32 ? "r" : "l");
  auto form = [&](StringRef op, StringRef kindOfType) {
    return std::make_pair(
        ("." + op + "." + kindOfType + (width == 32 ? "32" : "64")).str(),
        constraint);
  };
  switch (kind) {
  case LLVM::AtomicBinOp::fadd:
    return form("add", "f");
  case LLVM::AtomicBinOp::add:
    return form("add", "u");
  case LLVM::AtomicBinOp::_and:
    return form("and", "b");
  case LLVM::AtomicBinOp::_or:
    return form("or", "b");
  case LLVM::AtomicBinOp::max:
    return form("max", "s");
  case LLVM::AtomicBinOp::min:
    return form("min", "s");
  case LLVM::AtomicBinOp::umax:
    return form("max", "u");
  case LLVM::AtomicBinOp::umin:
    return form("min", "u");
  default:
    return std::nullopt;
  }
}

/// Whether `pointer`, a generic one, points into a kernel's argument: the
/// kernel's parameters are in global memory (NVPTX infers the same, and
/// would emit `atom.global` for it).
bool pointsIntoKernelArgument(Value pointer) {
  while (auto element = pointer.getDefiningOp<LLVM::GEPOp>())
    pointer = element.getBase();
  auto argument = dyn_cast<BlockArgument>(pointer);
  if (!argument || !argument.getOwner()->isEntryBlock())
    return false;
  auto function =
      dyn_cast<LLVM::LLVMFuncOp>(argument.getOwner()->getParentOp());
  return function &&
         function->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName());
}

struct ObsNVVMReductionsPass
    : mlir::obs::impl::ObsNVVMReductionsBase<ObsNVVMReductionsPass> {
  using ObsNVVMReductionsBase::ObsNVVMReductionsBase;

  /// The PTX pipeline's one look at its chip before NVPTX, which stops
  /// with a stack dump on one too old (obs-run checks its --chip itself):
  /// once, before any gpu.module, so that a module without one is no
  /// reason to take a bad chip.
  LogicalResult initialize(MLIRContext *context) override {
    if (chip.empty() || isPTXChip(chip))
      return success();
    return emitError(UnknownLoc::get(context))
           << "obs-nvvm-reductions: " << describeNonPTXChip(chip);
  }

  void runOnOperation() override {
    SmallVector<LLVM::AtomicRMWOp> atomics;
    getOperation().walk([&](LLVM::AtomicRMWOp atomic) {
      if (atomic.getRes().use_empty())
        atomics.push_back(atomic);
    });
    std::optional<unsigned> chipNumber = getChipNumber(chip);
    unsigned rewritten = 0;
    for (LLVM::AtomicRMWOp atomic : atomics) {
      Value address = atomic.getPtr();
      auto pointer = cast<LLVM::LLVMPointerType>(address.getType());
      unsigned addressSpace = pointer.getAddressSpace();
      if (addressSpace == 0 && pointsIntoKernelArgument(address))
        addressSpace = 1;
      std::optional<StringRef> space = ptxSpace(addressSpace);
      auto operation = ptxOperation(atomic.getBinOp(),
                                    atomic.getVal().getType(), chipNumber);
      // A volatile or syncscope-qualified atomic keeps its own meaning, and
      // so does one ordered more strongly than `red` (relaxed) is.
      bool relaxed = relaxOrderings ||
                     atomic.getOrdering() == LLVM::AtomicOrdering::monotonic;
      if (!space || !operation || !relaxed || atomic.getVolatile_() ||
          atomic.getSyncscope())
        continue;
      std::string text =
          ("red" + *space + operation->first + " [$0], $1;").str();
      std::string constraints = ("l," + operation->second + ",~{memory}").str();
      OpBuilder builder(atomic);
      if (addressSpace != pointer.getAddressSpace())
        address = LLVM::AddrSpaceCastOp::create(
            builder, atomic.getLoc(),
            LLVM::LLVMPointerType::get(&getContext(), addressSpace), address);
      LLVM::InlineAsmOp::create(
          builder, atomic.getLoc(), /*res=*/TypeRange(),
          ValueRange{address, atomic.getVal()}, text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::TailCallKind::None, /*asm_dialect=*/LLVM::AsmDialectAttr(),
          /*operand_attrs=*/ArrayAttr());
      atomic.erase();
      ++rewritten;
    }
    addToStatistic(*this, numReductions, "reductions", rewritten);
  }
};

} // namespace
