//===- HostData.cpp - kernel arrays on the host ---------------------------===//

#include "Obs/Runner/HostData.h"
#include "Obs/Support/Formatting.h"
#include "Obs/Support/SplitMix.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unistd.h>

using namespace llvm;
using namespace mlir;
using namespace obs_run;

Error obs_run::makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Scalar types
//===----------------------------------------------------------------------===//

ScalarType ScalarType::get(Type type) {
  if (type.isInteger(1))
    return {I1, 1, false};
  if (type.isInteger(8))
    return {I8, 1, false};
  if (type.isInteger(16))
    return {I16, 2, false};
  if (type.isInteger(32))
    return {I32, 4, false};
  if (type.isInteger(64))
    return {I64, 8, false};
  if (type.isF16())
    return {F16, 2, true};
  if (type.isF32())
    return {F32, 4, true};
  return {F64, 8, true};
}

std::string ScalarType::name() const {
  static const char *names[] = {"i1",  "i8",  "i16", "i32",
                                "i64", "f16", "f32", "f64"};
  return names[kind];
}

std::string ScalarType::npyDescr() const {
  static const char *descrs[] = {"|b1", "|i1", "<i2", "<i4",
                                 "<i8", "<f2", "<f4", "<f8"};
  return descrs[kind];
}

/// The range of an integer type, as the values users write (signed).
static std::pair<int64_t, int64_t> integerRange(const ScalarType &type) {
  if (type.kind == ScalarType::I1)
    return {0, 1};
  unsigned bits = type.bytes * 8;
  if (bits == 64)
    return {INT64_MIN, INT64_MAX};
  return {-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1};
}

/// The significant digits of a number written as std::to_chars writes it
/// (fixed or scientific): its mantissa's digits without leading zeros.
static int countSignificantDigits(StringRef written) {
  StringRef mantissa = written.take_until([](char c) { return c == 'e'; });
  int digits = 0;
  bool leading = true;
  for (char c : mantissa) {
    if (c < '0' || c > '9')
      continue;
    leading &= c == '0';
    if (!leading)
      ++digits;
  }
  return digits;
}

/// Formats a number as text that reads back as the same value of its type:
/// integers exactly, floats with the fewest digits that round-trip.
static std::string formatNumber(const ScalarType &type, const Number &value) {
  if (!type.isFloat)
    return std::to_string(value.integer);
  double x = value.real;
  // Every NaN is "nan": the sign of a NaN an operation makes is the
  // machine's (x86 makes -nan where a GPU makes nan), and printing it made
  // one program's text differ between targets. An .npy output keeps the
  // bits.
  if (std::isnan(x))
    return "nan";
  if (std::isinf(x))
    return x < 0 ? "-inf" : "inf";
  char text[64];
  // Whole numbers as whole numbers (8260, not 8.26e+03).
  if (x == std::trunc(x) && std::fabs(x) < 1e15) {
    snprintf(text, sizeof(text), "%.0f", x);
    return text;
  }
  // No fewer digits than the shortest representation of the value has
  // (std::to_chars) round-trip a double: the search starts there, not at 1.
  // Up to 17 rounds of snprintf and strtod per number were most of
  // obs-fuzz's time on long float inputs. An f32 is read back through a
  // double (parseNumber), whose second rounding can take a decimal just
  // outside the float's own interval to it: its search starts two digits
  // earlier (7.038531e-26 reads back as the float that to_chars writes
  // 7.0385313e-26).
  int shortest = 1;
  if (type.kind == ScalarType::F64 || type.kind == ScalarType::F32) {
    char digits[64];
    std::to_chars_result written =
        type.kind == ScalarType::F64
            ? std::to_chars(digits, digits + sizeof(digits), x)
            : std::to_chars(digits, digits + sizeof(digits), float(x));
    shortest = countSignificantDigits(StringRef(digits, written.ptr - digits));
    if (type.kind == ScalarType::F32)
      shortest -= 2;
    shortest = std::max(1, shortest);
  }
  for (int precision = shortest; precision <= 17; ++precision) {
    snprintf(text, sizeof(text), "%.*g", precision, x);
    double back = strtod(text, nullptr);
    bool same = type.kind == ScalarType::F64   ? back == x
                : type.kind == ScalarType::F32 ? float(back) == float(x)
                                               : back == x;
    if (same)
      break;
  }
  return text;
}

