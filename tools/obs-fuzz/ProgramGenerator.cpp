//===- ProgramGenerator.cpp - random well-typed obs kernels ---------------===//
//
// Draws programs, reduces them, and estimates their work; printing them as
// MLIR is ProgramPrinter.cpp's.
//
//===----------------------------------------------------------------------===//

#include "ProgramGenerator.h"
#include <algorithm>
#include <cmath>
#include <functional>

using namespace obs_fuzz;

bool obs_fuzz::isFloat(Scalar s) {
  return s == Scalar::F32 || s == Scalar::F64;
}

uint64_t obs_fuzz::bytesOf(Scalar s) {
  switch (s) {
  case Scalar::I8:
    return 1;
  case Scalar::I32:
  case Scalar::F32:
    return 4;
  case Scalar::I64:
  case Scalar::F64:
    return 8;
  }
  return 8;
}

namespace {

bool isPowerOfTwo(uint64_t n) { return n && !(n & (n - 1)); }

/// The most elements an ordinary program's array may have (--max-length).
constexpr uint64_t kMostLength = 1024;

/// Half a block's shared memory: the most a default network's stages hold.
constexpr uint64_t kHalfShared = 24 * 1024;

bool allIntegers(const ElementType &type) {
  return std::none_of(type.scalars.begin(), type.scalars.end(), isFloat);
}

//===----------------------------------------------------------------------===//
// Generation
//===----------------------------------------------------------------------===//

class Generator {
public:
  Generator(std::mt19937_64 &rng, const ElementType &type)
      : rng(rng), type(type) {
    // Seeded from a copy, so that the main stream is not drawn from.
    std::mt19937_64 copy = rng;
    uint64_t first = copy();
    storageRng.seed(first ^ 0x9E3779B97F4A7C15ull);
    differenceRng.seed(first ^ 0xD1B54A32D192ED03ull);
    boundsRng.seed(first ^ 0x2545F4914F6CDD1Dull);
  }

  std::vector<Step> steps(uint64_t length, unsigned depth) {
    std::vector<Step> result;
    unsigned count = uniform(0, depth == 0 ? 6 : 3);
    for (unsigned i = 0; i < count && budget > 0; ++i, --budget)
      result.push_back(step(length, depth));
    return result;
  }

private:
  uint64_t uniform(uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng); }

