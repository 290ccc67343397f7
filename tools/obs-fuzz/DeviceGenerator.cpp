//===- DeviceGenerator.cpp - random device-level obs programs -------------===//

#include "DeviceGenerator.h"
#include "Obs/Support/StableSort.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <sstream>

using namespace obs_fuzz;

namespace {

/// The combines of scans and reductions, on integers: each associative, and
/// exact in every order (wrapping).
enum IntegerCombine { Add, Mul, Xor, And, Or, MaxS, MinS, MaxU, MinU };
constexpr int kIntegerCombines = 9;
/// On floats: maxima and minima only, which no association rounds.
enum FloatCombine { Maximum, Minimum };
constexpr int kFloatCombines = 2;

/// The functions of maps.
enum MapFunction {
  // Integers to the same type.
  Affine,  // 3 x + 1
  Xor85,   // x xor 85
  SubFrom, // 7 - x
  Abs,     // x < 0 ? 0 - x : x
  // Integers to another type.
  ExtS,  // to a wider integer
  Trunc, // to a narrower integer
  ToFloat,
  // Floats to the same type.
  Twice, // x * 2
  Negate,
  Relu, // maximumf(x, 0)
  // Floats to another type.
  ExtF,
  TruncF,
  ToInteger, // fptosi of x clamped to [-1e6, 1e6]
};

/// The comparisons of sorts: `less(a, b)` is `a P b`, or `b P a` swapped.
enum Comparison { Less, LessUnsigned, Greater, GreaterUnsigned };

unsigned getBits(DeviceScalar scalar) {
  switch (scalar) {
  case DeviceScalar::I8:
    return 8;
  case DeviceScalar::I16:
    return 16;
  case DeviceScalar::I32:
  case DeviceScalar::F32:
    return 32;
  case DeviceScalar::I64:
  case DeviceScalar::F64:
    return 64;
  }
  return 0;
}

DeviceScalar integerOfBits(unsigned bits) {
  switch (bits) {
  case 8:
    return DeviceScalar::I8;
  case 16:
    return DeviceScalar::I16;
  case 32:
    return DeviceScalar::I32;
  default:
    return DeviceScalar::I64;
  }
}

/// `value` wrapped to `scalar`'s width, sign-extended.
int64_t wrap(uint64_t value, DeviceScalar scalar) {
  unsigned shift = 64 - getBits(scalar);
  return static_cast<int64_t>(value << shift) >> shift;
}

uint64_t unsignedOf(int64_t value, DeviceScalar scalar) {
  unsigned bits = getBits(scalar);
  return bits == 64
             ? static_cast<uint64_t>(value)
             : static_cast<uint64_t>(value) & ((uint64_t(1) << bits) - 1);
}

double roundTo(double value, DeviceScalar scalar) {
  return scalar == DeviceScalar::F32
             ? static_cast<double>(static_cast<float>(value))
             : value;
}

/// IEEE 754-2019 maximum and minimum, as arith.maximumf and minimumf: -0 is
/// below +0, and a NaN wins.
double maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

int64_t combineIntegers(int combine, int64_t a, int64_t b,
                        DeviceScalar scalar) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (combine) {
  case Add:
    return wrap(ua + ub, scalar);
  case Mul:
    return wrap(ua * ub, scalar);
  case Xor:
    return a ^ b;
  case And:
    return a & b;
  case Or:
    return a | b;
  case MaxS:
    return std::max(a, b);
  case MinS:
    return std::min(a, b);
  case MaxU:
    return unsignedOf(a, scalar) >= unsignedOf(b, scalar) ? a : b;
  case MinU:
    return unsignedOf(a, scalar) <= unsignedOf(b, scalar) ? a : b;
  }
  return 0;
}

int64_t integerIdentity(int combine, DeviceScalar scalar) {
  unsigned bits = getBits(scalar);
  int64_t most = bits == 64 ? std::numeric_limits<int64_t>::max()
                            : (int64_t(1) << (bits - 1)) - 1;
  switch (combine) {
  case Mul:
    return 1;
  case And:
  case MinU:
    return -1;
  case MaxS:
    return -most - 1;
  case MinS:
    return most;
  default:
    return 0;
  }
}

