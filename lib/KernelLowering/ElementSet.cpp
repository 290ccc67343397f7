//===- ElementSet.cpp - a set of elements, as code tests it ---------------===//

#include "Obs/KernelLowering/ElementSet.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::obs;

void ElementSet::findBand() {
  uint64_t n = members.size();
  if (n == 0)
    return;
  for (uint64_t p = 1; p <= n; ++p) {
    if (n % p)
      continue;
    bool periodic = true;
    for (uint64_t e = p; e < n && periodic; ++e)
      periodic = members[e] == members[e % p];
    if (!periodic)
      continue;
    // One contiguous run within the period.
    int64_t first = -1, last = -1;
    bool contiguous = true;
    for (uint64_t e = 0; e < p; ++e) {
      if (!members[e])
        continue;
      if (first < 0)
        first = e;
      else if (last != static_cast<int64_t>(e) - 1)
        contiguous = false;
      last = e;
    }
    if (!contiguous || first < 0)
      continue;
    period = p;
    low = first;
    high = last + 1;
    return;
  }
}

Value ElementSet::table(OpBuilder &builder, Location loc, StringRef kind,
                        ArrayRef<int32_t> entries) const {
  SymbolTable symbols(module);
  OpBuilder globalBuilder = OpBuilder::atBlockBegin(module.getBody());
  auto type = MemRefType::get({static_cast<int64_t>(entries.size())},
                              builder.getI32Type());
  auto global = memref::GlobalOp::create(
      globalBuilder, loc, ("obs_" + kind).str(),
      globalBuilder.getStringAttr("private"), type,
      DenseElementsAttr::get(
          RankedTensorType::get(type.getShape(), builder.getI32Type()),
          entries),
      /*constant=*/true, /*alignment=*/nullptr);
  symbols.insert(global); // Renames it when the name is taken.
  return memref::GetGlobalOp::create(builder, loc, type, global.getSymName());
}

Value ElementSet::emitContains(OpBuilder &builder, Location loc,
                               Value element) const {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  if (period) {
    Value offset =
        builder.createOrFold<arith::RemUIOp>(loc, element, constant(*period));
    Value aboveLow = builder.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::uge, offset, constant(*low));
    Value belowHigh = builder.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ult, offset, constant(*high));
    return builder.createOrFold<arith::AndIOp>(loc, aboveLow, belowHigh);
  }
  if (members.none())
    return arith::ConstantIntOp::create(builder, loc, 0, 1);
  SmallVector<int32_t> flags;
  for (uint64_t e = 0; e < members.size(); ++e)
    flags.push_back(members[e] ? 1 : 0);
  Value entry = memref::LoadOp::create(
      builder, loc, table(builder, loc, "written", flags), element);
  return arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::ne, entry,
      arith::ConstantIntOp::create(builder, loc, 0, 32));
}

Value ElementSet::emitNth(OpBuilder &builder, Location loc, Value k) const {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  if (isAll())
    return k;
  if (period) {
    // The k-th member is in period k div w, at lo + k mod w.
    uint64_t width = *high - *low;
    Value periods =
        builder.createOrFold<arith::DivUIOp>(loc, k, constant(width));
    Value within =
        builder.createOrFold<arith::RemUIOp>(loc, k, constant(width));
    Value base =
        builder.createOrFold<arith::MulIOp>(loc, periods, constant(*period));
    Value offset =
        builder.createOrFold<arith::AddIOp>(loc, within, constant(*low));
    return builder.createOrFold<arith::AddIOp>(loc, base, offset);
  }
  SmallVector<int32_t> list;
  for (unsigned e : members.set_bits())
    list.push_back(e);
  Value entry = memref::LoadOp::create(
      builder, loc, table(builder, loc, "work_list", list), k);
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    entry);
}
