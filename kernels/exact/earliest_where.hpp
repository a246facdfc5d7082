// The earliest parameter in [0, 1] where a boolean combination of polynomial
// sign conditions holds, decided exactly.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>

#include "exact/real_root.hpp"

namespace simdccd::exact {

/// What a condition reads at a parameter x: signs of polynomials at x
/// itself, or on (x, x + delta) for all small delta > 0 ("right after x").
/// Signs of the polynomials given to earliest_where are computed once per
/// parameter.
class SignsAt {
 public:
  /// For earliest_where: `known[i]` caches the signs of `polys[i]` at x
  /// (INT_MIN: not yet known) and right after it.
  SignsAt(RealRoot& x, bool right_after, std::span<const Poly* const> polys,
          std::span<std::array<int, 2>> known)
      : x_(x), right_after_(right_after), polys_(polys), known_(known) {}
  /// The sign of p at x, or right after x.
  int sign(const Poly& p) { return right_after_ ? right_sign(p) : sign_at(p); }
  /// The sign of p right after x, in both modes (right after x, p keeps the
  /// sign it has on an interval that starts right after x).
  int right_sign(const Poly& p);

 private:
  int sign_at(const Poly& p);
  int* known(const Poly& p, int which);
  RealRoot& x_;
  bool right_after_;
  std::span<const Poly* const> polys_;
  std::span<std::array<int, 2>> known_;
};

/// A condition on the parameter u, evaluated through SignsAt.
using Condition = std::function<bool(SignsAt&)>;

/// The infimum u* of C = {u in [0, 1] : holds(u)} (nullopt when C is empty),
/// given that the signs `holds` reads on an open interval between
/// consecutive roots of `polys` (those with a root) are all constant there:
/// then C meets each such interval in all of it or nothing, so u* is 0 or a
/// root of one of `polys`. The candidates are tried in increasing order (of
/// their isolating intervals), each at itself (`holds` with exact signs) and
/// right after it (`holds` with the signs right after it; not at u = 1); the
/// least that passes is u*. `holds` may read other polynomials too, at a
/// candidate itself (not right after it).
std::optional<RealRoot::Enclosure> earliest_where(std::span<const Poly* const> polys,
                                                   const Condition& holds);

}  // namespace simdccd::exact
