//===- ObsTypes.h - obs types -----------------------------------*- C++ -*-===//

#ifndef OBS_DIALECT_OBS_OBSTYPES_H
#define OBS_DIALECT_OBS_OBSTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "Obs/Dialect/Obs/ObsTypes.h.inc"

namespace mlir::obs {

/// The most leaf elements an array may have: indices fit in 32 bits.
inline constexpr uint64_t kMaxArrayLeaves = (uint64_t(1) << 32) - 1;

/// Whether `type` is a scalar element type: i1, i8, i16, i32, i64, f16, f32
/// or f64.
bool isScalarElementType(Type type);

/// Whether `type` may be the element of an `!obs.arr`: a scalar, a tuple of
/// scalars and tuples, or an `!obs.arr`.
bool isElementType(Type type);

/// Appends the types an element of type `type` is passed as in a region: a
/// scalar as itself, a tuple as its flattened scalars, a nested array as
/// itself.
void flattenElementType(Type type, SmallVectorImpl<Type> &flattened);
SmallVector<Type> flattenElementType(Type type);

/// The number of values `flattenElementType` gives for `type`.
unsigned getFlattenedSize(Type type);

} // namespace mlir::obs

#endif // OBS_DIALECT_OBS_OBSTYPES_H
