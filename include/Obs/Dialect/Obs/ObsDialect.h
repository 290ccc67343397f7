//===- ObsDialect.h - The obs dialect ---------------------------*- C++ -*-===//

#ifndef OBS_DIALECT_OBS_OBSDIALECT_H
#define OBS_DIALECT_OBS_OBSDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h" // The attribute helpers call into Operation.
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "Obs/Dialect/Obs/ObsDialect.h.inc"

#endif // OBS_DIALECT_OBS_OBSDIALECT_H
