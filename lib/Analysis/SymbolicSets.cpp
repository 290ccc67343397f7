//===- SymbolicSets.cpp - the Presburger sets of the symbolic proof -------===//
//
// The questions the symbolic proof (SymbolicHazards.cpp) asks of its values
// (SymbolicValues.h): whether a conjunction of quasi-affine constraints over
// the thread ids and loop counters has an integer point, and one point when
// it has. The constraints are flattened into MLIR's Presburger library with
// as few local variables as the floordivs allow.
//
//===----------------------------------------------------------------------===//

#include "SymbolicValues.h"
#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include <map>

using namespace mlir;
using namespace mlir::obs;
using namespace mlir::obs::symbolic;

namespace {
/// A Presburger set in the making: constraints flattened to linear forms
/// over its dims and local variables, each local the floordiv of a form by
/// a constant. Terms of a dividend that the divisor divides are taken out
/// of it (floor((a + c n) / c) is floor(a / c) + n), so that
/// (x mod 4096) floordiv 2048 is (x floordiv 2048) - 2 (x floordiv 4096),
/// and one local serves every floordiv of one form by one divisor. Only
/// the locals the constraints use in the end go into the set: a sum of a
/// dozen remainders of remainders (a scan's place) may cancel to the
/// place itself. The simplex then works on few columns.
class PresburgerSetBuilder {
public:
  explicit PresburgerSetBuilder(unsigned numDims) : numDims(numDims) {}

  /// Adds `constraint`; false when it is not quasi-affine.
  bool add(const Constraint &constraint) {
    overflowed = false;
    std::optional<Form> form = flatten(constraint.expr);
    if (!form || overflowed)
      return false;
    rows.push_back({*form, constraint.equality});
    return true;
  }
  /// Builds the set of the constraints added; returns how many locals it
  /// has.
  unsigned build() {
    dropLoneDims();
    // The locals used, and those their dividends use (a dividend uses only
    // locals made before it).
    SmallVector<bool> used(locals.size(), false);
    for (const auto &row : rows)
      markUsed(row.first, used);
    for (size_t i = locals.size(); i-- > 0;)
      if (used[i])
        markUsed(locals[i].dividend, used);
    // The dims used: those the rows or the used dividends name.
    dimColumn.assign(numDims, ~0u);
    auto markDims = [&](const Form &form) {
      for (unsigned i = 0; i < numDims; ++i)
        if (form[i] != 0)
          dimColumn[i] = 0;
    };
    for (const auto &row : rows)
      markDims(row.first);
    for (size_t i = 0; i < locals.size(); ++i)
      if (used[i])
        markDims(locals[i].dividend);
    unsigned numUsedDims = 0;
    for (unsigned &dim : dimColumn)
      if (dim != ~0u)
        dim = numUsedDims++;
    set.emplace(presburger::PresburgerSpace::getSetSpace(numUsedDims));
    column.assign(locals.size(), ~0u);
    for (size_t i = 0; i < locals.size(); ++i)
      if (used[i])
        column[i] =
            set->addLocalFloorDiv(toRow(locals[i].dividend), locals[i].divisor);
    if (infeasible) {
      // A lone dim's bounds crossed: 0 >= 1.
      SmallVector<int64_t> never(set->getNumVars() + 1, 0);
      never.back() = -1;
      set->addInequality(never);
    }
    for (const auto &[form, equality] : rows) {
      SmallVector<int64_t> row = toRow(form);
      if (equality)
        set->addEquality(row);
      else
        set->addInequality(row);
    }
    return set->getNumLocalVars();
  }
  bool isIntegerEmpty() const { return set->isIntegerEmpty(); }
  /// A point of the set: its dims' values first.
  std::optional<SmallVector<int64_t>> findSample() const {
    std::optional<SmallVector<DynamicAPInt, 8>> point =
        set->findIntegerSample();
    if (!point)
      return std::nullopt;
    // A dim left out of the set takes a value its own bounds allow.
    SmallVector<int64_t> values(numDims, 0);
    for (unsigned i = 0; i < numDims; ++i)
      values[i] =
          dimColumn[i] != ~0u ? int64_t((*point)[dimColumn[i]]) : loneValue[i];
    return values;
  }

private:
  /// Coefficients of the dims, then of the locals there were at its making
  /// (those made since have none), then the constant.
  using Form = SmallVector<int64_t, 8>;
  struct Local {
    Form dividend;
    int64_t divisor;
  };