const char *integerCombineOp(int combine) {
  static const char *names[] = {"arith.addi",  "arith.muli",  "arith.xori",
                                "arith.andi",  "arith.ori",   "arith.maxsi",
                                "arith.minsi", "arith.maxui", "arith.minui"};
  return names[combine];
}

/// The op of a combine of the menu on `scalar`.
const char *combineOp(int combine, DeviceScalar scalar) {
  if (isFloat(scalar))
    return combine == Maximum ? "arith.maximumf" : "arith.minimumf";
  return integerCombineOp(combine);
}

/// A float's identity for maxima (-inf) or minima (+inf), as the bits MLIR
/// reads after a hexadecimal literal.
std::string floatIdentity(int combine, DeviceScalar scalar) {
  bool f32 = scalar == DeviceScalar::F32;
  if (combine == Maximum)
    return f32 ? "0xFF800000" : "0xFFF0000000000000";
  return f32 ? "0x7F800000" : "0x7FF0000000000000";
}

bool compare(int comparison, bool swapped, bool merge, const DeviceArray &array,
             uint64_t i, uint64_t j) {
  if (swapped)
    std::swap(i, j);
  if (isFloat(array.type)) {
    double a = array.reals[i], b = array.reals[j];
    // olt and ult agree without NaNs (the programs make none).
    return comparison == Less || comparison == LessUnsigned ? a < b : a > b;
  }
  int64_t a = array.integers[i], b = array.integers[j];
  // 85 has no bit above the lowest byte's: the sign stays.
  if (merge) {
    a ^= 85;
    b ^= 85;
  }
  uint64_t ua = unsignedOf(a, array.type), ub = unsignedOf(b, array.type);
  switch (comparison) {
  case Less:
    return a < b;
  case LessUnsigned:
    return ua < ub;
  case Greater:
    return a > b;
  default:
    return ua > ub;
  }
}

const char *comparisonText(int comparison, bool isFloatKey) {
  static const char *integers[] = {"arith.cmpi slt", "arith.cmpi ult",
                                   "arith.cmpi sgt", "arith.cmpi ugt"};
  static const char *floats[] = {"arith.cmpf olt", "arith.cmpf ult",
                                 "arith.cmpf ogt", "arith.cmpf ugt"};
  // On floats, LessUnsigned and GreaterUnsigned are the unordered forms.
  return isFloatKey ? floats[comparison] : integers[comparison];
}

/// The element type a map gives.
DeviceScalar mapResult(const DeviceStep &step, DeviceScalar from) {
  switch (step.variant) {
  case ExtS:
  case Trunc:
  case ToFloat:
  case ExtF:
  case TruncF:
  case ToInteger:
    return step.to;
  default:
    return from;
  }
}

/// The element type after `step`.
DeviceScalar stepResult(const DeviceStep &step, DeviceScalar from) {
  if (step.kind == DeviceStep::Map)
    return mapResult(step, from);
  if (step.kind == DeviceStep::ArgSort && !step.flag)
    return DeviceScalar::I32;
  return from;
}

} // namespace

uint64_t DeviceArray::size() const {
  return isFloat(type) ? reals.size() : integers.size();
}

bool obs_fuzz::isFloat(DeviceScalar scalar) {
  return scalar == DeviceScalar::F32 || scalar == DeviceScalar::F64;
}

const char *obs_fuzz::getName(DeviceScalar scalar) {
  static const char *names[] = {"i8", "i16", "i32", "i64", "f32", "f64"};
  return names[static_cast<int>(scalar)];
}

