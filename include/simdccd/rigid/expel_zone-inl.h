// The expel zone's rules (rigid_ccd.hpp, expel = e > 0) on a tile of rigid
// queries.
//
// Translation: every condition of the rules is linear in the fraction f, or
// convex, so the contact set is an interval and the toi its left end,
// computed in closed form (van Waveren's fraction = (d1 - e) / (d1 - d2),
// clamped at 0):
// - VF: h(f) = (n.(x - f0) + f n.v) / |n| in [0, e] (the plane's zone),
//   strictly decreasing (n.v < 0), and the vertex's path passing through the
//   closed triangle (the Pluecker sidedness of translation_contact-inl.h, all
//   of the sign of n.v): f in [(h(0) - e)/|h'|, h(0)/|h'|]; the vertex within
//   e of the triangle is certified where it is over the triangle at that
//   toi (then its distance is h); elsewhere (a grazing path entering the
//   zone beside the face) uncertain;
// - EE: with m = da x db and G(f) = m.(a0 - b0) + f m.v (the lines' distance
//   times |m|), the distance strictly decreasing means G shrinks towards 0:
//   H = -sign(G') G > 0, and H <= e |m|; the closest points of the two lines
//   lie on both segments, s_a(f), s_b(f) in [0, |m|^2] with
//   s_a = ((b0 - a0(f)) x db).m, s_b = ((b0 - a0(f)) x da).m, also linear.
// Each condition "p0 + f p1 in [0, C]" gives an interval of f whose ends are
// ratios of certified values, enclosed with their bounds (linear_interval);
// the toi is the largest left end (and 0), a hit when it lies certainly
// before every right end (and 1), a miss when certainly after one. Rounding
// is covered by relative margins of 2^-48 on the enclosures. A toi
// enclosure wider than `tolerance`, or an end that cannot be ordered, is
// uncertain with toi = the enclosure's low end.
//
// Rotation: first version: certified misses only (the sweep farther than e
// from the still primitive; VF the vertex behind the face's plane, or beyond
// its zone, during the whole move; EE the lines' distance beyond e during the
// whole move), every other query uncertain with toi 0.
//
// Defined in namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target by dispatch/rigid_ccd.cc.
#if defined(SIMDCCD_RIGID_EXPEL_ZONE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_RIGID_EXPEL_ZONE_INL_H_
#undef SIMDCCD_RIGID_EXPEL_ZONE_INL_H_
#else
#define SIMDCCD_RIGID_EXPEL_ZONE_INL_H_
#endif

#include <cstddef>
#include <limits>

#include "simdccd/query.hpp"
#include "simdccd/rigid/cayley_forms-inl.h"
#include "simdccd/rigid/rotation_contact-inl.h"
#include "simdccd/rigid/swept_screen-inl.h"
#include "simdccd/rigid/tile.hpp"
#include "simdccd/rigid/translation_contact-inl.h"
#include "simdccd/rigid_motion.hpp"
#include "simdccd/simd/tile_common-inl.h"

namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE {

/// |n| of a vector n computed with permanent pn (each component off by at
/// most kFormError pn_k + kFormTiny), and a bound on its error: the
/// components' errors (at most their sum) plus the rounding of the length.
template <class L, class N, class PN>
typename L::V length_of(const N& n, const PN& pn, typename L::V& error) {
  using V = typename L::V;
  const V length = L::sqrt(dot<L>(n, n));
  const V component_error = form_bound<L>(L::add(L::add(pn(0), pn(1)), pn(2)));
  error = L::add(L::add(L::mul(L::set(3), component_error), L::mul(L::set(4 * simd::kUnitRoundoff), length)),
                 L::set(kFormTiny));
  return length;
}

/// The interval of f where p0 + f p1 lies in [0, c], p0, p1, c known within
/// e0, e1, ec: its ends enclosed, [lo_min, lo_max] and [hi_min, hi_max]
/// (-inf / +inf when unbounded), for the lanes of `known`. Where the slope's
/// sign is not certified, p is constant up to its bound over [0, 1]: the
/// interval is every f where p certainly stays in [0, c], none (lo = +inf)
/// where it certainly stays out; else it is unknown, and given as no
/// constraint (-inf, +inf) with `known` false.
template <class L>
void linear_interval(typename L::V p0, typename L::V e0, typename L::V p1, typename L::V e1,
                     typename L::V c, typename L::V ec, typename L::V& lo_min, typename L::V& lo_max,
                     typename L::V& hi_min, typename L::V& hi_max, typename L::M& known) {
  using V = typename L::V;
  using M = typename L::M;
  const V zero = L::set(0), inf = L::set(std::numeric_limits<double>::infinity());
  const V down = L::set(1 - 0x1p-48), up = L::set(1 + 0x1p-48);
  const M rising = L::gt(p1, e1), falling = L::lt(p1, L::sub(zero, e1));
  const V slope = L::abs(p1);
  const V slope_min = L::mul(L::sub(slope, e1), down), slope_max = L::mul(L::add(slope, e1), up);
  // ratio num / slope enclosed, num known within en
  const auto ratio_min = [&](V num, V en) {
    const V n = L::sub(num, en);
    return L::mul(L::div(n, L::select(L::ge(n, zero), slope_max, slope_min)), L::select(L::ge(n, zero), down, up));
  };
  const auto ratio_max = [&](V num, V en) {
    const V n = L::add(num, en);
    return L::mul(L::div(n, L::select(L::ge(n, zero), slope_min, slope_max)), L::select(L::ge(n, zero), up, down));
  };
  // Rising: [-p0 / p1, (c - p0) / p1]; falling: [(p0 - c) / |p1|, p0 / |p1|].
  const V ec0 = L::mul(L::add(e0, ec), up);
  const V near_num = L::select(rising, L::sub(zero, p0), L::sub(p0, c));
  const V near_err = L::select(rising, e0, ec0);
  const V far_num = L::select(rising, L::sub(c, p0), p0);
  const V far_err = L::select(rising, ec0, e0);
  lo_min = ratio_min(near_num, near_err), lo_max = ratio_max(near_num, near_err);
  hi_min = ratio_min(far_num, far_err), hi_max = ratio_max(far_num, far_err);
  // Nearly constant: p in [p0 - s, p0 + s] on [0, 1], s = |p1| + e1 (+ e0 around p0).
  const V spread = L::mul(L::add(L::add(slope, e1), e0), up);
  const M always = L::both(L::gt(L::sub(p0, spread), zero), L::lt(L::add(p0, spread), L::sub(c, ec)));
  const M never = L::either(L::lt(L::add(p0, spread), zero), L::gt(L::sub(p0, spread), L::add(c, ec)));
  const M flat = L::but_not(L::but_not(L::le(zero, zero), rising), falling);
  const V ninf = L::sub(zero, inf);
  const V flat_lo = L::select(L::both(flat, never), inf, ninf);
  lo_min = L::select(flat, flat_lo, lo_min), lo_max = L::select(flat, flat_lo, lo_max);
  hi_min = L::select(flat, inf, hi_min), hi_max = L::select(flat, inf, hi_max);
  known = L::either(L::either(rising, falling), L::both(flat, L::either(always, never)));
}

/// Lanes where the translated vertex (x + f v) is certainly over the closed
/// triangle, strictly inside its three edges' half-planes, for every f in
/// [lo, hi]: k_i.(x + f v - f_i) > 0 at both ends, k_i = n x (f_i+1 - f_i),
/// each value certified against its permanent.
template <class L>
typename L::M over_face_on(const QueryLanes<L>& q, typename L::V lo, typename L::V hi) {
  using V = typename L::V;
  using M = typename L::M;
  V nx, ny, nz, pnx, pny, pnz;
  normal_of<L>(q, 1, 2, 3, nx, ny, nz, pnx, pny, pnz);
  V vx, vy, vz;
  const auto v = translation_of<L>(q, vx, vy, vz);
  const auto pv = [&](int k) { return L::abs(v(k)); };
  M over = L::le(L::set(0), L::set(0));
  for (int i = 0; i < 3; ++i) {
    const int from = 1 + i, to = 1 + (i + 1) % 3;
    V ex, ey, ez, pex, pey, pez, rx, ry, rz, prx, pry, prz;
    difference<L>(q, to, from, ex, ey, ez, pex, pey, pez);
    difference<L>(q, 0, from, rx, ry, rz, prx, pry, prz);
    V kx, ky, kz, pkx, pky, pkz;
    cross<L>(vec<L>(nx, ny, nz), vec<L>(ex, ey, ez), kx, ky, kz);
    abs_cross<L>(vec<L>(pnx, pny, pnz), vec<L>(pex, pey, pez), pkx, pky, pkz);
    const auto k = vec<L>(kx, ky, kz);
    const auto pk = vec<L>(pkx, pky, pkz);
    const V b0 = dot<L>(k, vec<L>(rx, ry, rz)), e0 = form_bound<L>(dot<L>(pk, vec<L>(prx, pry, prz)));
    const V b1 = dot<L>(k, v), e1 = form_bound<L>(dot<L>(pk, pv));
    // b0 + f b1 with f in [0, 1]: errors e0 + e1 and two roundings.
    const V bound = L::mul(L::add(L::add(e0, e1), L::mul(L::set(2 * simd::kUnitRoundoff), L::add(L::abs(b0), L::abs(b1)))),
                           L::set(1 + 4 * simd::kUnitRoundoff));
    over = L::both(over, L::both(L::gt(L::add(b0, L::mul(lo, b1)), bound), L::gt(L::add(b0, L::mul(hi, b1)), bound)));
  }
  return over;
}

/// Decides translation queries [i, i + lanes) of the tile under the zone's rules.
template <class L, QueryType kType>
void translation_zone(Tile& t, const double* const* coord, std::size_t i, double expel, double tolerance) {
  using V = typename L::V;
  using M = typename L::M;
  using simd::SIMDCCD_TARGET_NAMESPACE::verdict_value;
  const QueryLanes<L> q{coord, i};
  const V zero = L::set(0), one = L::set(1), e = L::set(expel);
  const V inf = L::set(std::numeric_limits<double>::infinity()), ninf = L::sub(zero, inf);
  V start, e_start, speed, e_speed;
  contact_line<L, kType>(q, start, e_start, speed, e_speed);
  V nx, ny, nz, pnx, pny, pnz;
  contact_normal<L, kType>(q, nx, ny, nz, pnx, pny, pnz);
  V e_length;
  const V length = length_of<L>(vec<L>(nx, ny, nz), vec<L>(pnx, pny, pnz), e_length);
  const V zone = L::mul(e, length), e_zone = L::mul(L::add(L::mul(e, e_length), L::mul(L::set(2 * simd::kUnitRoundoff), zone)),
                                                     L::set(1 + 4 * simd::kUnitRoundoff));
  // The intersection of the conditions' intervals, each end enclosed.
  V lo_min = zero, lo_max = zero, hi_min = one, hi_max = one;
  M known = L::le(zero, zero), empty = L::lt(one, zero);
  const auto meet = [&](V a_min, V a_max, V b_min, V b_max, M k) {
    lo_min = L::max(lo_min, a_min), lo_max = L::max(lo_max, a_max);
    hi_min = L::min(hi_min, b_min), hi_max = L::min(hi_max, b_max);
    known = L::both(known, k);
  };
  M approach;  // the distance certainly decreases (its lanes alone can hit)
  if constexpr (kType == QueryType::vertex_face) {
    V a_min, a_max, b_min, b_max;
    M k;
    linear_interval<L>(start, e_start, speed, e_speed, zone, e_zone, a_min, a_max, b_min, b_max, k);
    meet(a_min, a_max, b_min, b_max, k);
    approach = L::lt(speed, L::sub(zero, e_speed));
    empty = L::gt(speed, e_speed);  // moving away, or parallel: h never decreases
    V vx, vy, vz;
    const auto v = translation_of<L>(q, vx, vy, vz);
    M p0, n0, p1, n1, p2, n2;
    sidedness<L>(q, v, 0, 1, 2, p0, n0);
    sidedness<L>(q, v, 0, 2, 3, p1, n1);
    sidedness<L>(q, v, 0, 3, 1, p2, n2);
    // Approaching, the path passes through the face iff every sidedness is <= 0.
    empty = L::either(empty, L::either(L::either(p0, p1), p2));
    known = L::both(known, L::both(L::both(n0, n1), n2));
  } else {
    // H = -sign(G') G, where G' is certified nonzero. Else G is nearly
    // constant: a miss where |G| stays beyond the zone all along.
    const M rising = L::gt(speed, e_speed);
    approach = L::either(rising, L::lt(speed, L::sub(zero, e_speed)));
    const V h0 = L::select(rising, L::sub(zero, start), start);
    const V h1 = L::sub(zero, L::abs(speed));
    V a_min, a_max, b_min, b_max;
    M k;
    linear_interval<L>(h0, e_start, h1, e_speed, zone, e_zone, a_min, a_max, b_min, b_max, k);
    meet(L::select(approach, a_min, ninf), L::select(approach, a_max, ninf), L::select(approach, b_min, inf),
         L::select(approach, b_max, inf), approach);
    const V drift = L::add(L::add(L::abs(speed), e_speed), e_start);
    empty = L::but_not(L::gt(L::sub(L::abs(start), drift), L::add(zone, e_zone)), approach);
    // The closest points: s(f) = alpha + f beta in [0, |m|^2].
    const auto m = vec<L>(nx, ny, nz);
    const auto pm = vec<L>(pnx, pny, pnz);
    const V m2 = dot<L>(m, m), e_m2 = form_bound<L>(dot<L>(pm, pm));
    V wx, wy, wz, pwx, pwy, pwz;
    difference<L>(q, 2, 0, wx, wy, wz, pwx, pwy, pwz);  // b0 - a0
    V vx, vy, vz;
    const auto v = translation_of<L>(q, vx, vy, vz);
    const auto pv = [&](int k) { return L::abs(v(k)); };
    for (int edge = 0; edge < 2; ++edge) {  // s_a against db (edge 0), s_b against da (edge 1)
      V dx, dy, dz, pdx, pdy, pdz;
      if (edge == 0) {
        difference<L>(q, 3, 2, dx, dy, dz, pdx, pdy, pdz);
      } else {
        difference<L>(q, 1, 0, dx, dy, dz, pdx, pdy, pdz);
      }
      const auto d = vec<L>(dx, dy, dz);
      const auto pd = vec<L>(pdx, pdy, pdz);
      V cx, cy, cz, pcx, pcy, pcz, gx, gy, gz, pgx, pgy, pgz;
      cross<L>(vec<L>(wx, wy, wz), d, cx, cy, cz);
      abs_cross<L>(vec<L>(pwx, pwy, pwz), pd, pcx, pcy, pcz);
      cross<L>(v, d, gx, gy, gz);
      abs_cross<L>(pv, pd, pgx, pgy, pgz);
      const V alpha = dot<L>(vec<L>(cx, cy, cz), m), e_alpha = form_bound<L>(dot<L>(vec<L>(pcx, pcy, pcz), pm));
      const V beta = L::sub(zero, dot<L>(vec<L>(gx, gy, gz), m)), e_beta = form_bound<L>(dot<L>(vec<L>(pgx, pgy, pgz), pm));
      linear_interval<L>(alpha, e_alpha, beta, e_beta, m2, e_m2, a_min, a_max, b_min, b_max, k);
      meet(a_min, a_max, b_min, b_max, k);
    }
  }
  // Certainly empty: some interval certainly ends before another starts.
  empty = L::either(empty, L::gt(lo_min, hi_max));
  M hit = L::but_not(L::both(L::both(known, approach), L::lt(lo_max, hi_min)), empty);
  if constexpr (kType == QueryType::vertex_face) {
    // The vertex must also be within e of the face: certainly so where it is
    // over the triangle at the contact (then its distance is h <= e), on the
    // whole enclosure of the toi (each edge function is linear in f).
    hit = L::both(hit, over_face_on<L>(q, L::max(zero, lo_min), L::min(one, lo_max)));
  }
  const M tight = L::le(L::sub(lo_max, lo_min), L::set(tolerance));
  V verdict = L::select(empty, verdict_value<L>(Verdict::miss), verdict_value<L>(Verdict::uncertain));
  verdict = L::select(L::both(hit, tight), verdict_value<L>(Verdict::hit), verdict);
  // A hit's toi and an uncertain lower bound: the enclosure's low end, in [0, 1].
  const V toi = L::min(one, L::max(zero, lo_min));
  L::store(L::select(valid_rigid_input<L, RigidMotionType::translation>(q), verdict, verdict_value<L>(Verdict::invalid)),
           t.verdict + i);
  L::store(L::select(empty, inf, toi), t.toi + i);
}

/// Decides rotation queries [i, i + lanes) under the zone's rules: certified
/// misses (see the top), else uncertain with toi 0.
template <class L, QueryType kType>
void rotation_zone(Tile& t, const double* const* coord, std::size_t i, double expel) {
  using V = typename L::V;
  using M = typename L::M;
  using simd::SIMDCCD_TARGET_NAMESPACE::verdict_value;
  const QueryLanes<L> q{coord, i};
  const V zero = L::set(0), e = L::set(expel);
  V q0, q1, q2, f0, f1, f2;
  contact_quadratic<L, kType>(q, q0, q1, q2, f0, f1, f2);
  // W's Bernstein coefficients in u (A its own permanent).
  V A, C, S;
  rotation_constants<L>(q, A, C, S);
  V w0, w1, w2, g0, g1, g2;
  bernstein_in_u<L>(C, S, L::set(1), zero, A, L::set(1), zero, A, w0, w1, w2, g0, g1, g2);
  // The zone's height along the contact polynomial: VF e |n| W; EE e |da| |db| W >= e |m(u)| W.
  V reach, e_reach;
  if constexpr (kType == QueryType::vertex_face) {
    V nx, ny, nz, pnx, pny, pnz;
    normal_of<L>(q, 1, 2, 3, nx, ny, nz, pnx, pny, pnz);
    V e_length;
    reach = L::mul(e, length_of<L>(vec<L>(nx, ny, nz), vec<L>(pnx, pny, pnz), e_length));
    e_reach = L::mul(e, e_length);
  } else {
    V ax, ay, az, pax, pay, paz, bx, by, bz, pbx, pby, pbz;
    difference<L>(q, 1, 0, ax, ay, az, pax, pay, paz);
    difference<L>(q, 3, 2, bx, by, bz, pbx, pby, pbz);
    V ea, eb;
    const V la = length_of<L>(vec<L>(ax, ay, az), [&](int k) { return k == 0 ? pax : k == 1 ? pay : paz; }, ea);
    const V lb = length_of<L>(vec<L>(bx, by, bz), [&](int k) { return k == 0 ? pbx : k == 1 ? pby : pbz; }, eb);
    reach = L::mul(e, L::mul(la, lb));
    e_reach = L::mul(e, L::add(L::add(L::mul(ea, lb), L::mul(la, eb)), L::mul(ea, eb)));
  }
  e_reach = L::mul(L::add(e_reach, L::mul(L::set(4 * simd::kUnitRoundoff), reach)), L::set(1 + 4 * simd::kUnitRoundoff));
  // Z = Q -+ reach W, coefficient by coefficient, with bounds.
  const auto beyond = [&](V sign) {  // sign Q > reach W certified on [0, 1]
    M all = L::le(zero, zero);
    const auto coefficient = [&](V qk, V fk, V wk, V gk) {
      const V z = L::sub(L::mul(sign, qk), L::mul(reach, wk));
      const V ez = L::mul(L::add(L::add(fk, L::add(L::mul(reach, gk), L::mul(e_reach, wk))),
                                 L::mul(L::set(2 * simd::kUnitRoundoff), L::add(L::abs(qk), L::mul(reach, wk)))),
                          L::set(1 + 4 * simd::kUnitRoundoff));
      all = L::both(all, L::gt(z, ez));
    };
    coefficient(q0, f0, w0, g0), coefficient(q1, f1, w1, g1), coefficient(q2, f2, w2, g2);
    return all;
  };
  M miss = L::either(swept_apart<L, kType, RigidMotionType::rotation>(q, e), beyond(L::set(1)));
  if constexpr (kType == QueryType::vertex_face) {
    // Behind the plane all along: Q < 0 certified.
    miss = L::either(miss, L::both(L::both(L::lt(q0, L::sub(zero, f0)), L::lt(q1, L::sub(zero, f1))),
                                   L::lt(q2, L::sub(zero, f2))));
  } else {
    miss = L::either(miss, beyond(L::set(-1)));
  }
  const V verdict = L::select(miss, verdict_value<L>(Verdict::miss), verdict_value<L>(Verdict::uncertain));
  L::store(L::select(valid_rigid_input<L, RigidMotionType::rotation>(q), verdict, verdict_value<L>(Verdict::invalid)),
           t.verdict + i);
  L::store(L::select(miss, L::set(std::numeric_limits<double>::infinity()), zero), t.toi + i);
}

/// Decides the `t.count` queries of the tile under the zone's rules.
template <class L, QueryType kType, RigidMotionType kMotion>
void decide_expel_tile(Tile& t, double tolerance, double expel) {
  using simd::SIMDCCD_TARGET_NAMESPACE::for_each_vector;
  t.candidates = 0;
  for_each_vector<L>(t.coord, t.count, [&](const double* const* coord, std::size_t i) {
    if constexpr (kMotion == RigidMotionType::translation) {
      translation_zone<L, kType>(t, coord, i, expel, tolerance);
    } else {
      rotation_zone<L, kType>(t, coord, i, expel);
    }
  });
}

}  // namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_RIGID_EXPEL_ZONE_INL_H_
