//===- SplitMix.h - a random stream that is the same everywhere -*- C++ -*-===//
//
// splitmix64 (Steele, Lea and Flood): a small generator whose stream depends
// on nothing but its seed, so that a seed means the same data (obs-run's
// `random:SEED`) and the same thread and block orders (the cpu target's
// `shuffle:SEED`) on every machine and with every standard library.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_SPLITMIX_H
#define OBS_SUPPORT_SPLITMIX_H

#include <cstdint>

namespace mlir::obs {

/// The next number of the stream whose state is `state`, which it advances.
inline uint64_t nextSplitMix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_SPLITMIX_H
