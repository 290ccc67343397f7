//===- obs-lsp-server.cpp - the MLIR language server, with obs ------------===//
//
// MLIR's LSP server (diagnostics, hover, go-to-definition, symbols) for .mlir
// files that use obs, and the upstream dialects obs lowers through. Point an
// editor's MLIR extension at it (for VS Code, `mlir.server_path`).
//
// Beyond the verifier's errors, every obs.kernel is proved as the reference
// target proves it (obs-verify-reference: networks expanded, flattened, its
// written choices simulated; a halo argument read as by one block), so an
// editor shows a race, a wrong read of registers or an in-place placement that
// cannot apply where the file is opened or changed, not at the next compile.
// So are a module's launches (obs-verify-launches, once per module): blocks
// that write what another block reads.
//
// An editor that saves a file sends textDocument/didSave, which MLIR's server
// ignores; obs's answers it as a change to the saved text, so the file's
// diagnostics are published again on every save (SaveRelay below).
//
//===----------------------------------------------------------------------===//

#include "Obs/Dialect/Obs/ObsOps.h"
#include "Obs/InitAll.h"
#include "Obs/Support/SourceNesting.h"
#include "Obs/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Transport.h"
#include <cstdio>
#include <thread>
#include <unistd.h>

using namespace mlir;

/// The proof of one kernel: its halo arguments expanded as for one block
/// over its tile (obs-expand-device, which a kernel alone gives nothing
/// else to do), then the reference target's proof.
static void buildKernelProof(OpPassManager &pm) {
  pm.addPass(obs::createObsExpandDevice());
  pm.addPass(obs::createObsVerifyReference());
}

/// Runs a proof on `copy`, its diagnostics without the generic form of
/// their op attached (an editor shows each as a message at its location).
static void runQuietly(PassManager &pm, Operation *copy) {
  MLIRContext *context = copy->getContext();
  bool printed = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  (void)pm.run(copy);
  context->printOpOnDiagnostic(printed);
}

/// Reports, at `op`'s ops, what the reference target's proof finds wrong
/// with `op`, an obs.kernel, proved on a copy. Always succeeds: a kernel the
/// proof rejects is still a file the editor can navigate (a failed verifier
/// would leave the server without the file's IR).
static LogicalResult proveKernel(Operation *op) {
  // The proof verifies nothing itself, but stays out of its own way should
  // anything verify the copy.
  static thread_local bool proving = false;
  if (proving)
    return success();
  proving = true;
  OwningOpRef<ModuleOp> copy = ModuleOp::create(op->getLoc());
  copy->getBody()->push_back(op->clone());
  PassManager pm(op->getContext());
  pm.enableVerifier(false);
  buildKernelProof(pm);
  runQuietly(pm, *copy);
  proving = false;
  return success();
}

/// The proof of a module's launches, with its kernels prepared as the GPU
/// pipelines prepare them: networks expanded and flattened.
static void buildLaunchProof(OpPassManager &pm) {
  pm.addPass(obs::createObsExpandDevice());
  OpPassManager &kernels = pm.nest<obs::KernelOp>();
  kernels.addPass(obs::createObsExpandNetworks());
  kernels.addPass(obs::createObsFlatten());
  pm.addPass(obs::createObsVerifyLaunches());
}

/// Reports what the launch proof finds wrong with `module`'s launches
/// (blocks that write what another block reads), proved on a copy. Always
/// succeeds, as proveKernel does.
static LogicalResult proveLaunches(Operation *module) {
  static thread_local bool proving = false;
  if (proving)
    return success();
  proving = true;
  OwningOpRef<Operation *> copy = module->clone();
  // A launch in a nested module is checked as the nested module's symbols
  // are verified, before the outer module's later ops are: the passes
  // assume verified IR, and crashed on an invalid op there. The parser's
  // own verification reports those ops.
  bool valid;
  {
    ScopedDiagnosticHandler quiet(module->getContext(),
                                  [](Diagnostic &) { return success(); });
    valid = succeeded(verify(*copy));
  }
  if (valid) {
    PassManager pm(module->getContext(), module->getName().getStringRef());
    pm.enableVerifier(false);
    buildLaunchProof(pm);
    runQuietly(pm, *copy);
  }
  proving = false;
  return success();
}

