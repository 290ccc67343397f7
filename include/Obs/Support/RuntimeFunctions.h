//===- RuntimeFunctions.h - what lowered code calls in a runner -*- C++ -*-===//
//
// Functions that lowered host and kernel code calls and that the runner
// provides (lib/Runner's targets register them with the JIT: the launch
// recorder their own, the reports each tool's RuntimeReports):
//  - obs-record-launches reports each launch, for `--emit=plan` and the
//    bytes of `--bench`;
//  - the `ref` and `cpu` targets check as they run what cannot be proved
//    before the data is known (a scatter without a combine whose places
//    depend on data writes each place at most once), and report the first
//    violation, which obs-run turns into an error and exit status 1;
//  - the `cpu` and `cuda` targets' host functions that launch kernels
//    check that their callers keep the contract the kernels rely on
//    (distinct allocations, aligned), and report a caller that does not;
//  - every target's host code checks before a launch what the launch
//    proof takes as given about its memrefs and grid.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_SUPPORT_RUNTIMEFUNCTIONS_H
#define OBS_SUPPORT_RUNTIMEFUNCTIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::obs {

/// `void obs_record_launch(i64 kernel, i64 grid, i64 threads, i64 read,
/// i64 written)`: a launch of the kernel numbered `kernel`, and the global
/// bytes it reads and writes.
constexpr llvm::StringLiteral kRecordLaunchFunction = "obs_record_launch";

/// `void obs_scatter_collision(i64 block, i64 place, i64 line, i64 column)`:
/// a scatter without a combine wrote `place` of its result a second time,
/// in block `block`; the scatter is at `line` and `column` of its source
/// (0 and 0 where it has none).
constexpr llvm::StringLiteral kScatterCollisionFunction =
    "obs_scatter_collision";

/// `void obs_index_outside(i64 block, i64 index, i64 length, i64 line,
/// i64 column)`: an obs.index read index `index` of an array of `length`
/// elements, in block `block` (-1: the code does not know its block); the
/// obs.index is at `line` and `column` of its source (0 and 0 where it has
/// none).
constexpr llvm::StringLiteral kIndexOutsideFunction = "obs_index_outside";

/// `void obs_argument_contract(i64 first, i64 second)`: called as a host
/// function that launches kernels (public or private) starts, with (-1, -1)
/// when its caller keeps the contract its kernels assume; otherwise memref
/// argument `first` is not aligned to 16 bytes (`second` is -1), or memref
/// arguments `first` and `second` overlap, and the call does not return.
constexpr llvm::StringLiteral kArgumentContractFunction =
    "obs_argument_contract";

/// `void obs_launch_contract(i64 breach, i64 first, i64 second)`: called
/// before a launch, or a call of a function that launches kernels, with
/// what of the launch proof's premises the memrefs and grid it is given at
/// run time break: LaunchContractBreach::None when none, and the call
/// returns; otherwise it does not.
constexpr llvm::StringLiteral kLaunchContractFunction = "obs_launch_contract";

/// `void obs_host_check(ptr message)`: a check of a host function's
/// (obs-check-host-code's, or a cf.assert of its own) failed; `message`,
/// a C string, says where and what. The call does not return.
constexpr llvm::StringLiteral kHostCheckFunction = "obs_host_check";

/// `i64 obs_chain_publish(i64 address, i64 state)`: the cpu target's
/// exchange of an obs.carry's chain word at `address` (a host address) with
/// `state`, which the runner also keeps in the word's history; returns what
/// the word held.
constexpr llvm::StringLiteral kChainPublishFunction = "obs_chain_publish";

/// `i64 obs_chain_observe(i64 address)`: the cpu target's read of an
/// obs.carry's chain word during a look-back. Blocks run one at a time to
/// their end there, so every tile before the reader's has published all it
/// will; a GPU's reader may meet any earlier state of the word instead
/// (nothing yet, the tile's value, its inclusive prefix). The runner
/// answers with one of them, at or after what this reader last met of the
/// word, chosen by the run's block seed, and the current state within a
/// few reads of one word: every look-back then meets the states a GPU's
/// could, and ends.
constexpr llvm::StringLiteral kChainObserveFunction = "obs_chain_observe";

/// The most blocks a grid may have: CUDA's limit on a grid's x dimension.
constexpr int64_t kMostGridBlocks = 2147483647;

