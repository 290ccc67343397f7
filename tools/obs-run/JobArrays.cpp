//===- JobArrays.cpp - the arrays of an obs-run job -----------------------===//

#include "JobArrays.h"
#include "Obs/Dialect/Obs/Storage.h"
#include "Obs/Runner/HostData.h"
#include "Obs/Support/MemoryBytes.h"
#include "RuntimeReports.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using mlir::obs::ArrType;

void obs_run::checkArrayFits(const mlir::obs::Job &job, ArrType type) {
  // Counted with overflow checks: a length or an .npy shape may be any
  // 64-bit number, whose bytes would wrap around to a small count.
  std::optional<uint64_t> bytes = job.getArrayBytes();
  std::optional<uint64_t> own = 0;
  for (MemRefType storage : mlir::obs::getStorageTypes(type)) {
    std::optional<uint64_t> more = mlir::obs::getTotalBytesIfCountable(storage);
    bytes =
        bytes && more ? llvm::checkedAddUnsigned(*bytes, *more) : std::nullopt;
    own = own && more ? llvm::checkedAddUnsigned(*own, *more) : std::nullopt;
  }
  auto spelled = [&] {
    std::string text;
    llvm::raw_string_ostream(text) << type;
    return text;
  };
  uint64_t memory = obs_run::getPhysicalMemoryBytes();
  if (!bytes || (memory && *bytes > memory))
    fail("the arrays need " +
         (bytes ? llvm::Twine(*bytes) : llvm::Twine("2^64 or more")) +
         " bytes, more than the " + llvm::Twine(memory) +
         " bytes of this machine's memory (the last, " + spelled() + ")");
  // The process may have less than the machine (ulimit -v). The count fits:
  // it is part of the total above.
  if (!obs_run::canAllocate(*own + 64))
    fail("cannot allocate the " + llvm::Twine(*own) + " bytes of " + spelled() +
         ": this process may not have that much memory");
}

void obs_run::addArray(mlir::obs::Job &job, ArrType type) {
  checkArrayFits(job, type);
  job.arrays.emplace_back(type);
}

ArrType obs_run::arrayOfMemRef(mlir::MemRefType memref, uint64_t length) {
  Type element = memref.getElementType();
  for (int64_t extent : llvm::reverse(memref.getShape().drop_front()))
    element = ArrType::get(memref.getContext(), extent, element);
  int64_t outer = memref.getShape().front();
  return ArrType::get(memref.getContext(),
                      ShapedType::isDynamic(outer) ? length : outer, element);
}