DeviceProgram obs_fuzz::generateDeviceProgram(std::mt19937_64 &rng) {
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  // Which steps run in place is drawn from a stream of its own, seeded
  // from a copy, so that the rest of a seed's programs stays as it was.
  std::mt19937_64 copy = rng;
  std::mt19937_64 inPlaceRng(copy() ^ 0x9E3779B97F4A7C15ull);
  // So are the sorts that merge, and the ops that helpers hold.
  std::mt19937_64 mergeRng(copy() ^ 0xD1B54A32D192ED03ull);
  std::mt19937_64 placementRng(copy() ^ 0x94D049BB133111EBull);
  // And the maps that take a reduction's result as a broadcast scalar.
  std::mt19937_64 broadcastRng(copy() ^ 0xBF58476D1CE4E5B9ull);
  DeviceProgram program;
  program.input = static_cast<DeviceScalar>(uniform(0, 5));
  DeviceScalar current = program.input;
  int64_t count = uniform(1, 3);
  for (int64_t s = 0; s < count; ++s) {
    bool last = s + 1 == count;
    bool floating = isFloat(current);
    DeviceStep step;
    int64_t roll = uniform(0, 99);
    if (roll < 30)
      step.kind = DeviceStep::Scan;
    else if (roll < 50)
      step.kind = DeviceStep::Sort;
    else if (roll < 70)
      step.kind = DeviceStep::Map;
    else if (roll < 80)
      step.kind = DeviceStep::ArgSort;
    else if (roll < 90)
      step.kind = floating ? DeviceStep::Scan : DeviceStep::SegmentedScan;
    else
      step.kind = last ? DeviceStep::Reduce : DeviceStep::Scan;
    switch (step.kind) {
    case DeviceStep::Scan:
    case DeviceStep::Reduce:
      step.variant = static_cast<int>(
          uniform(0, (floating ? kFloatCombines : kIntegerCombines) - 1));
      step.exclusive = uniform(0, 1);
      break;
    case DeviceStep::Sort:
    case DeviceStep::ArgSort:
      step.variant = static_cast<int>(uniform(0, 3));
      step.flag = uniform(0, 1);
      step.merge = !floating && std::bernoulli_distribution(0.35)(mergeRng);
      break;
    case DeviceStep::SegmentedScan:
      break;
    case DeviceStep::Map: {
      unsigned bits = getBits(current);
      if (!floating) {
        std::vector<MapFunction> choices = {Affine, Xor85, SubFrom, Abs,
                                            ToFloat};
        if (bits < 64)
          choices.push_back(ExtS);
        if (bits > 8)
          choices.push_back(Trunc);
        step.variant = choices[uniform(0, choices.size() - 1)];
        if (step.variant == ExtS)
          step.to = integerOfBits(bits << uniform(1, bits == 32   ? 1
                                                     : bits == 16 ? 2
                                                                  : 3));
        else if (step.variant == Trunc)
          step.to = integerOfBits(bits >> uniform(1, bits == 16   ? 1
                                                     : bits == 32 ? 2
                                                                  : 3));
        else if (step.variant == ToFloat)
          step.to = uniform(0, 1) ? DeviceScalar::F32 : DeviceScalar::F64;
      } else {
        std::vector<MapFunction> choices = {Twice, Negate, Relu, ToInteger,
                                            bits == 32 ? ExtF : TruncF};
        step.variant = choices[uniform(0, choices.size() - 1)];
        if (step.variant == ExtF)
          step.to = DeviceScalar::F64;
        else if (step.variant == TruncF)
          step.to = DeviceScalar::F32;
        else if (step.variant == ToInteger)
          step.to = uniform(0, 1) ? DeviceScalar::I32 : DeviceScalar::I64;
      }
      break;
    }
    }
    // In place where the step reads an allocation (not the entry's
    // input, which every pipeline runs on again) and keeps its type.
    bool keepsType = stepResult(step, current) == current &&
                     step.kind != DeviceStep::Reduce &&
                     (step.kind != DeviceStep::ArgSort || step.flag);
    if (s > 0 && keepsType && std::bernoulli_distribution(0.4)(inPlaceRng))
      step.inPlace = true;
    // One op in four that allocates nothing of its own stands in a helper.
    bool self = step.kind == DeviceStep::Map || step.kind == DeviceStep::Scan ||
                step.kind == DeviceStep::Sort ||
                step.kind == DeviceStep::Reduce;
    int64_t where = std::uniform_int_distribution<int64_t>(0, 7)(placementRng);
    if (self && where < 2)
      step.placement = where == 0 ? DeviceStep::Call : DeviceStep::IndirectCall;
    // Two maps in five in @entry combine each element with the
    // reduction of their input, broadcast.
    if (step.kind == DeviceStep::Map && step.placement == DeviceStep::Inline &&
        std::bernoulli_distribution(0.4)(broadcastRng))
      step.broadcast = std::uniform_int_distribution<int>(
          0, (floating ? kFloatCombines : kIntegerCombines) - 1)(broadcastRng);
    current = stepResult(step, current);
    program.steps.push_back(step);
  }
  // Lengths: tiny ones, around the tiles (1 to 4 times 2^8 to 2^15, one
  // either side: up to 2^17 + 1), and up to 300,000.
  for (int k = 0; k < 3; ++k) {
    switch (uniform(0, 3)) {
    case 0:
      program.lengths.push_back(uniform(0, 3));
      break;
    case 1:
      program.lengths.push_back(uniform(4, 700));
      break;
    case 2:
      program.lengths.push_back((uniform(1, 4) << uniform(8, 15)) +
                                uniform(-1, 1));
      break;
    default:
      program.lengths.push_back(uniform(700, 300000));
      break;
    }
  }
  return program;
}

