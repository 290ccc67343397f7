//===- LibrarySymbols.cpp - user functions out of the C library's names ---===//
//
// obs-rename-library-symbols: a host function the program defines under a
// C library function's name (`@erf`, `@round`, `@free`) shares that name
// with the library once the host code is LLVM IR, and two things then go
// wrong silently. convert-math-to-libm calls whatever symbol has the name
// it wants, so a kernel's math.erf called the user's @erf; and LLVM knows
// the library's functions by name, so it folded a call of the user's @erf
// as libm's. Such functions are renamed before the host code is lowered,
// and the runners find them by getHostSymbolName.
//
//===----------------------------------------------------------------------===//

#include "Obs/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::obs {
#define GEN_PASS_DEF_OBSRENAMELIBRARYSYMBOLS
#include "Obs/Conversion/Passes.h.inc"
} // namespace mlir::obs

using namespace mlir;

/// Whether LLVM knows `name` as a C library function on this host (whether
/// or not the library has it): every name convert-math-to-libm calls is
/// one.
static bool isLibraryFunctionName(StringRef name) {
  static const llvm::TargetLibraryInfoImpl library{
      llvm::Triple(llvm::sys::getProcessTriple())};
  llvm::LibFunc function;
  return library.getLibFunc(name, function);
}

std::string mlir::obs::getHostSymbolName(StringRef name) {
  if (!isLibraryFunctionName(name))
    return name.str();
  return (kLibraryNamePrefix + name).str();
}

namespace {
struct ObsRenameLibrarySymbolsPass
    : obs::impl::ObsRenameLibrarySymbolsBase<ObsRenameLibrarySymbolsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto function :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      // A declaration is the library's function itself, or another the
      // runner provides: calls of it keep its name.
      if (function.isExternal())
        continue;
      StringRef name = function.getSymName();
      std::string renamed = obs::getHostSymbolName(name);
      if (renamed == name)
        continue;
      if (symbols.lookup(renamed)) {
        function.emitOpError()
            << "is named like the C library's function '" << name
            << "' and is renamed '" << renamed
            << "' on the host, but the program has a symbol of that name";
        return signalPassFailure();
      }
      if (failed(symbols.rename(function,
                                StringAttr::get(&getContext(), renamed)))) {
        function.emitOpError() << "cannot be renamed '" << renamed << "'";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
