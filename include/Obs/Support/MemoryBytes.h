//===- MemoryBytes.h - how many bytes memory takes --------------*- C++ -*-===//
//
// One spelling of the bytes of an element and of a memref, for the analyses
// that count bytes (the proof's places, shared-memory limits and plans). An
// i1 takes a byte, as it does in memory.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_MEMORYBYTES_H
#define OBS_SUPPORT_MEMORYBYTES_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cstdint>
#include <optional>

namespace mlir::obs {

/// The bytes one value of the scalar, vector or complex type `type` takes in
/// memory: an index takes 8, as on every target obs lowers to (64-bit
/// hosts; NVVM with 64-bit indices).
inline uint64_t getTypeBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return std::max<uint64_t>(1, type.getIntOrFloatBitWidth() / 8);
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() * getTypeBytes(vector.getElementType());
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getTypeBytes(complex.getElementType());
  // Anything else is a pointer or a handle.
  return 8;
}

/// Whether one value of `type` takes in memory what getTypeBytes counts,
/// on every target obs lowers to. LLVM gives an integer or float whose
/// width is above a byte and not a power of two the next power of two
/// (an i24 takes 4 bytes, an f80 16), a vector its store size rounded up
/// to a power of two (a vector<3xf32> 16), and packs a vector's elements
/// of less than a byte (a vector<8xi1> takes 1): counted at 3, 10, 12 and
/// 8 bytes, a view of 12 bytes as 4 i24 read past them, unchecked (found
/// by the review of hunt 30's fixes). Host code and kernels written by
/// hand refuse memrefs of other types.
inline bool hasExactByteSize(Type type) {
  if (type.isIndex())
    return true;
  if (type.isIntOrFloat()) {
    unsigned width = type.getIntOrFloatBitWidth();
    return width <= 8 || llvm::isPowerOf2_32(width);
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = vector.getElementType();
    return hasExactByteSize(element) &&
           (element.isIndex() || element.getIntOrFloatBitWidth() % 8 == 0) &&
           llvm::isPowerOf2_64(getTypeBytes(vector));
  }
  if (auto complex = dyn_cast<ComplexType>(type))
    return hasExactByteSize(complex.getElementType());
  return true;
}

/// The bytes of one element of `type`.
inline uint64_t getElementBytes(ShapedType type) {
  return getTypeBytes(type.getElementType());
}

/// The bytes of all the elements of the statically shaped `type`.
inline uint64_t getTotalBytes(ShapedType type) {
  return type.getNumElements() * getElementBytes(type);
}

/// The same, or none where the count does not fit in 64 bits: for shapes a
/// user gives (a length, an .npy header), whose product may overflow.
inline std::optional<uint64_t> getTotalBytesIfCountable(ShapedType type) {
  std::optional<uint64_t> bytes = getElementBytes(type);
  for (int64_t extent : type.getShape()) {
    if (!bytes || extent < 0)
      return std::nullopt;
    bytes = llvm::checkedMulUnsigned<uint64_t>(*bytes,
                                               static_cast<uint64_t>(extent));
  }
  return bytes;
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_MEMORYBYTES_H
