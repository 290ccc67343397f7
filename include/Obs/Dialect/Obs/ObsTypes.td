//===- ObsTypes.td - obs types ------------------------------*- tablegen -*-===//

#ifndef OBS_DIALECT_OBS_OBSTYPES_TD
#define OBS_DIALECT_OBS_OBSTYPES_TD

include "Obs/Dialect/Obs/ObsDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Obs_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Obs_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Obs_ArrType : Obs_Type<"Arr", "arr"> {
  let summary = "a pull array: a static length and a function from index to element";
  let description = [{
    `!obs.arr<N x T>` is Obsidian's `Arr T` of length `N`. It names no
    memory: it stands for the computation of its elements. `T` is an element
    type:

    * a scalar: `i1`, `i8`, `i16`, `i32`, `i64`, `f16`, `f32` or `f64`;
    * a builtin `tuple` of element types that holds no arrays (arrays of
      pairs, as `pair` and `zip` make them);
    * another `!obs.arr` (arrays of arrays, such as the rows of a 2-D grid).

    Inside element regions a tuple element is passed and yielded as its
    flattened scalars, and a nested array element as an `!obs.arr` value.

    Example:

    ```mlir
    !obs.arr<8 x i32>
    !obs.arr<4 x tuple<i32, i32>>
    !obs.arr<256 x !obs.arr<256 x f32>>
    ```
  }];
  let parameters = (ins "uint64_t":$length, "::mlir::Type":$elementType);
  // `<` length `x` elementType `>`, written by hand: the generic uint64_t
  // parser would read `-4` as 2^64 - 4, and a generated parser adds a second
  // "failed to parse parameter" error to every precise one.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "uint64_t":$length,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), length, elementType);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The number of nested `!obs.arr` levels, 1 for an array of scalars or
    /// tuples. A leaf element is addressed by one index per level.
    unsigned getDepth() const;
    /// The scalar or tuple type at the bottom of the nesting.
    ::mlir::Type getLeafType() const;
    /// The lengths of all nesting levels, outermost first.
    ::llvm::SmallVector<uint64_t> getShape() const;
    /// The number of leaf elements (the product of the shape).
    uint64_t getNumLeaves() const;
    /// This array type with another length.
    ArrType withLength(uint64_t newLength) const {
      return get(getContext(), newLength, getElementType());
    }
  }];
}

def Obs_Arr : Type<CPred<"::llvm::isa<::mlir::obs::ArrType>($_self)">,
                   "pull array", "::mlir::obs::ArrType">;

#endif // OBS_DIALECT_OBS_OBSTYPES_TD