  Step step(uint64_t length, unsigned depth) {
    bool even = length % 2 == 0 && length >= 2;
    bool scalar = !type.isTuple();
    bool nest = depth < 3;
    // Kinds that fit this length and element type, with weights.
    std::vector<std::pair<Step::Kind, unsigned>> kinds = {{Step::Map, 4},
                                                          {Step::Rev, 2},
                                                          {Step::Permute, 2},
                                                          {Step::Sync, 6},
                                                          {Step::AddReduce, 1}};
    if (even)
      kinds.insert(kinds.end(), {{Step::Riffle, 2},
                                 {Step::Unriffle, 2},
                                 {Step::Evens, 3},
                                 {Step::Odds, 3},
                                 {Step::Fan, 3}});
    if (even && scalar)
      kinds.insert(kinds.end(), {{Step::PairSwap, 2}});
    if (scalar)
      kinds.insert(kinds.end(), {{Step::ZipRev, 1}});
    if (even && nest)
      kinds.insert(kinds.end(), {{Step::HalveConc, 1},
                                 {Step::Two, 3},
                                 {Step::Ilv, 2},
                                 {Step::One, 2}});
    if (nest)
      kinds.insert(kinds.end(), {{Step::Repeat, 1}});
    // A scatter is a stage at kernel level.
    if (depth == 0 && scalar && length > 0)
      kinds.insert(kinds.end(), {{Step::Scatter, 2}});
    // Networks need a power of two; without one, scans and sorts are a
    // per-element loop, quadratic or worse, so only small.
    bool network = isPowerOfTwo(length);
    if (network || length <= 32) {
      kinds.insert(kinds.end(), {{Step::Scan, 2}});
      if (allIntegers(type))
        kinds.insert(kinds.end(), {{Step::Sort, 2}});
    }
    unsigned total = 0;
    for (auto &[kind, weight] : kinds)
      total += weight;
    unsigned pick = uniform(0, total - 1);
    Step::Kind kind = kinds.front().first;
    for (auto &[k, weight] : kinds) {
      if (pick < weight) {
        kind = k;
        break;
      }
      pick -= weight;
    }

    Step s;
    s.kind = kind;
    s.variant = uniform(0, 3);
    s.a = static_cast<int64_t>(uniform(0, 6)) - 3;
    s.b = uniform(0, 1000);
    switch (kind) {
    case Step::HalveConc:
      s.body = steps(length / 2, depth + 1);
      s.secondBody = steps(length / 2, depth + 1);
      break;
    case Step::Two:
    case Step::Ilv:
    case Step::One:
      s.body = steps(length / 2, depth + 1);
      break;
    case Step::Repeat:
      s.a = uniform(0, 3);
      s.body = steps(length, depth + 1);
      break;
    case Step::Permute:
      s.a = 2 * uniform(0, 8) + 1; // odd: a permutation of a power of two
      s.b = uniform(0, length ? length - 1 : 0);
      break;
    case Step::Sync:
      if (chance(0.4)) {
        if (chance(0.4))
          s.scope = chance(0.7) ? "warp" : "block";
        if (chance(0.4))
          s.placement = chance(0.7) ? "inplace" : "fresh";
        // Registers and shuffles have no barrier and no buffer: a scope or
        // placement beside them is an error of the verifier's, not of the
        // proof. Drawn from a stream of its own, so that the rest of a
        // seed's program (and the seeds regressions.test replays) does not
        // change.
        if (s.scope.empty() && s.placement.empty() &&
            std::bernoulli_distribution(0.3)(storageRng)) {
          static const char *const storages[] = {"registers", "shuffle",
                                                 "shared"};
          s.storage =
              storages[std::discrete_distribution<int>({5, 3, 2})(storageRng)];
        }
        if (chance(0.5)) {
          static const uint64_t threads[] = {1,   16,  32,  64,
                                             100, 128, 256, 1024};
          uint64_t t = threads[uniform(0, 7)];
          switch (uniform(0, 2)) {
          case 0:
            s.how = "strided<" + std::to_string(t) + ">";
            break;
          case 1:
            s.how =
                "blocked<" + std::to_string(uint64_t(1) << uniform(0, 4)) + ">";
            break;
          default:
            s.how = "compact<" + std::to_string(t) + ">";
            break;
          }
        }
      }
      break;
    case Step::Scan:
    case Step::Sort:
      s.variant = network ? static_cast<int>(uniform(0, 3)) : 0;
      s.a = uniform(0, 3); // the combine
      // A scan without a network may fold a difference, which is not
      // associative: it keeps the fold's order (a chain, or block by
      // block). Drawn from a stream of its own, like the storages.
      if (s.kind == Step::Scan && s.variant == 0 &&
          std::bernoulli_distribution(0.25)(differenceRng))
        s.difference = true;
      break;
    case Step::AddReduce:
      s.variant = uniform(0, 1);
      break;
    case Step::Scatter:
      s.variant =
          uniform(isPowerOfTwo(length) ? 0 : 1, allIntegers(type) ? 2 : 1);
      s.a = s.variant == 0 ? 2 * uniform(0, 8) + 1 : uniform(0, 8);
      s.b = uniform(0, length - 1);
      break;
    default:
      break;
    }
    // One step in ten reads near or past the ends of an array, or is
    // otherwise unsafe whatever its plan, instead: drawn from a stream of
    // its own, after the step drew from the main one, so that the rest of
    // a seed's program does not change.
    if (std::bernoulli_distribution(0.1)(boundsRng))
      return boundsStep(length, depth, s);
    return s;
  }

