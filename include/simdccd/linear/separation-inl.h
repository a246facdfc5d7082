// The minimum-separation kernel of the linear model (Options::min_distance =
// d > 0): the earliest t in [0,1] where the closed primitives come within
// Euclidean distance d, the condition the exact oracle decides
// (exact_oracle.hpp, kernels/exact/within_distance.hpp), written once over the
// lane type L (lanes.hpp).
//
// The distance is the least over feature pairs (VF: vertex-vertex,
// vertex-edge, vertex-face; EE: endpoint-endpoint, endpoint-edge and the two
// interiors), each a conjunction of polynomial sign conditions in the
// relative vectors of the points, which move linearly. On a time interval
// [ta, tb] every relative vector lies in the box of its values at the ends,
// and interval arithmetic on those boxes bounds every condition over the
// interval. A lane searches [0,1] by bisection, earliest piece first:
// - a piece is excluded when no point of it is within d: the swept boxes are
//   more than d apart along an axis, the relative boxes all project beyond d
//   along the normal or the closest-point direction at the piece's middle,
//   the vertex is farther than d from the face's plane (EE: the lines
//   farther than d apart) all over it, or every feature has a condition
//   certainly failing all over it; then the search moves to the next piece
//   (the largest dyadic piece starting at its end);
// - a feature certainly holding all over the piece makes its start the toi
//   (every earlier piece was excluded);
// - otherwise the piece is halved, down to a width of time_tolerance / 8: a
//   feature certainly holding at its end then gives a hit; a finest piece
//   neither excluded nor holding is skipped, its start kept as the lower
//   bound. A hit within the tolerance of that bound is certified at the
//   bound; none within it (or 400 pieces spent) leaves the query uncertain
//   with the bound as its toi.
// The intervals round outward (simd/interval-inl.h), so every condition
// is certified as computed. Every answer depends on its own lane only, so it
// is the same on every target and in any vector.
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target by dispatch/linear_ccd.cc (see tile_kernel-inl.h).
#if defined(SIMDCCD_LINEAR_SEPARATION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_SEPARATION_INL_H_
#undef SIMDCCD_LINEAR_SEPARATION_INL_H_
#else
#define SIMDCCD_LINEAR_SEPARATION_INL_H_
#endif

#include <cstddef>
#include <limits>

#include "simdccd/linear/closest_axis-inl.h"
#include "simdccd/linear/tile.hpp"
#include "simdccd/query.hpp"
#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/interval-inl.h"
#include "simdccd/simd/tile_common-inl.h"
#include "simdccd/simd/vec3-inl.h"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

namespace separation {

using namespace simd::SIMDCCD_TARGET_NAMESPACE;  // the interval operations, cross3

/// A vector of queries of a tile, and d^2 as an interval.
template <class L>
struct Queries {
  using V = typename L::V;
  const double* const* coord;
  std::size_t i;
  double d;

