//===- EntrySignature.cpp - what an --entry function may take -------------===//

#include "EntrySignature.h"
#include "Obs/Dialect/Obs/ObsTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::optional<std::string> obs_run::whyNotEntryArgument(Type type) {
  std::string why;
  llvm::raw_string_ostream os(why);
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref) {
    os << "is not a ranked memref: obs-run passes every argument as an "
          "array it reads from --input or prints (a scalar as memref<1xT>)";
  } else if (memref.getRank() == 0) {
    os << "has rank 0: take a scalar as memref<1xT>";
  } else if (!obs::isScalarElementType(memref.getElementType())) {
    os << "has elements of " << memref.getElementType()
       << ", which obs-run does not read or print: expected i1, i8, i16, "
          "i32, i64, f16, f32 or f64";
  } else if (llvm::any_of(memref.getShape().drop_front(),
                          ShapedType::isDynamic)) {
    os << "has a dynamic size past the outermost: only the outermost comes "
          "from the input's length (or --length)";
  } else if (!memref.getLayout().isIdentity()) {
    os << "has a layout: an entry's memrefs are contiguous, as obs-run "
          "allocates them";
  } else {
    return std::nullopt;
  }
  return why;
}

LogicalResult obs_run::verifyEntrySignature(func::FuncOp entry) {
  bool valid = true;
  for (auto [index, type] : llvm::enumerate(entry.getArgumentTypes()))
    if (std::optional<std::string> why = whyNotEntryArgument(type)) {
      emitError(entry.getArgument(index).getLoc())
          << "argument " << index << " of @" << entry.getSymName() << " ("
          << type << ") " << *why;
      valid = false;
    }
  if (entry.getNumResults()) {
    emitError(entry.getLoc())
        << "@" << entry.getSymName()
        << " must return nothing: its results are the memrefs it writes";
    valid = false;
  }
  return success(valid);
}
