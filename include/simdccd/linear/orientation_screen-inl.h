// A certified screen of stage 1 (tile_kernel-inl.h): the projected
// orientations of the primitives keep opposite signs over the whole step, so
// they can never touch, whatever the coplanarity cubic does. It dismisses
// most queries whose cubic has roots in [0,1] while the vertex passes beside
// the face (the edges beside each other), before any root is isolated.
//
// With R_j(t) = x_j(t) - x_0(t) as in coplanarity_cubic-inl.h, drop one axis
// and take the 2D cross products D_ij = R_i x R_j (area_inclusion-inl.h).
// At a contact:
//  - VF: the vertex is a convex combination, sum l_j R_j = 0 with l_j >= 0,
//    so l_1 D12 = l_3 D23, l_2 D23 = l_1 D31 and l_3 D31 = l_2 D12: no two of
//    D12, D23, D31 have strictly opposite signs (else two weights vanish and
//    the third equation forces a zero);
//  - EE: s R_1 = (1 - r) R_2 + r R_3 with s, r in [0,1]; crossing with each
//    R_j and with the rows relative to a1 gives the same kind of equations
//    between -D12, -D31, D23 and -(D12 + D23 + D31): no two of them have
//    strictly opposite signs.
// This holds in any projection, degenerate (collinear) ones included, so no
// axis needs to be certified: all three are tried. Each D_ij(t) is a
// quadratic with Bernstein coefficients on [0,1]
//   c0 = D_ij(P), c2 = D_ij(Q), c1 = (P_i x Q_j + Q_i x P_j) / 2,
// and is certified positive (negative) all along when its three coefficients
// are beyond their error bounds: the relative coordinates round once, each
// product of two and the sums a few times (at most 6 u per term of the
// permanent; we use 16 u), as the cubic's bounds do.
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target like tile_kernel-inl.h.
#if defined(SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_
#undef SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_
#else
#define SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_
#endif

#include "simdccd/linear/area_inclusion-inl.h"
#include "simdccd/linear/coplanarity_cubic-inl.h"
#include "simdccd/query.hpp"
#include "simdccd/simd/error_bounds.hpp"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

/// Whether a quadratic on [0,1] in Bernstein form (c0, c1, c2), each
/// coefficient within `bound` of the exact one, is certified positive
/// (negative) all along. (Plain values, not a struct: SVE vectors cannot be
/// members.)
template <class L>
typename L::M certified_positive(typename L::V c0, typename L::V c1, typename L::V c2, typename L::V bound) {
  return L::both(L::both(L::gt(c0, bound), L::gt(c1, bound)), L::gt(c2, bound));
}
template <class L>
typename L::M certified_negative(typename L::V c0, typename L::V c1, typename L::V c2, typename L::V bound) {
  const typename L::V low = L::sub(L::set(0), bound);
  return L::both(L::both(L::lt(c0, low), L::lt(c1, low)), L::lt(c2, low));
}

/// D_ij(t) = R_i(t) x R_j(t) in the projection (u, w) of relative points i, j,
/// from their coordinates at t = 0 (p) and t = 1 (q): its Bernstein
/// coefficients and one bound for the three.
template <class L>
void projected_cross(typename L::V piu, typename L::V piw, typename L::V qiu, typename L::V qiw,
                     typename L::V pju, typename L::V pjw, typename L::V qju, typename L::V qjw,
                     typename L::V& c0, typename L::V& c1, typename L::V& c2, typename L::V& bound) {
  using V = typename L::V;
  const auto a = [](V x) { return L::abs(x); };
  const V half = L::set(0.5);
  c0 = L::sub(L::mul(piu, pjw), L::mul(piw, pju));
  c2 = L::sub(L::mul(qiu, qjw), L::mul(qiw, qju));
  c1 = L::mul(L::sub(L::add(L::mul(piu, qjw), L::mul(qiu, pjw)), L::add(L::mul(piw, qju), L::mul(qiw, pju))), half);
  // The largest permanent (c1's is halved with it).
  const V perm0 = L::add(L::mul(a(piu), a(pjw)), L::mul(a(piw), a(pju)));
  const V perm2 = L::add(L::mul(a(qiu), a(qjw)), L::mul(a(qiw), a(qju)));
  const V perm1 = L::mul(L::add(L::add(L::mul(a(piu), a(qjw)), L::mul(a(qiu), a(pjw))),
                                L::add(L::mul(a(piw), a(qju)), L::mul(a(qiw), a(pju)))),
                         half);
  bound = L::add(L::mul(L::set(16 * kUnitRoundoff), L::max(L::max(perm0, perm1), perm2)), L::set(kTiny));
}

/// `decided` or'ed with the lanes whose primitives keep strictly opposite
/// projected orientations over [0,1] in some projection (certainly no
/// contact). The projections left are skipped once every lane is decided:
/// they could change none.
template <class L, QueryType kType>
typename L::M orientations_apart(const QueryLanes<L>& q, typename L::M decided) {
  using V = typename L::V;
  using M = typename L::M;
  M apart = decided;
  for (int drop = 0; drop < 3 && !L::all(apart); ++drop) {
    const int u = (drop + 1) % 3, w = (drop + 2) % 3;
    const auto cross = [&](int i, int j, V& c0, V& c1, V& c2, V& bound) {
      projected_cross<L>(q.relative(0, i, u), q.relative(0, i, w), q.relative(1, i, u), q.relative(1, i, w),
                         q.relative(0, j, u), q.relative(0, j, w), q.relative(1, j, u), q.relative(1, j, w), c0,
                         c1, c2, bound);
    };
    V a0, a1, a2, ab, b0, b1, b2, bb, c0, c1, c2, cb;  // D12, D23, D31
    cross(1, 2, a0, a1, a2, ab);
    cross(2, 3, b0, b1, b2, bb);
    cross(3, 1, c0, c1, c2, cb);
    const M pos12 = certified_positive<L>(a0, a1, a2, ab), neg12 = certified_negative<L>(a0, a1, a2, ab);
    const M pos23 = certified_positive<L>(b0, b1, b2, bb), neg23 = certified_negative<L>(b0, b1, b2, bb);
    const M pos31 = certified_positive<L>(c0, c1, c2, cb), neg31 = certified_negative<L>(c0, c1, c2, cb);
    M some_positive = L::either(L::either(pos12, pos23), pos31);
    M some_negative = L::either(L::either(neg12, neg23), neg31);
    if constexpr (kType == QueryType::edge_edge) {
      // The four EE quantities with signs flipped to agree at a contact:
      // -D12, -D31, D23 and -(D12 + D23 + D31).
      V e0, e1, e2;
      const V s0 = certified_sum<L>(a0, b0, c0, ab, bb, cb, e0);
      const V s1 = certified_sum<L>(a1, b1, c1, ab, bb, cb, e1);
      const V s2 = certified_sum<L>(a2, b2, c2, ab, bb, cb, e2);
      const V sb = L::max(L::max(e0, e1), e2);
      some_positive = L::either(L::either(neg12, neg31), L::either(pos23, certified_negative<L>(s0, s1, s2, sb)));
      some_negative = L::either(L::either(pos12, pos31), L::either(neg23, certified_positive<L>(s0, s1, s2, sb)));
    }
    apart = L::either(apart, L::both(some_positive, some_negative));
  }
  return apart;
}

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_
