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
// Rotation: certified misses, piece by piece of the move (rotation_zone);
// every other query is uncertain, with toi the start of the first piece the
// screen cannot rule out.
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

/// The position at u of point p turning about the center (rigid_motion.hpp),
/// in floating point, and W(u).
template <class L>
void turned(const QueryLanes<L>& q, int p, typename L::V A, typename L::V C, typename L::V S,
            typename L::V u, typename L::V& x, typename L::V& y, typename L::V& z) {
  using V = typename L::V;
  const V g = L::add(L::sub(L::set(1), u), L::mul(C, u)), s = L::mul(S, u);
  const V gg = L::mul(g, g), ss = L::mul(s, s), W = L::add(gg, L::mul(ss, A));
  V wx, wy, wz, pw;
  wx = q.diff(p, -1, 0, pw), wy = q.diff(p, -1, 1, pw), wz = q.diff(p, -1, 2, pw);
  const auto a = [&](int k) { return q.param(3 + k); };
  V cx, cy, cz;
  cross<L>(a, vec<L>(wx, wy, wz), cx, cy, cz);
  const V aw = dot<L>(a, vec<L>(wx, wy, wz));
  const V diag = L::sub(gg, L::mul(ss, A)), along = L::mul(L::set(2), L::mul(ss, aw));
  const V turn = L::mul(L::set(2), L::mul(g, s));
  const auto at = [&](int k, V w, V c) {
    return L::add(q.param(k), L::div(L::add(L::add(L::mul(diag, w), L::mul(along, a(k))), L::mul(turn, c)), W));
  };
  x = at(0, wx, cx), y = at(1, wy, cy), z = at(2, wz, cz);
}

/// Lanes where the moving primitive stays farther than `gap` from the still
/// one's box for u in [lo, hi]: each moving point's arc over [lo, hi] lies in
/// the box of its ends widened by the arc's sagitta |w| (1 - cos(delta / 2))
/// (|w| >= the radius, delta the angle turned, cos(delta / 2) from the
/// half-angle parameters: (g_lo g_hi + s_lo s_hi A) / sqrt(W_lo W_hi)), plus
/// 2^-40 of the magnitudes for rounding. Those bounds hold where no product
/// that matters underflows: only lanes whose A (unless the axis is 0) and
/// moving points' differences from the center are 0 or at least 2^-300 are
/// certified (then W >= 2^-300, and an underflow's 2^-1074 grows by at most
/// 2^150 in the turned points, far below the rounding margin).
template <class L, QueryType kType>
typename L::M arc_apart(const QueryLanes<L>& q, typename L::V A, typename L::V C, typename L::V S,
                        typename L::V lo, typename L::V hi, typename L::V gap) {
  using V = typename L::V;
  using M = typename L::M;
  constexpr int kMoving = kType == QueryType::vertex_face ? 1 : 2;
  const V one = L::set(1), rel = L::set(0x1p-40);
  const auto half = [&](V u, V& g, V& s) { g = L::add(L::sub(one, u), L::mul(C, u)), s = L::mul(S, u); };
  V g0, s0, g1, s1;
  half(lo, g0, s0), half(hi, g1, s1);
  const V w0 = L::add(L::mul(g0, g0), L::mul(L::mul(s0, s0), A));
  const V w1 = L::add(L::mul(g1, g1), L::mul(L::mul(s1, s1), A));
  const V cosine = L::div(L::add(L::mul(g0, g1), L::mul(L::mul(s0, s1), A)), L::sqrt(L::mul(w0, w1)));
  const V bulge = L::add(L::sub(one, L::min(one, cosine)), rel);
  const V center = L::max(L::max(L::abs(q.param(0)), L::abs(q.param(1))), L::abs(q.param(2)));
  const V least = L::set(0x1p-300), zero = L::set(0);
  const auto tame = [&](V x) { return L::either(L::ge(L::abs(x), least), L::le(L::abs(x), zero)); };
  M certain = L::either(L::ge(A, least), L::both(L::both(L::le(L::abs(q.param(3)), zero), L::le(L::abs(q.param(4)), zero)),
                                                 L::le(L::abs(q.param(5)), zero)));
  for (int p = 0; p < kMoving; ++p) {
    for (int axis = 0; axis < 3; ++axis) {
      V unused;
      certain = L::both(certain, tame(q.diff(p, -1, axis, unused)));
    }
  }
  M apart = L::lt(one, zero);
  for (int axis = 0; axis < 3; ++axis) {
    V amin = L::set(std::numeric_limits<double>::infinity()), amax = L::sub(zero, amin);
    for (int p = 0; p < kMoving; ++p) {
      V ax, ay, az, bx, by, bz, pw;
      turned<L>(q, p, A, C, S, lo, ax, ay, az);
      turned<L>(q, p, A, C, S, hi, bx, by, bz);
      V wx, wy, wz;
      wx = q.diff(p, -1, 0, pw), wy = q.diff(p, -1, 1, pw), wz = q.diff(p, -1, 2, pw);
      const V radius = L::mul(L::add(L::add(L::abs(wx), L::abs(wy)), L::abs(wz)), L::add(one, rel));  // >= |w|
      const V margin = L::add(L::mul(radius, bulge), L::mul(rel, L::add(center, radius)));
      const V ea = axis == 0 ? ax : axis == 1 ? ay : az, eb = axis == 0 ? bx : axis == 1 ? by : bz;
      amin = L::min(amin, L::sub(L::min(ea, eb), margin));
      amax = L::max(amax, L::add(L::max(ea, eb), margin));
    }
    V bmin = q.point(kMoving, axis), bmax = bmin;
    for (int p = kMoving + 1; p < 4; ++p) bmin = L::min(bmin, q.point(p, axis)), bmax = L::max(bmax, q.point(p, axis));
    const V slack = L::add(L::add(gap, L::mul(rel, L::max(L::abs(bmin), L::abs(bmax)))), L::set(kUnderflow));
    apart = L::either(apart, L::either(L::lt(L::add(amax, slack), bmin), L::lt(L::add(bmax, slack), amin)));
  }
  return L::both(apart, certain);
}