  V x(int time, int point, int axis) const { return L::load(coord[3 * (4 * time + point) + axis] + i); }
};

/// Point a - point b over [ta, tb] (0 <= ta <= tb <= 1): r(t) = r0 + t (r1 -
/// r0) is linear, so its range is that of its ends, computed to within
/// 4.1 u (|r0| + |r1|) plus the absolute error of subnormal results, and
/// widened by 2^-50 (|r0| + |r1|) + 2^-1072.
template <class L>
void relative(const Queries<L>& q, int a, int b, typename L::V ta, typename L::V tb, SIMDCCD_IV3_OUT(r)) {
  using V = typename L::V;
  const auto axis_range = [&](int axis, V& lo, V& hi) {
    const V r0 = L::sub(q.x(0, a, axis), q.x(0, b, axis)), r1 = L::sub(q.x(1, a, axis), q.x(1, b, axis));
    const V dr = L::sub(r1, r0);
    const V slack = L::add(L::mul(L::set(0x1p-50), L::add(L::abs(r0), L::abs(r1))), L::set(0x1p-1072));
    const V ra = L::add(r0, L::mul(ta, dr)), rb = L::add(r0, L::mul(tb, dr));
    lo = L::sub(L::min(ra, rb), slack), hi = L::add(L::max(ra, rb), slack);
  };
  axis_range(0, rx_lo, rx_hi), axis_range(1, ry_lo, ry_hi), axis_range(2, rz_lo, rz_hi);
}

/// A condition c >= 0 (or c > 0 for a guard) added to a feature: it fails
/// if the condition certainly fails all over the piece (hi < 0, a guard's
/// hi <= 0), holds if every condition certainly holds all over it.
template <class L>
void add_condition(SIMDCCD_IV_IN(c), bool guard, typename L::M& fails, typename L::M& holds) {
  const typename L::V zero = L::set(0);
  fails = L::either(fails, guard ? L::le(c_hi, zero) : L::lt(c_hi, zero));
  holds = L::both(holds, guard ? L::gt(c_lo, zero) : L::ge(c_lo, zero));
}

/// A feature with no condition yet: not failing, holding.
template <class L>
void start_feature(typename L::M& fails, typename L::M& holds) {
  fails = L::lt(L::set(1), L::set(0)), holds = L::le(L::set(0), L::set(1));
}

/// The projection of the box w on a fixed axis a: the range of w.a.
template <class L>
void project(SIMDCCD_IV3_IN(w), typename L::V ax, typename L::V ay, typename L::V az, SIMDCCD_IV_OUT(p)) {
  SIMDCCD_IV(x);
  SIMDCCD_IV(y);
  SIMDCCD_IV(z);
  iv_mul<L>(ax, ax, SIMDCCD_IV_ARG(wx), SIMDCCD_IV_ARG(x));  // a point interval: either sign
  iv_mul<L>(ay, ay, SIMDCCD_IV_ARG(wy), SIMDCCD_IV_ARG(y));
  iv_mul<L>(az, az, SIMDCCD_IV_ARG(wz), SIMDCCD_IV_ARG(z));
  iv_add<L>(SIMDCCD_IV_ARG(x), SIMDCCD_IV_ARG(y), SIMDCCD_IV_ARG(p));
  iv_add<L>(SIMDCCD_IV_ARG(p), SIMDCCD_IV_ARG(z), SIMDCCD_IV_ARG(p));
}

/// d |a| rounded up. |a| as the root of the sum of squares (within 2.5 u)
/// where that sum is at least 2^-1000, so that squares lost to underflow
/// change it by less than 2^-70 relatively; below, the sum of magnitudes, an
/// upper bound that cannot underflow. Then 0.5 u for the product, and an
/// absolute 2^-1072 for subnormal results.
template <class L>
typename L::V reach(typename L::V ax, typename L::V ay, typename L::V az, double d) {
  using V = typename L::V;
  const V aa = L::add(L::add(L::mul(ax, ax), L::mul(ay, ay)), L::mul(az, az));
  const V l1 = L::add(L::add(L::abs(ax), L::abs(ay)), L::abs(az));
  const V length = L::select(L::ge(aa, L::set(0x1p-1000)), L::sqrt(aa), l1);
  return L::add(L::mul(L::mul(L::set(d), length), L::set(1 + 0x1p-50)), L::set(0x1p-1072));
}

/// The middle of an interval vector, in plain floating point (an axis).
template <class L>
void middle(SIMDCCD_IV3_IN(e), typename L::V& x, typename L::V& y, typename L::V& z) {
  const typename L::V half = L::set(0.5);
  x = L::mul(half, L::add(ex_lo, ex_hi)), y = L::mul(half, L::add(ey_lo, ey_hi)), z = L::mul(half, L::add(ez_lo, ez_hi));
}

/// |r| <= d: d^2 - |r|^2 >= 0.
template <class L>
void point_point(SIMDCCD_IV3_IN(r), SIMDCCD_IV_IN(d2), typename L::M& fails, typename L::M& holds) {
  SIMDCCD_IV(rr);
  SIMDCCD_IV(c);
  iv_norm2<L>(SIMDCCD_IV3_ARG(r), SIMDCCD_IV_ARG(rr));
  iv_sub<L>(SIMDCCD_IV_ARG(d2), SIMDCCD_IV_ARG(rr), SIMDCCD_IV_ARG(c));
  start_feature<L>(fails, holds);
  add_condition<L>(SIMDCCD_IV_ARG(c), false, fails, holds);
}

/// The point p = b + r within d of the segment b + s e, 0 <= s <= 1, with its
/// projection on it: |e|^2 > 0, 0 <= r.e <= |e|^2, |r x e|^2 <= d^2 |e|^2.
template <class L>
void point_segment(SIMDCCD_IV3_IN(r), SIMDCCD_IV3_IN(e), SIMDCCD_IV_IN(d2), typename L::M& fails,
                   typename L::M& holds) {
  SIMDCCD_IV(ee);
  SIMDCCD_IV(along);
  SIMDCCD_IV(rest);
  SIMDCCD_IV3(c);
  SIMDCCD_IV(cc);
  SIMDCCD_IV(de);
  iv_norm2<L>(SIMDCCD_IV3_ARG(e), SIMDCCD_IV_ARG(ee));
  iv_dot<L>(SIMDCCD_IV3_ARG(r), SIMDCCD_IV3_ARG(e), SIMDCCD_IV_ARG(along));
  iv_sub<L>(SIMDCCD_IV_ARG(ee), SIMDCCD_IV_ARG(along), SIMDCCD_IV_ARG(rest));
  iv_cross<L>(SIMDCCD_IV3_ARG(r), SIMDCCD_IV3_ARG(e), SIMDCCD_IV3_ARG(c));
  iv_norm2<L>(SIMDCCD_IV3_ARG(c), SIMDCCD_IV_ARG(cc));
  iv_mul<L>(SIMDCCD_IV_ARG(d2), SIMDCCD_IV_ARG(ee), SIMDCCD_IV_ARG(de));
  iv_sub<L>(SIMDCCD_IV_ARG(de), SIMDCCD_IV_ARG(cc), SIMDCCD_IV_ARG(de));
  start_feature<L>(fails, holds);
  add_condition<L>(SIMDCCD_IV_ARG(ee), true, fails, holds);
  add_condition<L>(SIMDCCD_IV_ARG(along), false, fails, holds);
  add_condition<L>(SIMDCCD_IV_ARG(rest), false, fails, holds);
  add_condition<L>(SIMDCCD_IV_ARG(de), false, fails, holds);
}

/// |m|^2 and d^2 |m|^2 - (w.m)^2, which is >= 0 when w's extent along m is at
/// most d.
template <class L>
void within_along(SIMDCCD_IV3_IN(m), SIMDCCD_IV3_IN(w), SIMDCCD_IV_IN(d2), SIMDCCD_IV_OUT(mm), SIMDCCD_IV_OUT(z)) {
  SIMDCCD_IV(wm);
  SIMDCCD_IV(wm2);
  iv_norm2<L>(SIMDCCD_IV3_ARG(m), SIMDCCD_IV_ARG(mm));
  iv_dot<L>(SIMDCCD_IV3_ARG(w), SIMDCCD_IV3_ARG(m), SIMDCCD_IV_ARG(wm));
  iv_square<L>(SIMDCCD_IV_ARG(wm), SIMDCCD_IV_ARG(wm2));
  iv_mul<L>(SIMDCCD_IV_ARG(d2), SIMDCCD_IV_ARG(mm), SIMDCCD_IV_ARG(z));
  iv_sub<L>(SIMDCCD_IV_ARG(z), SIMDCCD_IV_ARG(wm2), SIMDCCD_IV_ARG(z));
}

/// Evaluates a VF query on [ta, tb]: excluded (no feature can hold), holds
/// (some feature holds all over it).
template <class L>
void vertex_face(const Queries<L>& s, typename L::V ta, typename L::V tb, SIMDCCD_IV_IN(d2), typename L::M need,
                 typename L::M& excluded, typename L::M& holds) {
  using V = typename L::V;
  using M = typename L::M;
  // w_i = v - f_i; E_i = f_i+1 - f_i.
  SIMDCCD_IV3(w0);
  SIMDCCD_IV3(w1);
  SIMDCCD_IV3(w2);
  SIMDCCD_IV3(e0);
  SIMDCCD_IV3(e1);
  SIMDCCD_IV3(e2);
  relative<L>(s, 0, 1, ta, tb, SIMDCCD_IV3_ARG(w0));
  relative<L>(s, 0, 2, ta, tb, SIMDCCD_IV3_ARG(w1));
  relative<L>(s, 0, 3, ta, tb, SIMDCCD_IV3_ARG(w2));
  relative<L>(s, 2, 1, ta, tb, SIMDCCD_IV3_ARG(e0));
  relative<L>(s, 3, 2, ta, tb, SIMDCCD_IV3_ARG(e1));
  relative<L>(s, 1, 3, ta, tb, SIMDCCD_IV3_ARG(e2));
  // All three ranges above the limit r, or all below -r.
  const auto beyond = [&](V r, V lo0, V hi0, V lo1, V hi1, V lo2, V hi2) {
    const V minus_r = L::sub(L::set(0), r);
    return L::either(L::both(L::both(L::gt(lo0, r), L::gt(lo1, r)), L::gt(lo2, r)),
                     L::both(L::both(L::lt(hi0, minus_r), L::lt(hi1, minus_r)), L::lt(hi2, minus_r)));
  };
  const V d = L::set(s.d);
  excluded = L::either(L::either(beyond(d, w0x_lo, w0x_hi, w1x_lo, w1x_hi, w2x_lo, w2x_hi),
                                 beyond(d, w0y_lo, w0y_hi, w1y_lo, w1y_hi, w2y_lo, w2y_hi)),
                       beyond(d, w0z_lo, w0z_hi, w1z_lo, w1z_hi, w2z_lo, w2z_hi));
  // Beyond d along an axis: v - x, for x on the face, is a convex
  // combination of the w_i. The axes: the face's normal at the piece's
  // middle, and the direction between the closest points there.
  const auto apart_along = [&](V ax, V ay, V az) {
    SIMDCCD_IV(p0);
    SIMDCCD_IV(p1);
    SIMDCCD_IV(p2);
    project<L>(SIMDCCD_IV3_ARG(w0), ax, ay, az, SIMDCCD_IV_ARG(p0));
    project<L>(SIMDCCD_IV3_ARG(w1), ax, ay, az, SIMDCCD_IV_ARG(p1));
    project<L>(SIMDCCD_IV3_ARG(w2), ax, ay, az, SIMDCCD_IV_ARG(p2));
    excluded = L::either(excluded, beyond(reach<L>(ax, ay, az, s.d), p0_lo, p0_hi, p1_lo, p1_hi, p2_lo, p2_hi));
  };
  {
    V ax, ay, az, bx, by, bz, nx, ny, nz;
    middle<L>(SIMDCCD_IV3_ARG(e2), ax, ay, az);
    middle<L>(SIMDCCD_IV3_ARG(e0), bx, by, bz);
    cross3<L>(ax, ay, az, bx, by, bz, nx, ny, nz);
    apart_along(nx, ny, nz);
    V w0x, w0y, w0z, w1x, w1y, w1z, w2x, w2y, w2z;
    middle<L>(SIMDCCD_IV3_ARG(w0), w0x, w0y, w0z);
    middle<L>(SIMDCCD_IV3_ARG(w1), w1x, w1y, w1z);
    middle<L>(SIMDCCD_IV3_ARG(w2), w2x, w2y, w2z);
    closest::point_triangle<L>(w0x, w0y, w0z, w1x, w1y, w1z, w2x, w2y, w2z, nx, ny, nz);
    apart_along(nx, ny, nz);
  }
  holds = L::lt(L::set(1), L::set(0));
  if (!L::any(L::but_not(need, excluded))) return;  // the features only matter where not excluded
  // The face: n = (f1 - f0) x (f2 - f0) = e2 x e0.
  SIMDCCD_IV3(n);
  SIMDCCD_IV(nn);
  SIMDCCD_IV(z);
  iv_cross<L>(SIMDCCD_IV3_ARG(e2), SIMDCCD_IV3_ARG(e0), SIMDCCD_IV3_ARG(n));
  within_along<L>(SIMDCCD_IV3_ARG(n), SIMDCCD_IV3_ARG(w0), SIMDCCD_IV_ARG(d2), SIMDCCD_IV_ARG(nn), SIMDCCD_IV_ARG(z));
  M face_fails, face_holds, beyond_plane, unused;
  start_feature<L>(face_fails, face_holds);
  add_condition<L>(SIMDCCD_IV_ARG(nn), true, face_fails, face_holds);
  add_condition<L>(SIMDCCD_IV_ARG(z), false, face_fails, face_holds);
  start_feature<L>(beyond_plane, unused);
  add_condition<L>(SIMDCCD_IV_ARG(z), false, beyond_plane, unused);
  excluded = L::either(excluded, beyond_plane);  // farther than d from the plane: from the triangle too
  // Over the face: (n x E_i).w_i >= 0 for each edge.
  const auto side = [&](SIMDCCD_IV3_IN(e), SIMDCCD_IV3_IN(w)) {
    SIMDCCD_IV3(k);
    SIMDCCD_IV(b);
    iv_cross<L>(SIMDCCD_IV3_ARG(n), SIMDCCD_IV3_ARG(e), SIMDCCD_IV3_ARG(k));
    iv_dot<L>(SIMDCCD_IV3_ARG(k), SIMDCCD_IV3_ARG(w), SIMDCCD_IV_ARG(b));
    add_condition<L>(SIMDCCD_IV_ARG(b), false, face_fails, face_holds);
  };
  side(SIMDCCD_IV3_ARG(e0), SIMDCCD_IV3_ARG(w0));
  side(SIMDCCD_IV3_ARG(e1), SIMDCCD_IV3_ARG(w1));
  side(SIMDCCD_IV3_ARG(e2), SIMDCCD_IV3_ARG(w2));
  M all_fail = face_fails;
  holds = face_holds;
  const auto feature = [&](M fails, M feature_holds) {
    all_fail = L::both(all_fail, fails), holds = L::either(holds, feature_holds);
  };
  M f, h;
  point_point<L>(SIMDCCD_IV3_ARG(w0), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_point<L>(SIMDCCD_IV3_ARG(w1), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_point<L>(SIMDCCD_IV3_ARG(w2), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_segment<L>(SIMDCCD_IV3_ARG(w0), SIMDCCD_IV3_ARG(e0), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_segment<L>(SIMDCCD_IV3_ARG(w1), SIMDCCD_IV3_ARG(e1), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_segment<L>(SIMDCCD_IV3_ARG(w2), SIMDCCD_IV3_ARG(e2), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  excluded = L::either(excluded, all_fail);
}

/// The same for an EE query: a_i - b_j, the edges da = a1 - a0, db = b1 - b0.
template <class L>
void edge_edge(const Queries<L>& s, typename L::V ta, typename L::V tb, SIMDCCD_IV_IN(d2), typename L::M need,
               typename L::M& excluded, typename L::M& holds) {
  using V = typename L::V;
  using M = typename L::M;
  SIMDCCD_IV3(w00);
  SIMDCCD_IV3(w01);
  SIMDCCD_IV3(w10);
  SIMDCCD_IV3(w11);
  SIMDCCD_IV3(da);
  SIMDCCD_IV3(db);
  relative<L>(s, 0, 2, ta, tb, SIMDCCD_IV3_ARG(w00));
  relative<L>(s, 0, 3, ta, tb, SIMDCCD_IV3_ARG(w01));
  relative<L>(s, 1, 2, ta, tb, SIMDCCD_IV3_ARG(w10));
  relative<L>(s, 1, 3, ta, tb, SIMDCCD_IV3_ARG(w11));
  relative<L>(s, 1, 0, ta, tb, SIMDCCD_IV3_ARG(da));
  relative<L>(s, 3, 2, ta, tb, SIMDCCD_IV3_ARG(db));
  // All four ranges above the limit r, or all below -r.
  const auto beyond = [&](V r, V lo0, V hi0, V lo1, V hi1, V lo2, V hi2, V lo3, V hi3) {
    const V minus_r = L::sub(L::set(0), r);
    return L::either(
        L::both(L::both(L::gt(lo0, r), L::gt(lo1, r)), L::both(L::gt(lo2, r), L::gt(lo3, r))),
        L::both(L::both(L::lt(hi0, minus_r), L::lt(hi1, minus_r)), L::both(L::lt(hi2, minus_r), L::lt(hi3, minus_r))));
  };
  const V d = L::set(s.d);
  excluded = L::either(
      L::either(beyond(d, w00x_lo, w00x_hi, w01x_lo, w01x_hi, w10x_lo, w10x_hi, w11x_lo, w11x_hi),
                beyond(d, w00y_lo, w00y_hi, w01y_lo, w01y_hi, w10y_lo, w10y_hi, w11y_lo, w11y_hi)),
      beyond(d, w00z_lo, w00z_hi, w01z_lo, w01z_hi, w10z_lo, w10z_hi, w11z_lo, w11z_hi));
  // Beyond d along an axis: a - b, for points of the two edges, is a convex
  // combination of the w_ij. The axes: da x db at the piece's middle, and
  // the direction between the closest points there.
  const auto apart_along = [&](V ax, V ay, V az) {
    SIMDCCD_IV(p00);
    SIMDCCD_IV(p01);
    SIMDCCD_IV(p10);
    SIMDCCD_IV(p11);
    project<L>(SIMDCCD_IV3_ARG(w00), ax, ay, az, SIMDCCD_IV_ARG(p00));
    project<L>(SIMDCCD_IV3_ARG(w01), ax, ay, az, SIMDCCD_IV_ARG(p01));
    project<L>(SIMDCCD_IV3_ARG(w10), ax, ay, az, SIMDCCD_IV_ARG(p10));
    project<L>(SIMDCCD_IV3_ARG(w11), ax, ay, az, SIMDCCD_IV_ARG(p11));
    excluded = L::either(excluded, beyond(reach<L>(ax, ay, az, s.d), p00_lo, p00_hi, p01_lo, p01_hi, p10_lo, p10_hi,
                                          p11_lo, p11_hi));
  };
  {
    V ax, ay, az, bx, by, bz, mx, my, mz, rx, ry, rz;
    middle<L>(SIMDCCD_IV3_ARG(da), ax, ay, az);
    middle<L>(SIMDCCD_IV3_ARG(db), bx, by, bz);
    cross3<L>(ax, ay, az, bx, by, bz, mx, my, mz);
    apart_along(mx, my, mz);
    middle<L>(SIMDCCD_IV3_ARG(w00), rx, ry, rz);
    closest::segment_segment<L>(rx, ry, rz, ax, ay, az, bx, by, bz, mx, my, mz);
    apart_along(mx, my, mz);
  }
  holds = L::lt(L::set(1), L::set(0));
  if (!L::any(L::but_not(need, excluded))) return;  // the features only matter where not excluded
  // The interiors: m = da x db, w = b0 - a0 = -w00; the line parameters
  // (w x db).m and (w x da).m in [0, |m|^2] (exact/contact.hpp, line_parameters).
  SIMDCCD_IV3(m);
  SIMDCCD_IV(mm);
  SIMDCCD_IV(z);
  iv_cross<L>(SIMDCCD_IV3_ARG(da), SIMDCCD_IV3_ARG(db), SIMDCCD_IV3_ARG(m));
  within_along<L>(SIMDCCD_IV3_ARG(m), SIMDCCD_IV3_ARG(w00), SIMDCCD_IV_ARG(d2), SIMDCCD_IV_ARG(mm), SIMDCCD_IV_ARG(z));
  M inner_fails, inner_holds, apart_lines, unused;
  start_feature<L>(inner_fails, inner_holds);
  add_condition<L>(SIMDCCD_IV_ARG(mm), true, inner_fails, inner_holds);
  add_condition<L>(SIMDCCD_IV_ARG(z), false, inner_fails, inner_holds);
  start_feature<L>(apart_lines, unused);
  add_condition<L>(SIMDCCD_IV_ARG(z), false, apart_lines, unused);
  excluded = L::either(excluded, apart_lines);  // farther than d between the lines: between the segments too
  // With w00 = a0 - b0 = -w: the parameters are -(w00 x db).m and -(w00 x da).m.
  const auto parameter = [&](SIMDCCD_IV3_IN(e)) {
    SIMDCCD_IV3(k);
    SIMDCCD_IV(p);
    SIMDCCD_IV(rest);
    iv_cross<L>(SIMDCCD_IV3_ARG(e), SIMDCCD_IV3_ARG(w00), SIMDCCD_IV3_ARG(k));  // = (w x e)
    iv_dot<L>(SIMDCCD_IV3_ARG(k), SIMDCCD_IV3_ARG(m), SIMDCCD_IV_ARG(p));
    iv_sub<L>(SIMDCCD_IV_ARG(mm), SIMDCCD_IV_ARG(p), SIMDCCD_IV_ARG(rest));
    add_condition<L>(SIMDCCD_IV_ARG(p), false, inner_fails, inner_holds);
    add_condition<L>(SIMDCCD_IV_ARG(rest), false, inner_fails, inner_holds);
  };
  parameter(SIMDCCD_IV3_ARG(db));
  parameter(SIMDCCD_IV3_ARG(da));
  M all_fail = inner_fails;
  holds = inner_holds;
  const auto feature = [&](M fails, M feature_holds) {
    all_fail = L::both(all_fail, fails), holds = L::either(holds, feature_holds);
  };
  M f, h;
  point_point<L>(SIMDCCD_IV3_ARG(w00), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_point<L>(SIMDCCD_IV3_ARG(w01), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_point<L>(SIMDCCD_IV3_ARG(w10), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_point<L>(SIMDCCD_IV3_ARG(w11), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  // a_i against edge b: r = a_i - b0; b_j against edge a: r = b_j - a0 = -w0j.
  point_segment<L>(SIMDCCD_IV3_ARG(w00), SIMDCCD_IV3_ARG(db), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  point_segment<L>(SIMDCCD_IV3_ARG(w10), SIMDCCD_IV3_ARG(db), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  const auto negated = [&](SIMDCCD_IV3_IN(w), SIMDCCD_IV3_OUT(r)) {
    rx_lo = L::sub(L::set(0), wx_hi), rx_hi = L::sub(L::set(0), wx_lo);
    ry_lo = L::sub(L::set(0), wy_hi), ry_hi = L::sub(L::set(0), wy_lo);
    rz_lo = L::sub(L::set(0), wz_hi), rz_hi = L::sub(L::set(0), wz_lo);
  };
  SIMDCCD_IV3(r);
  negated(SIMDCCD_IV3_ARG(w00), SIMDCCD_IV3_ARG(r));
  point_segment<L>(SIMDCCD_IV3_ARG(r), SIMDCCD_IV3_ARG(da), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  negated(SIMDCCD_IV3_ARG(w01), SIMDCCD_IV3_ARG(r));
  point_segment<L>(SIMDCCD_IV3_ARG(r), SIMDCCD_IV3_ARG(da), SIMDCCD_IV_ARG(d2), f, h), feature(f, h);
  excluded = L::either(excluded, all_fail);
}

}  // namespace separation

/// The largest dyadic width the search refines a piece to: the largest power
/// of two at most the time tolerance, and at least 2^-48 (so that piece ends,
/// multiples of the width below 1, stay exact).
inline double finest_width(double tolerance) {
  double w = 1;
  while (w > tolerance && w > 0x1p-48) w *= 0.5;
  return w;
}

/// Decides queries [i, i + lanes) of the tile (see the top) into t.verdict,
/// t.toi; returns the lanes the first piece, [0, 1], did not decide.
template <class L, QueryType kType>
typename L::M separation_lanes(Tile& t, const double* const* coord, std::size_t i, double tolerance,
                               double min_distance) {
  using V = typename L::V;
  using M = typename L::M;
  using simd::SIMDCCD_TARGET_NAMESPACE::valid_input;
  using simd::SIMDCCD_TARGET_NAMESPACE::verdict_value;
  const separation::Queries<L> s{coord, i, min_distance};
  // d^2, rounded outward.
  SIMDCCD_IV(d2);
  d2_lo = d2_hi = L::set(min_distance * min_distance);
  simd::SIMDCCD_TARGET_NAMESPACE::outward<L>(d2_lo, d2_hi);
  // Decides the lanes of `need` on [ta, tb] (the others' holds may be false).
  const auto evaluate = [&](V ta, V tb, M need, M& excluded, M& holds) {
    if constexpr (kType == QueryType::vertex_face) {
      separation::vertex_face<L>(s, ta, tb, SIMDCCD_IV_ARG(d2), need, excluded, holds);
    } else {
      separation::edge_edge<L>(s, ta, tb, SIMDCCD_IV_ARG(d2), need, excluded, holds);
    }
  };
  const V zero = L::set(0), one = L::set(1), half = L::set(0.5), two = L::set(2);
  const V fine = L::set(finest_width(tolerance / 8)), big = L::set(0x1p52);
  const M valid = valid_input<L, 24>(coord, i);
  V verdict = L::select(valid, verdict_value<L>(Verdict::miss), verdict_value<L>(Verdict::invalid));
  V toi = L::set(std::numeric_limits<double>::infinity());
  // Within d at t = 0: toi 0.
  M excluded, holds;
  evaluate(zero, zero, valid, excluded, holds);
  M hit = L::both(valid, holds);
  verdict = L::select(hit, verdict_value<L>(Verdict::hit), verdict), toi = L::select(hit, zero, toi);
  M active = L::but_not(valid, hit), subdivided = L::lt(one, zero);
  V ta = zero, w = one;
  // ta a multiple of 2w (ta / 2w an integer below 2^52): the piece just done
  // was a left half, so the next one is its sibling, else its parent's next.
  const auto left_half = [&](V at, V width) {
    const V x = L::div(at, L::mul(two, width));
    const V rounded = L::sub(L::add(x, big), big);
    return L::eq(rounded, x);
  };
  constexpr int kMaxPieces = 400;
  const V tol = L::set(tolerance), inf = L::set(std::numeric_limits<double>::infinity());
  V first_open = inf;  // the start of the first finest piece neither excluded nor holding
  for (int step = 0; step < kMaxPieces && L::any(active); ++step) {
    evaluate(ta, L::add(ta, w), active, excluded, holds);
    if (step == 0) subdivided = L::but_not(active, excluded);
    const M open = L::but_not(active, excluded);
    M found = L::both(open, holds);
    const M finest = L::but_not(L::both(open, L::le(w, fine)), found);
    M unresolved = L::lt(one, zero);
    if (L::any(finest)) {
      M unused, holds_at_end;
      evaluate(L::add(ta, w), L::add(ta, w), finest, unused, holds_at_end);
      found = L::either(found, L::both(finest, holds_at_end));
      unresolved = L::but_not(finest, holds_at_end);
    }
    // A hit: the contact lies in [first open piece's start, ta + w]; tight
    // when that is at most the tolerance wide.
    const V bound = L::min(first_open, ta);
    const M tight = L::le(L::sub(L::add(ta, w), bound), tol);
    verdict = L::select(found, L::select(tight, verdict_value<L>(Verdict::hit), verdict_value<L>(Verdict::uncertain)),
                        verdict);
    toi = L::select(found, bound, toi);
    first_open = L::select(unresolved, L::min(first_open, ta), first_open);
    const M split = L::but_not(L::but_not(open, found), finest);
    w = L::select(split, L::mul(w, half), w);
    const M advance = L::either(L::both(active, excluded), unresolved);
    ta = L::select(advance, L::add(ta, w), ta);
    for (M up = L::both(L::both(advance, L::lt(w, one)), left_half(ta, w)); L::any(up);
         up = L::both(L::both(up, L::lt(w, one)), left_half(ta, w))) {
      w = L::select(up, L::mul(w, two), w);
    }
    // Decided: a hit found, past 1, or past the tolerance after an open
    // piece (any later hit would not be tight).
    const M done = L::either(found, L::both(advance, L::either(L::ge(ta, one), L::gt(L::sub(ta, first_open), tol))));
    active = L::but_not(active, done);
  }
  // Lanes left, or with an open piece and no hit: uncertain, bounded below by
  // the first piece not excluded.
  const M open_left = L::both(L::lt(first_open, inf), L::but_not(valid, L::either(hit, L::lt(toi, inf))));
  verdict = L::select(L::either(active, open_left), verdict_value<L>(Verdict::uncertain), verdict);
  toi = L::select(active, L::min(first_open, ta), L::select(open_left, first_open, toi));
  L::store(verdict, t.verdict + i);
  L::store(toi, t.toi + i);
  return subdivided;
}

/// Decides the tile's queries under Options::min_distance = min_distance > 0
/// (valid_min_distance): t.verdict, t.toi, and as candidates the queries the
/// first piece did not decide (BatchStats::root_stage).
template <class L, QueryType kType>
void decide_separation_tile(Tile& t, double tolerance, double min_distance) {
  t.candidates = 0;
  simd::SIMDCCD_TARGET_NAMESPACE::for_each_vector<L>(t.coord, t.count, [&](const double* const* coord, std::size_t i) {
    const typename L::M subdivided = separation_lanes<L, kType>(t, coord, i, tolerance, min_distance);
    double flags[simd::kTileSize];
    L::store(L::select(subdivided, L::set(1), L::set(0)), flags);
    for (std::size_t k = 0; k < L::lanes() && i + k < t.count; ++k) {
      if (flags[k] != 0) t.index[t.candidates++] = static_cast<std::uint16_t>(i + k);
    }
  });
}

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_SEPARATION_INL_H_
