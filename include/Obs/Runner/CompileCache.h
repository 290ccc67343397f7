//===- CompileCache.h - compiled programs kept on disk ----------*- C++ -*-===//
//
// Compiling an obs program proves every kernel, lowers it and optimises the
// result; running it again on other data needs none of that. As Triton
// keeps its kernels, obs-run keeps the object code it JIT-compiles for the
// ref and cpu targets under a key of everything that decides that code: the
// program as it goes into the pipelines, the options that choose the
// pipeline (target, refinements, thread and block orders), and this build of
// obs. A second run loads the object and skips the proof, the lowering and
// LLVM's optimisation.
//
// Entries are written to a temporary file and renamed into place, so that
// runs in parallel never read half an entry. Each ends in its key and a
// hash of its content and key, checked as it is loaded: an entry damaged
// on disk, another key's entry under this one's name, one that is not a
// regular file or is implausibly large, like one that cannot be loaded, is
// a miss, and is written again. The key holds the host's processor and
// features, for the object code compiled for them.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_RUNNER_COMPILECACHE_H
#define OBS_RUNNER_COMPILECACHE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/MemoryBuffer.h"
#include <functional>
#include <memory>
#include <string>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace mlir::obs {

class CompileCache {
public:
  /// What an entry holds, which names its file's extension.
  enum class Entry {
    /// Object code for the host (`.o`).
    Object,
    /// A refined obs program, as MLIR bytecode (`.mlirbc`).
    RefinedProgram,
  };

  /// Where the cache is unless a tool is told otherwise: `OBS_CACHE_DIR`,
  /// else `$XDG_CACHE_HOME/obs`, else `~/.cache/obs`; empty when none of
  /// them is set.
  static std::string getDefaultDirectory();

  /// A cache in `directory`, created when first written; none (every
  /// lookup a miss, nothing stored) when `directory` is empty.
  explicit CompileCache(std::string directory);

  bool isEnabled() const { return !directory.empty(); }
  const std::string &getDirectory() const { return directory; }

  /// The key of `module` compiled by `pipeline`, text that names every
  /// option that changes the code, by this build of obs (its executable's
  /// size and time). Empty, and nothing printed, when the cache is off.
  std::string getKey(ModuleOp module, StringRef pipeline) const;

  /// The `entry` kept under `key`, or null on a miss.
  std::unique_ptr<llvm::MemoryBuffer> load(StringRef key,
                                           Entry entry = Entry::Object) const;

  /// Keeps `content` under `key` as the `entry`. Nothing is kept where the
  /// cache cannot be written (a full disk, a directory it may not write):
  /// a cache is an optimisation, never an error.
  void store(StringRef key, StringRef content,
             Entry entry = Entry::Object) const;

private:
  std::string pathOf(StringRef key, Entry entry) const;
  std::string directory;
};

/// A JIT holding object code loaded from a cache, which resolves its
/// undefined symbols to `runtime` (the runner's functions) and to the
/// process's own. Fails where the object cannot be linked or initialised.
llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> loadCompiledObject(
    std::unique_ptr<llvm::MemoryBuffer> object,
    llvm::function_ref<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>
        runtime);

} // namespace mlir::obs

#endif // OBS_RUNNER_COMPILECACHE_H
