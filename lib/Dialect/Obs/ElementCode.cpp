//===- ElementCode.cpp - what element code may hold ----------------------===//
//
// The allowlist of element code, which every region that computes elements
// (obs ops' bodies, device ops' regions) is held to: what the proof models
// and every target computes alike (docs/Rationale.md, "Element code holds
// only what the proof models").
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/DefinedArithmetic.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/Support/ErrorKinds.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::obs;

/// Why element code cannot hold the math op `op`, which some
/// target cannot lower, with what to write instead; empty where every
/// target lowers it. Every math op was tried on ref, cpu and the PTX for
/// every element type: these four failed to legalize on at least one (so a
/// kernel that ran on cuda failed on ref), and an `fpowi` exponent other
/// than i32 stopped LLVM's x86 backend and called libdevice's `powi` with
/// the wrong argument type.
static std::string findUnloweredMath(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == "math.ipowi")
    return "no target lowers an integer power; multiply in an scf.for";
  if (name == "math.clampf")
    return "no target lowers it; write arith.maximumf then arith.minimumf";
  if (name == "math.isinf")
    return "ref and cpu do not lower it; compare math.absf of the value "
           "with infinity (arith.cmpf oeq)";
  if (name == "math.isnormal")
    return "no target lowers it; test math.isfinite and compare math.absf "
           "with the smallest normal number";
  if (name == "math.fpowi" && op->getNumOperands() == 2 &&
      !op->getOperand(1).getType().isInteger(32))
    return "its exponent must be i32 (the power functions of libm and "
           "libdevice take an int)";
  return "";
}

/// Why `op`, an arith or math op, computes differently, or not at all, on
/// some target for its types or attributes; empty when it does not.
/// NVPTX has no f80 or f128 arithmetic and no conversion between floats
/// and integers wider than 64 bits (each needs a library call, and LLVM
/// stops with "unsupported library call operation"); and upstream's
/// lowering of a rounding mode other than to-nearest-even only asserts the
/// mode, so `arith.truncf ... downward` rounded to nearest everywhere.
static std::string findUnportableTypes(Operation *op) {
  auto isGPUlessFloat = [](Type type) {
    return isa<Float80Type, Float128Type>(getElementTypeOrSelf(type));
  };
  if (llvm::any_of(op->getOperandTypes(), isGPUlessFloat) ||
      llvm::any_of(op->getResultTypes(), isGPUlessFloat))
    return "no GPU computes f80 or f128; compute in f64";
  auto isWideInteger = [](Type type) {
    auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
    return integer && integer.getWidth() > 64;
  };
  if (isa<arith::FPToSIOp, arith::FPToUIOp, arith::SIToFPOp, arith::UIToFPOp>(
          op) &&
      (llvm::any_of(op->getOperandTypes(), isWideInteger) ||
       llvm::any_of(op->getResultTypes(), isWideInteger)))
    return "no GPU converts between floats and integers wider than 64 bits; "
           "convert through i64";
  // bf16 from a float or integer wider than f32's significand: the host
  // converts through f32 and rounds twice, where PTX's cvt rounds once.
  if (isa<arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp>(op) &&
      getElementTypeOrSelf(op->getResult(0).getType()).isBF16()) {
    Type from = getElementTypeOrSelf(op->getOperand(0).getType());
    if (from.isF64() ||
        (isa<IntegerType>(from) && cast<IntegerType>(from).getWidth() > 16))
      return "the host converts to bf16 through f32 and rounds twice, where "
             "a GPU rounds once; convert to f32 first";
  }
  // A 16-bit fused multiply-add is computed in f32 and rounded again to 16
  // bits, where its one rounding's tie can be decided by what f32 dropped:
  // bf16's on every target, f16's on the GPU (found by an adversarial run:
  // 1.5 * (1 + 2^-7) - 2^-133 gave the tie's even neighbour).
  if (op->getName().getStringRef() == "math.fma") {
    Type type = getElementTypeOrSelf(op->getResult(0).getType());
    if (type.isF16() || type.isBF16())
      return "a 16-bit fma is computed in f32 and rounds twice on some "
             "targets; extend to f32 (or f64), fma there, and truncate";
  }
  if (!getUnhonouredRoundingMode(op).empty())
    return "no target's lowering honours a rounding mode other than "
           "to_nearest_even (they round to nearest)";
  return "";
}