  /// A step that reads near or past the ends of its array, writes a
  /// scatter's place twice, or holds a gpu op in its element code, in
  /// place of `drawn`. The unsafe ones only at kernel level, where every
  /// element is computed.
  Step boundsStep(uint64_t length, unsigned depth, const Step &drawn) {
    auto draw = [&](uint64_t lo, uint64_t hi) {
      return std::uniform_int_distribution<uint64_t>(lo, hi)(boundsRng);
    };
    bool top = depth == 0;
    bool integer = !type.isTuple() && allIntegers(type);
    Step s;
    switch (draw(0, 9)) {
    case 0:
      if (top && !type.isTuple() && length > 0) {
        s.kind = Step::Scatter;
        s.variant = 3;
        return s;
      }
      return drawn;
    case 1:
      if (!top)
        return drawn;
      s.kind = Step::RawGpu;
      s.variant = draw(0, 2);
      return s;
    case 2:
    case 3:
    case 4:
      if (!integer)
        return drawn;
      s.kind = Step::Gather;
      s.variant = draw(0, 1);
      return s;
    default:
      s.kind = Step::Neighbour;
      s.a = draw(0, 1) ? int64_t(draw(1, 2)) : -int64_t(draw(1, 2));
      s.variant = draw(0, top ? 2 : 1);
      return s;
    }
  }

  std::mt19937_64 &rng;
  /// Written storages' draws.
  std::mt19937_64 storageRng;
  /// Which scans without a network fold a difference.
  std::mt19937_64 differenceRng;
  /// Which steps read near or past the ends of an array instead.
  std::mt19937_64 boundsRng;
  const ElementType &type;
  unsigned budget = 14;
};

} // namespace