DeviceScalar obs_fuzz::getOutputType(const DeviceProgram &program) {
  DeviceScalar current = program.input;
  for (const DeviceStep &step : program.steps)
    current = stepResult(step, current);
  return current;
}

bool obs_fuzz::reducesToOne(const DeviceProgram &program) {
  return !program.steps.empty() &&
         program.steps.back().kind == DeviceStep::Reduce;
}

namespace {

/// Prints a program's entry, one step after another.
class DevicePrinter {
public:
  explicit DevicePrinter(const DeviceProgram &program) : program(program) {}
  std::string print();

private:
  std::string fresh(const std::string &stem) {
    return "%" + stem + std::to_string(counter++);
  }
  static std::string memref(DeviceScalar scalar) {
    return std::string("memref<?x") + getName(scalar) + ">";
  }
  std::string alloc(DeviceScalar scalar) {
    std::string name = fresh("a");
    os << "  " << name << " = memref.alloc(%n) : " << memref(scalar) << "\n";
    allocations.push_back({name, scalar});
    return name;
  }
  void printMapBody(const DeviceStep &step, DeviceScalar from, DeviceScalar to);
  void printCombine(int combine, DeviceScalar scalar);
  void printStep(const DeviceStep &step, DeviceScalar from,
                 const std::string &source, const std::string &destination,
                 const std::string &destinationType);
  /// The step as a helper function of its own (`step.placement`), and its
  /// call from @entry.
  void printCalledStep(const DeviceStep &step, DeviceScalar from,
                       const std::string &source,
                       const std::string &destination,
                       const std::string &destinationType);