/// What obs_launch_contract reports, with its `first` and `second`.
enum class LaunchContractBreach : int64_t {
  None = 0,
  /// Memref operand `first` of a launch (ins, then outs) reaches past the
  /// allocation it views.
  LaunchOperandOutside = 1,
  /// Memref operands `first` and `second` of a launch, views of one
  /// allocation that the proof took to be apart, meet.
  LaunchOperandsMeet = 2,
  /// Memref argument `first` of a call of a function that launches kernels
  /// reaches past the allocation it views.
  CallArgumentOutside = 3,
  /// Memref arguments `first` and `second` of such a call, views of one
  /// allocation that the proof took to be apart, meet.
  CallArgumentsMeet = 4,
  /// A launch's grid, `first` blocks, is past CUDA's 2^31 - 1.
  GridTooLarge = 5,
  /// Memref operand `first` of a launch has an offset or strides other than
  /// the static ones of its type (a memref.cast that claimed them).
  LaunchOperandLayout = 6,
  /// The same of memref argument `first` of a call of a function that
  /// launches kernels.
  CallArgumentLayout = 7,
  /// Memref operand `first` of an obs.device_sort (its ins, then its outs)
  /// holds `second` elements, where its first input holds another number.
  SortLengthsDiffer = 8,
  /// An obs.device_sort's first input holds `first` elements, past 2^31 -
  /// 1: its plans count and place elements in 32 bits.
  SortTooLong = 9,
  /// Memref operand `first` of a launch, the chain of an obs.carry's
  /// kernel, holds `second` words, fewer than the carry's elements for
  /// each block of the grid, plus one.
  /// The last (describeLaunchContractBreach knows none past it).
  ChainTooShort = 10,
};

/// The private declaration of the runtime function `name` of `type` in
/// `symbolTable`, added at its start when absent. A symbol of that name
/// that is not such a function is an error at it: the name is the runner's.
FailureOr<func::FuncOp> getOrDeclareRuntimeFunction(Operation *symbolTable,
                                                    StringRef name,
                                                    FunctionType type);

/// One condition host code checks as it runs, and the values reported to
/// the runner where it fails.
struct RuntimeCheck {
  /// An i1, true where the condition holds.
  Value holds;
  SmallVector<Value> reported;
};

/// The values `checks` report of the first that fails, or `none` where all
/// hold, chosen by `arith.select`s: no branch, so that host code's
/// launches stay one straight line (gpu-async-region). Every check reports
/// as many values as `none` holds, of the same types.
SmallVector<Value> selectFirstFailure(OpBuilder &builder, Location loc,
                                      ArrayRef<RuntimeCheck> checks,
                                      ValueRange none);

/// The declaration of obs_launch_contract in the nearest symbol table
/// around `op`.
FailureOr<func::FuncOp> getLaunchContractReport(Operation *op);

/// A premise of the launch contract: where `holds` (an i1) fails, `breach`
/// with `first` and `second` (i64s) is reported.
RuntimeCheck makeLaunchContractCheck(OpBuilder &builder, Location loc,
                                     Value holds, LaunchContractBreach breach,
                                     Value first, Value second);

/// Emits one call of `report` (getLaunchContractReport) with the first of
/// `checks` (makeLaunchContractCheck) that fails, LaunchContractBreach::None
/// where none does.
void emitLaunchContractCall(OpBuilder &builder, Location loc,
                            func::FuncOp report, ArrayRef<RuntimeCheck> checks);

/// The declaration of obs_scatter_collision in the nearest symbol table
/// around `op`.
FailureOr<func::FuncOp> getScatterCollisionReport(Operation *op);

/// Emits a call of `report` (getScatterCollisionReport) for `place` in
/// `block`, both indices, naming `loc`'s line and column.
void emitScatterCollisionReport(OpBuilder &builder, Location loc,
                                func::FuncOp report, Value block, Value place);

/// The declaration of obs_index_outside in the nearest symbol table around
/// `op`.
FailureOr<func::FuncOp> getIndexOutsideReport(Operation *op);

/// Emits, where `inside` (an i1) is false, a call of `report`
/// (getIndexOutsideReport) for `index` of an array of `length` elements in
/// `block`, both indices (a null `block`: not known), naming `loc`'s line
/// and column.
void emitIndexOutsideReport(OpBuilder &builder, Location loc,
                            func::FuncOp report, Value inside, Value block,
                            Value index, uint64_t length);

} // namespace mlir::obs

#endif // OBS_SUPPORT_RUNTIMEFUNCTIONS_H
