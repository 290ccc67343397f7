//===- ChainStates.cpp - the cpu target's view of obs.carry's chain -------===//
//
// The cpu target runs a launch's blocks one at a time, each to its end, so
// a look-back there would only ever meet tiles that are done. A GPU's
// look-back reads each word of the tiles before it while they run: it may
// meet nothing yet, a tile's own value, or its inclusive prefix. The
// runner keeps each word's history as the look-backs' exchanges write it,
// and answers a read with one of the states the word held, at or after
// the last this reader met of it, drawn from the run's seed: every answer
// is one a GPU's read could give, and each read of a word that held
// nothing yet is followed, within a few reads, by the word as it is.
//
//===----------------------------------------------------------------------===//

#include "Obs/Support/SplitMix.h"
#include "TargetImpl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <mutex>

using namespace mlir::obs;

namespace {
struct ChainStates {
  static ChainStates &get() {
    static ChainStates states;
    return states;
  }
  std::mutex mutex;
  /// Each word's states, oldest first, as the exchanges wrote them: the
  /// history of a word whose memory no longer holds its last state (a
  /// later launch's chain, cleared by plain stores) is begun again.
  llvm::DenseMap<int64_t, llvm::SmallVector<int64_t, 3>> history;
  /// The word the last read was of, the state it met (an index into the
  /// history), and how many reads of it in a row met that state.
  int64_t lastAddress = -1;
  size_t lastState = 0;
  unsigned repeats = 0;
  uint64_t random = 1;
};

/// The word at `address`, whose history is begun again unless its last
/// state is what the memory holds.
llvm::SmallVector<int64_t, 3> &historyOf(ChainStates &states, int64_t address) {
  int64_t now = *reinterpret_cast<volatile int64_t *>(address);
  llvm::SmallVector<int64_t, 3> &history = states.history[address];
  if (history.empty() || history.back() != now)
    history.assign(1, now);
  return history;
}
} // namespace

int64_t mlir::obs::runner::publishChainState(int64_t address, int64_t state) {
  ChainStates &states = ChainStates::get();
  std::lock_guard<std::mutex> lock(states.mutex);
  llvm::SmallVector<int64_t, 3> &history = historyOf(states, address);
  int64_t old = history.back();
  history.push_back(state);
  *reinterpret_cast<volatile int64_t *>(address) = state;
  return old;
}

int64_t mlir::obs::runner::observeChainState(int64_t address) {
  ChainStates &states = ChainStates::get();
  std::lock_guard<std::mutex> lock(states.mutex);
  llvm::SmallVector<int64_t, 3> &history = historyOf(states, address);
  // A reader's reads of one word meet its states in order: a later read
  // meets the state the last did, or a later one.
  size_t earliest = 0;
  if (address == states.lastAddress)
    earliest = std::min(states.lastState, history.size() - 1);
  size_t chosen =
      earliest + nextSplitMix64(states.random) % (history.size() - earliest);
  // A reader that waits is answered with the word as it is soon: the
  // GPU's writer gets on.
  bool again = address == states.lastAddress && chosen == states.lastState;
  states.repeats = again ? states.repeats + 1 : 0;
  if (states.repeats >= 3)
    chosen = history.size() - 1;
  states.lastAddress = address;
  states.lastState = chosen;
  return history[chosen];
}

void mlir::obs::runner::resetChainStates(uint64_t seed) {
  ChainStates &states = ChainStates::get();
  std::lock_guard<std::mutex> lock(states.mutex);
  states.history.clear();
  states.lastAddress = -1;
  states.lastState = 0;
  states.repeats = 0;
  states.random = seed;
}