  const DeviceProgram &program;
  std::ostringstream os;
  /// The helper functions, printed after @entry.
  std::string helpers;
  unsigned counter = 0;
  std::vector<std::pair<std::string, DeviceScalar>> allocations;
};

void DevicePrinter::printMapBody(const DeviceStep &step, DeviceScalar from,
                                 DeviceScalar to) {
  const char *t = getName(from);
  if (step.broadcast >= 0) {
    // The element combined with the broadcast reduction first.
    os << "  ^bb0(%e: " << t << ", %s: " << t << "):\n";
    os << "    %x = " << combineOp(step.broadcast, from) << " %e, %s : " << t
       << "\n";
  } else {
    os << "  ^bb0(%x: " << t << "):\n";
  }
  auto constant = [&](const std::string &name, const std::string &value,
                      const char *type) {
    os << "    " << name << " = arith.constant " << value << " : " << type
       << "\n";
  };
  switch (step.variant) {
  case Affine:
    constant("%c3", "3", t);
    constant("%c1", "1", t);
    os << "    %m = arith.muli %x, %c3 : " << t << "\n";
    os << "    %y = arith.addi %m, %c1 : " << t << "\n";
    break;
  case Xor85:
    constant("%c", "85", t);
    os << "    %y = arith.xori %x, %c : " << t << "\n";
    break;
  case SubFrom:
    constant("%c", "7", t);
    os << "    %y = arith.subi %c, %x : " << t << "\n";
    break;
  case Abs:
    constant("%zero", "0", t);
    os << "    %minus = arith.subi %zero, %x : " << t << "\n";
    os << "    %negative = arith.cmpi slt, %x, %zero : " << t << "\n";
    os << "    %y = arith.select %negative, %minus, %x : " << t << "\n";
    break;
  case ExtS:
  case Trunc:
  case ToFloat:
  case ExtF:
  case TruncF: {
    const char *cast = step.variant == ExtS      ? "extsi"
                       : step.variant == Trunc   ? "trunci"
                       : step.variant == ToFloat ? "sitofp"
                       : step.variant == ExtF    ? "extf"
                                                 : "truncf";
    os << "    %y = arith." << cast << " %x : " << t << " to " << getName(to)
       << "\n";
    break;
  }
  case Twice:
    constant("%c", "2.0", t);
    os << "    %y = arith.mulf %x, %c : " << t << "\n";
    break;
  case Negate:
    os << "    %y = arith.negf %x : " << t << "\n";
    break;
  case Relu:
    constant("%zero", "0.0", t);
    os << "    %y = arith.maximumf %x, %zero : " << t << "\n";
    break;
  case ToInteger:
    constant("%low", "-1.0e6", t);
    constant("%high", "1.0e6", t);
    os << "    %above = arith.maximumf %x, %low : " << t << "\n";
    os << "    %clamped = arith.minimumf %above, %high : " << t << "\n";
    os << "    %y = arith.fptosi %clamped : " << t << " to " << getName(to)
       << "\n";
    break;
  }
  os << "    obs.yield %y : " << getName(to) << "\n  }\n";
}

void DevicePrinter::printCombine(int combine, DeviceScalar scalar) {
  const char *t = getName(scalar);
  os << "  ^bb0(%a: " << t << ", %b: " << t << "):\n";
  os << "    %r = " << combineOp(combine, scalar) << " %a, %b : " << t << "\n";
  os << "    obs.yield %r : " << t << "\n  }\n";
}

void DevicePrinter::printStep(const DeviceStep &step, DeviceScalar from,
                              const std::string &source,
                              const std::string &destination,
                              const std::string &destinationType) {
  const char *t = getName(from);
  std::string sourceType = memref(from);
  auto identity = [&](int combine) {
    return isFloat(from) ? floatIdentity(combine, from)
                         : std::to_string(integerIdentity(combine, from));
  };
  switch (step.kind) {
  case DeviceStep::Map: {
    std::string reduced;
    if (step.broadcast >= 0) {
      reduced = fresh("r");
      os << "  " << reduced << " = memref.alloc() : memref<1x" << t << ">\n";
      os << "  obs.device_reduce ins(" << source << " : " << sourceType
         << ") outs(" << reduced << " : memref<1x" << t
         << ">)\n      identity [" << identity(step.broadcast) << " : " << t
         << "] {\n";
      printCombine(step.broadcast, from);
    }
    os << "  obs.device_map ins(" << source << " : " << sourceType << ")";
    if (step.broadcast >= 0)
      os << " scalars(" << reduced << " : memref<1x" << t << ">)";
    os << " outs(" << destination << " : " << destinationType << ") {\n";
    printMapBody(step, from, mapResult(step, from));
    if (step.broadcast >= 0)
      os << "  memref.dealloc " << reduced << " : memref<1x" << t << ">\n";
    return;
  }
  case DeviceStep::Scan:
    os << "  obs.device_scan " << (step.exclusive ? "exclusive" : "inclusive")
       << " ins(" << source << " : " << sourceType << ") outs(" << destination
       << " : " << destinationType << ")\n      identity ["
       << identity(step.variant) << " : " << t << "] {\n";
    printCombine(step.variant, from);
    return;
  case DeviceStep::Reduce:
    os << "  obs.device_reduce ins(" << source << " : " << sourceType
       << ") outs(" << destination << " : " << destinationType
       << ")\n      identity [" << identity(step.variant) << " : " << t
       << "] {\n";
    printCombine(step.variant, from);
    return;
  case DeviceStep::SegmentedScan: {
    std::string heads = alloc(DeviceScalar::I8);
    std::string scannedHeads = alloc(DeviceScalar::I8);
    os << "  obs.device_map ins(" << source << " : " << sourceType << ") outs("
       << heads << " : memref<?xi8>) {\n";
    os << "  ^bb0(%x: " << t << "):\n";
    os << "    %c10 = arith.constant 10 : " << t << "\n";
    os << "    %zero = arith.constant 0 : " << t << "\n";
    os << "    %r = arith.remsi %x, %c10 : " << t << "\n";
    os << "    %head = arith.cmpi eq, %r, %zero : " << t << "\n";
    os << "    %flag = arith.extui %head : i1 to i8\n";
    os << "    obs.yield %flag : i8\n  }\n";
    os << "  obs.device_scan inclusive ins(" << heads << ", " << source
       << " : memref<?xi8>, " << sourceType << ")\n      outs(" << scannedHeads
       << ", " << destination << " : memref<?xi8>, " << destinationType
       << ")\n      identity [0 : i8, 0 : " << t << "] {\n";
    os << "  ^bb0(%h1: i8, %v1: " << t << ", %h2: i8, %v2: " << t << "):\n";
    os << "    %zero = arith.constant 0 : i8\n";
    os << "    %h = arith.ori %h1, %h2 : i8\n";
    os << "    %restart = arith.cmpi ne, %h2, %zero : i8\n";
    os << "    %sum = arith.addi %v1, %v2 : " << t << "\n";
    os << "    %v = arith.select %restart, %v2, %sum : " << t << "\n";
    os << "    obs.yield %h, %v : i8, " << t << "\n  }\n";
    return;
  }
  case DeviceStep::Sort:
  case DeviceStep::ArgSort: {
    bool argSort = step.kind == DeviceStep::ArgSort;
    std::string positions, keys = destination, sortedPositions;
    if (argSort) {
      std::string ones = alloc(DeviceScalar::I32);
      positions = alloc(DeviceScalar::I32);
      os << "  obs.device_map ins(" << source << " : " << sourceType
         << ") outs(" << ones << " : memref<?xi32>) {\n";
      os << "  ^bb0(%x: " << t << "):\n";
      os << "    %one = arith.constant 1 : i32\n";
      os << "    obs.yield %one : i32\n  }\n";
      os << "  obs.device_scan exclusive ins(" << ones
         << " : memref<?xi32>) outs(" << positions
         << " : memref<?xi32>)\n      identity [0 : i32] {\n";
      printCombine(Add, DeviceScalar::I32);
      // The output is the keys (flag) or the positions.
      if (step.flag) {
        sortedPositions = alloc(DeviceScalar::I32);
      } else {
        keys = alloc(from);
        sortedPositions = destination;
      }
    }
    std::string a = "%k1", b = "%k2";
    if (step.flag && !argSort)
      std::swap(a, b);
    os << "  obs.device_sort ins(" << source;
    if (argSort)
      os << ", " << positions;
    os << " : " << sourceType << (argSort ? ", memref<?xi32>" : "") << ") outs("
       << keys;
    if (argSort)
      os << ", " << sortedPositions;
    os << " : " << sourceType << (argSort ? ", memref<?xi32>" : "") << ") {\n";
    if (argSort)
      os << "  ^bb0(%k1: " << t << ", %p1: i32, %k2: " << t << ", %p2: i32):\n";
    else
      os << "  ^bb0(%k1: " << t << ", %k2: " << t << "):\n";
    if (step.merge) {
      // Keys xor 85: not one comparison of the keys, so a merge sort.
      os << "    %mask = arith.constant 85 : " << t << "\n";
      os << "    %m1 = arith.xori " << a << ", %mask : " << t << "\n";
      os << "    %m2 = arith.xori " << b << ", %mask : " << t << "\n";
      a = "%m1";
      b = "%m2";
    }
    os << "    %less = " << comparisonText(step.variant, isFloat(from)) << ", "
       << a << ", " << b << " : " << t << "\n";
    os << "    obs.yield %less : i1\n  }\n";
    return;
  }
  }
}

std::string DevicePrinter::print() {
  DeviceScalar output = getOutputType(program);
  std::string outputType =
      reducesToOne(program) ? std::string("memref<1x") + getName(output) + ">"
                            : memref(output);
  os << "func.func @entry(%in: " << memref(program.input)
     << ", %out: " << outputType << ") {\n";
  os << "  %c0 = arith.constant 0 : index\n";
  os << "  %n = memref.dim %in, %c0 : " << memref(program.input) << "\n";
  std::string source = "%in";
  DeviceScalar current = program.input;
  for (size_t s = 0; s < program.steps.size(); ++s) {
    const DeviceStep &step = program.steps[s];
    DeviceScalar next = stepResult(step, current);
    bool last = s + 1 == program.steps.size();
    std::string destination = step.inPlace ? source
                              : last       ? "%out"
                                           : alloc(next);
    std::string destinationType =
        last && !step.inPlace ? outputType : memref(next);
    if (step.placement == DeviceStep::Inline)
      printStep(step, current, source, destination, destinationType);
    else
      printCalledStep(step, current, source, destination, destinationType);
    if (last && step.inPlace)
      os << "  memref.copy " << source << ", %out : " << memref(next) << " to "
         << outputType << "\n";
    source = destination;
    current = next;
  }
  for (auto &[name, scalar] : allocations)
    os << "  memref.dealloc " << name << " : " << memref(scalar) << "\n";
  os << "  return\n}\n" << helpers;
  return os.str();
}

void DevicePrinter::printCalledStep(const DeviceStep &step, DeviceScalar from,
                                    const std::string &source,
                                    const std::string &destination,
                                    const std::string &destinationType) {
  // In place, the helper takes one memref (two arguments over one
  // allocation are refused: a helper's arguments are distinct memory).
  bool inPlace = source == destination;
  std::string name = "@step" + std::to_string(counter++);
  std::string signature =
      "(" + memref(from) + (inPlace ? "" : ", " + destinationType) + ") -> ()";
  std::string operands = source + (inPlace ? "" : ", " + destination);
  std::ostringstream entry;
  std::swap(os, entry);
  os << "func.func private " << name << "(%src: " << memref(from);
  if (!inPlace)
    os << ", %dst: " << destinationType;
  os << ") {\n";
  printStep(step, from, "%src", inPlace ? "%src" : "%dst", destinationType);
  os << "  return\n}\n";
  helpers += os.str();
  std::swap(os, entry);
  if (step.placement == DeviceStep::Call) {
    os << "  call " << name << "(" << operands << ") : " << signature << "\n";
    return;
  }
  std::string callee = fresh("f");
  os << "  " << callee << " = func.constant " << name << " : " << signature
     << "\n";
  os << "  func.call_indirect " << callee << "(" << operands
     << ") : " << signature << "\n";
}

} // namespace

