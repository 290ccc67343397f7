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
#include <algorithm>
#include <cstdint>

namespace mlir::obs {

/// The bytes of one element of `type`.
inline uint64_t getElementBytes(ShapedType type) {
  return std::max<uint64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// The bytes of all the elements of the statically shaped `type`.
inline uint64_t getTotalBytes(ShapedType type) {
  return type.getNumElements() * getElementBytes(type);
}

} // namespace mlir::obs

#endif // OBS_SUPPORT_MEMORYBYTES_H