  size_t width() const { return numDims + locals.size() + 1; }
  /// `form` with a coefficient for every local there is now.
  Form padded(const Form &form) const {
    Form full(width(), 0);
    std::copy(form.begin(), form.end() - 1, full.begin());
    full.back() = form.back();
    return full;
  }
  Form constantForm(int64_t value) const {
    Form form(width(), 0);
    form.back() = value;
    return form;
  }
  static std::optional<int64_t> constantOf(const Form &form) {
    if (llvm::any_of(ArrayRef<int64_t>(form).drop_back(),
                     [](int64_t c) { return c != 0; }))
      return std::nullopt;
    return form.back();
  }
  /// a + scaleB * b; an overflow of a coefficient makes the constraint
  /// being flattened inexpressible.
  Form sum(const Form &a, const Form &b, int64_t scaleB) {
    Form x = padded(a), y = padded(b), result(width());
    for (size_t i = 0; i < x.size(); ++i) {
      int64_t scaled;
      overflowed |= llvm::MulOverflow(scaleB, y[i], scaled) ||
                    llvm::AddOverflow(x[i], scaled, result[i]);
    }
    return result;
  }
  /// Takes out each dim that only rows of its own bound (a thread or loop
  /// counter no place or condition of the pair names): some value meets
  /// them unless they cross, and each such dim is a column the simplex
  /// would carry for nothing.
  void dropLoneDims() {
    loneValue.assign(numDims, 0);
    SmallVector<unsigned> rowsNaming(numDims, 0), loneRows(numDims, 0);
    SmallVector<bool> inDividend(numDims, false);
    for (const Local &local : locals)
      for (unsigned i = 0; i < numDims; ++i)
        inDividend[i] = inDividend[i] || local.dividend[i] != 0;
    for (const auto &[form, equality] : rows) {
      unsigned named = llvm::count_if(ArrayRef<int64_t>(form).drop_back(),
                                      [](int64_t c) { return c != 0; });
      for (unsigned i = 0; i < numDims; ++i)
        if (form[i] != 0) {
          ++rowsNaming[i];
          loneRows[i] += named == 1 && !equality;
        }
    }
    for (unsigned dim = 0; dim < numDims; ++dim) {
      if (inDividend[dim] || !rowsNaming[dim] ||
          rowsNaming[dim] != loneRows[dim])
        continue;
      // Its rows are c * x + d >= 0: bounds on x alone.
      int64_t lo = INT64_MIN, hi = INT64_MAX;
      for (const auto &row : rows) {
        int64_t c = row.first[dim], d = row.first.back();
        if (c > 0)
          lo = std::max(lo, llvm::divideCeilSigned(-d, c));
        else if (c < 0)
          hi = std::min(hi, llvm::divideFloorSigned(d, -c));
      }
      infeasible |= lo > hi;
      loneValue[dim] = lo != INT64_MIN ? lo : std::min<int64_t>(hi, 0);
      llvm::erase_if(rows, [&](const std::pair<Form, bool> &row) {
        return row.first[dim] != 0;
      });
    }
  }
  void markUsed(const Form &form, SmallVector<bool> &used) const {
    for (size_t i = numDims; i + 1 < form.size(); ++i)
      if (form[i] != 0)
        used[i - numDims] = true;
  }
  /// `form` as a row of the set: dims, the locals in it, the constant.
  SmallVector<int64_t> toRow(const Form &form) const {
    SmallVector<int64_t> row(set->getNumVars() + 1, 0);
    for (unsigned i = 0; i < numDims; ++i)
      if (form[i] != 0)
        row[dimColumn[i]] = form[i];
    for (size_t i = numDims; i + 1 < form.size(); ++i)
      if (form[i] != 0)
        row[column[i - numDims]] += form[i];
    row.back() = form.back();
    return row;
  }
  /// `dividend` floordiv `divisor`, as a form.
  Form floorDiv(const Form &dividend, int64_t divisor) {
    Form rest = padded(dividend), result = constantForm(0);
    for (size_t i = 0; i + 1 < rest.size(); ++i)
      if (rest[i] % divisor == 0) {
        result[i] = rest[i] / divisor;
        rest[i] = 0;
      }
    int64_t whole = llvm::divideFloorSigned(rest.back(), divisor);
    result.back() = whole;
    rest.back() -= whole * divisor;
    if (constantOf(rest))
      return result; // A constant in [0, divisor): its quotient is 0.
    std::vector<int64_t> key(rest.begin(), rest.end());
    while (key.size() > 1 && key[key.size() - 2] == 0)
      key.erase(key.end() - 2);
    auto [it, inserted] = localIndex.try_emplace({key, divisor}, 0);
    if (inserted) {
      it->second = locals.size();
      locals.push_back({rest, divisor});
      result = padded(result);
    }
    result[numDims + it->second] += 1;
    return result;
  }
  std::optional<Form> flatten(AffineExpr expr) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      return constantForm(constant.getValue());
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      Form form = constantForm(0);
      form[dim.getPosition()] = 1;
      return form;
    }
    auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!binary)
      return std::nullopt;
    std::optional<Form> lhs = flatten(binary.getLHS());
    std::optional<Form> rhs = lhs ? flatten(binary.getRHS()) : std::nullopt;
    if (!rhs)
      return std::nullopt;
    if (binary.getKind() == AffineExprKind::Add)
      return sum(*lhs, *rhs, 1);
    std::optional<int64_t> right = constantOf(*rhs);
    if (binary.getKind() == AffineExprKind::Mul) {
      if (right)
        return sum(constantForm(0), *lhs, *right);
      if (std::optional<int64_t> left = constantOf(*lhs))
        return sum(constantForm(0), *rhs, *left);
      return std::nullopt;
    }
    if (!right || *right <= 0)
      return std::nullopt;
    switch (binary.getKind()) {
    case AffineExprKind::FloorDiv:
      return floorDiv(*lhs, *right);
    case AffineExprKind::CeilDiv:
      return floorDiv(sum(*lhs, constantForm(*right - 1), 1), *right);
    case AffineExprKind::Mod:
      return sum(*lhs, floorDiv(*lhs, *right), -*right);
    default:
      return std::nullopt;
    }
  }

  unsigned numDims;
  std::vector<Local> locals;
  std::map<std::pair<std::vector<int64_t>, int64_t>, unsigned> localIndex;
  std::vector<std::pair<Form, bool>> rows;
  std::optional<presburger::IntegerPolyhedron> set;
  /// Each local's and each dim's column in the set (for those in it).
  std::vector<unsigned> column, dimColumn;
  /// A value of each dim left out of the set that its bounds allow, and
  /// whether the bounds of one crossed.
  SmallVector<int64_t> loneValue;
  bool infeasible = false;
  /// Whether a coefficient of the constraint being flattened overflowed.
  bool overflowed = false;
};
} // namespace

