//===- ProgramGenerator.cpp - random well-typed obs kernels ---------------===//

#include "ProgramGenerator.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

using namespace obs_fuzz;

namespace {

bool isFloat(Scalar s) { return s == Scalar::F32 || s == Scalar::F64; }

const char *name(Scalar s) {
  switch (s) {
  case Scalar::I8:
    return "i8";
  case Scalar::I32:
    return "i32";
  case Scalar::I64:
    return "i64";
  case Scalar::F32:
    return "f32";
  case Scalar::F64:
    return "f64";
  }
  return "?";
}

bool isPowerOfTwo(uint64_t n) { return n && !(n & (n - 1)); }

uint64_t bytesOf(Scalar s) {
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

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

class Printer {
public:
  explicit Printer(const Program &program) : program(program) {}

  std::string print() {
    std::string arr = arrayType(program.length);
    os << "obs.kernel @fuzz(%input: " << arr << ") -> " << arr;
    if (program.threads)
      os << " attributes {threads = " << *program.threads << "}";
    os << " {\n";
    std::string result = steps(program.steps, "%input", program.length, 1);
    os << "  obs.return " << result << " : " << arr << "\n}\n";
    if (program.launch)
      printLaunch(*program.launch);
    return os.str();
  }

private:
  /// `@launch(%in, %out)`, which runs @fuzz over the launch's blocks.
  void printLaunch(const Launch &launch) {
    std::string arr = arrayType(program.length);
    std::string scalar = name(program.type.scalars[0]);
    uint64_t total = launch.grid * program.length;
    std::string memref = "memref<" + std::to_string(total) + "x" + scalar + ">";
    auto run = [&](const char *kernel, const std::string &in,
                   const std::string &out, bool laidOut) {
      os << "  obs.launch @" << kernel << " grid(" << launch.grid << ") ins("
         << in << " : " << memref << ") outs(" << out << " : " << memref << ")";
      if (laidOut && launch.layouts) {
        auto map = [&](uint64_t a, uint64_t c, bool reversed) {
          std::string element =
              reversed ? "(" + std::to_string(program.length - 1) + " - i)"
                       : std::string("i");
          return "affine_map<(b, i) -> (((b * " + std::to_string(a) + " + " +
                 std::to_string(c) + ") mod " + std::to_string(launch.grid) +
                 ") * " + std::to_string(program.length) + " + " + element +
                 ")>";
        };
        os << "\n      layouts ["
           << map(launch.inA, launch.inC, launch.inReversed) << ", "
           << map(launch.outA, launch.outC, launch.outReversed) << "]";
      }
      os << "\n";
    };
    if (launch.kind != Launch::Separate)
      os << "obs.kernel @fuzz_copy(%input: " << arr << ") -> " << arr
         << " {\n  obs.return %input : " << arr << "\n}\n";
    if (launch.spread != Launch::NoSpread)
      printSpread(launch, total);
    if (launch.kind == Launch::Separate && launch.call != Launch::NoCall) {
      // The helper launches from its argument into the global.
      os << "memref.global \"private\" @scratch : " << memref
         << " = uninitialized\n"
         << "func.func private @run(%in: " << memref << ") {\n"
         << "  %scratch = memref.get_global @scratch : " << memref << "\n";
      run("fuzz", "%in", "%scratch", true);
      os << "  return\n}\n";
    }
    os << "func.func @launch(%in: " << memref << ", %out: " << memref
       << ") {\n";
    // With a spread, the blocks' results go to %mid first.
    std::string out = "%out";
    if (launch.spread != Launch::NoSpread) {
      out = "%mid";
      os << "  %mid = memref.alloc() : " << memref << "\n";
    }
    switch (launch.kind) {
    case Launch::Separate:
      if (launch.call == Launch::NoCall) {
        run("fuzz", "%in", out, true);
        break;
      }
      // Through @run, into @scratch, then copied out.
      os << "  %scratch = memref.get_global @scratch : " << memref << "\n";
      if (launch.call == Launch::Aliased)
        os << "  memref.copy %in, %scratch : " << memref << " to " << memref
           << "\n";
      if (launch.call == Launch::Indirect)
        os << "  %run = func.constant @run : (" << memref << ") -> ()\n"
           << "  func.call_indirect %run(%in) : (" << memref << ") -> ()\n";
      else
        os << "  func.call @run("
           << (launch.call == Launch::Aliased ? "%scratch" : "%in") << ") : ("
           << memref << ") -> ()\n";
      os << "  memref.copy %scratch, " << out << " : " << memref << " to "
         << memref << "\n";
      break;
    case Launch::InPlace:
      run("fuzz_copy", "%in", out, false);
      run("fuzz", out, out, true);
      break;
    case Launch::Views: {
      uint64_t bytes = bytesOf(program.type.scalars[0]);
      os << "  %c0 = arith.constant 0 : index\n"
         << "  %shift = arith.constant " << launch.shift * bytes << " : index\n"
         << "  %bytes = memref.alloc() : memref<"
         << (total + launch.shift) * bytes << "xi8>\n"
         << "  %first = memref.view %bytes[%c0][] : memref<"
         << (total + launch.shift) * bytes << "xi8> to " << memref << "\n"
         << "  %second = memref.view %bytes[%shift][] : memref<"
         << (total + launch.shift) * bytes << "xi8> to " << memref << "\n";
      run("fuzz_copy", "%in", "%first", false);
      run("fuzz", "%first", "%second", true);
      run("fuzz_copy", "%second", out, false);
      os << "  memref.dealloc %bytes : memref<"
         << (total + launch.shift) * bytes << "xi8>\n";
      break;
    }
    }
    if (launch.spread != Launch::NoSpread) {
      os << "  obs.launch @fuzz_spread grid(" << launch.grid
         << ") ins(%mid : " << memref << ") outs(%out : " << memref << ")\n"
         << "  memref.dealloc %mid : " << memref << "\n";
    }
    os << "  return\n}\n";
  }

  /// `@fuzz_spread`, which scatters a block's `program.length` elements
  /// into the launch's output of `total` (see Launch::Spread).
  void printSpread(const Launch &launch, uint64_t total) {
    std::string arr = arrayType(program.length);
    Scalar scalar = program.type.scalars[0];
    std::string places = arrayType(program.length, "i32");
    std::string result = arrayType(total);
    os << "obs.kernel @fuzz_spread(%x: " << arr << ") -> " << result
       << " attributes {threads = " << std::min<uint64_t>(program.length, 128)
       << "} {\n";
    std::string p = "%p";
    if (launch.spread == Launch::Data) {
      p = valuesAsPlaces("%x", arr, scalar, program.length, 1);
    } else {
      // g, the element's place in the whole launch.
      os << "  %p = obs.generate : " << places << " {\n"
         << "  ^bb0(%i: index):\n"
         << "    %b = obs.block_id\n"
         << "    %length = arith.constant " << program.length << " : index\n"
         << "    %base = arith.muli %b, %length : index\n"
         << "    %g = arith.addi %base, %i : index\n";
      if (launch.spread == Launch::Reverse)
        os << "    %last = arith.constant " << total - 1 << " : index\n"
           << "    %q = arith.subi %last, %g : index\n";
      else
        os << "    %third = arith.constant " << std::max<uint64_t>(total / 3, 1)
           << " : index\n"
           << "    %q = arith.remui %g, %third : index\n";
      os << "    %place = arith.index_cast %q : index to i32\n"
         << "    obs.yield %place : i32\n  }\n";
    }
    os << "  %y = obs.scatter %x at " << p;
    if (launch.spread != Launch::Reverse)
      os << " combine(" << orderFreeCombine(scalar, launch.firstCombine) << ")";
    os << " global : " << arr << ", " << places << " -> " << result << "\n"
       << "  obs.return %y : " << result << "\n}\n";
  }

  std::string fresh(const char *prefix = "v") {
    return "%" + std::string(prefix) + std::to_string(next++);
  }
  std::string elementType() const {
    if (!program.type.isTuple())
      return name(program.type.scalars[0]);
    std::string text = "tuple<";
    for (size_t i = 0; i < program.type.scalars.size(); ++i)
      text += (i ? ", " : "") + std::string(name(program.type.scalars[i]));
    return text + ">";
  }
  std::string arrayType(uint64_t length, std::string element = "") const {
    return "!obs.arr<" + std::to_string(length) + " x " +
           (element.empty() ? elementType() : element) + ">";
  }
  /// An obs.map of `x` (an array `arr` of `length` scalars) to i32 places,
  /// the values themselves (sign-extended or truncated); returns its name.
  std::string valuesAsPlaces(const std::string &x, const std::string &arr,
                             Scalar scalar, uint64_t length, unsigned indent) {
    std::string places = fresh(), v = fresh("v"), p = v;
    os << pad(indent) << places << " = obs.map " << x << " : " << arr << " -> "
       << arrayType(length, "i32") << " {\n";
    os << pad(indent) << "^bb0(" << v << ": " << name(scalar) << "):\n";
    if (scalar != Scalar::I32) {
      p = fresh("i");
      os << pad(indent + 1) << p << " = arith."
         << (scalar == Scalar::I8 ? "extsi " : "trunci ") << v << " : "
         << name(scalar) << " to i32\n";
    }
    yield({p}, indent + 1, "i32");
    os << pad(indent) << "}\n";
    return places;
  }

  /// A combine whose result does not depend on the order of the collisions:
  /// integer add (`first`) or max, float max (`first`) or min.
  static const char *orderFreeCombine(Scalar scalar, bool first) {
    if (isFloat(scalar))
      return first ? "max" : "min";
    return first ? "add" : "max";
  }

  std::string pad(unsigned indent) const {
    return std::string(2 * indent, ' ');
  }
  const std::vector<Scalar> &scalars() const { return program.type.scalars; }
  std::string scalarList() const {
    std::string text;
    for (size_t i = 0; i < scalars().size(); ++i)
      text += (i ? ", " : "") + std::string(name(scalars()[i]));
    return text;
  }

  /// Block arguments for `count` elements: names and "(%x0: i32, ...)".
  std::vector<std::string> arguments(unsigned count, std::string &header) {
    std::vector<std::string> names;
    header = "^bb0(";
    for (unsigned e = 0; e < count; ++e)
      for (Scalar s : scalars()) {
        std::string n = fresh("x");
        header += (names.empty() ? "" : ", ") + n + ": " + name(s);
        names.push_back(n);
      }
    header += "):";
    return names;
  }

  std::string constant(Scalar s, int64_t value, unsigned indent) {
    std::string n = fresh("c");
    os << pad(indent) << n << " = arith.constant " << value
       << (isFloat(s) ? ".0" : "") << " : " << name(s) << "\n";
    return n;
  }

  /// y = f(x) by a loop whose trip count depends on x (an scf.while):
  /// for integers, x xor the count of unsigned halvings that bring x to at
  /// most 1; for floats, x halved while above `a`, at most 8 times.
  std::string dataLoop(Scalar s, std::string x, int64_t a, unsigned indent) {
    std::string t = name(s), v = fresh(), n = fresh(), r = fresh("r");
    std::string bv = fresh(), bn = fresh(), go = fresh("b");
    if (!isFloat(s)) {
      std::string zero = constant(s, 0, indent), one = constant(s, 1, indent);
      os << pad(indent) << r << ":2 = scf.while (" << v << " = " << x << ", "
         << n << " = " << zero << ") : (" << t << ", " << t << ") -> (" << t
         << ", " << t << ") {\n";
      os << pad(indent + 1) << go << " = arith.cmpi ugt, " << v << ", " << one
         << " : " << t << "\n";
      os << pad(indent + 1) << "scf.condition(" << go << ") " << v << ", " << n
         << " : " << t << ", " << t << "\n";
      os << pad(indent) << "} do {\n";
      os << pad(indent) << "^bb0(" << bv << ": " << t << ", " << bn << ": " << t
         << "):\n";
      std::string half = fresh(), count = fresh();
      os << pad(indent + 1) << half << " = arith.shrui " << bv << ", " << one
         << " : " << t << "\n";
      os << pad(indent + 1) << count << " = arith.addi " << bn << ", " << one
         << " : " << t << "\n";
      os << pad(indent + 1) << "scf.yield " << half << ", " << count << " : "
         << t << ", " << t << "\n";
      os << pad(indent) << "}\n";
      std::string y = fresh();
      os << pad(indent) << y << " = arith.xori " << x << ", " << r
         << "#1 : " << t << "\n";
      return y;
    }
    std::string zero = fresh("c"), most = fresh("c"),
                limit = constant(s, a, indent);
    os << pad(indent) << zero << " = arith.constant 0 : i32\n";
    os << pad(indent) << most << " = arith.constant 8 : i32\n";
    os << pad(indent) << r << ":2 = scf.while (" << v << " = " << x << ", " << n
       << " = " << zero << ") : (" << t << ", i32) -> (" << t << ", i32) {\n";
    std::string above = fresh("b"), room = fresh("b");
    os << pad(indent + 1) << above << " = arith.cmpf ogt, " << v << ", "
       << limit << " : " << t << "\n";
    os << pad(indent + 1) << room << " = arith.cmpi slt, " << n << ", " << most
       << " : i32\n";
    os << pad(indent + 1) << go << " = arith.andi " << above << ", " << room
       << " : i1\n";
    os << pad(indent + 1) << "scf.condition(" << go << ") " << v << ", " << n
       << " : " << t << ", i32\n";
    os << pad(indent) << "} do {\n";
    os << pad(indent) << "^bb0(" << bv << ": " << t << ", " << bn
       << ": i32):\n";
    std::string halfConstant = fresh("c"), one = fresh("c"), half = fresh(),
                count = fresh();
    os << pad(indent + 1) << halfConstant << " = arith.constant 0.5 : " << t
       << "\n";
    os << pad(indent + 1) << one << " = arith.constant 1 : i32\n";
    os << pad(indent + 1) << half << " = arith.mulf " << bv << ", "
       << halfConstant << " : " << t << "\n";
    os << pad(indent + 1) << count << " = arith.addi " << bn << ", " << one
       << " : i32\n";
    os << pad(indent + 1) << "scf.yield " << half << ", " << count << " : " << t
       << ", i32\n";
    os << pad(indent) << "}\n";
    return r + "#0";
  }

  /// y = f(x) on one scalar: the map's functions.
  std::string unary(Scalar s, std::string x, int variant, int64_t a,
                    unsigned indent) {
    std::string y = fresh();
    if (isFloat(s)) {
      switch (variant) {
      case 0: {
        std::string c = constant(s, a, indent);
        os << pad(indent) << y << " = arith.addf " << x << ", " << c << " : "
           << name(s) << "\n";
        break;
      }
      case 1: {
        std::string c = fresh("c");
        os << pad(indent) << c << " = arith.constant -0.5 : " << name(s)
           << "\n";
        os << pad(indent) << y << " = arith.mulf " << x << ", " << c << " : "
           << name(s) << "\n";
        break;
      }
      case 2:
        os << pad(indent) << y << " = arith.negf " << x << " : " << name(s)
           << "\n";
        break;
      default: {
        std::string c = constant(s, a, indent);
        os << pad(indent) << y << " = arith.maximumf " << x << ", " << c
           << " : " << name(s) << "\n";
        break;
      }
      }
      return y;
    }
    static const char *ops[] = {"addi", "muli", "xori", "maxsi"};
    std::string c =
        constant(s, variant == 1 ? (a == 0 ? 3 : a) : a * 7 + 1, indent);
    os << pad(indent) << y << " = arith." << ops[variant] << " " << x << ", "
       << c << " : " << name(s) << "\n";
    return y;
  }

  /// z = x op y on one scalar: an associative combine (exactly, for
  /// floats: max and min). With `floatSums`, variants 2 and 3 of a float
  /// are a sum, whose rounding follows the association: a scan's network
  /// (the serial default's where none is named), which ref follows too.
  std::string combine(Scalar s, std::string x, std::string y, int variant,
                      unsigned indent, bool floatSums = false) {
    std::string z = fresh();
    const char *op;
    if (isFloat(s))
      op = floatSums && variant >= 2 ? "addf"
           : variant % 2             ? "minimumf"
                                     : "maximumf";
    else {
      static const char *ops[] = {"addi", "xori", "maxsi", "minsi"};
      op = ops[variant % 4];
    }
    os << pad(indent) << z << " = arith." << op << " " << x << ", " << y
       << " : " << name(s) << "\n";
    return z;
  }

  /// Whether x precedes y: by the first scalar, then the second.
  std::string less(const std::vector<std::string> &x,
                   const std::vector<std::string> &y, unsigned indent) {
    std::string result;
    for (size_t i = scalars().size(); i-- > 0;) {
      Scalar s = scalars()[i];
      std::string lt = fresh("b");
      os << pad(indent) << lt << " = arith."
         << (isFloat(s) ? "cmpf olt, " : "cmpi slt, ") << x[i] << ", " << y[i]
         << " : " << name(s) << "\n";
      if (result.empty()) {
        result = lt;
        continue;
      }
      std::string eq = fresh("b"), tie = fresh("b"), either = fresh("b");
      os << pad(indent) << eq << " = arith."
         << (isFloat(s) ? "cmpf oeq, " : "cmpi eq, ") << x[i] << ", " << y[i]
         << " : " << name(s) << "\n";
      os << pad(indent) << tie << " = arith.andi " << eq << ", " << result
         << " : i1\n";
      os << pad(indent) << either << " = arith.ori " << lt << ", " << tie
         << " : i1\n";
      result = either;
    }
    return result;
  }

  void yield(const std::vector<std::string> &values, unsigned indent,
             const std::string &types) {
    os << pad(indent) << "obs.yield ";
    for (size_t i = 0; i < values.size(); ++i)
      os << (i ? ", " : "") << values[i];
    os << " : " << types << "\n";
  }

  /// Opens `y = obs.generate : type` whose element i computes the position
  /// j = (a i + b) mod length of step `s`, and returns j's name; the caller
  /// yields the element and closes the region.
  std::string affinePosition(const std::string &y, const std::string &type,
                             const Step &s, uint64_t length, unsigned indent) {
    os << pad(indent) << y << " = obs.generate : " << type << " {\n";
    std::string i = fresh("i"), a = fresh("c"), b = fresh("c"), n = fresh("c"),
                ai = fresh("i"), sum = fresh("i"), j = fresh("i");
    os << pad(indent) << "^bb0(" << i << ": index):\n";
    os << pad(indent + 1) << a << " = arith.constant " << s.a << " : index\n";
    os << pad(indent + 1) << b << " = arith.constant " << s.b << " : index\n";
    os << pad(indent + 1) << n << " = arith.constant " << length
       << " : index\n";
    os << pad(indent + 1) << ai << " = arith.muli " << i << ", " << a
       << " : index\n";
    os << pad(indent + 1) << sum << " = arith.addi " << ai << ", " << b
       << " : index\n";
    os << pad(indent + 1) << j << " = arith.remui " << sum << ", " << n
       << " : index\n";
    return j;
  }

  /// Step::Neighbour: element i is x[i + a], clamped, wrapped or as it
  /// is; the result synced, so that every element is computed.
  std::string neighbour(const Step &s, const std::string &x, uint64_t length,
                        unsigned indent) {
    std::string arr = arrayType(length), y = fresh(), z = fresh();
    std::string i = fresh("i"), c = fresh("c"), n = fresh("c"),
                sum = fresh("i"), j = fresh("i");
    uint64_t distance = static_cast<uint64_t>(s.a < 0 ? -s.a : s.a);
    os << pad(indent) << y << " = obs.generate : " << arr << " {\n";
    os << pad(indent) << "^bb0(" << i << ": index):\n";
    unsigned in = indent + 1;
    os << pad(in) << c << " = arith.constant " << distance << " : index\n";
    os << pad(in) << n << " = arith.constant " << length << " : index\n";
    if (s.variant == 1) {
      // (i + a) mod N, as i + (N + a mod N) for a negative a.
      uint64_t shift = s.a > 0 ? distance : length - distance % length;
      std::string k = fresh("c"), t = fresh("i");
      os << pad(in) << k << " = arith.constant " << shift << " : index\n";
      os << pad(in) << t << " = arith.addi " << i << ", " << k << " : index\n";
      os << pad(in) << j << " = arith.remui " << t << ", " << n << " : index\n";
    } else if (s.a > 0) {
      os << pad(in) << sum << " = arith.addi " << i << ", " << c
         << " : index\n";
      if (s.variant == 0) {
        std::string last = fresh("c"), past = fresh("b");
        os << pad(in) << last << " = arith.constant " << length - 1
           << " : index\n";
        os << pad(in) << past << " = arith.cmpi ugt, " << sum << ", " << last
           << " : index\n";
        os << pad(in) << j << " = arith.select " << past << ", " << last << ", "
           << sum << " : index\n";
      } else {
        j = sum;
      }
    } else {
      os << pad(in) << sum << " = arith.subi " << i << ", " << c
         << " : index\n";
      if (s.variant == 0) {
        std::string zero = fresh("c"), before = fresh("b");
        os << pad(in) << zero << " = arith.constant 0 : index\n";
        os << pad(in) << before << " = arith.cmpi ult, " << i << ", " << c
           << " : index\n";
        os << pad(in) << j << " = arith.select " << before << ", " << zero
           << ", " << sum << " : index\n";
      } else {
        j = sum;
      }
    }
    yield(indexOf(x, arr, j, in), in, scalarList());
    os << pad(indent) << "}\n";
    os << pad(indent) << z << " = obs.sync " << y << " : " << arr << "\n";
    return z;
  }

  /// Step::Gather: element i is x[x[i]], the place wrapped into the array
  /// or not.
  std::string gather(const Step &s, const std::string &x, uint64_t length,
                     unsigned indent) {
    std::string arr = arrayType(length), y = fresh();
    std::string i = fresh("i"), q = fresh("i"), j = q;
    Scalar scalar = scalars().front();
    os << pad(indent) << y << " = obs.generate : " << arr << " {\n";
    os << pad(indent) << "^bb0(" << i << ": index):\n";
    unsigned in = indent + 1;
    std::string v = indexOf(x, arr, i, in).front();
    os << pad(in) << q << " = arith.index_cast " << v << " : " << name(scalar)
       << " to index\n";
    if (s.variant == 0) {
      std::string n = fresh("c"), r = fresh("i"), t = fresh("i");
      j = fresh("i");
      os << pad(in) << n << " = arith.constant " << length << " : index\n";
      os << pad(in) << r << " = arith.remsi " << q << ", " << n << " : index\n";
      os << pad(in) << t << " = arith.addi " << r << ", " << n << " : index\n";
      os << pad(in) << j << " = arith.remui " << t << ", " << n << " : index\n";
    }
    yield(indexOf(x, arr, j, in), in, scalarList());
    os << pad(indent) << "}\n";
    return y;
  }

  /// Step::RawGpu: a map that yields its element unchanged, beside a gpu
  /// op that element code may not hold.
  std::string rawGpu(const Step &s, const std::string &x, uint64_t length,
                     unsigned indent) {
    std::string arr = arrayType(length), y = fresh(), header;
    os << pad(indent) << y << " = obs.map " << x << " : " << arr << " -> "
       << arr << " {\n";
    std::vector<std::string> in = arguments(1, header);
    os << pad(indent) << header << "\n";
    unsigned body = indent + 1;
    std::string r = fresh("g");
    if (s.variant == 0) {
      os << pad(body) << r << " = gpu.thread_id x\n";
    } else if (s.variant == 1) {
      os << pad(body) << r << " = gpu.block_id x\n";
    } else {
      std::string one = fresh("c"), width = fresh("c"), ok = fresh("b");
      os << pad(body) << one << " = arith.constant 1 : i32\n";
      os << pad(body) << width << " = arith.constant 32 : i32\n";
      os << pad(body) << r << ", " << ok << " = gpu.shuffle xor " << one << ", "
         << one << ", " << width << " : i32\n";
    }
    yield(in, body, scalarList());
    os << pad(indent) << "}\n";
    return y;
  }

  /// `obs.index x[j]` of an array `arr`: the names of its scalars.
  std::vector<std::string> indexOf(const std::string &x, const std::string &arr,
                                   const std::string &j, unsigned indent) {
    std::vector<std::string> values;
    for (size_t k = 0; k < scalars().size(); ++k)
      values.push_back(fresh());
    os << pad(indent);
    for (size_t k = 0; k < values.size(); ++k)
      os << (k ? ", " : "") << values[k];
    os << " = obs.index " << x << "[" << j << "] : " << arr << "\n";
    return values;
  }

  std::string steps(const std::vector<Step> &list, std::string value,
                    uint64_t length, unsigned indent) {
    for (const Step &s : list)
      value = step(s, value, length, indent);
    return value;
  }

  std::string step(const Step &s, const std::string &x, uint64_t length,
                   unsigned indent) {
    std::string arr = arrayType(length), half = arrayType(length / 2);
    std::string y = fresh();
    switch (s.kind) {
    case Step::Map:
      return mapStep(s, x, y, arr, indent);
    case Step::Rev:
    case Step::Riffle:
    case Step::Unriffle:
      os << pad(indent) << y << " = obs."
         << (s.kind == Step::Rev      ? "rev"
             : s.kind == Step::Riffle ? "riffle"
                                      : "unriffle")
         << " " << x << " : " << arr << "\n";
      return y;
    case Step::Evens:
    case Step::Odds:
      return evensOddsStep(s, x, y, arr, indent);
    case Step::Fan:
      return fanStep(s, x, y, arr, indent);
    case Step::PairSwap:
      return pairSwapStep(s, x, y, arr, length, indent);
    case Step::ZipRev:
      return zipRevStep(s, x, y, arr, length, indent);
    case Step::HalveConc:
    case Step::Two:
    case Step::Ilv:
    case Step::One:
    case Step::Repeat:
      return nestedStep(s, x, y, arr, half, length, indent);
    case Step::Permute: {
      std::string j = affinePosition(y, arr, s, length, indent);
      yield(indexOf(x, arr, j, indent + 1), indent + 1, scalarList());
      os << pad(indent) << "}\n";
      return y;
    }
    case Step::Scatter:
      return scatterStep(s, x, y, arr, length, indent);
    case Step::Neighbour:
      return neighbour(s, x, length, indent);
    case Step::Gather:
      return gather(s, x, length, indent);
    case Step::RawGpu:
      return rawGpu(s, x, length, indent);
    case Step::Sync:
      os << pad(indent) << y << " = obs.sync ";
      if (!s.scope.empty())
        os << s.scope << " ";
      if (!s.placement.empty())
        os << s.placement << " ";
      if (!s.how.empty())
        os << s.how << " ";
      if (!s.storage.empty())
        os << s.storage << " ";
      os << x << " : " << arr << "\n";
      return y;
    case Step::Scan:
    case Step::Sort:
      return scanSortStep(s, x, y, arr, indent);
    case Step::AddReduce:
      return addReduceStep(s, x, y, arr, indent);
    }
    return x;
  }

  /// Prints a Map step: `y = obs.map x`, whose block applies a unary
  /// function (or a loop of data-dependent trip count) to each scalar.
  std::string mapStep(const Step &s, const std::string &x, const std::string &y,
                      const std::string &arr, unsigned indent) {
    std::string header;
    os << pad(indent) << y << " = obs.map " << x << " : " << arr << " -> "
       << arr << " {\n";
    std::vector<std::string> in = arguments(1, header);
    os << pad(indent) << header << "\n";
    std::vector<std::string> out;
    bool swap =
        scalars().size() == 2 && scalars()[0] == scalars()[1] && s.b % 3 == 0;
    // One map in five loops a number of times that depends on the data.
    bool loops = s.b % 5 == 4;
    for (size_t i = 0; i < in.size(); ++i) {
      std::string operand = swap ? in[1 - i] : in[i];
      out.push_back(
          loops ? dataLoop(scalars()[i], operand, s.a, indent + 1)
                : unary(scalars()[i], operand, s.variant, s.a, indent + 1));
    }
    yield(out, indent + 1, scalarList());
    os << pad(indent) << "}\n";
    return y;
  }

  /// Prints an Evens or Odds step, whose block maps a pair of elements to
  /// a pair: a compare-and-swap, or (x op y, f(x)).
  std::string evensOddsStep(const Step &s, const std::string &x,
                            const std::string &y, const std::string &arr,
                            unsigned indent) {
    std::string header;
    os << pad(indent) << y << " = obs."
       << (s.kind == Step::Evens ? "evens" : "odds") << " " << x << " : " << arr
       << " {\n";
    std::vector<std::string> in = arguments(2, header);
    os << pad(indent) << header << "\n";
    size_t w = scalars().size();
    std::vector<std::string> first(in.begin(), in.begin() + w);
    std::vector<std::string> second(in.begin() + w, in.end());
    std::vector<std::string> out;
    if (s.variant % 2 == 0) {
      // cmpSwap: the pair in order.
      std::string swap = less(second, first, indent + 1);
      for (size_t i = 0; i < w; ++i) {
        std::string lo = fresh();
        os << pad(indent + 1) << lo << " = arith.select " << swap << ", "
           << second[i] << ", " << first[i] << " : " << name(scalars()[i])
           << "\n";
        out.push_back(lo);
      }
      for (size_t i = 0; i < w; ++i) {
        std::string hi = fresh();
        os << pad(indent + 1) << hi << " = arith.select " << swap << ", "
           << first[i] << ", " << second[i] << " : " << name(scalars()[i])
           << "\n";
        out.push_back(hi);
      }
    } else {
      // (x op y, f(x)).
      for (size_t i = 0; i < w; ++i)
        out.push_back(
            combine(scalars()[i], first[i], second[i], s.a & 3, indent + 1));
      for (size_t i = 0; i < w; ++i)
        out.push_back(
            unary(scalars()[i], first[i], s.variant, s.a, indent + 1));
    }
    yield(out, indent + 1, scalarList() + ", " + scalarList());
    os << pad(indent) << "}\n";
    return y;
  }

  /// Prints a Fan step, whose block combines each element with the first
  /// half's matching one.
  std::string fanStep(const Step &s, const std::string &x, const std::string &y,
                      const std::string &arr, unsigned indent) {
    std::string header;
    os << pad(indent) << y << " = obs.fan " << x << " : " << arr << " {\n";
    std::vector<std::string> in = arguments(2, header);
    os << pad(indent) << header << "\n";
    size_t w = scalars().size();
    std::vector<std::string> out;
    for (size_t i = 0; i < w; ++i)
      out.push_back(
          combine(scalars()[i], in[i], in[w + i], s.variant, indent + 1));
    yield(out, indent + 1, scalarList());
    os << pad(indent) << "}\n";
    return y;
  }

  /// Prints a PairSwap step: `obs.pair`, a map over the pairs that swaps
  /// and combines them, and `obs.unpair`.
  std::string pairSwapStep(const Step &s, const std::string &x,
                           const std::string &y, const std::string &arr,
                           uint64_t length, unsigned indent) {
    std::string header;
    std::string t = name(scalars()[0]);
    std::string pairs = arrayType(length / 2, "tuple<" + t + ", " + t + ">");
    std::string p = fresh(), m = fresh();
    os << pad(indent) << p << " = obs.pair " << x << " : " << arr << "\n";
    os << pad(indent) << m << " = obs.map " << p << " : " << pairs << " -> "
       << pairs << " {\n";
    std::vector<std::string> in = arguments(1, header);
    // A pair of scalars: the block takes two.
    std::string second = fresh("x");
    header.insert(header.size() - 2, ", " + second + ": " + t);
    os << pad(indent) << header << "\n";
    std::string z = combine(scalars()[0], in[0], second, s.variant, indent + 1);
    yield({second, z}, indent + 1, t + ", " + t);
    os << pad(indent) << "}\n";
    os << pad(indent) << y << " = obs.unpair " << m << " : " << pairs << "\n";
    return y;
  }

  /// Prints a ZipRev step: the array zipped with its reverse, and a map
  /// that combines each pair.
  std::string zipRevStep(const Step &s, const std::string &x,
                         const std::string &y, const std::string &arr,
                         uint64_t length, unsigned indent) {
    std::string header;
    std::string t = name(scalars()[0]);
    std::string pairs = arrayType(length, "tuple<" + t + ", " + t + ">");
    std::string r = fresh(), z = fresh();
    os << pad(indent) << r << " = obs.rev " << x << " : " << arr << "\n";
    os << pad(indent) << z << " = obs.zip " << x << ", " << r << " : " << arr
       << ", " << arr << "\n";
    os << pad(indent) << y << " = obs.map " << z << " : " << pairs << " -> "
       << arr << " {\n";
    std::vector<std::string> in = arguments(1, header);
    std::string second = fresh("x");
    header.insert(header.size() - 2, ", " + second + ": " + t);
    os << pad(indent) << header << "\n";
    yield({combine(scalars()[0], in[0], second, s.variant, indent + 1)},
          indent + 1, t);
    os << pad(indent) << "}\n";
    return y;
  }

  /// Prints a step with nested steps: HalveConc, Two, Ilv, One or Repeat.
  std::string nestedStep(const Step &s, const std::string &x,
                         const std::string &y, const std::string &arr,
                         const std::string &half, uint64_t length,
                         unsigned indent) {
    if (s.kind == Step::HalveConc) {
      std::string lo = fresh(), hi = fresh();
      os << pad(indent) << lo << ", " << hi << " = obs.halve " << x << " : "
         << arr << "\n";
      std::string lo2 = steps(s.body, lo, length / 2, indent);
      std::string hi2 = steps(s.secondBody, hi, length / 2, indent);
      os << pad(indent) << y << " = obs.conc " << lo2 << ", " << hi2 << " : "
         << half << ", " << half << "\n";
      return y;
    }
    if (s.kind == Step::Repeat) {
      std::string iteration = fresh("p");
      os << pad(indent) << y << " = obs.repeat " << s.a << " " << x << " : "
         << arr << " {\n";
      os << pad(indent) << "^bb0(" << iteration << ": " << arr << "):\n";
      std::string r = steps(s.body, iteration, length, indent + 1);
      os << pad(indent + 1) << "obs.yield " << r << " : " << arr << "\n";
      os << pad(indent) << "}\n";
      return y;
    }
    std::string part = fresh("p");
    os << pad(indent) << y << " = obs."
       << (s.kind == Step::Two   ? "two"
           : s.kind == Step::Ilv ? "ilv"
                                 : "one")
       << " " << x << " : " << arr << " -> " << arr << " {\n";
    os << pad(indent) << "^bb0(" << part << ": " << half << "):\n";
    std::string r = steps(s.body, part, length / 2, indent + 1);
    os << pad(indent + 1) << "obs.yield " << r << " : " << half << "\n";
    os << pad(indent) << "}\n";
    return y;
  }

  /// Prints a Scatter step: the places (affine, or the values themselves)
  /// and `obs.scatter`, with an order-free combine for some variants.
  std::string scatterStep(const Step &s, const std::string &x,
                          const std::string &y, const std::string &arr,
                          uint64_t length, unsigned indent) {
    Scalar scalar = scalars().front();
    std::string places, placesType = arrayType(length, "i32");
    if (s.variant == 2) {
      // The places are the values themselves.
      places = valuesAsPlaces(x, arr, scalar, length, indent);
    } else {
      places = fresh();
      // Variant 3: i mod ceil(N / 2), each place twice.
      Step affine = s;
      uint64_t modulus = length;
      if (s.variant == 3) {
        affine.a = 1;
        affine.b = 0;
        modulus = (length + 1) / 2;
      }
      std::string j =
          affinePosition(places, placesType, affine, modulus, indent);
      std::string p = fresh("i");
      os << pad(indent + 1) << p << " = arith.index_cast " << j
         << " : index to i32\n";
      yield({p}, indent + 1, "i32");
      os << pad(indent) << "}\n";
    }
    // Combines whose result does not depend on the order of the
    // collisions: integer add and max, float max and min.
    std::string combine;
    if (s.variant == 1 || s.variant == 2)
      combine = orderFreeCombine(scalar, s.b % 2);
    os << pad(indent) << y << " = obs.scatter " << x << " at " << places;
    if (!combine.empty())
      os << " combine(" << combine << ")";
    os << " initial(" << (isFloat(scalar) ? "0.0" : "0") << " : "
       << name(scalar) << ") : " << arr << ", " << placesType << " -> " << arr
       << "\n";
    return y;
  }

  /// Prints a Scan or Sort step, with its network if it names one: a scan's
  /// block combines (or subtracts) two elements, a sort's compares them.
  std::string scanSortStep(const Step &s, const std::string &x,
                           const std::string &y, const std::string &arr,
                           unsigned indent) {
    std::string header;
    bool scan = s.kind == Step::Scan;
    static const char *scans[] = {"", "sklansky", "kogge_stone", "brent_kung"};
    static const char *sorts[] = {"", "periodic", "odd_even_merge", "bitonic"};
    const char *network = (scan ? scans : sorts)[s.variant];
    os << pad(indent) << y << " = obs." << (scan ? "scan " : "sort ") << x;
    if (*network)
      os << " network(" << network << ")";
    os << " : " << arr << " {\n";
    std::vector<std::string> in = arguments(2, header);
    os << pad(indent) << header << "\n";
    size_t w = scalars().size();
    std::vector<std::string> first(in.begin(), in.begin() + w);
    std::vector<std::string> second(in.begin() + w, in.end());
    if (scan) {
      std::vector<std::string> out;
      for (size_t i = 0; i < w; ++i) {
        if (s.difference) {
          std::string z = fresh();
          os << pad(indent + 1) << z << " = arith."
             << (isFloat(scalars()[i]) ? "subf " : "subi ") << first[i] << ", "
             << second[i] << " : " << name(scalars()[i]) << "\n";
          out.push_back(z);
          continue;
        }
        out.push_back(combine(scalars()[i], first[i], second[i], s.a,
                              indent + 1, /*floatSums=*/true));
      }
      yield(out, indent + 1, scalarList());
    } else {
      yield({less(first, second, indent + 1)}, indent + 1, "i1");
    }
    os << pad(indent) << "}\n";
    return y;
  }

  /// Prints an AddReduce step: `obs.reduce` summing the array, and a map
  /// that adds the sums to each element.
  std::string addReduceStep(const Step &s, const std::string &x,
                            const std::string &y, const std::string &arr,
                            unsigned indent) {
    std::string header;
    std::vector<std::string> sums;
    for (size_t k = 0; k < scalars().size(); ++k)
      sums.push_back(fresh("r"));
    os << pad(indent);
    for (size_t k = 0; k < sums.size(); ++k)
      os << (k ? ", " : "") << sums[k];
    os << " = obs.reduce " << x << (s.variant ? " network(tree)" : "") << " : "
       << arr << " -> " << scalarList() << " {\n";
    std::vector<std::string> in = arguments(2, header);
    os << pad(indent) << header << "\n";
    size_t w = scalars().size();
    std::vector<std::string> out;
    for (size_t i = 0; i < w; ++i) {
      std::string z = fresh();
      os << pad(indent + 1) << z << " = arith."
         << (isFloat(scalars()[i]) ? "addf " : "addi ") << in[i] << ", "
         << in[w + i] << " : " << name(scalars()[i]) << "\n";
      out.push_back(z);
    }
    yield(out, indent + 1, scalarList());
    os << pad(indent) << "}\n";
    os << pad(indent) << y << " = obs.map " << x << " : " << arr << " -> "
       << arr << " {\n";
    std::vector<std::string> element = arguments(1, header);
    os << pad(indent) << header << "\n";
    for (size_t i = 0; i < w; ++i) {
      std::string z = fresh();
      os << pad(indent + 1) << z << " = arith."
         << (isFloat(scalars()[i]) ? "addf " : "addi ") << element[i] << ", "
         << sums[i] << " : " << name(scalars()[i]) << "\n";
      out[i] = z;
    }
    yield(out, indent + 1, scalarList());
    os << pad(indent) << "}\n";
    return y;
  }

  const Program &program;
  std::ostringstream os;
  unsigned next = 0;
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

std::string obs_fuzz::printProgram(const Program &program) {
  return Printer(program).print();
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
