//===- ProgramPrinter.cpp - obs-fuzz's programs as MLIR -------------------===//
//
// Prints a Program (ProgramGenerator.h) as MLIR text: the kernel @fuzz, each
// step as the obs ops it stands for, and the host function @launch (with its
// helpers) that launches it over blocks. Kept apart from the generation,
// which draws the steps, so that each file holds one concern.
//
//===----------------------------------------------------------------------===//

#include "ProgramGenerator.h"
#include <algorithm>
#include <sstream>

using namespace obs_fuzz;

namespace {

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

std::string obs_fuzz::printProgram(const Program &program) {
  return Printer(program).print();
}