namespace {
/// Stands between the editor and MLIR's server, which reads the process's
/// standard input: it reads the editor's messages from what was standard
/// input and hands them on through a pipe that now is, each as it came but
/// textDocument/didSave. That becomes a textDocument/didChange to the text
/// saved (the message's own, or the last the server was given), which the
/// server answers as any change: it parses and proves the file again and
/// publishes its diagnostics. The server asks for whole texts on change
/// (and applies only those), so the last text of each file is known.
class SaveRelay {
public:
  /// Moves standard input behind the relay, read in `style`; false (and
  /// standard input untouched) when the pipe cannot be made.
  bool start(llvm::lsp::JSONStreamStyle style) {
    int ends[2];
    if (pipe(ends) != 0)
      return false;
    // Both streams first: standard input moves only once nothing can fail.
    int editor = dup(STDIN_FILENO);
    std::FILE *in = editor < 0 ? nullptr : fdopen(editor, "r");
    std::FILE *out = fdopen(ends[1], "w");
    if (!in || !out || dup2(ends[0], STDIN_FILENO) < 0) {
      if (in)
        std::fclose(in);
      else if (editor >= 0)
        close(editor);
      if (out)
        std::fclose(out);
      else
        close(ends[1]);
      close(ends[0]);
      return false;
    }
    close(ends[0]);
    std::thread([this, in, out, style] { relay(in, out, style); }).detach();
    return true;
  }

private:
  void relay(std::FILE *in, std::FILE *out, llvm::lsp::JSONStreamStyle style) {
    llvm::lsp::JSONTransportInputOverFile input(in, style);
    std::string message;
    while (!input.isEndOfInput() && !input.hasError()) {
      if (llvm::failed(input.readMessage(message))) {
        // What MLIR's server would skip too (an empty or unframed message).
        continue;
      }
      write(out, style, rewrite(message));
    }
    // The editor is gone: so is the server's input.
    std::fclose(out);
  }

  /// JSON nested deeper than this is dropped: llvm::json::parse descends
  /// once per level on the stack, and 100,000 `[` crashed the server.
  static constexpr unsigned kMostJsonNesting = 512;

  /// Whether `message` nests arrays and objects deeper than
  /// kMostJsonNesting (strings skipped).
  static bool isNestedTooDeep(llvm::StringRef message) {
    unsigned depth = 0;
    bool inString = false;
    for (size_t i = 0; i < message.size(); ++i) {
      char c = message[i];
      if (inString) {
        if (c == '\\')
          ++i;
        else if (c == '"')
          inString = false;
      } else if (c == '"') {
        inString = true;
      } else if (c == '[' || c == '{') {
        if (++depth > kMostJsonNesting)
          return true;
      } else if ((c == ']' || c == '}') && depth > 0) {
        --depth;
      }
    }
    return false;
  }

  /// A message MLIR's server ignores: what stands for one the relay drops
  /// (the server's transport stops at a message that is not a JSON-RPC
  /// object).
  static std::string getIgnoredMessage() {
    return R"({"jsonrpc":"2.0","method":"$/obs/dropped"})";
  }

  /// `text`, or, where its brackets nest past what MLIR's parser can take
  /// on its stack (obs::findExcessiveNesting), the text up to the first
  /// such bracket and a character the lexer rejects there: the server
  /// reports an error at that place instead of overflowing its stack.
  static std::string boundNesting(llvm::StringRef text) {
    std::optional<size_t> excessive = obs::findExcessiveNesting(text);
    if (!excessive)
      return text.str();
    return (text.take_front(*excessive) + "\x01").str();
  }

