//===- Storage.h - how arrays are laid out in memory ------------*- C++ -*-===//
//
// Every target stores an array the same way: one memref per scalar of its
// leaf element (a tuple's scalars in order), shaped like the array's nesting
// (`!obs.arr<4 x !obs.arr<8 x tuple<i32, f32>>>` is memref<4x8xi32> and
// memref<4x8xf32>). obs-run reads and writes host data in this layout.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_DIALECT_OBS_STORAGE_H
#define OBS_DIALECT_OBS_STORAGE_H

#include "Obs/Dialect/Obs/ElementEmitter.h"
#include "Obs/Dialect/Obs/ObsTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::obs {

/// The elements of a row of a padded one-dimensional buffer: a row of the
/// 32 banks, for elements of 4 bytes.
inline constexpr int64_t kPaddedRowElements = 32;

/// The memref types that store an array of `type`, one per leaf scalar.
/// `rowPadding` elements follow each innermost row of an array of rows
/// (a shared buffer's padding against bank conflicts, `obs.shared_padding`):
/// every place keeps its indices, only the addresses move. A
/// one-dimensional array padded so is stored as rows of kPaddedRowElements
/// (`memref<ceil(N/32) x (32 + padding)>`): element e at row e div 32,
/// column e mod 32, which the readers and storeLeaf below compute.
SmallVector<MemRefType> getStorageTypes(ArrType type,
                                        Attribute memorySpace = {},
                                        uint64_t rowPadding = 0);

/// The shape of a memref of `shape` with `rowPadding` elements after each
/// innermost row, as getStorageTypes pads a buffer (a flat one as rows of
/// kPaddedRowElements).
SmallVector<int64_t> getPaddedShape(ArrayRef<int64_t> shape,
                                    uint64_t rowPadding);

/// Where element `element` (row-major) of an array lies in its padded
/// buffer, with `rowPadding` elements after each row of `rowElements`: the
/// layout getPaddedShape gives.
inline int64_t getPaddedPlace(int64_t element, int64_t rowElements,
                              int64_t rowPadding) {
  return element + rowPadding * (element / rowElements);
}

/// Whether `op` is a sync or repeat of an array of rows, or of a
/// one-dimensional array of at least two rows of kPaddedRowElements: an
/// owner whose shared buffers may have their rows padded
/// (obs.shared_padding).
bool ownsSharedRows(Operation *op);
/// The elements `owner`'s shared buffers leave after each row: its
/// obs.shared_padding, or 0.
uint64_t getSharedPadding(Operation *owner);

/// The bytes the memrefs that store an array of `type` hold, with
/// `rowPadding` elements after each row (see getStorageTypes).
uint64_t getArrayBytes(ArrType type, uint64_t rowPadding = 0);

/// The indices of element `path` in `memref`, which stores an array: `path`
/// itself, or for a padded one-dimensional buffer (a memref of one more
/// dimension than the path), its row and column.
SmallVector<Value> getStoragePlace(OpBuilder &builder, Location loc,
                                   Value memref, ValueRange path);

/// Reads leaves from the memrefs that store an array.
LeafReader makeStorageReader(SmallVector<Value> components);

/// Reads leaves from the memrefs that store an array of which only the
/// places before each memref's length (an index, one per component) along
/// the outermost dimension are present: a place at or past it is not read,
/// and reads as that component's `absent` value.
LeafReader makePresentStorageReader(SmallVector<Value> components,
                                    SmallVector<Value> lengths,
                                    SmallVector<TypedAttr> absent);

/// Stores the flattened scalars of one leaf at `path` into `components`.
void storeLeaf(OpBuilder &builder, Location loc, ValueRange components,
               ValueRange scalars, ValueRange path);

} // namespace mlir::obs

#endif // OBS_DIALECT_OBS_STORAGE_H
