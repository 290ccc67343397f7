//===- Combinators.h - Obsidian's combinators as C++ functions --*- C++ -*-===//
//
// The Haskell embedding of the papers, in C++: each combinator is a function
// that builds the obs op at the builder's insertion point and returns the
// array it makes, and sub-programs and element functions are lambdas. A
// recursive generator is then ordinary recursion, as in seed 002:
//
//   Value sklansky(ImplicitLocOpBuilder &b, Value x, BinaryFn op) {
//     if (length(x) == 1)
//       return x;
//     Value halves = two(b, x, [&](ImplicitLocOpBuilder &b, Value half) {
//       return sklansky(b, half, op);
//     });
//     return sync(b, fan(b, halves, op));
//   }
//
// Element functions take and return *flattened* scalars: a tuple<i32, f32>
// element is two values. Array-typed results are inferred; the functions
// assert what the verifier would reject, so build only well-typed programs
// (run the verifier on the result when in doubt).
//
//===----------------------------------------------------------------------===//

#ifndef OBS_BUILDER_COMBINATORS_H
#define OBS_BUILDER_COMBINATORS_H

#include "Obs/Dialect/Obs/ObsOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include <optional>

namespace mlir::obs::dsl {

/// An element function: flattened scalars in, flattened scalars out.
using ElementFn =
    llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, ValueRange)>;
/// A function of two elements (each flattened): a combine (one element
/// out), a 2-to-2 function for evens and odds, or a `less` (one i1 out).
using BinaryFn = llvm::function_ref<SmallVector<Value>(
    ImplicitLocOpBuilder &, ValueRange lhs, ValueRange rhs)>;
/// An index function: the index in, the flattened element out.
using IndexFn =
    llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, Value)>;
/// A sub-program: an array in, an array out.
using ProgramFn = llvm::function_ref<Value(ImplicitLocOpBuilder &, Value)>;

/// The length of an array value.
uint64_t length(Value array);

// Stage boundaries.
Value sync(ImplicitLocOpBuilder &b, Value array);

// Index functions and element-wise combinators.
Value generate(ImplicitLocOpBuilder &b, ArrType type, IndexFn element);
Value map(ImplicitLocOpBuilder &b, ValueRange inputs, Type resultElement,
          ElementFn f);
SmallVector<Value> index(ImplicitLocOpBuilder &b, Value array, Value i);
Value evens(ImplicitLocOpBuilder &b, Value array, BinaryFn f);
Value odds(ImplicitLocOpBuilder &b, Value array, BinaryFn f);
Value fan(ImplicitLocOpBuilder &b, Value array, BinaryFn combine);

// Permutations and shapes.
Value rev(ImplicitLocOpBuilder &b, Value array);
Value riffle(ImplicitLocOpBuilder &b, Value array);
Value unriffle(ImplicitLocOpBuilder &b, Value array);
std::pair<Value, Value> halve(ImplicitLocOpBuilder &b, Value array);
Value conc(ImplicitLocOpBuilder &b, Value first, Value second);
Value pair(ImplicitLocOpBuilder &b, Value array);
Value unpair(ImplicitLocOpBuilder &b, Value array);
Value zip(ImplicitLocOpBuilder &b, Value first, Value second);
std::pair<Value, Value> unzip(ImplicitLocOpBuilder &b, Value array);

// Program combinators.
Value two(ImplicitLocOpBuilder &b, Value array, ProgramFn program);
Value ilv(ImplicitLocOpBuilder &b, Value array, ProgramFn program);
Value one(ImplicitLocOpBuilder &b, Value array, ProgramFn program);
Value repeat(ImplicitLocOpBuilder &b, uint64_t count, Value array,
             ProgramFn program);

// Folds, scans and sorts, with an optional network.
SmallVector<Value> reduce(ImplicitLocOpBuilder &b, Value array,
                          BinaryFn combine,
                          std::optional<ReduceNetwork> network = {});
Value scan(ImplicitLocOpBuilder &b, Value array, BinaryFn combine,
           std::optional<ScanNetwork> network = {});
Value sort(ImplicitLocOpBuilder &b, Value array, BinaryFn less,
           std::optional<SortNetwork> network = {});

/// A push array of `length` scalars: `values[i]` written at `places[i]`,
/// merged by `combine` where given, into `initial` (a typed scalar) or,
/// where it is null, into the launch's output memref (a global scatter).
Value scatter(ImplicitLocOpBuilder &b, Value values, Value places,
              uint64_t length, std::optional<ScatterCombine> combine,
              TypedAttr initial);

/// Seed 001's `cmpSwap`: the two elements in the order `less` wants, the
/// first one first when neither precedes the other.
SmallVector<Value> compareSwap(ImplicitLocOpBuilder &b, BinaryFn less,
                               ValueRange lhs, ValueRange rhs);

/// Clones the single block of an element region at the insertion point,
/// with its arguments bound to `arguments`, and returns what it yields:
/// how a scan's combine or a sort's `less` is reused by the networks.
SmallVector<Value> inlineRegion(ImplicitLocOpBuilder &b, Region &region,
                                ValueRange arguments);

} // namespace mlir::obs::dsl

#endif // OBS_BUILDER_COMBINATORS_H