  /// `message`, or a didSave as the change to its file's saved text; a
  /// message that would stop or crash MLIR's server becomes one it ignores,
  /// and a text nested past the parser's stack is cut where it goes too
  /// deep.
  std::string rewrite(const std::string &message) {
    if (isNestedTooDeep(message))
      return getIgnoredMessage();
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(message);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      return message;
    }
    // Not const: a text that nests too deep is cut in place.
    llvm::json::Object *object = parsed->getAsObject();
    if (!object || object->getString("jsonrpc") != "2.0")
      return getIgnoredMessage();
    llvm::json::Object *params = object->getObject("params");
    llvm::json::Object *document =
        params ? params->getObject("textDocument") : nullptr;
    std::optional<llvm::StringRef> method = object->getString("method");
    std::optional<llvm::StringRef> uri =
        document ? document->getString("uri") : std::nullopt;
    if (!method || !uri)
      return message;
    // The text an open or a (whole) change gives the file. Whole texts
    // replace one another: of several, the last is the file's (MLIR's
    // server took none of a change of two, and a fixed error stayed shown).
    llvm::json::Object *given = document;
    bool rewritten = false;
    if (*method == "textDocument/didChange") {
      llvm::json::Array *changes = params->getArray("contentChanges");
      bool allWhole =
          changes && !changes->empty() &&
          llvm::all_of(*changes, [](const llvm::json::Value &change) {
            const llvm::json::Object *object = change.getAsObject();
            return object && !object->get("range");
          });
      if (allWhole && changes->size() > 1) {
        llvm::json::Value last = changes->back();
        changes->clear();
        changes->push_back(std::move(last));
        rewritten = true;
      }
      given = changes && changes->size() == 1 ? changes->front().getAsObject()
                                              : nullptr;
    }
    if (*method == "textDocument/didOpen" ||
        *method == "textDocument/didChange") {
      std::optional<llvm::StringRef> text =
          given ? given->getString("text") : std::nullopt;
      // Only what MLIR's server takes is remembered for a later save: it
      // refuses a version that is not an integer (a save then opened the
      // file it had refused).
      std::optional<int64_t> version = document->getInteger("version");
      // The message as the server is to see it: as sent, or with its
      // changes reduced to the last.
      auto forwarded = [&] {
        return rewritten ? llvm::formatv("{0}", *parsed).str() : message;
      };
      if (!text || !version)
        return forwarded();
      std::string bounded = boundNesting(*text);
      texts[*uri] = {bounded, *version};
      if (bounded.size() == text->size())
        return forwarded();
      // The same message, its text cut where it nests too deep.
      (*given)["text"] = bounded;
      return llvm::formatv("{0}", *parsed);
    }
    if (*method == "textDocument/didClose") {
      texts.erase(*uri);
    } else if (*method == "textDocument/didSave") {
      // Only an open file is the server's: a save of another (closed, or
      // never opened) would open it with a text no editor shows.
      auto known = texts.find(*uri);
      if (known == texts.end())
        return message;
      if (std::optional<llvm::StringRef> text = params->getString("text"))
        known->second.first = boundNesting(*text);
      const std::pair<std::string, int64_t> &saved = known->second;
      llvm::json::Object change{
          {"jsonrpc", "2.0"},
          {"method", "textDocument/didChange"},
          {"params",
           llvm::json::Object{
               {"textDocument",
                llvm::json::Object{{"uri", *uri}, {"version", saved.second}}},
               {"contentChanges",
                llvm::json::Array{llvm::json::Object{{"text", saved.first}}}},
           }}};
      return llvm::formatv("{0}", llvm::json::Value(std::move(change)));
    }
    return message;
  }

  static void write(std::FILE *out, llvm::lsp::JSONStreamStyle style,
                    const std::string &message) {
    if (style != llvm::lsp::JSONStreamStyle::Delimited)
      std::fprintf(out, "Content-Length: %zu\r\n\r\n", message.size());
    std::fwrite(message.data(), 1, message.size(), out);
    if (style == llvm::lsp::JSONStreamStyle::Delimited)
      std::fputs("\n// -----\n", out);
    std::fflush(out);
  }

  /// Each open file's last text and version.
  llvm::StringMap<std::pair<std::string, int64_t>> texts;
};

/// The style MlirLspServerMain will read its input in, from its own
/// options (`-lit-test` is delimited input), which it parses itself.
llvm::lsp::JSONStreamStyle getInputStyle(int argc, char **argv) {
  for (int index = 1; index < argc; ++index) {
    llvm::StringRef arg = llvm::StringRef(argv[index]).ltrim('-');
    if (arg == "lit-test" || arg == "input-style=delimited" ||
        (arg == "input-style" && index + 1 < argc &&
         llvm::StringRef(argv[index + 1]) == "delimited"))
      return llvm::lsp::JSONStreamStyle::Delimited;
  }
  return llvm::lsp::JSONStreamStyle::Standard;
}
} // namespace

int main(int argc, char **argv) {
  // Without the relay the server still runs; saves then publish nothing.
  // Never destroyed: its thread may still be reading as the process exits.
  auto *relay = new SaveRelay;
  (void)relay->start(getInputStyle(argc, argv));
  DialectRegistry registry;
  obs::registerAllDialects(registry);
  registry.addExtension(+[](MLIRContext *context, obs::ObsDialect *dialect) {
    // What the proof lowers a copy into, loaded now rather than while a
    // file is verified.
    DialectRegistry proofDialects;
    OpPassManager proof(ModuleOp::getOperationName());
    buildKernelProof(proof);
    buildLaunchProof(proof);
    proof.getDependentDialects(proofDialects);
    context->appendDialectRegistry(proofDialects);
    for (StringRef name : proofDialects.getDialectNames())
      context->getOrLoadDialect(name);
    dialect->setKernelCheck(proveKernel);
    dialect->setLaunchCheck(proveLaunches);
  });
  return failed(MlirLspServerMain(argc, argv, registry));
}