/// Parses one token of a list for a scalar of `type`.
static Expected<Number> parseNumber(StringRef token, const ScalarType &type) {
  Number number;
  // A float's integer-looking token is read as a float too, so that "-0"
  // is -0.0.
  // An integer may have a sign of either kind, as a float may.
  StringRef digits = token;
  if (digits.size() > 1 && digits.front() == '+' && digits[1] != '-')
    digits = digits.drop_front();
  if (!type.isFloat && !digits.getAsInteger(10, number.integer))
    return number;
  // Hexadecimal, as floats read it (strtod): 0x10 is 16, -0x10 is -16.
  if (!type.isFloat) {
    StringRef hex = digits;
    bool negative = hex.consume_front("-");
    if ((hex.consume_front("0x") || hex.consume_front("0X")) && !hex.empty() &&
        hex.find_first_not_of("0123456789abcdefABCDEF") == StringRef::npos) {
      uint64_t magnitude;
      if (hex.getAsInteger(16, magnitude) ||
          magnitude > (negative ? uint64_t(1) << 63 : uint64_t(INT64_MAX)))
        return makeError("'" + token + "' does not fit " + type.name());
      number.integer = negative ? int64_t(0 - magnitude) : int64_t(magnitude);
      return number;
    }
  }
  bool integral = !token.empty() &&
                  token.drop_front(token.front() == '-' || token.front() == '+')
                          .find_first_not_of("0123456789") == StringRef::npos;
  if (!type.isFloat && integral)
    return makeError("'" + token + "' does not fit " + type.name());
  // strtod must take the whole token: "3e" is not 3.
  std::string text = token.str();
  char *end = nullptr;
  double real = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    return makeError("'" + token + "' is not a number");
  if (!type.isFloat)
    return makeError("'" + token + "' is not an integer, as " + type.name() +
                     " needs");
  // strtod makes a finite number too large for a double infinite: an
  // infinity only where the token spells one.
  StringRef magnitude =
      token.drop_front(token.front() == '-' || token.front() == '+');
  if (std::isinf(real) && !magnitude.equals_insensitive("inf") &&
      !magnitude.equals_insensitive("infinity"))
    return makeError("'" + token + "' does not fit " + type.name());
  number.isFloat = true;
  number.real = real;
  // An f32 or f16 is read in its own format: through a double it would be
  // rounded twice, and a decimal just past halfway between two floats
  // first rounds to the halfway point, then to the even one, the wrong way
  // (1.0000000596046447753906251 read as 1.0f; found by an adversarial
  // run). Where APFloat does not read the spelling (a hexadecimal integer,
  // which strtod does), the double is exact or close enough to it.
  if (type.kind == ScalarType::F32 || type.kind == ScalarType::F16) {
    APFloat own(type.kind == ScalarType::F32 ? APFloat::IEEEsingle()
                                             : APFloat::IEEEhalf());
    StringRef spelled = token.drop_front(token.front() == '+');
    Expected<APFloat::opStatus> status =
        own.convertFromString(spelled, APFloat::rmNearestTiesToEven);
    if (!status) {
      consumeError(status.takeError());
      return number;
    }
    if ((*status & APFloat::opOverflow) && std::isfinite(real))
      return makeError("'" + token + "' does not fit " + type.name());
    // A float of either format is a double exactly.
    bool losesInfo;
    own.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
    number.real = own.convertToDouble();
  }
  return number;
}

//===----------------------------------------------------------------------===//
// HostArray
//===----------------------------------------------------------------------===//

uint64_t obs_run::getPhysicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || size <= 0)
    return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(size);
}

bool obs_run::canAllocate(uint64_t bytes) {
  // Kept through a volatile, or the compiler drops the pair and takes the
  // allocation to succeed.
  static void *volatile probe;
  probe = std::malloc(bytes);
  if (!probe)
    return false;
  std::free(probe);
  return true;
}

HostArray::HostArray(obs::ArrType type)
    : type(type), leaves(type.getNumLeaves()) {
  for (Type scalar : obs::flattenElementType(type.getLeafType())) {
    components.push_back(ScalarType::get(scalar));
    storage.emplace_back(
        (leaves * components.back().bytes + sizeof(uint64_t) - 1) /
            sizeof(uint64_t) +
        1);
  }
}

