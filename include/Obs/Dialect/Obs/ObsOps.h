//===- ObsOps.h - obs operations --------------------------------*- C++ -*-===//

#ifndef OBS_DIALECT_OBS_OBSOPS_H
#define OBS_DIALECT_OBS_OBSOPS_H

#include "Obs/Dialect/Obs/ObsAttributes.h"
#include "Obs/Dialect/Obs/ObsDialect.h"
#include "Obs/Dialect/Obs/ObsInterfaces.h"
#include "Obs/Dialect/Obs/ObsTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Obs/Dialect/Obs/ObsOps.h.inc"

#endif // OBS_DIALECT_OBS_OBSOPS_H
