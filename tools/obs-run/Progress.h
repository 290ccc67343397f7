//===- Progress.h - what a long compilation is doing, on stderr -*- C++ -*-===//
//
// obs-run's --progress: a compilation tells each step it starts
// (CompileOptions::reportStep); on a terminal, one that has taken a while
// shows the latest step and the time so far as one line, rewritten in
// place as steps start and four times a second during a long one, and
// cleared before anything else is printed.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBS_RUN_PROGRESS_H
#define OBS_TOOLS_OBS_RUN_PROGRESS_H

#include "llvm/ADT/Twine.h"
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace obs_run {

class Progress {
public:
  enum class Mode {
    /// Steps after the first two seconds (quietFor), on a terminal only.
    Auto,
    /// Every step on a line of its own, wherever stderr goes.
    Always,
    Never,
  };

  /// Starts counting time now; in auto mode, nothing is shown for
  /// `quietFor`.
  Progress(Mode mode, std::chrono::milliseconds quietFor);
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  /// Whether steps show at all: not with Never, nor in Auto where stderr
  /// is no terminal.
  bool isActive() const {
    return mode == Mode::Always || (mode == Mode::Auto && terminal);
  }

  /// Shows that `step` has started. Safe on any thread.
  void step(const llvm::Twine &step);

  /// Takes the line shown away, if any, until the next step: before
  /// results.
  void clear();

  /// Writes `text` to stderr where the line shown was, if any: a message
  /// while steps go on, which the line is drawn again below.
  void write(const llvm::Twine &text);

private:
  /// Shows `current` with the time so far (the mutex held).
  void draw();

  Mode mode;
  std::chrono::milliseconds quietFor;
  bool terminal;
  std::chrono::steady_clock::time_point start, lastShown;
  /// The step under way; empty once cleared.
  std::string current;
  bool shown = false;
  bool stopping = false;
  std::mutex mutex;
  std::condition_variable wake;
  /// Redraws a long step (auto mode on a terminal, from the first step).
  std::thread ticker;
};

} // namespace obs_run

#endif // OBS_TOOLS_OBS_RUN_PROGRESS_H
