//===- DeviceGenerator.h - random device-level obs programs -----*- C++ -*-===//
//
// obs-fuzz --device's programs: a host function
//   @entry(%in: memref<?xT>, %out: memref<?xU>)   (memref<1xU> after a reduce)
// that chains device-level ops (obs.device_map, obs.device_scan,
// obs.device_sort, obs.device_reduce) over arrays whose length is known only
// at run time, through allocations of that length. Each is checked on every
// length it is given against an oracle computed here, directly from the
// ops' definitions (a running fold, a stable sort, ...), with no obs code:
// ref runs the same launch plans as the GPU targets, so it cannot catch a
// wrong plan, and the oracle can. Every combine is exact in any association
// order (integer arithmetic wraps, floats only take maxima and minima), so
// any correct plan gives the oracle's numbers bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBSFUZZ_DEVICEGENERATOR_H
#define OBS_TOOLS_OBSFUZZ_DEVICEGENERATOR_H

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace obs_fuzz {

/// The scalar types of a device program's arrays.
enum class DeviceScalar { I8, I16, I32, I64, F32, F64 };

struct DeviceStep {
  enum Kind {
    Map,           // out[i] = f(x[i]), possibly of another type
    Scan,          // inclusive or exclusive, a combine from a menu
    SegmentedScan, // a sum restarting where x mod 10 == 0 (integers)
    Sort,          // a `less` comparing the elements, either way round
    ArgSort,       // the positions (or the keys) of a stable key-value sort
    Reduce,        // the last step: one element
  } kind;
  /// The map's function, the scan's or reduce's combine, the sort's
  /// comparison (DeviceGenerator.cpp names them).
  int variant = 0;
  /// The scalar type a map converts to.
  DeviceScalar to = DeviceScalar::I32;
  bool exclusive = false;
  /// A sort's comparison with its operands swapped (a descending order for
  /// `<`); ArgSort's output: the sorted keys rather than the positions.
  bool flag = false;
  /// A sort whose `less` compares its integer keys xor 85: an order the
  /// radix sort cannot follow, which obs-expand-device merges.
  bool merge = false;
  /// Written into the allocation it reads (never the entry's %in; the last
  /// step then copies it to %out).
  bool inPlace = false;
  /// A map that first combines each element with the reduction of its
  /// whole input by this combine (-1: none), the reduction's one element
  /// reaching the map through `scalars(...)`: `f(x[i] ⊕ r)`, `r` the fold
  /// of every `x[j]` (in @entry only, as it allocates `r`).
  int broadcast = -1;
  /// Where the op stands: in @entry, or in a private helper function of
  /// its own that @entry calls by symbol or through a func.constant (the
  /// launch proof follows both to the allocations it is given). Maps,
  /// scans, sorts and reductions only: the others allocate temporaries.
  enum Placement { Inline, Call, IndirectCall } placement = Inline;
};

struct DeviceProgram {
  DeviceScalar input = DeviceScalar::I32;
  std::vector<DeviceStep> steps;
  /// The lengths each compiled program runs on.
  std::vector<uint64_t> lengths;
};

/// An array as the oracle computes it: integers sign-extended from their
/// width, floats as doubles (rounded to float for f32).
struct DeviceArray {
  DeviceScalar type = DeviceScalar::I32;
  std::vector<int64_t> integers;
  std::vector<double> reals;
  uint64_t size() const;
};

bool isFloat(DeviceScalar scalar);
/// `i8`, ..., `f64`.
const char *getName(DeviceScalar scalar);

/// Draws a random device program and the lengths to run it on.
DeviceProgram generateDeviceProgram(std::mt19937_64 &rng);

/// The program as MLIR: `func.func @entry`.
std::string printDeviceProgram(const DeviceProgram &program);

/// The type of the entry's output array, and whether it has one element.
DeviceScalar getOutputType(const DeviceProgram &program);
bool reducesToOne(const DeviceProgram &program);

/// What the entry computes from `input`, by the ops' definitions.
DeviceArray evaluateDeviceProgram(const DeviceProgram &program,
                                  DeviceArray input);

} // namespace obs_fuzz

#endif // OBS_TOOLS_OBSFUZZ_DEVICEGENERATOR_H
