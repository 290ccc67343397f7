//===- ElementSet.h - a set of elements, as code tests it -------*- C++ -*-===//
//
// The elements of an array that an in-place stage writes (those it does not
// leave as they are), in the form the kernel lowering emits code for: a test
// of membership and an enumeration, by arithmetic when the set is a band
// `lo <= e mod period < hi` (Sklansky's second halves), otherwise through a
// constant table.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_KERNELLOWERING_ELEMENTSET_H
#define OBS_KERNELLOWERING_ELEMENTSET_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include <optional>

namespace mlir::obs {

class ElementSet {
public:
  /// The set of `members`; its tables, when it needs them, go into
  /// `module`.
  ElementSet(llvm::BitVector members, gpu::GPUModuleOp module)
      : members(std::move(members)), module(module) {
    findBand();
  }

  bool isAll() const { return members.all(); }
  uint64_t size() const { return members.count(); }
  bool contains(uint64_t element) const {
    return element < members.size() && members.test(element);
  }

  /// Whether `element` is in the set.
  Value emitContains(OpBuilder &builder, Location loc, Value element) const;
  /// The k-th member, in increasing order (k < size()).
  Value emitNth(OpBuilder &builder, Location loc, Value k) const;

private:
  void findBand();
  /// A constant table in the gpu.module (a new global each time).
  Value table(OpBuilder &builder, Location loc, StringRef kind,
              ArrayRef<int32_t> entries) const;

  llvm::BitVector members;
  mutable gpu::GPUModuleOp module;
  std::optional<uint64_t> period, low, high;
};

} // namespace mlir::obs

#endif // OBS_KERNELLOWERING_ELEMENTSET_H
