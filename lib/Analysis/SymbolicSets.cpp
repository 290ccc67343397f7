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
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include <functional>
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
  /// What a search of the box found: whether a point meets the set, and
  /// the first that does (its dims' values).
  struct BoxVerdict {
    bool met = false;
    SmallVector<int64_t> point;
  };

  /// Chooses the locals and dims the constraints added use; returns how
  /// many locals the set has. The Presburger set itself is made only for
  /// the simplex (buildSet): a search of the box needs none.
  unsigned build() {
    dropLoneDims();
    // The locals used, and those their dividends use (a dividend uses only
    // locals made before it).
    used.assign(locals.size(), false);
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
    for (unsigned &dim : dimColumn)
      if (dim != ~0u)
        dim = numUsedDims++;
    numUsedLocals = llvm::count(used, true);
    return numUsedLocals;
  }
  /// Makes the Presburger set of what build chose.
  void buildSet() {
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
  }
  bool isIntegerEmpty() const { return set->isIntegerEmpty(); }

  /// Decides the set built by trying every point of its dims' box, each
  /// local computed from its floordiv: as exact as the simplex, and much
  /// cheaper where the box is small or the locals many. The simplex's
  /// numbers outgrow 64 bits on deep nests of mods (a periodic network
  /// reversed and riffled: 12 locals over one thread took 1.4 s, and a
  /// fuzzed kernel's cross-check minutes). Dims are set one at a time, and
  /// a row is checked as soon as the dims it names are set. None where the
  /// box is not known (a dim without bounds of its own), holds more than
  /// `maxWork` local and row evaluations, or a value outgrows 64 bits.
  std::optional<BoxVerdict> searchBox(uint64_t maxWork) const {
    if (infeasible)
      return BoxVerdict{};
    // The used dims in order, each with the bounds rows of its own give.
    SmallVector<unsigned> dims;
    for (unsigned i = 0; i < numDims; ++i)
      if (dimColumn[i] != ~0u)
        dims.push_back(i);
    SmallVector<int64_t> lo(dims.size(), INT64_MIN), hi(dims.size(), INT64_MAX);
    for (const auto &[form, equality] : rows) {
      std::optional<unsigned> only;
      bool single = true;
      for (size_t i = 0; i + 1 < form.size() && single; ++i)
        if (form[i] != 0) {
          single = !only && i < numDims;
          only = i;
        }
      if (!single || !only || form.back() == INT64_MIN)
        continue;
      // c x + d >= 0 (or == 0): x on one side of -d / c (or at it).
      unsigned at = llvm::find(dims, *only) - dims.begin();
      int64_t c = form[*only], d = form.back();
      if (c < 0) {
        c = -c;
        d = -d;
      }
      if (form[*only] > 0 || equality)
        lo[at] = std::max(lo[at], llvm::divideCeilSigned(-d, c));
      if (form[*only] < 0 || equality)
        hi[at] = std::min(hi[at], llvm::divideFloorSigned(-d, c));
    }
    uint64_t points = 1;
    for (size_t k = 0; k < dims.size(); ++k) {
      if (lo[k] == INT64_MIN || hi[k] == INT64_MAX)
        return std::nullopt;
      if (lo[k] > hi[k])
        return BoxVerdict{};
      uint64_t width = uint64_t(hi[k]) - uint64_t(lo[k]) + 1;
      if (__builtin_mul_overflow(points, width, &points))
        return std::nullopt;
    }
    // Each used local and each row is evaluated once its last dim is set.
    uint64_t work;
    if (__builtin_mul_overflow(
            points, uint64_t(numUsedLocals + rows.size() + 1), &work) ||
        work > maxWork)
      return std::nullopt;
    auto depthOf = [&](const Form &form, ArrayRef<int> localDepth) {
      int depth = -1;
      for (size_t k = 0; k < dims.size(); ++k)
        if (form[dims[k]] != 0)
          depth = std::max<int>(depth, k);
      for (size_t i = numDims; i + 1 < form.size(); ++i)
        if (form[i] != 0)
          depth = std::max(depth, localDepth[i - numDims]);
      return depth;
    };
    SmallVector<int> localDepth(locals.size(), -1);
    SmallVector<SmallVector<unsigned>> localsAt(dims.size() + 1),
        rowsAt(dims.size() + 1);
    for (size_t i = 0; i < locals.size(); ++i)
      if (used[i]) {
        localDepth[i] = depthOf(locals[i].dividend, localDepth);
        localsAt[localDepth[i] + 1].push_back(i);
      }
    for (auto [index, row] : llvm::enumerate(rows))
      rowsAt[depthOf(row.first, localDepth) + 1].push_back(index);
    // The value of every dim and local, as forms name them.
    SmallVector<int64_t> value(numDims + locals.size(), 0);
    for (unsigned i = 0; i < numDims; ++i)
      value[i] = loneValue[i];
    bool outgrown = false;
    auto evaluate = [&](const Form &form) {
      int64_t total = form.back();
      for (size_t i = 0; i + 1 < form.size(); ++i) {
        int64_t term;
        if (form[i] != 0 && (llvm::MulOverflow(form[i], value[i], term) ||
                             llvm::AddOverflow(total, term, total)))
          outgrown = true;
      }
      return total;
    };
    // Sets the locals of `level` and checks its rows.
    auto holdsAt = [&](size_t level) {
      for (unsigned i : localsAt[level])
        value[numDims + i] = llvm::divideFloorSigned(
            evaluate(locals[i].dividend), locals[i].divisor);
      for (unsigned index : rowsAt[level]) {
        int64_t total = evaluate(rows[index].first);
        if (rows[index].second ? total != 0 : total < 0)
          return false;
      }
      return true;
    };
    std::function<bool(size_t)> search = [&](size_t k) {
      if (k == dims.size())
        return true;
      for (int64_t x = lo[k];; ++x) {
        value[dims[k]] = x;
        if (holdsAt(k + 1) && search(k + 1))
          return true;
        if (outgrown || x == hi[k])
          return false;
      }
    };
    BoxVerdict verdict;
    verdict.met = holdsAt(0) && search(0);
    if (outgrown)
      return std::nullopt;
    if (verdict.met)
      verdict.point.assign(value.begin(), value.begin() + numDims);
    return verdict;
  }
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
  /// Which locals and how many dims the set uses (build).
  SmallVector<bool> used;
  unsigned numUsedLocals = 0, numUsedDims = 0;
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

static llvm::cl::opt<bool> searchBoxes(
    "obs-symbolic-box-search",
    llvm::cl::desc("Decide the symbolic proof's sets whose box of thread ids "
                   "and loop counters is small, or whose locals are many, by "
                   "trying its every point instead of by the simplex (on by "
                   "default; the tests compare the two)"),
    llvm::cl::init(true));

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
  unsigned numLocals = set.build();
  // A box of dims is searched point by point where that takes less than
  // the simplex would: the more locals, the larger the box.
  if (std::optional<PresburgerSetBuilder::BoxVerdict> box =
          searchBoxes ? set.searchBox(getMaxBoxWork(numLocals))
                      : std::nullopt) {
    if (!box->met)
      return std::nullopt;
    return std::move(box->point);
  }
  // The integer emptiness test grows about tenfold with every seven local
  // variables (a second with 25): past the limit the set is taken as
  // possibly met, and the caller is told.
  if (numLocals > kMaxLocals) {
    lastSetTooDeep = true;
    return SmallVector<int64_t>();
  }
  set.buildSet();
  if (!wantValues)
    return set.isIntegerEmpty() ? std::nullopt
                                : std::optional(SmallVector<int64_t>());
  return set.findSample();
}
