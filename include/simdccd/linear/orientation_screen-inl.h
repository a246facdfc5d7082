// A certified screen of stage 1 (tile_kernel-inl.h): wherever the
// coplanarity cubic may vanish, the projected orientations of the primitives
// keep opposite signs, so they can never touch. It dismisses most queries
// whose cubic has roots in [0,1] while the vertex passes beside the face
// (the edges beside each other), before any root is isolated.
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
// permanent; we use 16 u), as the cubic's bounds do. The three permanents
// of D_ij are at most n_iu n_jw + n_iw n_ju, n_ja the larger |coordinate a|
// of R_j at t = 0 and t = 1: 16 u times that bounds all three coefficients.
//
// The same holds on each quarter of the step, in each quarter's own
// projection: a query is dismissed when on every quarter either the
// orientations are apart or the cubic has no root (no coplanarity, no
// contact). Orientations that change sign over the step are often apart on
// every quarter: on the random workload (every coordinate uniform in [0,1))
// this dismisses 87% of the VF queries (51% for the whole step alone), 73%
// of the EE ones (39%); halves give 77% and 64%.
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target like tile_kernel-inl.h.
#if defined(SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_
#undef SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_
#else
#define SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_
#endif

#include <limits>
#include <type_traits>

#include "simdccd/linear/area_inclusion-inl.h"
#include "simdccd/linear/coplanarity_cubic-inl.h"
#include "simdccd/query.hpp"
#include "simdccd/simd/cubic_roots-inl.h"
#include "simdccd/simd/error_bounds.hpp"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

/// D_ij(t) = R_i(t) x R_j(t) in the projection (u, w) of relative points i, j,
/// from their coordinates at t = 0 (p) and t = 1 (q): its Bernstein
/// coefficients.
template <class L>
void projected_cross(typename L::V piu, typename L::V piw, typename L::V qiu, typename L::V qiw,
                     typename L::V pju, typename L::V pjw, typename L::V qju, typename L::V qjw,
                     typename L::V& c0, typename L::V& c1, typename L::V& c2) {
  c0 = L::sub(L::mul(piu, pjw), L::mul(piw, pju));
  c2 = L::sub(L::mul(qiu, qjw), L::mul(qiw, qju));
  c1 = L::mul(L::sub(L::add(L::mul(piu, qjw), L::mul(qiu, pjw)), L::add(L::mul(piw, qju), L::mul(qiw, pju))),
              L::set(0.5));
}

/// A quadratic's Bernstein coefficients (c0, c1, c2) on [0,1] split at 1/2:
/// (c0, m0, m) on [0, 1/2] and (m, m1, c2) on [1/2, 1]. They are convex
/// combinations of the c_k, so within the c_k's bound of the exact ones but
/// for their own rounding, at most 2 u max |c_k| a split (the halving is
/// exact). The bounds here are at least 16 u times the permanents (or the
/// sum of such bounds), so twice the bound covers two splits.
template <class L>
void split_quadratic(typename L::V c0, typename L::V c1, typename L::V c2, typename L::V& m0,
                     typename L::V& m, typename L::V& m1) {
  const typename L::V half = L::set(0.5);
  m0 = L::mul(L::add(c0, c1), half);
  m1 = L::mul(L::add(c1, c2), half);
  m = L::mul(L::add(m0, m1), half);
}