bool SymbolicValues::isSatisfiable(ArrayRef<Constraint> constraints,
                                   unsigned numDims) {
  return findPoint(constraints, numDims, /*wantValues=*/false).has_value();
}

std::optional<SmallVector<int64_t>>
SymbolicValues::findPoint(ArrayRef<Constraint> constraints, unsigned numDims,
                          bool wantValues) {
  ++setsChecked;
  lastSetTooDeep = lastSetInexpressible = false;
  PresburgerSetBuilder set(numDims);
  llvm::DenseSet<std::pair<const void *, unsigned>> added;
  for (const Constraint &constraint : constraints) {
    if (std::optional<bool> truth = constantTruth(constraint)) {
      if (!*truth)
        return std::nullopt;
      continue;
    }
    if (!added
             .insert(
                 {constraint.expr.getAsOpaquePointer(), constraint.equality})
             .second)
      continue;
    if (!set.add(constraint)) {
      // Not expressible: taken as possible, and the caller is told.
      lastSetInexpressible = true;
      return SmallVector<int64_t>();
    }
  }
  // The integer emptiness test grows about tenfold with every seven local
  // variables (a second with 25): past the limit the set is taken as
  // possibly met, and the caller is told.
  if (set.build() > kMaxLocals) {
    lastSetTooDeep = true;
    return SmallVector<int64_t>();
  }
  if (!wantValues)
    return set.isIntegerEmpty() ? std::nullopt
                                : std::optional(SmallVector<int64_t>());
  return set.findSample();
}
