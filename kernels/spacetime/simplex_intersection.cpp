#include "spacetime/simplex_intersection.hpp"

#include <cassert>

namespace simdccd::spacetime {
namespace {

constexpr int kMaxPoints = 4;
constexpr int kMaxRows = 4 + 2;            // d coordinate rows, then sum alpha = 1 and sum beta = 1
constexpr int kMaxVars = 2 * kMaxPoints;  // alpha, then beta

// The simplex tableau of the program in the header, times det_ (> 0), the
// determinant of the current basis up to sign: then every entry is an integer
// (a minor of the initial tableau, by Cramer's rule) and the pivot from basis
// determinant D to D' divides exactly by D (Bareiss). Row `rows_` holds the
// reduced costs of the objective, row `rows_ + 1` those of phase 1; column
// `vars_` is the right-hand side (for cost rows: minus the objective value).
// Artificial variables (one per row, indices vars_ + row) have no column: once
// out of the basis they never return.
class Tableau {
 public:
  Tableau(int d, std::span<const IntPoint* const> a, std::span<const IntPoint* const> b)
      : rows_(d + 2), vars_(static_cast<int>(a.size() + b.size())), live_rows_(rows_ + 2) {
    const int na = static_cast<int>(a.size()), rhs = vars_;
    for (int j = 0; j < vars_; ++j) {
      const bool in_a = j < na;
      const IntPoint& p = in_a ? *a[j] : *b[j - na];
      for (int c = 0; c < d; ++c) {
        t_[c][j] = p[c];
        if (!in_a) mpz_neg(t_[c][j].get_mpz_t(), t_[c][j].get_mpz_t());
      }
      t_[d][j] = in_a ? 1 : 0;
      t_[d + 1][j] = in_a ? 0 : 1;
      t_[rows_][j] = in_a ? p[d - 1] : 0;
    }
    for (int i = 0; i < rows_; ++i) t_[i][rhs] = i >= d ? 1 : 0;
    t_[rows_][rhs] = 0;
    // Phase 1 minimises the sum of the artificials, i.e. sum_i (b_i - A_i x).
    for (int j = 0; j <= rhs; ++j) {
      mpz_class& w = t_[rows_ + 1][j];
      w = 0;
      for (int i = 0; i < rows_; ++i) w -= t_[i][j];
    }
    for (int i = 0; i < rows_; ++i) basis_[i] = vars_ + i;
  }

  // Phase 1: whether the program is feasible; then leaves a feasible basis free
  // of artificials except in redundant rows (all zero, where they stay at 0).
  bool make_feasible() {
    while (step(rows_ + 1)) {
    }
    if (sgn(t_[rows_ + 1][vars_]) != 0) return false;
    live_rows_ = rows_ + 1;
    for (int i = 0; i < rows_; ++i) {
      if (basis_[i] < vars_) continue;
      for (int q = 0; q < vars_; ++q) {
        if (sgn(t_[i][q]) != 0) {  // its right-hand side is 0: any sign keeps feasibility
          pivot(i, q);
          break;
        }
      }
    }
    return true;
  }

  // Phase 2, from a feasible basis: the minimum of the objective.
  mpq_class minimise() {
    while (step(rows_)) {
    }
    mpq_class value(-t_[rows_][vars_], det_);
    value.canonicalize();
    return value;
  }

 private:
  // One pivot by Bland's rule on cost row `cost`; false when optimal.
  bool step(int cost) {
    int q = 0;
    while (q < vars_ && sgn(t_[cost][q]) >= 0) ++q;
    if (q == vars_) return false;
    // Ratio test: least rhs / entry over positive entries (all share det_),
    // ties to the least basic variable.
    int p = -1;
    for (int i = 0; i < rows_; ++i) {
      if (sgn(t_[i][q]) <= 0) continue;
      if (p >= 0) {
        mpz_mul(tmp_.get_mpz_t(), t_[i][vars_].get_mpz_t(), t_[p][q].get_mpz_t());
        mpz_mul(tmp2_.get_mpz_t(), t_[p][vars_].get_mpz_t(), t_[i][q].get_mpz_t());
        const int c = cmp(tmp_, tmp2_);
        if (c > 0 || (c == 0 && basis_[i] > basis_[p])) continue;
      }
      p = i;
    }
    assert(p >= 0);  // both phases are bounded below
    pivot(p, q);
    return true;
  }

