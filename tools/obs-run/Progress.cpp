//===- Progress.cpp - what a long compilation is doing, on stderr ---------===//

#include "Progress.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace obs_run;

/// The line is rewritten at most this often as steps start,
static constexpr std::chrono::milliseconds kRedrawEvery(100);
/// and this often during a step.
static constexpr std::chrono::milliseconds kTick(250);

Progress::Progress(Mode mode, std::chrono::milliseconds quietFor)
    : mode(mode), quietFor(quietFor),
      terminal(llvm::sys::Process::StandardErrIsDisplayed()),
      start(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  if (ticker.joinable())
    ticker.join();
}

void Progress::step(const llvm::Twine &step) {
  if (!isActive())
    return;
  std::lock_guard<std::mutex> lock(mutex);
  if (mode == Mode::Always) {
    llvm::errs() << "obs-run: step: " << step << "\n";
    return;
  }
  current = step.str();
  if (!ticker.joinable())
    ticker = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex);
      while (!wake.wait_for(lock, kTick, [this] { return stopping; }))
        if (!current.empty())
          draw();
    });
  if (!shown || std::chrono::steady_clock::now() - lastShown >= kRedrawEvery)
    draw();
}

void Progress::draw() {
  auto now = std::chrono::steady_clock::now();
  if (now - start < quietFor)
    return;
  lastShown = now;
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "obs-run: "
     << llvm::format("%.1f", std::chrono::duration<double>(now - start).count())
     << " s: " << current;
  // One line: a step longer than the terminal is cut, not wrapped.
  unsigned columns = llvm::sys::Process::StandardErrColumns();
  if (columns > 1 && line.size() >= columns)
    line.resize(columns - 1);
  // Back to the line's start, the step, the rest of the old line erased.
  llvm::errs() << "\r" << line << "\x1b[K";
  llvm::errs().flush();
  shown = true;
}

void Progress::clear() {
  std::lock_guard<std::mutex> lock(mutex);
  current.clear();
  if (!shown)
    return;
  llvm::errs() << "\r\x1b[K";
  llvm::errs().flush();
  shown = false;
}

void Progress::write(const llvm::Twine &text) {
  std::lock_guard<std::mutex> lock(mutex);
  if (shown)
    llvm::errs() << "\r\x1b[K";
  shown = false;
  llvm::errs() << text;
  llvm::errs().flush();
}
