//===- HostData.h - kernel arrays on the host -------------------*- C++ -*-===//
//
// obs-run's model of the data a kernel reads and writes: an array stored as
// every target stores it (Obs/Dialect/Obs/Storage.h: one buffer per scalar of
// the leaf element, row-major over the nesting), filled from the forms
// `--input` accepts and written in the forms `--output` accepts. Users see an
// array of tuples as its flattened scalars in order (seed 001 passes pAdd'
// its pairs as a flat list); the buffers keep each scalar of the tuple apart.
//
//===----------------------------------------------------------------------===//

#ifndef OBS_RUNNER_HOSTDATA_H
#define OBS_RUNNER_HOSTDATA_H

#include "Obs/Dialect/Obs/ObsTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace obs_run {

/// A scalar type kernels compute with.
struct ScalarType {
  enum Kind { I1, I8, I16, I32, I64, F16, F32, F64 } kind;
  unsigned bytes;
  bool isFloat;

  static ScalarType get(mlir::Type type);
  std::string name() const;
  /// numpy's dtype string for this type ('<i4', ...).
  std::string npyDescr() const;
};

/// One scalar as the user writes it: exact for integers.
struct Number {
  bool isFloat = false;
  int64_t integer = 0;
  double real = 0;
};

/// The number of scalars an `--input` specification holds (a list, a text
/// file, an .npy file), or none for one that fills any length (iota,
/// random).
llvm::Expected<std::optional<uint64_t>> countInputScalars(llvm::StringRef spec);

/// An allocator of zeroed memory that a container does not write again: a
/// large block comes from the system's zeroed pages (calloc maps it), which
/// cost nothing until they are touched, where a vector's value
/// initialisation wrote every byte (2 GiB of an array that a limit then
/// refused took 6 s to zero).
template <typename T> struct ZeroedAllocator {
  using value_type = T;
  ZeroedAllocator() = default;
  template <typename U> ZeroedAllocator(const ZeroedAllocator<U> &) {}
  T *allocate(size_t count) {
    void *block = std::calloc(count, sizeof(T));
    if (!block)
      llvm::report_bad_alloc_error("cannot allocate an array");
    return static_cast<T *>(block);
  }
  void deallocate(T *block, size_t) { std::free(block); }
  /// Elements are left as calloc made them: zero.
  template <typename U> void construct(U *) {}
  template <typename U, typename... Args>
  void construct(U *slot, Args &&...args) {
    ::new (static_cast<void *>(slot)) U(std::forward<Args>(args)...);
  }
  template <typename U> bool operator==(const ZeroedAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const ZeroedAllocator<U> &) const {
    return false;
  }
};

class HostArray {
public:
  explicit HostArray(mlir::obs::ArrType type);

  mlir::obs::ArrType getType() const { return type; }
  /// Scalars per leaf (the width of a tuple element, 1 otherwise).
  unsigned getWidth() const { return components.size(); }
  uint64_t getNumLeaves() const { return leaves; }
  /// The number of scalars the user reads or writes: leaves x width.
  uint64_t getNumScalars() const { return leaves * getWidth(); }
  const ScalarType &getComponentType(unsigned c) const { return components[c]; }
  /// The element's type as a user reads it: `i32`, or `(i32, i8, f16)` for
  /// a tuple.
  std::string describeElement() const;

  /// The buffer of component `c` (what the kernel receives), and its size.
  void *getBuffer(unsigned c) { return storage[c].data(); }
  size_t getBufferBytes(unsigned c) const {
    return leaves * components[c].bytes;
  }

  /// Stores the `k`-th scalar of the flat list; fails when it does not fit,
  /// naming it as `spelling` (as the user wrote it) when given.
  llvm::Error set(uint64_t k, const Number &value,
                  llvm::StringRef spelling = {});
  Number get(uint64_t k) const;

  /// Fills the array from an `--input` specification.
  llvm::Error fill(llvm::StringRef spec);

  /// `[a, b, c]`, a tuple as `(a, b)`, a nested array as `[[..], [..]]`.
  void print(llvm::raw_ostream &os) const;
  /// Writes FILE.txt (one scalar per line) or FILE.npy.
  llvm::Error write(llvm::StringRef path) const;

private:
  /// write's content, into `os` opened on `path` (whose extension says the
  /// form): write checks the stream after.
  llvm::Error writeTo(llvm::raw_fd_ostream &os, llvm::StringRef path) const;
  /// Fills the array from the numbers of `text`, a list or (`fromFile`) a
  /// text file's, which `origin` names in errors.
  llvm::Error fillFromList(llvm::StringRef text, const llvm::Twine &origin,
                           bool fromFile);
  /// The scalars of a row: the innermost extent's elements.
  uint64_t getRowScalars() const;
  /// Fails, naming the 1-based line, where a file of several lines holds
  /// neither one number a line nor one row of an array of rows a line.
  llvm::Error
  checkRows(llvm::ArrayRef<std::pair<llvm::StringRef, unsigned>> numbers,
            const llvm::Twine &origin) const;
  llvm::Error fillFromNpy(llvm::StringRef path);
  void printElement(llvm::raw_ostream &os, mlir::Type type, uint64_t &leaf,
                    unsigned &component, unsigned depth) const;
  void printScalar(llvm::raw_ostream &os, uint64_t leaf,
                   unsigned component) const;

  mlir::obs::ArrType type;
  std::vector<ScalarType> components;
  uint64_t leaves;
  std::vector<std::vector<uint64_t, ZeroedAllocator<uint64_t>>> storage;
};

/// This machine's physical memory in bytes, or 0 where it cannot be told.
uint64_t getPhysicalMemoryBytes();

/// Whether this process can allocate `bytes` now: the machine's memory is
/// not the process's (ulimit -v), and an allocation that fails in
/// HostArray stops the program with LLVM's out-of-memory abort.
bool canAllocate(uint64_t bytes);

/// Formats an error for obs-run's one-line reports.
llvm::Error makeError(const llvm::Twine &message);

/// The arguments of a lowered host function as ExecutionEngine::invokePacked
/// takes them: MLIR's memref descriptors (allocated and aligned pointer,
/// offset, sizes, strides), one pointer per field, a memref per component
/// of each array.
class PackedMemRefs {
public:
  PackedMemRefs() = default;
  // The packed list points into the fields, which a move keeps in place (a
  // deque's elements stay where they are) and a copy would not.
  PackedMemRefs(PackedMemRefs &&) = default;
  PackedMemRefs(const PackedMemRefs &) = delete;
  PackedMemRefs &operator=(const PackedMemRefs &) = delete;

  /// Adds the memrefs of `array`, one per component at `pointers` (on the
  /// host, or on a device).
  void add(const HostArray &array, llvm::ArrayRef<void *> pointers);
  /// Adds the arrays, their components at `pointers` in order.
  void add(llvm::ArrayRef<HostArray> arrays, llvm::ArrayRef<void *> pointers);
  llvm::SmallVector<void *> &get() { return packed; }

private:
  void addPointer(void *pointer);
  void addInteger(int64_t value);
  // Deques: the packed list points into them as they grow.
  std::deque<void *> fieldPointers;
  std::deque<int64_t> fieldIntegers;
  llvm::SmallVector<void *> packed;
};

/// The file output `index` of `count` goes to: `path` itself for one,
/// else PATH.index.ext (`out.npy` gives `out.0.npy`, `out.1.npy`).
std::string getNumberedPath(llvm::StringRef path, unsigned index,
                            unsigned count);

} // namespace obs_run

#endif // OBS_RUNNER_HOSTDATA_H
