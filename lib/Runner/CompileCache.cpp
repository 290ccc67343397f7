//===- CompileCache.cpp - compiled programs kept on disk ------------------===//

#include "Obs/Runner/CompileCache.h"
#include "Obs/Support/ExactPrinting.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::obs;

std::string CompileCache::getDefaultDirectory() {
  if (std::optional<std::string> set =
          llvm::sys::Process::GetEnv("OBS_CACHE_DIR"))
    return *set;
  SmallString<128> path;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    path = *xdg;
  } else if (std::optional<std::string> home =
                 llvm::sys::Process::GetEnv("HOME");
             home && !home->empty()) {
    path = *home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(path, "obs");
  return std::string(path);
}

CompileCache::CompileCache(std::string directory)
    : directory(std::move(directory)) {}

/// This build of obs: its executable's size and modification time, which
/// every link changes, so that a rebuilt compiler never reads what another
/// build compiled.
static std::string buildIdentity() {
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  llvm::sys::fs::file_status status;
  if (executable.empty() || llvm::sys::fs::status(executable, status))
    return "";
  return executable + ":" + std::to_string(status.getSize()) + ":" +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}

/// The host's processor and its features, read once: object code compiled
/// for one (AVX-512) may not run on another sharing the cache directory.
static const std::string &describeHost() {
  static const std::string host = [] {
    SmallVector<StringRef> enabled;
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    for (const auto &feature : features)
      if (feature.getValue())
        enabled.push_back(feature.getKey());
    llvm::sort(enabled);
    return (llvm::sys::getHostCPUName() + " " + llvm::join(enabled, ",")).str();
  }();
  return host;
}

std::string CompileCache::getKey(ModuleOp module, StringRef pipeline) const {
  // The key prints the whole program: only a cache that is on needs it.
  if (!isEnabled())
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << buildIdentity() << "\n" << describeHost() << "\n" << pipeline << "\n";
  // Locations too: they are in the code's messages.
  module->print(os, getExactPrintingFlags().enableDebugInfo());
  llvm::XXH128_hash_t hash = llvm::xxh3_128bits(
      ArrayRef(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::utohexstr(hash.high64, /*LowerCase=*/true, /*Width=*/16) +
         llvm::utohexstr(hash.low64, /*LowerCase=*/true, /*Width=*/16);
}

std::string CompileCache::pathOf(StringRef key, Entry entry) const {
  SmallString<128> path(directory);
  llvm::sys::path::append(path,
                          key + (entry == Entry::Object ? ".o" : ".mlirbc"));
  return std::string(path);
}

/// Every entry ends in a line of the first tag and its key, then a line of
/// the second and the SHA-256 of all that comes before it, in hex (what
/// `sha256sum` prints, so that a test can write an entry). An entry damaged
/// on disk (a flipped byte in object code ran as other code, a damaged
/// bytecode hung its reader) fails the check, and so does another key's
/// entry copied under this one's name (it ran as the other program): each
/// is a miss.
static constexpr llvm::StringLiteral kKeyTag = "obs-key ";
static constexpr llvm::StringLiteral kChecksumTag = "obs-sha256 ";

/// The bytes of the trailer after an entry's content, for `key`.
static size_t getTrailerBytes(StringRef key) {
  return kKeyTag.size() + key.size() + 1 + kChecksumTag.size() + 64 + 1;
}

/// The trailer of `content` stored for `key`: its key line, then the tag,
/// the hash of the content and key line, and a newline.
static std::string getTrailer(StringRef content, StringRef key) {
  std::string keyLine = (kKeyTag + key + "\n").str();
  llvm::SHA256 hasher;
  hasher.update(content);
  hasher.update(keyLine);
  std::array<uint8_t, 32> hash = hasher.final();
  return keyLine +
         (kChecksumTag + llvm::toHex(hash, /*LowerCase=*/true) + "\n").str();
}

/// The most bytes an entry may hold: a program's object code or bytecode is
/// far smaller. Larger, or not a regular file (a FIFO, which blocked the
/// read forever; a link to /dev/zero, read until memory ran out), it is a
/// miss before it is read.
static constexpr uint64_t kMostEntryBytes = uint64_t(1) << 30;

std::unique_ptr<llvm::MemoryBuffer> CompileCache::load(StringRef key,
                                                       Entry entry) const {
  if (!isEnabled())
    return nullptr;
  std::string path = pathOf(key, entry);
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status) ||
      !llvm::sys::fs::is_regular_file(status) ||
      status.getSize() > kMostEntryBytes)
    return nullptr;
  // The file is read as it is now, not mapped: another process may replace
  // it (atomically, by rename) meanwhile.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false,
                                  /*IsVolatile=*/true);
  size_t trailerBytes = getTrailerBytes(key);
  if (!buffer || (*buffer)->getBufferSize() <= trailerBytes)
    return nullptr;
  StringRef stored = (*buffer)->getBuffer();
  StringRef content = stored.drop_back(trailerBytes);
  if (stored.take_back(trailerBytes) != getTrailer(content, key))
    return nullptr;
  return llvm::MemoryBuffer::getMemBufferCopy(content,
                                              (*buffer)->getBufferIdentifier());
}

void CompileCache::store(StringRef key, StringRef content, Entry entry) const {
  if (!isEnabled() || content.empty() ||
      llvm::sys::fs::create_directories(directory))
    return;
  // The unique name is made apart from the directory, whose own `%`s a
  // model path would replace too (a cache in `pc%d` kept nothing, its
  // temporaries written elsewhere; found by a defect hunt).
  SmallString<64> name;
  llvm::sys::fs::createUniquePath(key + "-%%%%%%%%.tmp", name,
                                  /*MakeAbsolute=*/false);
  SmallString<128> temporary(directory);
  llvm::sys::path::append(temporary, name);
  std::error_code error;
  {
    // Created anew, never an existing file another process made.
    llvm::raw_fd_ostream os(temporary, error, llvm::sys::fs::CD_CreateNew,
                            llvm::sys::fs::FA_Write, llvm::sys::fs::OF_None);
    if (error)
      return;
    // The content, then its trailer: a write that fails (a full disk)
    // leaves nothing to keep, and the stream's error is taken here, where
    // an unchecked one would stop the process as the stream closes.
    os << content << getTrailer(content, key);
    os.close();
    error = os.error();
    os.clear_error();
  }
  if (error || llvm::sys::fs::rename(temporary, pathOf(key, entry)))
    llvm::sys::fs::remove(temporary);
}

llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> mlir::obs::loadCompiledObject(
    std::unique_ptr<llvm::MemoryBuffer> object,
    llvm::function_ref<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>
        runtime) {
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  llvm::Expected<std::unique_ptr<llvm::orc::DynamicLibrarySearchGenerator>>
      process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner mangle(main.getExecutionSession(),
                                      (*jit)->getDataLayout());
  if (llvm::Error error =
          main.define(llvm::orc::absoluteSymbols(runtime(mangle))))
    return std::move(error);
  if (llvm::Error error = (*jit)->addObjectFile(std::move(object)))
    return std::move(error);
  if (llvm::Error error = (*jit)->initialize(main))
    return std::move(error);
  return std::move(*jit);
}