std::string obs_fuzz::printDeviceProgram(const DeviceProgram &program) {
  return DevicePrinter(program).print();
}

namespace {

DeviceArray emptyOf(DeviceScalar scalar, uint64_t length) {
  DeviceArray array;
  array.type = scalar;
  if (isFloat(scalar))
    array.reals.resize(length);
  else
    array.integers.resize(length);
  return array;
}

DeviceArray applyMap(const DeviceStep &step, const DeviceArray &x) {
  DeviceScalar to = mapResult(step, x.type);
  DeviceArray y = emptyOf(to, x.size());
  for (uint64_t i = 0; i < x.size(); ++i) {
    switch (step.variant) {
    case Affine:
      y.integers[i] = wrap(static_cast<uint64_t>(x.integers[i]) * 3 + 1, to);
      break;
    case Xor85:
      y.integers[i] = x.integers[i] ^ 85;
      break;
    case SubFrom:
      y.integers[i] = wrap(7 - static_cast<uint64_t>(x.integers[i]), to);
      break;
    case Abs:
      y.integers[i] = x.integers[i] < 0
                          ? wrap(0 - static_cast<uint64_t>(x.integers[i]), to)
                          : x.integers[i];
      break;
    case ExtS:
      y.integers[i] = x.integers[i];
      break;
    case Trunc:
      y.integers[i] = wrap(static_cast<uint64_t>(x.integers[i]), to);
      break;
    case ToFloat:
      // One rounding, from the integer (not through a double).
      y.reals[i] = to == DeviceScalar::F32
                       ? static_cast<double>(static_cast<float>(x.integers[i]))
                       : static_cast<double>(x.integers[i]);
      break;
    case Twice:
      y.reals[i] = roundTo(x.reals[i] * 2, to);
      break;
    case Negate:
      y.reals[i] = -x.reals[i];
      break;
    case Relu:
      y.reals[i] = maximum(x.reals[i], 0.0);
      break;
    case ExtF:
      y.reals[i] = x.reals[i];
      break;
    case TruncF:
      y.reals[i] = roundTo(x.reals[i], to);
      break;
    case ToInteger: {
      double clamped = minimum(maximum(x.reals[i], -1.0e6), 1.0e6);
      y.integers[i] = static_cast<int64_t>(std::trunc(clamped));
      break;
    }
    }
  }
  return y;
}

DeviceArray applyScan(int combine, bool exclusive, const DeviceArray &x) {
  DeviceArray y = emptyOf(x.type, x.size());
  if (isFloat(x.type)) {
    double folded = combine == Maximum ? -INFINITY : INFINITY;
    for (uint64_t i = 0; i < x.size(); ++i) {
      double next = combine == Maximum ? maximum(folded, x.reals[i])
                                       : minimum(folded, x.reals[i]);
      y.reals[i] = exclusive ? folded : next;
      folded = next;
    }
    return y;
  }
  int64_t folded = integerIdentity(combine, x.type);
  for (uint64_t i = 0; i < x.size(); ++i) {
    int64_t next = combineIntegers(combine, folded, x.integers[i], x.type);
    y.integers[i] = exclusive ? folded : next;
    folded = next;
  }
  return y;
}

/// Every element of `x` combined with the fold of all of them (the
/// identity for none): `x[i] ⊕ r`.
DeviceArray combineWithReduction(int combine, const DeviceArray &x) {
  DeviceArray all = applyScan(combine, /*exclusive=*/false, x);
  DeviceArray y = emptyOf(x.type, x.size());
  for (uint64_t i = 0; i < x.size(); ++i) {
    if (isFloat(x.type))
      y.reals[i] = combine == Maximum ? maximum(x.reals[i], all.reals.back())
                                      : minimum(x.reals[i], all.reals.back());
    else
      y.integers[i] =
          combineIntegers(combine, x.integers[i], all.integers.back(), x.type);
  }
  return y;
}

} // namespace