Error HostArray::set(uint64_t k, const Number &value, StringRef spelling) {
  std::string shown = spelling.empty()
                          ? formatNumber({ScalarType::F64, 8, true}, value)
                          : spelling.str();
  if (spelling.empty() && !value.isFloat)
    shown = std::to_string(value.integer);
  uint64_t leaf = k / getWidth();
  unsigned c = k % getWidth();
  const ScalarType &scalar = components[c];
  char *slot =
      reinterpret_cast<char *>(storage[c].data()) + leaf * scalar.bytes;
  if (!scalar.isFloat) {
    if (value.isFloat)
      return makeError("'" + shown + "' is not an integer, as " +
                       scalar.name() + " needs");
    auto [low, high] = integerRange(scalar);
    if (value.integer < low || value.integer > high)
      return makeError("'" + shown + "' does not fit " + scalar.name());
    int64_t v = value.integer;
    switch (scalar.bytes) {
    case 1: {
      int8_t narrow = static_cast<int8_t>(v);
      std::memcpy(slot, &narrow, 1);
      break;
    }
    case 2: {
      int16_t narrow = static_cast<int16_t>(v);
      std::memcpy(slot, &narrow, 2);
      break;
    }
    case 4: {
      int32_t narrow = static_cast<int32_t>(v);
      std::memcpy(slot, &narrow, 4);
      break;
    }
    default:
      std::memcpy(slot, &v, 8);
    }
    return Error::success();
  }
  double real = value.isFloat ? value.real : static_cast<double>(value.integer);
  switch (scalar.kind) {
  case ScalarType::F64:
    std::memcpy(slot, &real, 8);
    return Error::success();
  case ScalarType::F32: {
    // A number fits where it rounds to a finite float: 3.4028235e+38, which
    // --output writes for FLT_MAX, is a little above it and rounds to it.
    APFloat single(real);
    bool losesInfo;
    APFloat::opStatus status = single.convert(
        APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
    if (std::isfinite(real) && (status & APFloat::opOverflow))
      return makeError("'" + shown + "' does not fit f32");
    float narrow = single.convertToFloat();
    std::memcpy(slot, &narrow, 4);
    return Error::success();
  }
  default: {
    APFloat half(real);
    bool losesInfo;
    APFloat::opStatus status = half.convert(
        APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &losesInfo);
    if (std::isfinite(real) && (status & APFloat::opOverflow))
      return makeError("'" + shown + "' does not fit f16");
    uint16_t bits = half.bitcastToAPInt().getZExtValue();
    std::memcpy(slot, &bits, 2);
    return Error::success();
  }
  }
}

Number HostArray::get(uint64_t k) const {
  uint64_t leaf = k / getWidth();
  unsigned c = k % getWidth();
  const ScalarType &scalar = components[c];
  const char *slot =
      reinterpret_cast<const char *>(storage[c].data()) + leaf * scalar.bytes;
  Number number;
  number.isFloat = scalar.isFloat;
  switch (scalar.kind) {
  case ScalarType::I1:
    number.integer = (*reinterpret_cast<const uint8_t *>(slot)) & 1;
    break;
  case ScalarType::I8:
    number.integer = *reinterpret_cast<const int8_t *>(slot);
    break;
  case ScalarType::I16: {
    int16_t v;
    std::memcpy(&v, slot, 2);
    number.integer = v;
    break;
  }
  case ScalarType::I32: {
    int32_t v;
    std::memcpy(&v, slot, 4);
    number.integer = v;
    break;
  }
  case ScalarType::I64:
    std::memcpy(&number.integer, slot, 8);
    break;
  case ScalarType::F16: {
    uint16_t bits;
    std::memcpy(&bits, slot, 2);
    APFloat half(APFloat::IEEEhalf(), APInt(16, bits));
    number.real = half.convertToFloat();
    break;
  }
  case ScalarType::F32: {
    float v;
    std::memcpy(&v, slot, 4);
    number.real = v;
    break;
  }
  case ScalarType::F64:
    std::memcpy(&number.real, slot, 8);
    break;
  }
  return number;
}

//===----------------------------------------------------------------------===//
// Input
//===----------------------------------------------------------------------===//

/// The end of a message that an input has too few or too many numbers:
/// how many the array needs.
static std::string describeNeeded(uint64_t needed) {
  return ", but " + std::to_string(needed) +
         (needed == 1 ? " is needed" : " are needed");
}

/// `(16, 64)`, numpy's spelling of a shape (`(4,)` for one extent).
static std::string formatShape(ArrayRef<uint64_t> shape) {
  std::string text = "(";
  for (auto [index, extent] : llvm::enumerate(shape))
    text += (index ? ", " : "") + std::to_string(extent);
  return text + (shape.size() == 1 ? ",)" : ")");
}

/// An array's type as the user wrote it: `!obs.arr<32 x !obs.arr<32 x i32>>`.
static std::string formatArrayType(obs::ArrType type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

/// The numbers of `text` (spaces, tabs, commas and newlines between them),
/// each with its 1-based line. `emptyField`, where given, gets the line of
/// the first field left empty: two commas with only blanks between them
/// (`1,,2`), or a comma first (`,1`), a number left out rather than a
/// separator doubled.
static SmallVector<std::pair<StringRef, unsigned>>
splitNumbers(StringRef text, std::optional<unsigned> *emptyField = nullptr) {
  SmallVector<std::pair<StringRef, unsigned>> numbers;
  unsigned line = 1;
  while (!text.empty()) {
    size_t start = text.find_first_not_of(" \t\r,\n");
    StringRef separators =
        text.take_front(start == StringRef::npos ? text.size() : start);
    if (emptyField && !*emptyField) {
      // Commas in one line of the separators: one is a separator, but
      // none may come first.
      SmallVector<StringRef> lines;
      separators.split(lines, '\n');
      for (auto [index, within] : llvm::enumerate(lines))
        if (within.count(',') > (numbers.empty() && index == 0 ? 0u : 1u)) {
          *emptyField = line + index;
          break;
        }
    }
    line += separators.count('\n');
    if (start == StringRef::npos)
      break;
    text = text.drop_front(start);
    size_t end = text.find_first_of(" \t\r,\n");
    numbers.push_back({text.take_front(end), line});
    text = text.drop_front(end == StringRef::npos ? text.size() : end);
  }
  return numbers;
}

uint64_t HostArray::getRowScalars() const {
  return type.getShape().back() * getWidth();
}

Error HostArray::checkRows(ArrayRef<std::pair<StringRef, unsigned>> numbers,
                           const Twine &origin) const {
  // One line may hold everything, and a line may hold one number (as
  // --output writes them); otherwise each line of a file of several holds
  // one row of an array of rows.
  if (type.getShape().size() < 2 || numbers.empty() ||
      numbers.front().second == numbers.back().second)
    return Error::success();
  auto lineEnd = [&](size_t k) {
    size_t end = k;
    while (end < numbers.size() && numbers[end].second == numbers[k].second)
      ++end;
    return end;
  };
  uint64_t perLine = lineEnd(0) == 1 ? 1 : getRowScalars();
  for (size_t k = 0; k < numbers.size();) {
    size_t end = lineEnd(k);
    if (end - k != perLine)
      return makeError(
          origin + ", line " + Twine(numbers[k].second) + ": " +
          Twine(end - k) + (end - k == 1 ? " number" : " numbers") + ", but " +
          (perLine == 1 ? "the lines before hold one number each"
                        : "a row of " + formatArrayType(type) + " holds " +
                              Twine(perLine) + ": give a row a line"));
    k = end;
  }
  return Error::success();
}

Error HostArray::fillFromList(StringRef text, const Twine &origin,
                              bool fromFile) {
  std::optional<unsigned> emptyField;
  SmallVector<std::pair<StringRef, unsigned>> numbers =
      splitNumbers(text, &emptyField);
  if (emptyField)
    return makeError(origin +
                     (fromFile ? ", line " + Twine(*emptyField) : Twine()) +
                     ": a comma with no number before it");
  // The rows first: a row one number short is named by its line, not only
  // counted in the total.
  if (fromFile)
    if (Error error = checkRows(numbers, origin))
      return error;
  if (numbers.size() != getNumScalars())
    return makeError(origin + " has " +
                     mlir::obs::formatCount(numbers.size(), "number") +
                     describeNeeded(getNumScalars()));
  for (auto [k, entry] : llvm::enumerate(numbers)) {
    auto [token, line] = entry;
    // Counted from 1, as people count; a file's by its line. Spelled only
    // for an error: a file may hold a hundred million numbers.
    auto fail = [&, k = k, line = line](Error error) {
      return makeError(
          origin +
          (fromFile ? ", line " + Twine(line) : ", number " + Twine(k + 1)) +
          ": " + toString(std::move(error)));
    };
    Expected<Number> number = parseNumber(token, components[k % getWidth()]);
    if (!number)
      return fail(number.takeError());
    if (Error error = set(k, *number, token))
      return fail(std::move(error));
  }
  return Error::success();
}

/// A text file's contents without the UTF-8 byte order mark some editors
/// write first.
static StringRef withoutByteOrderMark(StringRef text) {
  text.consume_front("\xEF\xBB\xBF");
  return text;
}

/// Whether `spec` is numbers with commas between them: a list, even where
/// a file has that name (its length and its numbers are both the list's).
static bool isNumberList(StringRef spec) {
  return spec.contains(',') &&
         llvm::all_of(splitNumbers(spec), [](const auto &entry) {
           Expected<Number> number =
               parseNumber(entry.first, {ScalarType::F64, 8, true});
           if (number)
             return true;
           consumeError(number.takeError());
           return false;
         });
}

/// The number of scalars of a .npy array of `shape`, or an error where it
/// is 2^64 or more (a header's extents are any numbers).
static Expected<uint64_t> countNpyScalars(ArrayRef<uint64_t> shape,
                                          StringRef path) {
  // An empty extent empties the array, whatever the others.
  if (llvm::is_contained(shape, 0))
    return 0;
  uint64_t count = 1;
  for (uint64_t extent : shape)
    if (__builtin_mul_overflow(count, extent, &count))
      return makeError("'" + path + "' has shape " + formatShape(shape) +
                       ": 2^64 or more numbers");
  return count;
}

Error HostArray::fill(StringRef spec) {
  if (spec == "iota" || spec.starts_with("iota:")) {
    int64_t start = 0;
    if (spec.consume_front("iota:") && spec.getAsInteger(10, start))
      return makeError("iota:START needs an integer start, not '" + spec + "'");
    for (uint64_t k = 0; k < getNumScalars(); ++k) {
      Number number;
      if (k > uint64_t(INT64_MAX) ||
          __builtin_add_overflow(start, static_cast<int64_t>(k),
                                 &number.integer))
        return makeError("iota, number " + Twine(k + 1) +
                         ": past the largest 64-bit integer");
      if (Error error = set(k, number))
        return makeError("iota, number " + Twine(k + 1) + ": " +
                         toString(std::move(error)));
    }
    return Error::success();
  }
  if (spec.consume_front("random:")) {
    SmallVector<StringRef> fields;
    spec.split(fields, ':');
    uint64_t seed;
    if ((fields.size() != 1 && fields.size() != 3) ||
        fields[0].getAsInteger(10, seed))
      return makeError("random needs random:SEED or random:SEED:LO:HI with "
                       "integer SEED, not 'random:" +
                       spec + "'");
    double low = 0, high = 100;
    // Finite bounds (NaN compares as neither, and an infinite span made
    // every number NaN), LO <= HI.
    if (fields.size() == 3 &&
        (fields[1].getAsDouble(low) || fields[2].getAsDouble(high) ||
         !std::isfinite(low) || !std::isfinite(high) || !(low <= high)))
      return makeError("random:SEED:LO:HI needs finite numbers LO <= HI, "
                       "not '" +
                       fields[1] + "' and '" + fields[2] + "'");
    // Integers' bounds exactly, where written as integers (a double holds
    // 123456789012345678 as ...680); otherwise the whole numbers between
    // the real ones, where those fit i64.
    std::optional<std::pair<int64_t, int64_t>> integerBounds =
        std::make_pair(int64_t(0), int64_t(100));
    if (fields.size() == 3) {
      int64_t lowExact, highExact;
      if (!fields[1].getAsInteger(10, lowExact) &&
          !fields[2].getAsInteger(10, highExact))
        integerBounds = std::make_pair(lowExact, highExact);
      else if (std::ceil(low) >= -0x1.0p63 && std::floor(high) < 0x1.0p63 &&
               std::ceil(low) <= std::floor(high))
        integerBounds =
            std::make_pair(int64_t(std::ceil(low)), int64_t(std::floor(high)));
      else
        integerBounds.reset();
    }
    uint64_t state = seed;
    for (uint64_t k = 0; k < getNumScalars(); ++k) {
      const ScalarType &scalar = components[k % getWidth()];
      uint64_t bits = mlir::obs::nextSplitMix64(state);
      Number number;
      if (scalar.isFloat) {
        number.isFloat = true;
        number.real = low + (bits >> 11) * 0x1.0p-53 * (high - low);
      } else {
        int64_t lowInt = 0, highInt = 1;
        if (scalar.kind != ScalarType::I1 || fields.size() != 1) {
          if (!integerBounds)
            return makeError("random:SEED:LO:HI for integers needs a whole "
                             "number between its bounds within i64, not '" +
                             fields[1] + "' and '" + fields[2] + "'");
          lowInt = integerBounds->first;
          highInt = integerBounds->second;
        }
        // In unsigned arithmetic: the span of the whole i64 range is 2^64,
        // which wraps to 0 (every number).
        uint64_t span = uint64_t(highInt) - uint64_t(lowInt) + 1;
        number.integer = static_cast<int64_t>(uint64_t(lowInt) +
                                              (span ? bits % span : bits));
      }
      if (Error error = set(k, number))
        return makeError("random, number " + Twine(k + 1) + ": " +
                         toString(std::move(error)));
    }
    return Error::success();
  }
  if (isNumberList(spec))
    return fillFromList(spec, "the list", /*fromFile=*/false);
  if (sys::fs::is_regular_file(spec)) {
    if (spec.ends_with_insensitive(".npy"))
      return fillFromNpy(spec);
    ErrorOr<std::unique_ptr<MemoryBuffer>> file =
        MemoryBuffer::getFile(spec, /*IsText=*/true);
    if (!file)
      return makeError("cannot read '" + spec +
                       "': " + file.getError().message());
    return fillFromList(withoutByteOrderMark((*file)->getBuffer()),
                        "'" + spec + "'", /*fromFile=*/true);
  }
  if (sys::fs::is_directory(spec))
    return makeError("cannot read '" + spec + "': it is a directory");
  // A device or a fifo is not read (a fifo would block until written).
  if (sys::fs::exists(spec))
    return makeError("cannot read '" + spec + "': it is not a regular file");
  if (spec.ends_with_insensitive(".npy") ||
      spec.ends_with_insensitive(".txt") || spec.contains('/'))
    return makeError("cannot open '" + spec + "': no such file");
  // One word that is not a number is a misspelt form, not a list.
  Expected<Number> single = parseNumber(spec, {ScalarType::F64, 8, true});
  bool isNumber = static_cast<bool>(single);
  if (!isNumber)
    consumeError(single.takeError());
  if (spec.find_first_of(", \t") == StringRef::npos && !spec.empty() &&
      !isNumber)
    return makeError("'" + spec +
                     "' is not an input: expected iota, iota:START, "
                     "random:SEED[:LO:HI], a list like 1,2,3, or a file");
  return fillFromList(spec, "the list", /*fromFile=*/false);
}

/// The header of a .npy file: its dtype, order and shape.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<uint64_t> shape;
  size_t dataOffset = 0;
};

static Expected<NpyHeader> parseNpyHeader(StringRef bytes, StringRef path) {
  auto bad = [&](const Twine &why) {
    return makeError("'" + path + "' is not a valid .npy file: " + why);
  };
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY"))
    return bad("it does not start with the .npy magic string");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lengthBytes)
    return bad("it is truncated");
  size_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= size_t(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
  NpyHeader header;
  header.dataOffset = 8 + lengthBytes + headerLength;
  if (bytes.size() < header.dataOffset)
    return bad("its header is truncated");
  StringRef dict = bytes.slice(8 + lengthBytes, header.dataOffset);
  auto field = [&](StringRef key) -> StringRef {
    size_t at = dict.find("'" + key.str() + "'");
    if (at == StringRef::npos)
      return {};
    StringRef rest = dict.drop_front(at + key.size() + 2).ltrim(" :");
    return rest;
  };
  StringRef descr = field("descr");
  if (descr.empty() || (descr.front() != '\'' && descr.front() != '"'))
    return bad("its header has no 'descr'");
  header.descr = descr.drop_front()
                     .take_until([](char c) { return c == '\'' || c == '"'; })
                     .str();
  // Each key once (numpy would take a repeated key's last value), and an
  // order that is True or False, as numpy writes and reads it.
  for (StringRef key : {"descr", "fortran_order", "shape"})
    if (dict.count(("'" + key + "'").str()) > 1)
      return bad("its header names '" + key + "' twice");
  StringRef order = field("fortran_order");
  if (order.empty())
    return bad("its header has no 'fortran_order'");
  auto isWord = [&](StringRef word) {
    return order.starts_with(word) &&
           (order.size() == word.size() ||
            StringRef(",} ").contains(order[word.size()]));
  };
  if (!isWord("True") && !isWord("False"))
    return bad("its 'fortran_order' is neither True nor False");
  header.fortranOrder = isWord("True");
  StringRef shape = field("shape");
  if (!shape.consume_front("("))
    return bad("its header has no 'shape'");
  shape = shape.take_until([](char c) { return c == ')'; });
  SmallVector<StringRef> dims;
  SplitString(shape, dims, ", ");
  for (StringRef dim : dims) {
    uint64_t extent;
    if (dim.getAsInteger(10, extent)) {
      std::string shown;
      llvm::raw_string_ostream os(shown);
      llvm::printEscapedString(dim, os);
      return bad("its shape has '" + shown + "'");
    }
    header.shape.push_back(extent);
  }
  return header;
}

Expected<std::optional<uint64_t>> obs_run::countInputScalars(StringRef spec) {
  if (spec == "iota" || spec.starts_with("iota:") ||
      spec.starts_with("random:"))
    return std::nullopt;
  if (isNumberList(spec))
    return splitNumbers(spec).size();
  if (sys::fs::is_regular_file(spec)) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> file =
        MemoryBuffer::getFile(spec,
                              /*IsText=*/!spec.ends_with_insensitive(".npy"));
    if (!file)
      return makeError("cannot read '" + spec +
                       "': " + file.getError().message());
    if (!spec.ends_with_insensitive(".npy"))
      return splitNumbers(withoutByteOrderMark((*file)->getBuffer())).size();
    Expected<NpyHeader> header = parseNpyHeader((*file)->getBuffer(), spec);
    if (!header)
      return header.takeError();
    Expected<uint64_t> count = countNpyScalars(header->shape, spec);
    if (!count)
      return count.takeError();
    return *count;
  }
  // A list, or what fill reports as no input at all.
  return splitNumbers(spec).size();
}

