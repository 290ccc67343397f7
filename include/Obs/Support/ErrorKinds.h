//===- ErrorKinds.h - kinds of error that tools sort by ---------*- C++ -*-===//
//
// Some errors say that the program is wrong, others that it asks for more
// than this compiler does. Tools sort them: obs-fuzz counts a kernel whose
// chosen syncs the verifier rejects, and a pipeline over one of the
// compiler's limits, apart from its failures. They test a kind that the
// error carries as diagnostic metadata, which is never printed, so that
// rewording a message cannot move it from one count to another.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_ERRORKINDS_H
#define OBS_SUPPORT_ERRORKINDS_H

#include "mlir/IR/Diagnostics.h"

namespace mlir::obs {

enum class ErrorKind {
  /// A valid program over one of the compiler's limits: a block's shared
  /// memory, the reads one stage's code inlines, the accesses a proof
  /// follows, the elements an array holds.
  CompilerLimit,
  /// A choice the user wrote (a sync's scope or placement, a work
  /// assignment, a block's threads) that is unsafe or impossible.
  RejectedChoice,
  /// A program that is wrong whatever is chosen for it: a read outside an
  /// array, a place a scatter without a combine writes twice.
  UnsafeProgram,
};

namespace detail {
inline StringRef errorKindTag(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::CompilerLimit:
    return "obs.error-kind: compiler limit";
  case ErrorKind::RejectedChoice:
    return "obs.error-kind: rejected choice";
  case ErrorKind::UnsafeProgram:
    return "obs.error-kind: unsafe program";
  }
  llvm_unreachable("unknown error kind");
}
} // namespace detail

/// Tags `diagnostic` with `kind` and returns it, so that an error reads
/// `return tagError(emitOpError() << ..., ErrorKind::CompilerLimit);`.
inline InFlightDiagnostic &tagError(InFlightDiagnostic &diagnostic,
                                    ErrorKind kind) {
  if (Diagnostic *underlying = diagnostic.getUnderlyingDiagnostic())
    underlying->getMetadata().emplace_back(detail::errorKindTag(kind));
  return diagnostic;
}
inline InFlightDiagnostic &&tagError(InFlightDiagnostic &&diagnostic,
                                     ErrorKind kind) {
  return std::move(tagError(diagnostic, kind));
}

/// Whether `diagnostic` was tagged with `kind`.
inline bool hasErrorKind(Diagnostic &diagnostic, ErrorKind kind) {
  StringRef tag = detail::errorKindTag(kind);
  return llvm::any_of(
      diagnostic.getMetadata(), [&](const DiagnosticArgument &argument) {
        return argument.getKind() ==
                   DiagnosticArgument::DiagnosticArgumentKind::String &&
               argument.getAsString() == tag;
      });
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_ERRORKINDS_H