DeviceArray obs_fuzz::evaluateDeviceProgram(const DeviceProgram &program,
                                            DeviceArray x) {
  for (const DeviceStep &step : program.steps) {
    switch (step.kind) {
    case DeviceStep::Map:
      if (step.broadcast >= 0)
        x = combineWithReduction(step.broadcast, x);
      x = applyMap(step, x);
      break;
    case DeviceStep::Scan:
      x = applyScan(step.variant, step.exclusive, x);
      break;
    case DeviceStep::Reduce: {
      DeviceArray all = applyScan(step.variant, /*exclusive=*/false, x);
      DeviceArray one = emptyOf(x.type, 1);
      if (isFloat(x.type))
        one.reals[0] = all.size()                ? all.reals.back()
                       : step.variant == Maximum ? -INFINITY
                                                 : INFINITY;
      else
        one.integers[0] = all.size() ? all.integers.back()
                                     : integerIdentity(step.variant, x.type);
      x = one;
      break;
    }
    case DeviceStep::SegmentedScan: {
      DeviceArray y = emptyOf(x.type, x.size());
      int64_t sum = 0;
      for (uint64_t i = 0; i < x.size(); ++i) {
        int64_t value = x.integers[i];
        sum = value % 10 == 0
                  ? value
                  : wrap(static_cast<uint64_t>(sum) + value, x.type);
        y.integers[i] = sum;
      }
      x = y;
      break;
    }
    case DeviceStep::Sort:
    case DeviceStep::ArgSort: {
      std::vector<uint64_t> order(x.size());
      std::iota(order.begin(), order.end(), 0);
      // ArgSort's `less` compares the keys as written; Sort's swaps them
      // where the flag says.
      bool swapped = step.kind == DeviceStep::Sort && step.flag;
      mlir::obs::stableSort(order, [&](uint64_t i, uint64_t j) {
        return compare(step.variant, swapped, step.merge, x, i, j);
      });
      if (step.kind == DeviceStep::ArgSort && !step.flag) {
        DeviceArray positions = emptyOf(DeviceScalar::I32, x.size());
        for (uint64_t k = 0; k < order.size(); ++k)
          positions.integers[k] = static_cast<int64_t>(order[k]);
        x = positions;
        break;
      }
      DeviceArray sorted = emptyOf(x.type, x.size());
      for (uint64_t k = 0; k < order.size(); ++k) {
        if (isFloat(x.type))
          sorted.reals[k] = x.reals[order[k]];
        else
          sorted.integers[k] = x.integers[order[k]];
      }
      x = sorted;
      break;
    }
    }
  }
  return x;
}
