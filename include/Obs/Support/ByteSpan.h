//===- ByteSpan.h - where a memref's elements lie at run time ---*- C++ -*-===//
//
// Host code's checks of what the proofs take as given about the memrefs a
// program passes (convert-obs-to-gpu's entry checks, obs-check-launches)
// compute where a memref's elements lie from its descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_BYTESPAN_H
#define OBS_SUPPORT_BYTESPAN_H

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::obs {

/// The largest magnitude of a size, stride or offset a plausible span has,
/// and so the most bytes any real allocation takes (2^48).
constexpr int64_t kMostPlausibleBytes = int64_t(1) << 48;

/// `index` as an i128, sign-extended: the width spans are computed in, so
/// that products and sums of plausible values never wrap.
Value emitWideIndex(ImplicitLocOpBuilder &b, Value index);

/// Where a memref's elements lie, at run time: its aligned pointer (an
/// index), the bytes from its lowest element to past its highest, [begin,
/// end) (i128, which no span wraps), whether it has no element, and
/// whether it is plausible (an i1: no size negative, and every size, stride
/// and its offset below 2^48 in magnitude, as any real allocation's are; an
/// implausible span is within nothing and apart from nothing).
struct ByteSpan {
  Value pointer, begin, end, empty, plausible;
};

/// `memref`'s ByteSpan, computed from its descriptor.
ByteSpan emitByteSpan(ImplicitLocOpBuilder &b, Value memref);

/// Whether `inner` lies within `outer` (an i1): a memref (no negative size,
/// no magnitude past the bound), and empty, or from `outer`'s begin to its
/// end in an `outer` that is not empty.
Value emitSpanWithin(ImplicitLocOpBuilder &b, const ByteSpan &inner,
                     const ByteSpan &outer);

/// Whether `first` and `second` are memrefs that hold no byte in common (an
/// i1).
Value emitSpansApart(ImplicitLocOpBuilder &b, const ByteSpan &first,
                     const ByteSpan &second);

/// Asserts, where `b` stands after an allocation of `memref` on the heap,
/// that the machine gave its memory (its aligned pointer is not null),
/// with `message` when it did not. `empty`, where given, is an i1 that
/// exempts an allocation of no byte; without it the allocation holds some.
/// (The allocation is lowered to malloc, which returns null for a size it
/// cannot give, and the first store faulted.)
void emitAllocatedCheck(ImplicitLocOpBuilder &b, Value memref, Value empty,
                        StringRef message);

/// Erases the checks emitAllocatedCheck made on `memref`: where the
/// allocation becomes the device's on cuda (obs-host-memory-to-gpu), the
/// driver reports one it cannot make, and the host op after it split the
/// launches' stream.
void eraseAllocatedChecks(Value memref);

} // namespace mlir::obs

#endif // OBS_SUPPORT_BYTESPAN_H
