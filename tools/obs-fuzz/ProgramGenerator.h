//===- ProgramGenerator.h - random well-typed obs kernels -------*- C++ -*-===//
//
// obs-fuzz's programs: a kernel from an array of N elements to an array of
// the same type, as a list of steps that each keep that type (a map, a
// permutation, a sub-program on halves, a sync with chosen properties, a
// scan, ...). Keeping every step type-preserving is what makes programs easy
// to generate well-typed and easy to reduce: removing any step, at any
// depth, leaves a well-typed program.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_TOOLS_OBSFUZZ_PROGRAMGENERATOR_H
#define OBS_TOOLS_OBSFUZZ_PROGRAMGENERATOR_H

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace obs_fuzz {

enum class Scalar { I8, I32, I64, F32, F64 };

/// Whether `s` is f32 or f64.
bool isFloat(Scalar s);
/// The bytes one `s` takes.
uint64_t bytesOf(Scalar s);

/// A kernel element: one scalar, or a tuple of two.
struct ElementType {
  std::vector<Scalar> scalars;
  bool isTuple() const { return scalars.size() > 1; }
};

struct Step {
  enum Kind {
    Map, // out[i] = f(x[i])
    Rev,
    Riffle,
    Unriffle,
    Evens, // a 2-to-2 function on (x[2i], x[2i+1])
    Odds,
    Fan,
    PairSwap,  // pair ->- map ->- unpair (scalar elements)
    ZipRev,    // zipWith f x (rev x) (scalar elements)
    HalveConc, // halve, steps on each half, conc
    Two,
    Ilv,
    One,
    Repeat,
    Permute, // generate: out[i] = x[(a*i + b) mod N]
    Sync,
    Scan,
    Sort,
    AddReduce, // out[i] = x[i] + reduce(x)
    // obs.scatter of x (scalar elements, kernel level): at the places of
    // a permutation (a i + b) mod N without a combine (variant 0, a power
    // of two N); at (a i + b) mod N, colliding, with a combine (variant 1);
    // at the places x itself gives, out-of-range ones dropped, with a
    // combine (variant 2, integers); at i mod ceil(N / 2) without a combine
    // (variant 3, a place written twice: unsafe for N >= 2).
    Scatter,
    // out[i] = x[i + a] (a in -2..2, not 0): clamped to the array (variant
    // 0), wrapped around it (variant 1), or neither (variant 2, a read
    // outside the array, known from the thread ids: unsafe), then synced.
    Neighbour,
    // out[i] = x[x[i]] (integer scalar elements): the place wrapped into
    // the array (variant 0), or as it is (variant 1: it may be outside,
    // which the ref and cpu targets stop at as they run).
    Gather,
    // A map whose element code asks the gpu dialect for the thread
    // (variant 0), the block (variant 1) or a lane's value (variant 2):
    // element code holds none of them, and the verifier rejects it.
    RawGpu,
  } kind;
  /// Which element function, constant or network.
  int variant = 0;
  int64_t a = 0, b = 0;
  /// A scan without a network that folds a difference (not associative).
  bool difference = false;
  /// A sync's written properties ("" when left to the passes).
  std::string scope, placement, how, storage;
  std::vector<Step> body, secondBody;
};

/// How a program's kernel runs over several blocks, from a host function
/// `@launch(%in, %out)` on memrefs of `grid` chunks: on distinct memrefs,
/// in place (the output memref is also the input), or through two views of
/// one byte buffer `shift` elements apart. Layouts, when given, send block
/// b to chunk (a b + c) mod grid, its elements reversed or not; a map that
/// is no permutation writes a place twice, and views or in-place launches
/// whose blocks or threads race, are for the launch proof to reject.
struct Launch {
  enum Kind { Separate, InPlace, Views } kind = Separate;
  uint64_t grid = 1;
  bool layouts = false;
  uint64_t inA = 1, inC = 0, outA = 1, outC = 0;
  bool inReversed = false, outReversed = false;
  uint64_t shift = 0;
  /// A second launch after the first, whose kernel (@fuzz_spread) scatters
  /// each block's results into the output with a global obs.scatter: at
  /// the reversed place (a permutation across blocks, no combine), at the
  /// place modulo a third of the output (colliding across blocks, with a
  /// combine), or at the place each integer value names (with a combine,
  /// places outside dropped).
  enum Spread { NoSpread, Reverse, Fold, Data } spread = NoSpread;
  /// The combine of Fold and Data: add or max on integers, max or min on
  /// floats, which give one result in any order.
  bool firstCombine = true;
  /// A separate launch made through a helper function `@run(%in, %scratch)`
  /// that launches into the global `@scratch`, which `@launch` then copies
  /// to its output: called directly, through func.constant and
  /// call_indirect, or directly with `@scratch` itself as its input
  /// (aliased: the helper writes what it reads, which the launch proof
  /// rejects).
  enum Call { NoCall, Direct, Indirect, Aliased } call = NoCall;
};

struct Program {
  uint64_t length = 1;
  ElementType type;
  std::optional<uint64_t> threads;
  std::vector<Step> steps;
  /// Launched over blocks from `@launch`, or run alone as `@fuzz`.
  std::optional<Launch> launch;
};

/// Whether `program` is wrong whatever its plan: it reads outside an array
/// (a Neighbour step of variant 2), writes a place of a scatter without a
/// combine twice (a Scatter of variant 3 over two elements or more), holds
/// a gpu op in element code (RawGpu), or passes a launching helper the
/// global it writes (Launch::Call::Aliased). Every target must reject it;
/// its steps are at kernel level, so nothing leaves them unevaluated.
bool isUnsafe(const Program &program);

/// Draws a random program of at most `maxLength` elements.
Program generateProgram(std::mt19937_64 &rng, uint64_t maxLength);

/// The program as MLIR: `obs.kernel @fuzz`, and `func.func @launch` when it
/// is launched.
std::string printProgram(const Program &program);

/// Smaller programs to try when reducing a failure: each with one step
/// removed (at any depth), a repeat run fewer times, a sync's properties or
/// the kernel's threads dropped, its launch made simpler or dropped.
std::vector<Program> simplerPrograms(const Program &program);

/// Whether `program` is a long scan: a map and a scan of an array that
/// takes more than half a block's shared memory, which no stage may hold.
bool isLongScan(const Program &program);

/// An upper bound on the element evaluations of the kernel on the cpu
/// target, after obs-expand-networks (which every obs-fuzz pipeline runs):
/// a pull array recomputes its producers for every element it reads, so
/// steps with no sync between them multiply, and only a sync (or a
/// network's syncs) materializes. No refinement pass removes a sync, so the
/// bound holds for every pipeline. Saturates at 2^63.
double estimateWork(const Program &program);

/// The number of steps, at every depth.
unsigned countSteps(const Program &program);

/// Whether the program has a step of `kind` (at any depth).
bool hasStep(const Program &program, Step::Kind kind);

/// Whether a sync of the program (at any depth) has a written scope,
/// placement, work assignment or storage.
bool hasWrittenProperty(const Program &program);

} // namespace obs_fuzz

#endif // OBS_TOOLS_OBSFUZZ_PROGRAMGENERATOR_H