Program obs_fuzz::generateProgram(std::mt19937_64 &rng, uint64_t maxLength) {
  auto uniform = [&](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  // Seeded from a copy, so that the main stream is not drawn from.
  std::mt19937_64 longRng(std::mt19937_64(rng)() ^ 0x94D049BB133111EBull);
  std::mt19937_64 callRng(std::mt19937_64(rng)() ^ 0xA0761D6478BD642Full);
  Program program;
  unsigned maxLog = 0;
  while ((uint64_t(2) << maxLog) <= maxLength)
    ++maxLog;
  program.length = uniform(0, 9) < 7 ? uint64_t(1) << uniform(0, maxLog)
                                     : uniform(1, maxLength);
  static const Scalar scalars[] = {Scalar::I8, Scalar::I32, Scalar::I64,
                                   Scalar::F32, Scalar::F64};
  program.type.scalars.push_back(scalars[uniform(0, 4)]);
  if (uniform(0, 3) == 0)
    program.type.scalars.push_back(scalars[uniform(0, 4)]);
  if (uniform(0, 1)) {
    static const uint64_t threads[] = {1, 32, 64, 100, 128, 256, 512, 1024};
    program.threads = threads[uniform(0, 7)];
  }
  Generator generator(rng, program.type);
  program.steps = generator.steps(program.length, 0);
  // Launches over blocks, on memrefs of one scalar each.
  if (!program.type.isTuple() && program.length <= 512 && uniform(0, 9) < 3) {
    Launch launch;
    launch.kind = static_cast<Launch::Kind>(uniform(0, 2));
    launch.grid = uniform(1, 4);
    if (uniform(0, 1)) {
      launch.layouts = true;
      // Mostly permutations of the blocks (an odd multiplier with 1 to 4
      // blocks, but for 2 or 4 blocks with an even one, which is not).
      launch.inA = uniform(0, 4) ? 2 * uniform(0, 2) + 1 : uniform(0, 3);
      launch.outA = uniform(0, 4) ? 2 * uniform(0, 2) + 1 : uniform(0, 3);
      launch.inC = uniform(0, launch.grid - 1);
      launch.outC = uniform(0, launch.grid - 1);
      launch.inReversed = uniform(0, 1);
      launch.outReversed = uniform(0, 1);
    }
    // Views: the second starts where the first does, a chunk later, half
    // way, or past its end.
    uint64_t total = launch.grid * program.length;
    static const unsigned shifts[] = {0, 1, 2, 3};
    switch (shifts[uniform(0, 3)]) {
    case 0:
      launch.shift = 0;
      break;
    case 1:
      launch.shift = program.length;
      break;
    case 2:
      launch.shift = total / 2;
      break;
    default:
      launch.shift = total;
      break;
    }
    // Drawn last, so that the rest of a seed's program does not change.
    if (uniform(0, 3) == 0) {
      unsigned spread = uniform(1, isFloat(program.type.scalars[0]) ? 2 : 3);
      launch.spread = static_cast<Launch::Spread>(spread);
      launch.firstCombine = uniform(0, 1);
    }
    // One separate launch in three goes through a helper function (from a
    // stream of its own, like the long scans).
    if (launch.kind == Launch::Separate && launch.spread == Launch::NoSpread)
      launch.call = static_cast<Launch::Call>(
          std::discrete_distribution<int>({3, 1, 1, 1})(callRng));
    program.launch = launch;
  }
  // One program in 25 is a long scan instead (the program drawn above is
  // dropped, so that the main stream and the seed's later programs do not
  // change): a map, then a scan without a network (a third of them folding
  // a difference) of an array that takes more than half a block's shared
  // memory and at most all of it. No stage may hold it, so the scan takes
  // serial's checkpointed runs or the fold from its blocks' last elements.
  // Only where the longest ordinary array is the most one may be (at
  // --max-length=1024, the default), which a smaller bound asks to keep
  // short. Not i8 (more than 24,576 elements), and on 32 threads or more,
  // always written: as written, a kernel without `threads` has one per element,
  // more than a block may have, and on one thread every element would
  // fold its run, the whole array.
  auto longUniform = [&](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(longRng);
  };
  if (longUniform(0, 24) == 0 && maxLength >= kMostLength) {
    static const Scalar longScalars[] = {Scalar::I32, Scalar::I64, Scalar::F32,
                                         Scalar::F64};
    Scalar scalar = longScalars[longUniform(0, 3)];
    uint64_t bytes = bytesOf(scalar);
    Program scan;
    scan.type.scalars = {scalar};
    scan.length = longUniform(kHalfShared / bytes + 1, 2 * kHalfShared / bytes);
    static const uint64_t longThreads[] = {32, 64, 100, 128, 256, 512, 1024};
    scan.threads = longThreads[longUniform(0, 6)];
    Step map;
    map.kind = Step::Map;
    map.variant = longUniform(0, 3);
    map.a = static_cast<int64_t>(longUniform(0, 6)) - 3;
    map.b = longUniform(0, 1000);
    Step fold;
    fold.kind = Step::Scan;
    fold.a = longUniform(0, 3);
    fold.difference = longUniform(0, 2) == 0;
    scan.steps = {map, fold};
    return scan;
  }
  return program;
}

//===----------------------------------------------------------------------===//
// Reduction
//===----------------------------------------------------------------------===//

namespace {
/// Calls `each` with every way of simplifying one step of `steps` (and of
/// the steps nested in it), as the modified list.
void simplerLists(const std::vector<Step> &steps,
                  const std::function<void(std::vector<Step>)> &each) {
  for (size_t i = 0; i < steps.size(); ++i) {
    std::vector<Step> without(steps);
    without.erase(without.begin() + i);
    each(without);
    const Step &s = steps[i];
    if (s.kind == Step::Repeat && s.a > 0) {
      std::vector<Step> fewer(steps);
      fewer[i].a = s.a - 1;
      each(fewer);
    }
    if (s.kind == Step::Sync && (!s.scope.empty() || !s.placement.empty() ||
                                 !s.how.empty() || !s.storage.empty())) {
      std::vector<Step> plain(steps);
      plain[i].scope = plain[i].placement = plain[i].how = plain[i].storage =
          "";
      each(plain);
    }
    if ((s.kind == Step::Scan || s.kind == Step::Sort) && s.variant != 0) {
      // Keep the network; other variants of the step are not simpler.
    }
    simplerLists(s.body, [&](std::vector<Step> body) {
      std::vector<Step> copy(steps);
      copy[i].body = std::move(body);
      each(copy);
    });
    simplerLists(s.secondBody, [&](std::vector<Step> body) {
      std::vector<Step> copy(steps);
      copy[i].secondBody = std::move(body);
      each(copy);
    });
  }
}

unsigned countList(const std::vector<Step> &steps) {
  unsigned count = 0;
  for (const Step &s : steps)
    count += 1 + countList(s.body) + countList(s.secondBody);
  return count;
}
} // namespace

std::vector<Program> obs_fuzz::simplerPrograms(const Program &program) {
  std::vector<Program> result;
  simplerLists(program.steps, [&](std::vector<Step> steps) {
    Program copy(program);
    copy.steps = std::move(steps);
    result.push_back(std::move(copy));
  });
  if (program.threads) {
    Program copy(program);
    copy.threads.reset();
    result.push_back(std::move(copy));
  }
  if (program.type.isTuple() && !program.launch) {
    Program copy(program);
    copy.type.scalars.pop_back();
    result.push_back(std::move(copy));
  }
  if (program.launch) {
    Program alone(program);
    alone.launch.reset();
    result.push_back(std::move(alone));
    if (program.launch->call != Launch::NoCall) {
      Program direct(program);
      direct.launch->call = Launch::NoCall;
      result.push_back(std::move(direct));
    }
    if (program.launch->layouts) {
      Program chunks(program);
      chunks.launch->layouts = false;
      result.push_back(std::move(chunks));
    }
    if (program.launch->kind != Launch::Separate) {
      Program separate(program);
      separate.launch->kind = Launch::Separate;
      result.push_back(std::move(separate));
    }
    if (program.launch->spread != Launch::NoSpread) {
      Program gathered(program);
      gathered.launch->spread = Launch::NoSpread;
      result.push_back(std::move(gathered));
    }
    if (program.launch->grid > 1) {
      Program fewer(program);
      fewer.launch->grid = 1;
      fewer.launch->inC = fewer.launch->outC = 0;
      fewer.launch->shift = std::min(fewer.launch->shift, program.length);
      result.push_back(std::move(fewer));
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Work
//===----------------------------------------------------------------------===//

namespace {
/// Follows the cost of one element of the current array through the steps:
/// each step evaluates its element once and reads some elements of its
/// input, each of which costs what the input's element costs. `work` adds
/// up what syncs materialize. The per-element costs follow the cpu
/// lowering's emitElement (PullArrays.cpp).
class WorkEstimate {
public:
  static constexpr double kSaturation = 9.2e18; // about 2^63

  /// The cost of an element after `steps` on arrays of `length` elements,
  /// `copies` of them side by side (inside two and ilv), starting at
  /// `cost` per element.
  double steps(const std::vector<Step> &list, uint64_t length, double copies,
               double cost) {
    for (const Step &s : list)
      cost = step(s, length, copies, cost);
    return cost;
  }

  double work = 0;

private:
  double clamp(double x) { return std::min(x, kSaturation); }

  void materialize(double elements, double cost) {
    work = clamp(work + elements * cost);
  }

  double step(const Step &s, uint64_t length, double copies, double cost) {
    double n = static_cast<double>(length);
    switch (s.kind) {
    case Step::Map:
    case Step::Rev:
    case Step::Riffle:
    case Step::Unriffle:
    case Step::Permute:
    case Step::RawGpu:
      return clamp(cost + 1);
    case Step::Neighbour:
      // Synced: every element computed once.
      materialize(copies * n, cost + 1);
      return 1;
    case Step::Gather: // two reads: x[i], then the place it names
      return clamp(2 * cost + 1);
    case Step::Evens:
    case Step::Odds:
    case Step::Fan:
    case Step::PairSwap: // an unpaired element reads its pair: two elements
    case Step::ZipRev:
      return clamp(2 * cost + 1);
    case Step::HalveConc:
      return std::max(steps(s.body, length / 2, copies, cost),
                      steps(s.secondBody, length / 2, copies, cost));
    case Step::Two:
    case Step::Ilv:
      return steps(s.body, length / 2, 2 * copies, cost);
    case Step::One:
      return std::max(cost, steps(s.body, length / 2, copies, cost));
    case Step::Repeat:
      for (int64_t i = 0; i < s.a; ++i)
        cost = steps(s.body, length, copies, cost);
      return cost;
    case Step::Sync:
      materialize(copies * n, cost);
      return 1;
    case Step::Scatter:
      // The values and their places, then the buffer read back.
      materialize(copies * n, 2 * cost + 1);
      return 1;
    case Step::Scan:
    case Step::Sort: {
      if (s.variant != 0) {
        // Expanded: a first stage reads two elements per element, then
        // stages separated by syncs, about log2(n)^2 of them at most.
        double stages = std::max(1.0, std::log2(n));
        materialize(copies * n, 2 * cost + 1);
        materialize(copies * n * stages * stages, 3);
        return 3;
      }
      if (s.kind == Step::Scan) {
        // A scan without a network takes a default (obs-expand-networks),
        // never a fold from the start: its stages hold the array a few
        // times, and an element folds at most its block of 64 (a fold
        // kept in blocks) or 8 (from a checkpoint of its run), plus what
        // comes before.
        double reads = std::min(n, 64.0) + 1;
        materialize(copies * n, reads * cost);
        return clamp(reads * cost + 1);
      }
      // Sort: element i ranks every candidate against every element, n +
      // n^2 reads.
      return clamp((n + n * n) * cost + 1);
    }
    case Step::AddReduce:
      // x[i] + reduce(x): the reduction is emitted within the element.
      return clamp((n + 1) * cost + 2);
    }
    return cost;
  }
};
} // namespace

bool obs_fuzz::isLongScan(const Program &program) {
  uint64_t bytes = 0;
  for (Scalar scalar : program.type.scalars)
    bytes += bytesOf(scalar);
  return program.length * bytes > kHalfShared;
}

double obs_fuzz::estimateWork(const Program &program) {
  WorkEstimate estimate;
  double cost = estimate.steps(program.steps, program.length, 1, 1);
  double n = static_cast<double>(program.length);
  double blocks = program.launch ? program.launch->grid : 1;
  return std::min((estimate.work + n * cost) * blocks,
                  WorkEstimate::kSaturation);
}

unsigned obs_fuzz::countSteps(const Program &program) {
  return countList(program.steps);
}

static bool anyWritten(const std::vector<Step> &steps) {
  return std::any_of(steps.begin(), steps.end(), [](const Step &step) {
    return !step.scope.empty() || !step.placement.empty() ||
           !step.how.empty() || !step.storage.empty() ||
           anyWritten(step.body) || anyWritten(step.secondBody);
  });
}

static bool anyStep(const std::vector<Step> &steps, Step::Kind kind) {
  return std::any_of(steps.begin(), steps.end(), [&](const Step &s) {
    return s.kind == kind || anyStep(s.body, kind) ||
           anyStep(s.secondBody, kind);
  });
}

bool obs_fuzz::hasStep(const Program &program, Step::Kind kind) {
  return anyStep(program.steps, kind);
}

bool obs_fuzz::isUnsafe(const Program &program) {
  if (program.launch && program.launch->call == Launch::Aliased)
    return true;
  return std::any_of(program.steps.begin(), program.steps.end(),
                     [&](const Step &s) {
                       return (s.kind == Step::Neighbour && s.variant == 2) ||
                              (s.kind == Step::Scatter && s.variant == 3 &&
                               program.length >= 2) ||
                              s.kind == Step::RawGpu;
                     });
}

bool obs_fuzz::hasWrittenProperty(const Program &program) {
  return anyWritten(program.steps);
}