std::string mlir::obs::findUnportableOp(Operation *op) {
  bool isMath =
      op->isRegistered() && op->getDialect()->getNamespace() == "math";
  if (!isMath && !isa_and_present<arith::ArithDialect>(op->getDialect()))
    return "";
  if (std::string unportable = findUnportableTypes(op); !unportable.empty())
    return unportable;
  return isMath ? findUnloweredMath(op) : "";
}

/// Whether element code holds values of `type`: what every target lowers
/// and the proof follows. A tensor in an scf.for's values failed in ref's
/// and cpu's lowering and passed on cuda; an f8 failed in LLVM's
/// translation, with no location (found by an adversarial run).
static bool isElementCodeType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isElementCodeType);
  return isa<IntegerType, IndexType, ArrType>(type) || type.isF16() ||
         type.isBF16() || type.isF32() || type.isF64();
}

/// An operand or result type of `op` that element code does not hold.
static std::optional<Type> findForeignType(Operation *op) {
  for (TypeRange types :
       {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
    for (Type type : types)
      if (!isElementCodeType(type))
        return type;
  return std::nullopt;
}

/// Element code holds only what every target computes alike and the proof
/// models: arith, math and ub ops, and scf's structured control flow
/// (`scf.if`, `scf.for`, `scf.while`). Anything else is an error at the op
/// (fail closed): a gpu op would compute with the thread or block that runs
/// it, which obs's code never sees, a call hides code from the proof, and
/// an op of another dialect may mean something no target runs. Ops of
/// unregistered dialects, which only tests allow, pass here and are
/// rejected by the proof if they reach it. Of math, only what every target
/// lowers (findUnloweredMath).
static LogicalResult verifyElementOp(Operation *op) {
  // math by its name: the dialect does not depend on it (a kernel that
  // uses it has it loaded).
  StringRef name = op->getName().getStringRef();
  bool isMath =
      op->isRegistered() && op->getDialect()->getNamespace() == "math";
  if (std::string unportable = findUnportableOp(op); !unportable.empty())
    return tagError(op->emitOpError()
                        << "cannot be in element code: " << unportable,
                    ErrorKind::UnsafeProgram);
  if (isMath)
    return success();
  if (op->isRegistered() && !isa<ObsDialect>(op->getDialect()))
    if (std::optional<Type> foreign = findForeignType(op))
      return tagError(op->emitOpError()
                          << "computes with " << *foreign
                          << ", which element code does not hold: it holds "
                             "integers, indices, f16, bf16, f32 and f64, "
                             "vectors of them, and obs's arrays",
                      ErrorKind::UnsafeProgram);
  if (!op->isRegistered() ||
      isa_and_present<ObsDialect, arith::ArithDialect, ub::UBDialect>(
          op->getDialect()) ||
      isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::ConditionOp, scf::YieldOp>(
          op))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "cannot be in element code, which holds only "
                               "arith, math, ub, scf.if, scf.for, scf.while "
                               "and obs ops: ";
  if (name == "gpu.block_id")
    diag << "the block's index is obs.block_id, the same in every target";
  else if (name == "gpu.thread_id" || name == "gpu.lane_id")
    diag << "which thread computes an element is its sync's work "
            "assignment, so compute from the element's index";
  else if (name == "gpu.shuffle")
    diag << "threads exchange values through an array kept in shuffles "
            "(obs.sync shuffle), which the proof checks";
  else if (isa<CallOpInterface>(op))
    diag << "the proof does not follow calls; write the callee's code here";
  else
    diag << "the proof models nothing else";
  return tagError(diag, ErrorKind::UnsafeProgram);
}

LogicalResult mlir::obs::verifyElementCode(Region &region) {
  WalkResult result = region.walk([](Operation *nested) {
    return failed(verifyElementOp(nested)) ? WalkResult::interrupt()
                                           : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