/// The number of pieces [k/K, (k+1)/K] of a rotation's move that the zone's
/// screen certifies one by one.
inline constexpr int kZonePieces = 8;

/// Decides rotation queries [i, i + lanes) under the zone's rules: certified
/// misses, else uncertain with toi = the start of the first piece of the move
/// where a contact is not ruled out (a lower bound of the toi), found to
/// within kZonePieces^-3 of the move. A piece
/// [a, b] is ruled out (no contact at any u in [a, b); u = b is the next
/// piece's) when one of these holds on it, each certified on the whole
/// piece: the moving primitive stays farther than e from the still one
/// (arc_apart); VF: the vertex is behind the face's plane (Q < 0), or beyond
/// its zone (Q > e |n| W), or moving away from it (N = Q' W - Q W' > 0, h
/// increasing: never decreasing right after u); EE: the lines are farther
/// than e apart (|Q| > e |da| |db| W >= e |m(u)| W). Q is the contact
/// polynomial times W (rotation_contact-inl.h), W = g^2 + s^2 A. Before the
/// pieces, Q identically 0 (certified by exact zeros, see below) is a miss.
template <class L, QueryType kType>
void rotation_zone(Tile& t, const double* const* coord, std::size_t i, double expel) {
  using V = typename L::V;
  using M = typename L::M;
  using simd::SIMDCCD_TARGET_NAMESPACE::verdict_value;
  const QueryLanes<L> q{coord, i};
  const V zero = L::set(0), one = L::set(1), e = L::set(expel);
  const V inf = L::set(std::numeric_limits<double>::infinity());
  V gg, gs, ss, pgg, pgs, pss, A, C, S;
  contact_form<L, kType>(q, gg, gs, ss, pgg, pgs, pss, A, C, S);
  V q0, q1, q2, f0, f1, f2;
  bernstein_in_u<L>(C, S, gg, gs, ss, pgg, pgs, pss, q0, q1, q2, f0, f1, f2);
  // Q identically 0 (VF: h constant, on the plane; EE: the lines always
  // meet), so never strictly decreasing: no contact. Certain where Q's
  // permanents are exactly 0 and no product of a permanent underflows: then a
  // zero permanent means a zero factor in every term, and differences round
  // to 0 only when exactly 0. The permanents' factors are the differences of
  // the points and the center, the axis and tau; where each of them is 0 or
  // at least 2^-102 (the axis and tau 2^-50), a product of at most 7 of them
  // is at least 2^-714.
  M exact_zeros = L::le(zero, zero);
  const auto leaf = [&](V x, double least) {
    exact_zeros = L::both(exact_zeros, L::either(L::ge(L::abs(x), L::set(least)), L::le(L::abs(x), zero)));
  };
  for (int p = 0; p < 4; ++p) {
    for (int r = -1; r < p; ++r) {
      V unused;
      for (int axis = 0; axis < 3; ++axis) leaf(q.diff(p, r, axis, unused), 0x1p-102);
    }
  }
  for (int k = 3; k < 6; ++k) leaf(q.param(k), 0x1p-50);
  leaf(S, 0x1p-50);
  const M constant = L::both(exact_zeros, L::both(L::both(L::le(pgg, zero), L::le(pgs, zero)), L::le(pss, zero)));
  V w0, w1, w2, g0, g1, g2;  // W's Bernstein coefficients in u (A its own permanent)
  bernstein_in_u<L>(C, S, one, zero, A, one, zero, A, w0, w1, w2, g0, g1, g2);
  // The zone's height along Q: VF e |n| W; EE e |da| |db| W >= e |m(u)| W.
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
    const V la = length_of<L>(vec<L>(ax, ay, az), vec<L>(pax, pay, paz), ea);
    const V lb = length_of<L>(vec<L>(bx, by, bz), vec<L>(pbx, pby, pbz), eb);
    reach = L::mul(e, L::mul(la, lb));
    e_reach = L::mul(e, L::add(L::add(L::mul(ea, lb), L::mul(la, eb)), L::mul(ea, eb)));
  }
  e_reach = L::mul(L::add(e_reach, L::mul(L::set(4 * simd::kUnitRoundoff), reach)), L::set(1 + 4 * simd::kUnitRoundoff));
  // sign Q - reach W, coefficient by coefficient, with bounds.
  const auto beyond_on = [&](V sign, V a, V b) {
    const auto coefficient = [&](V qk, V fk, V wk, V gk, V& z, V& ez) {
      z = L::sub(L::mul(sign, qk), L::mul(reach, wk));
      ez = L::mul(L::add(L::add(fk, L::add(L::mul(reach, gk), L::mul(e_reach, wk))),
                         L::mul(L::set(2 * simd::kUnitRoundoff), L::add(L::abs(qk), L::mul(reach, wk)))),
                  L::set(1 + 4 * simd::kUnitRoundoff));
    };
    V z0, z1, z2, ez0, ez1, ez2;
    coefficient(q0, f0, w0, g0, z0, ez0), coefficient(q1, f1, w1, g1, z1, ez1), coefficient(q2, f2, w2, g2, z2, ez2);
    M positive, negative;
    sign_on<L>(z0, z1, z2, ez0, ez1, ez2, a, b, positive, negative);
    return positive;
  };
  // The range of a quadratic (Bernstein c0..c2 within bound fc) and of its
  // derivative on [a, b]: the hulls of its blossoms there, widened by the bound.
  const auto range = [&](V c0, V c1, V c2, V fc, V a, V b, V& lo, V& hi, V& dlo, V& dhi) {
    const auto lerp = [](V x, V y, V u) { return L::add(x, L::mul(u, L::sub(y, x))); };
    const V l0 = lerp(c0, c1, a), l1 = lerp(c1, c2, a), h0 = lerp(c0, c1, b), h1 = lerp(c1, c2, b);
    const V ll = lerp(l0, l1, a), lh = lerp(l0, l1, b), hh = lerp(h0, h1, b);
    const V slack = L::add(fc, L::mul(L::set(16 * simd::kUnitRoundoff),
                                      L::max(L::max(L::abs(c0), L::abs(c1)), L::abs(c2))));
    lo = L::sub(L::min(L::min(ll, lh), hh), slack), hi = L::add(L::max(L::max(ll, lh), hh), slack);
    // c' = 2 (lerp(c1 - c0, c2 - c1, u)): linear, its range from both ends.
    const V da = L::mul(L::set(2), L::sub(l1, l0)), db = L::mul(L::set(2), L::sub(h1, h0));
    const V dslack = L::mul(L::set(4), slack);
    dlo = L::sub(L::min(da, db), dslack), dhi = L::add(L::max(da, db), dslack);
  };
  const auto product_min = [](V alo, V ahi, V blo, V bhi) {
    return L::min(L::min(L::mul(alo, blo), L::mul(alo, bhi)), L::min(L::mul(ahi, blo), L::mul(ahi, bhi)));
  };
  const auto product_max = [](V alo, V ahi, V blo, V bhi) {
    return L::max(L::max(L::mul(alo, blo), L::mul(alo, bhi)), L::max(L::mul(ahi, blo), L::mul(ahi, bhi)));
  };
  const V fq = L::max(L::max(f0, f1), f2), fw = L::max(L::max(g0, g1), g2);
  // Whether the piece [a, b] (per lane) is certainly free of contacts.
  const auto ruled_out = [&](V a, V b) {
    M out = L::either(beyond_on(one, a, b), arc_apart<L, kType>(q, A, C, S, a, b, e));
    if constexpr (kType == QueryType::vertex_face) {
      M positive, negative;
      sign_on<L>(q0, q1, q2, f0, f1, f2, a, b, positive, negative);
      V hlo, hhi, dhlo, dhhi, wlo, whi, dwlo, dwhi;
      range(q0, q1, q2, fq, a, b, hlo, hhi, dhlo, dhhi);
      range(w0, w1, w2, fw, a, b, wlo, whi, dwlo, dwhi);
      // N = Q' W - Q W' > 0 on the piece, with a relative margin for the products.
      const V n_min = L::sub(product_min(dhlo, dhhi, wlo, whi), product_max(hlo, hhi, dwlo, dwhi));
      const V n_mag = L::add(product_max(L::abs(dhlo), L::abs(dhhi), L::abs(wlo), L::abs(whi)),
                             product_max(L::abs(hlo), L::abs(hhi), L::abs(dwlo), L::abs(dwhi)));
      const M rising = L::gt(n_min, L::mul(L::set(8 * simd::kUnitRoundoff), n_mag));
      out = L::either(out, L::either(negative, rising));
    } else {
      out = L::either(out, beyond_on(L::set(-1), a, b));
    }
    return out;
  };
  // The first piece of width `width` from `base` (per lane) not ruled out,
  // for the lanes of `open`: its start goes to `first`; `open` keeps the
  // lanes whose every piece was ruled out.
  const auto scan = [&](V base, double width, M& open, V& first) {
    for (int k = 0; k < kZonePieces && L::any(open); ++k) {
      const V a = L::add(base, L::set(k * width)), b = L::min(one, L::add(base, L::set((k + 1) * width)));
      const M out = ruled_out(a, b);
      first = L::select(L::but_not(open, out), a, first);
      open = L::both(open, out);
    }
  };
  // The whole move in kZonePieces pieces; then, twice, the first piece not
  // ruled out in as many parts, for a tighter lower bound of the toi (a
  // lane whose every part is ruled out keeps the piece's end as its bound).
  // Every piece before `first` is ruled out, so a lane whose bound reaches 1
  // has no contact in the move (and no piece left to refine).
  M ruled_out_so_far = L::but_not(L::le(zero, zero), constant);
  V first = inf;
  scan(zero, 1.0 / kZonePieces, ruled_out_so_far, first);
  double width = 1.0 / kZonePieces;
  for (int level = 0; level < 2; ++level) {
    M refine = L::lt(first, one);
    V finer = first;
    scan(L::select(refine, first, zero), width / kZonePieces, refine, finer);
    first = L::select(refine, L::min(one, L::add(first, L::set(width))), finer);
    width /= kZonePieces;
  }
  const M miss = L::either(constant, L::ge(first, one));
  const V verdict = L::select(miss, verdict_value<L>(Verdict::miss), verdict_value<L>(Verdict::uncertain));
  L::store(L::select(valid_rigid_input<L, RigidMotionType::rotation>(q), verdict, verdict_value<L>(Verdict::invalid)),
           t.verdict + i);
  L::store(L::select(miss, inf, first), t.toi + i);
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