Error HostArray::fillFromNpy(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!file)
    return makeError("cannot read '" + path +
                     "': " + file.getError().message());
  StringRef bytes = (*file)->getBuffer();
  Expected<NpyHeader> header = parseNpyHeader(bytes, path);
  if (!header)
    return header.takeError();
  for (const ScalarType &scalar : components)
    if (scalar.kind != components.front().kind)
      return makeError("'" + path +
                       "': an array of tuples of mixed types "
                       "cannot be read from .npy; use a text "
                       "file");
  const ScalarType &scalar = components.front();
  // A byte has no byte order: numpy writes '|i1', and '<i1' or '>i1' mean
  // the same.
  auto sameDescr = [&](StringRef descr) {
    std::string own = scalar.npyDescr();
    // '=' is the machine's own byte order.
    std::string native;
    if (descr.starts_with("=")) {
      native = (llvm::sys::IsLittleEndianHost ? "<" : ">") +
               descr.drop_front().str();
      descr = native;
    }
    if (scalar.bytes == 1 && descr.size() == own.size() &&
        StringRef("<>|=").contains(descr.front()))
      return descr.drop_front() == StringRef(own).drop_front();
    return descr == own;
  };
  if (!sameDescr(header->descr))
    return makeError("'" + path + "' holds dtype " + header->descr +
                     ", but the argument holds " + scalar.name() + " (" +
                     scalar.npyDescr() + ")");
  if (header->fortranOrder)
    return makeError("'" + path + "' is in Fortran order; save it in C order");
  Expected<uint64_t> counted = countNpyScalars(header->shape, path);
  if (!counted)
    return counted.takeError();
  uint64_t count = *counted;
  if (count != getNumScalars())
    return makeError("'" + path + "' has " +
                     mlir::obs::formatCount(count, "number") +
                     describeNeeded(getNumScalars()));
  // The shape write() gives the array: its extents, then a tuple's width.
  SmallVector<uint64_t> extents = type.getShape();
  std::vector<uint64_t> shape(extents.begin(), extents.end());
  if (getWidth() > 1)
    shape.push_back(getWidth());
  if (header->shape != shape)
    return makeError("'" + path + "' has shape " + formatShape(header->shape) +
                     ", but " + formatArrayType(type) + " needs " +
                     formatShape(shape));
  StringRef data = bytes.drop_front(header->dataOffset);
  if (data.size() < count * scalar.bytes)
    return makeError("'" + path + "' is truncated: its data has " +
                     Twine(data.size()) + " bytes of the " +
                     Twine(count * scalar.bytes) + " its shape needs");
  for (uint64_t k = 0; k < count; ++k) {
    uint64_t leaf = k / getWidth();
    unsigned c = k % getWidth();
    char *slot =
        reinterpret_cast<char *>(storage[c].data()) + leaf * scalar.bytes;
    std::memcpy(slot, data.data() + k * scalar.bytes, scalar.bytes);
    // A bool is any byte, true unless 0, as numpy reads it.
    if (scalar.kind == ScalarType::I1)
      *slot = *slot != 0;
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

void HostArray::printScalar(raw_ostream &os, uint64_t leaf,
                            unsigned component) const {
  os << formatNumber(components[component], get(leaf * getWidth() + component));
}

void HostArray::printElement(raw_ostream &os, Type elementType, uint64_t &leaf,
                             unsigned &component, unsigned depth) const {
  if (auto nested = dyn_cast<obs::ArrType>(elementType)) {
    os << "[";
    for (uint64_t i = 0; i < nested.getLength(); ++i) {
      if (i)
        os << ", ";
      printElement(os, nested.getElementType(), leaf, component, depth + 1);
    }
    os << "]";
    return;
  }
  if (auto tuple = dyn_cast<TupleType>(elementType)) {
    os << "(";
    for (auto [i, part] : llvm::enumerate(tuple.getTypes())) {
      if (i)
        os << ", ";
      printElement(os, part, leaf, component, depth + 1);
    }
    os << ")";
  } else {
    printScalar(os, leaf, component++);
  }
  // A leaf is done when all of its scalars are printed.
  if (component == getWidth() && depth == type.getDepth()) {
    component = 0;
    ++leaf;
  }
}

void HostArray::print(raw_ostream &os) const {
  uint64_t leaf = 0;
  unsigned component = 0;
  printElement(os, type, leaf, component, 0);
}

Error HostArray::write(StringRef path) const {
  std::error_code error;
  raw_fd_ostream os(path, error);
  if (error)
    return makeError("cannot write '" + path + "': " + error.message());
  if (Error written = writeTo(os, path))
    return written;
  // A full disk is the user's to hear about, in one line (the stream's
  // destructor would stop with an LLVM ERROR).
  os.close();
  if (os.has_error()) {
    error = os.error();
    os.clear_error();
    return makeError("cannot write '" + path + "': " + error.message());
  }
  return Error::success();
}

Error HostArray::writeTo(raw_fd_ostream &os, StringRef path) const {
  // Text, one number a line, unless it is to be a .npy.
  if (!path.ends_with_insensitive(".npy")) {
    for (uint64_t k = 0; k < getNumScalars(); ++k)
      os << formatNumber(components[k % getWidth()], get(k)) << "\n";
    return Error::success();
  }
  for (const ScalarType &scalar : components)
    if (scalar.kind != components.front().kind)
      return makeError("cannot write '" + path +
                       "': the tuples of this array mix types; use .txt");
  const ScalarType &scalar = components.front();
  std::string shape = "(";
  for (uint64_t extent : type.getShape())
    shape += std::to_string(extent) + ", ";
  if (getWidth() > 1)
    shape += std::to_string(getWidth()) + ", ";
  if (shape.size() > 1)
    shape.resize(shape.size() - 2);
  if (type.getShape().size() + (getWidth() > 1) == 1)
    shape += ",";
  shape += ")";
  std::string dict = "{'descr': '" + scalar.npyDescr() +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  // The header is padded so that the data starts at a multiple of 64.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  os << "\x93NUMPY" << char(1) << char(0) << char(dict.size() & 0xff)
     << char(dict.size() >> 8) << dict;
  for (uint64_t k = 0; k < getNumScalars(); ++k) {
    uint64_t leaf = k / getWidth();
    unsigned c = k % getWidth();
    os.write(reinterpret_cast<const char *>(storage[c].data()) +
                 leaf * scalar.bytes,
             scalar.bytes);
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Calling compiled host functions
//===----------------------------------------------------------------------===//

void PackedMemRefs::add(const HostArray &array, ArrayRef<void *> pointers) {
  SmallVector<uint64_t> shape = array.getType().getShape();
  // Row-major strides.
  SmallVector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (unsigned d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= static_cast<int64_t>(shape[d]);
  }
  for (void *pointer : pointers.take_front(array.getWidth())) {
    addPointer(pointer); // Allocated.
    addPointer(pointer); // Aligned.
    addInteger(0);       // Offset.
    for (uint64_t size : shape)
      addInteger(static_cast<int64_t>(size));
    for (int64_t value : strides)
      addInteger(value);
  }
}

void PackedMemRefs::add(ArrayRef<HostArray> arrays, ArrayRef<void *> pointers) {
  for (const HostArray &array : arrays) {
    add(array, pointers);
    pointers = pointers.drop_front(array.getWidth());
  }
}

void PackedMemRefs::addPointer(void *pointer) {
  fieldPointers.push_back(pointer);
  packed.push_back(&fieldPointers.back());
}

void PackedMemRefs::addInteger(int64_t value) {
  fieldIntegers.push_back(value);
  packed.push_back(&fieldIntegers.back());
}

std::string obs_run::getNumberedPath(StringRef path, unsigned index,
                                     unsigned count) {
  if (count == 1)
    return path.str();
  // The extension's dot: in the file's name, not in a directory's.
  size_t nameStart = path.find_last_of('/');
  nameStart = nameStart == StringRef::npos ? 0 : nameStart + 1;
  size_t dot = path.rfind('.');
  if (dot == StringRef::npos || dot < nameStart)
    dot = path.size();
  return (path.take_front(dot) + "." + Twine(index) + path.drop_front(dot))
      .str();
}

std::string HostArray::describeElement() const {
  if (getWidth() == 1)
    return components.front().name();
  std::string text = "(";
  for (auto [index, component] : llvm::enumerate(components))
    text += (index ? ", " : "") + component.name();
  return text + ")";
}