/// `decided` or'ed with the lanes whose primitives keep strictly opposite
/// projected orientations, in some projection, over the whole step or on
/// each quarter of it where the coplanarity cubic (Bernstein coefficients
/// b0..b3, blossom_error `error`) may have a root: certainly no contact.
/// [w0, w1] (on the lanes left) holds every possible contact: it runs from
/// the first quarter not settled either way to the end of the last one
/// ([0, 1] when the quarters were not needed). The projections left are
/// skipped once every lane is decided: they could change none.
///
/// Two orders give the same lanes and windows. With `quarters_first` false
/// the whole step is tried in every projection before the quarters (it
/// settles most vectors of a simulation step at a fraction of the cost);
/// with it true each projection's quadratics are tested whole and on the
/// quarters at once, computed once (random-like vectors, whose whole step
/// rarely settles every lane). On return `quarters_first` says whether this
/// vector needed the quarters: a guess for the next one.
template <class L, QueryType kType>
typename L::M orientations_apart(const QueryLanes<L>& q, typename L::M decided, typename L::V cubic0,
                                 typename L::V cubic1, typename L::V cubic2, typename L::V cubic3,
                                 typename L::V error, typename L::V& w0, typename L::V& w1, bool& quarters_first) {
  using V = typename L::V;
  using M = typename L::M;
  const V quarter = L::set(0.25), half = L::set(0.5), three_quarters = L::set(0.75);
  w0 = L::set(0), w1 = L::set(1);
  // A quadratic is certified positive (negative) on an interval when its
  // three coefficients there exceed the bound b (are below -b). Per interval
  // and projection, p keeps the largest min f - b and n the smallest max f +
  // b of its quadratics (with `flip`, whose negative counts as positive: -(max
  // f + b) and -(min f - b)): some quadratic is certified positive and
  // another negative when p > 0 > n. A rounded difference or sum of two
  // doubles has the exact one's sign, so these are the exact comparisons
  // (under flush-to-zero a tiny one may become 0: a certificate lost, never
  // a false one).
  const auto put = [](V& p, V& n, V f0, V f1, V f2, V b, bool flip) {
    const V lo = L::sub(L::min(f0, L::min(f1, f2)), b), hi = L::add(L::max(f0, L::max(f1, f2)), b);
    p = L::max(p, flip ? L::sub(L::set(0), hi) : lo);
    n = L::min(n, flip ? L::sub(L::set(0), lo) : hi);
  };
  const V lowest = L::set(-std::numeric_limits<double>::infinity());
  const V highest = L::set(std::numeric_limits<double>::infinity());
  const auto opposite = [](V p, V n) { return L::both(L::gt(p, L::set(0)), L::lt(n, L::set(0))); };
  // f(k0, k1, k2, bound, flip) on each quadratic of projection `drop` that
  // must not have a strict sign opposite to another's at a contact, `flip`
  // where its sign counts negated: VF D12, D23, D31; EE -D12, -D31, D23 and
  // -(D12 + D23 + D31).
  const auto each_quadratic = [&](auto drop, const auto& f) {
    const int u = (drop + 1) % 3, w = (drop + 2) % 3;
    const auto largest = [&](int j, int axis) {
      return L::max(L::abs(q.relative(0, j, axis)), L::abs(q.relative(1, j, axis)));
    };
    const V n1u = largest(1, u), n1w = largest(1, w), n2u = largest(2, u), n2w = largest(2, w);
    const V n3u = largest(3, u), n3w = largest(3, w);
    const auto cross = [&](int i, int j, V niu, V niw, V nju, V njw, V& c0, V& c1, V& c2, V& bound) {
      projected_cross<L>(q.relative(0, i, u), q.relative(0, i, w), q.relative(1, i, u), q.relative(1, i, w),
                         q.relative(0, j, u), q.relative(0, j, w), q.relative(1, j, u), q.relative(1, j, w), c0,
                         c1, c2);
      bound = L::add(L::mul(L::set(16 * kUnitRoundoff), L::add(L::mul(niu, njw), L::mul(niw, nju))), L::set(kTiny));
    };
    V a0, a1, a2, ab, b0, b1, b2, bb, c0, c1, c2, cb;  // D12, D23, D31
    cross(1, 2, n1u, n1w, n2u, n2w, a0, a1, a2, ab);
    cross(2, 3, n2u, n2w, n3u, n3w, b0, b1, b2, bb);
    cross(3, 1, n3u, n3w, n1u, n1w, c0, c1, c2, cb);
    constexpr bool ee = kType == QueryType::edge_edge;
    f(a0, a1, a2, ab, ee);
    f(c0, c1, c2, cb, ee);
    f(b0, b1, b2, bb, false);
    if constexpr (ee) {
      V e0, e1, e2;
      const V s0 = certified_sum<L>(a0, b0, c0, ab, bb, cb, e0);
      const V s1 = certified_sum<L>(a1, b1, c1, ab, bb, cb, e1);
      const V s2 = certified_sum<L>(a2, b2, c2, ab, bb, cb, e2);
      f(s0, s1, s2, L::max(L::max(e0, e1), e2), true);
    }
  };
  // body(drop) for the projections dropping axis 0, 1, 2 until it says
  // every lane is decided; unrolled (drop a compile-time constant, so that
  // the relative coordinates projections share are loaded once) where all
  // three are likely to run.
  const auto projections = [](const auto& body) {
    for (int drop = 0; drop < 3; ++drop) {
      if (body(drop)) return;
    }
  };
  const auto unrolled_projections = [](const auto& body) {
    body(std::integral_constant<int, 0>{}) || body(std::integral_constant<int, 1>{}) ||
        body(std::integral_constant<int, 2>{});
  };
  // Quarters settled (SVE masks and vectors cannot live in arrays or
  // structs), and p, n per quarter of one projection.
  M r0, r1, r2, r3;
  V p0, n0, p1, n1, p2, n2, p3, n3;
  const auto put_quarters = [&](V k0, V k1, V k2, V bound, bool flip) {
    V m0, m, m1, x0, x, x1, y0, y, y1;
    split_quadratic<L>(k0, k1, k2, m0, m, m1);
    split_quadratic<L>(k0, m0, m, x0, x, x1);
    split_quadratic<L>(m, m1, k2, y0, y, y1);
    const V b = L::add(bound, bound);
    put(p0, n0, k0, x0, x, b, flip);
    put(p1, n1, x, x1, m, b, flip);
    put(p2, n2, m, y0, y, b, flip);
    put(p3, n3, y, y1, k2, b, flip);
  };
  const auto start_quarters = [&] { p0 = p1 = p2 = p3 = lowest, n0 = n1 = n2 = n3 = highest; };
  const auto settle_quarters = [&] {
    r0 = L::either(r0, opposite(p0, n0));
    r1 = L::either(r1, opposite(p1, n1));
    r2 = L::either(r2, opposite(p2, n2));
    r3 = L::either(r3, opposite(p3, n3));
    return L::both(L::both(r0, r1), L::both(r2, r3));
  };
  M apart = decided, whole = decided;
  if (quarters_first) {
    simd::SIMDCCD_TARGET_NAMESPACE::root_free_quarters<L>(cubic0, cubic1, cubic2, cubic3, error, r0, r1, r2, r3);
    unrolled_projections([&](auto drop) {
      V pos = lowest, neg = highest;
      start_quarters();
      each_quadratic(drop, [&](V k0, V k1, V k2, V bound, bool flip) {
        put(pos, neg, k0, k1, k2, bound, flip);
        put_quarters(k0, k1, k2, bound, flip);
      });
      whole = L::either(whole, opposite(pos, neg));
      apart = L::either(apart, L::either(whole, settle_quarters()));
      return L::all(apart);
    });
    quarters_first = !L::all(whole);
  } else {
    projections([&](int drop) {
      V pos = lowest, neg = highest;
      each_quadratic(drop, [&](V k0, V k1, V k2, V bound, bool flip) { put(pos, neg, k0, k1, k2, bound, flip); });
      whole = L::either(whole, opposite(pos, neg));
      return L::all(whole);
    });
    apart = whole;
    quarters_first = !L::all(whole);
    if (!quarters_first) return apart;
    simd::SIMDCCD_TARGET_NAMESPACE::root_free_quarters<L>(cubic0, cubic1, cubic2, cubic3, error, r0, r1, r2, r3);
    projections([&](int drop) {
      start_quarters();
      each_quadratic(drop, put_quarters);
      apart = L::either(apart, settle_quarters());
      return L::all(apart);
    });
  }
  w0 = L::select(r0, L::select(r1, L::select(r2, three_quarters, half), quarter), w0);
  w1 = L::select(r3, L::select(r2, L::select(r1, quarter, half), three_quarters), w1);
  return apart;
}

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_ORIENTATION_SCREEN_INL_H_