  void pivot(int p, int q) {
    const mpz_class& pq = t_[p][q];  // row p keeps its entries
    for (int i = 0; i < live_rows_; ++i) {
      if (i == p) continue;
      mpz_class* row = t_[i].data();
      const mpz_class& iq = row[q];
      for (int j = 0; j <= vars_; ++j) {
        if (j == q) continue;
        mpz_mul(tmp_.get_mpz_t(), row[j].get_mpz_t(), pq.get_mpz_t());
        if (sgn(iq) != 0) mpz_submul(tmp_.get_mpz_t(), iq.get_mpz_t(), t_[p][j].get_mpz_t());
        mpz_divexact(row[j].get_mpz_t(), tmp_.get_mpz_t(), det_.get_mpz_t());
      }
      row[q] = 0;
    }
    det_ = pq;
    basis_[p] = q;
    if (sgn(det_) < 0) {
      det_ = -det_;
      for (int i = 0; i < live_rows_; ++i) {
        for (int j = 0; j <= vars_; ++j) mpz_neg(t_[i][j].get_mpz_t(), t_[i][j].get_mpz_t());
      }
    }
  }

  int rows_, vars_, live_rows_;
  std::array<std::array<mpz_class, kMaxVars + 1>, kMaxRows + 2> t_;
  std::array<int, kMaxRows> basis_;
  mpz_class det_ = 1;
  mpz_class tmp_, tmp2_;  // scratch, kept to reuse their storage
};

// Some coordinate separates the bounding boxes: an exact, cheap miss.
bool boxes_disjoint(int d, std::span<const IntPoint* const> a, std::span<const IntPoint* const> b) {
  for (int c = 0; c < d; ++c) {
    const mpz_class *a_lo = &(*a[0])[c], *a_hi = a_lo, *b_lo = &(*b[0])[c], *b_hi = b_lo;
    for (const IntPoint* p : a.subspan(1)) {
      if ((*p)[c] < *a_lo) a_lo = &(*p)[c];
      if ((*p)[c] > *a_hi) a_hi = &(*p)[c];
    }
    for (const IntPoint* p : b.subspan(1)) {
      if ((*p)[c] < *b_lo) b_lo = &(*p)[c];
      if ((*p)[c] > *b_hi) b_hi = &(*p)[c];
    }
    if (*a_hi < *b_lo || *b_hi < *a_lo) return true;
  }
  return false;
}

}  // namespace

std::optional<mpq_class> lowest_intersection(int d, std::span<const IntPoint* const> a,
                                             std::span<const IntPoint* const> b) {
  assert(1 <= d && d <= 4);
  assert(!a.empty() && a.size() <= kMaxPoints && !b.empty() && b.size() <= kMaxPoints);
  if (boxes_disjoint(d, a, b)) return std::nullopt;
  Tableau tableau(d, a, b);
  if (!tableau.make_feasible()) return std::nullopt;
  return tableau.minimise();
}

std::optional<mpq_class> lowest_intersection(int d, std::span<const std::array<mpq_class, 4>* const> a,
                                             std::span<const std::array<mpq_class, 4>* const> b) {
  assert(1 <= d && d <= 4);
  assert(!a.empty() && a.size() <= kMaxPoints && !b.empty() && b.size() <= kMaxPoints);
  // Coordinate c of every point times the common denominator of coordinate c.
  std::array<mpz_class, 4> scale;
  for (int c = 0; c < d; ++c) {
    scale[c] = 1;
    for (auto points : {a, b}) {
      for (const auto* p : points) {
        mpz_lcm(scale[c].get_mpz_t(), scale[c].get_mpz_t(), (*p)[c].get_den_mpz_t());
      }
    }
  }
  std::array<IntPoint, 2 * kMaxPoints> ints;
  std::array<const IntPoint*, 2 * kMaxPoints> refs;
  int n = 0;
  for (auto points : {a, b}) {
    for (const auto* p : points) {
      for (int c = 0; c < d; ++c) {
        mpz_divexact(ints[n][c].get_mpz_t(), scale[c].get_mpz_t(), (*p)[c].get_den_mpz_t());
        ints[n][c] *= (*p)[c].get_num();
      }
      refs[n] = &ints[n];
      ++n;
    }
  }
  std::optional<mpq_class> lowest = lowest_intersection(
      d, std::span(refs.data(), a.size()), std::span(refs.data() + a.size(), b.size()));
  if (lowest) *lowest /= scale[d - 1];
  return lowest;
}

}  // namespace simdccd::spacetime
