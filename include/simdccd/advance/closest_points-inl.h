// Closest points between the features of two triangles (or two segments),
// over the lane type L (simd/lanes.hpp): every result is a pair of points
// that lie on the features (up to rounding), so its distance is an upper
// bound; the lower bound comes from a separating slab (pair_bounds-inl.h),
// never from these points, so a poor pair costs tightness, not safety.
//
// Re-included per Highway target (see simd/vec3-inl.h).
#if defined(SIMDCCD_ADVANCE_CLOSEST_POINTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_ADVANCE_CLOSEST_POINTS_INL_H_
#undef SIMDCCD_ADVANCE_CLOSEST_POINTS_INL_H_
#else
#define SIMDCCD_ADVANCE_CLOSEST_POINTS_INL_H_
#endif

#include <initializer_list>

#include "simdccd/advance/pair_bounds-inl.h"
#include "simdccd/simd/vec3-inl.h"

namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE {

using simd::SIMDCCD_TARGET_NAMESPACE::cross3;
using simd::SIMDCCD_TARGET_NAMESPACE::dot3;

template <class L>
typename L::V clamp01(typename L::V x) {
  return L::min(L::max(x, L::set(0)), L::set(1));
}

/// The closest points p on [p1, q1] and q on [p2, q2] (Ericson, "Real-Time
/// Collision Detection" 5.1.9), branch-free: a zero-length segment or
/// parallel segments take the clamped fallbacks, and every parameter is
/// clamped to [0, 1], so p and q are always points of the segments.
/// Divisions by a squared length are products with its reciprocal: their
/// rounding moves the points along the segments, which costs tightness at
/// most, never safety.
template <class L>
void segment_closest(typename L::V p1x, typename L::V p1y, typename L::V p1z, typename L::V q1x,
                     typename L::V q1y, typename L::V q1z, typename L::V p2x, typename L::V p2y,
                     typename L::V p2z, typename L::V q2x, typename L::V q2y, typename L::V q2z,
                     typename L::V& px, typename L::V& py, typename L::V& pz, typename L::V& qx,
                     typename L::V& qy, typename L::V& qz) {
  using V = typename L::V;
  const V zero = L::set(0), one = L::set(1);
  const V d1x = L::sub(q1x, p1x), d1y = L::sub(q1y, p1y), d1z = L::sub(q1z, p1z);
  const V d2x = L::sub(q2x, p2x), d2y = L::sub(q2y, p2y), d2z = L::sub(q2z, p2z);
  const V rx = L::sub(p1x, p2x), ry = L::sub(p1y, p2y), rz = L::sub(p1z, p2z);
  const V a = dot3<L>(d1x, d1y, d1z, d1x, d1y, d1z), e = dot3<L>(d2x, d2y, d2z, d2x, d2y, d2z);
  const V b = dot3<L>(d1x, d1y, d1z, d2x, d2y, d2z);
  const V c = dot3<L>(d1x, d1y, d1z, rx, ry, rz), f = dot3<L>(d2x, d2y, d2z, rx, ry, rz);
  const auto a_pos = L::gt(a, zero), e_pos = L::gt(e, zero);
  const V inv_a = L::div(one, L::select(a_pos, a, one)), inv_e = L::div(one, L::select(e_pos, e, one));
  const V denom = L::sub(L::mul(a, e), L::mul(b, b));
  const auto d_pos = L::gt(denom, zero);
  const V s0 = L::select(d_pos, clamp01<L>(L::div(L::sub(L::mul(b, f), L::mul(c, e)), L::select(d_pos, denom, one))), zero);
  const V t1 = L::mul(L::add(L::mul(b, s0), f), inv_e);
  const V s_lo = clamp01<L>(L::mul(L::sub(zero, c), inv_a));
  const V s_hi = clamp01<L>(L::mul(L::sub(b, c), inv_a));
  V s = L::select(L::lt(t1, zero), s_lo, L::select(L::gt(t1, one), s_hi, s0));
  V t = clamp01<L>(t1);
  s = L::select(e_pos, s, s_lo);
  t = L::select(e_pos, t, zero);
  s = L::select(a_pos, s, zero);
  t = L::select(a_pos, t, clamp01<L>(L::mul(f, inv_e)));
  px = L::add(p1x, L::mul(d1x, s));
  py = L::add(p1y, L::mul(d1y, s));
  pz = L::add(p1z, L::mul(d1z, s));
  qx = L::add(p2x, L::mul(d2x, t));
  qy = L::add(p2y, L::mul(d2y, t));
  qz = L::add(p2z, L::mul(d2z, t));
}

/// An exact power of two `s` (and its inverse) that brings `extent` (>= 0)
/// to at least 2^-64 where it is smaller, and 1 elsewhere. The closest-point
/// formulas multiply up to four lengths, which underflow for features at
/// 2^-256 of unit size and below (a subnormal |n|^2 misplaces a projection
/// off its face); scaling by s is exact, so the search runs on the pair's
/// unit-size copy.
template <class L>
void unit_scale(typename L::V extent, typename L::V& s, typename L::V& inverse) {
  s = L::set(1), inverse = L::set(1);
  for (const double up : {0x1p512, 0x1p256, 0x1p128, 0x1p64}) {
    const auto small = L::lt(L::mul(extent, L::set(up)), L::set(1));
    extent = L::select(small, L::mul(extent, L::set(up)), extent);
    s = L::select(small, L::mul(s, L::set(up)), s);
    inverse = L::select(small, L::mul(inverse, L::set(1 / up)), inverse);
  }
}

/// The normal n = (v1 - v0) x (v2 - v0) of a triangle, `inverse` = 1 / |n|^2,
/// and whether the triangle is a face to project on: |n|^2 a normal double
/// (kLeastLen2; a thinner triangle is left to its edges, and `inverse` is 1).
template <class L>
typename L::M face_normal(typename L::V v0x, typename L::V v0y, typename L::V v0z, typename L::V v1x,
                          typename L::V v1y, typename L::V v1z, typename L::V v2x, typename L::V v2y,
                          typename L::V v2z, typename L::V& nx, typename L::V& ny, typename L::V& nz,
                          typename L::V& inverse) {
  cross3<L>(L::sub(v1x, v0x), L::sub(v1y, v0y), L::sub(v1z, v0z), L::sub(v2x, v0x), L::sub(v2y, v0y),
            L::sub(v2z, v0z), nx, ny, nz);
  const typename L::V nn = dot3<L>(nx, ny, nz, nx, ny, nz);
  const auto face = L::ge(nn, L::set(kLeastLen2));
  inverse = L::div(L::set(1), L::select(face, nn, L::set(1)));
  return face;
}

/// The projection j of p on the plane of triangle (v0, v1, v2) (its normal n,
/// `inverse` and `face` from face_normal), and whether it falls inside the
/// triangle: then (p, j) is the vertex-face closest pair. j is v0 + b e1 +
/// c e2 (e1 = v1 - v0, e2 = v2 - v0; b = (r x e2).n / |n|^2 and c = (e1 x r).n
/// / |n|^2 for r = p - v0) where b, c >= 0 and b + c <= 1 as computed, so j
/// lies on the triangle up to rounding however thin the triangle, and |p - j|
/// bounds their distance from above.
template <class L>
typename L::M face_projection(typename L::V px, typename L::V py, typename L::V pz, typename L::V v0x,
                              typename L::V v0y, typename L::V v0z, typename L::V v1x, typename L::V v1y,
                              typename L::V v1z, typename L::V v2x, typename L::V v2y, typename L::V v2z,
                              typename L::V nx, typename L::V ny, typename L::V nz, typename L::V inverse,
                              typename L::M face, typename L::V& jx, typename L::V& jy, typename L::V& jz) {
  using V = typename L::V;
  const V zero = L::set(0);
  const V e1x = L::sub(v1x, v0x), e1y = L::sub(v1y, v0y), e1z = L::sub(v1z, v0z);
  const V e2x = L::sub(v2x, v0x), e2y = L::sub(v2y, v0y), e2z = L::sub(v2z, v0z);
  const V rx = L::sub(px, v0x), ry = L::sub(py, v0y), rz = L::sub(pz, v0z);
  V ux, uy, uz, wx, wy, wz;
  cross3<L>(rx, ry, rz, e2x, e2y, e2z, ux, uy, uz);
  cross3<L>(e1x, e1y, e1z, rx, ry, rz, wx, wy, wz);
  const V b = L::mul(dot3<L>(ux, uy, uz, nx, ny, nz), inverse);
  const V c = L::mul(dot3<L>(wx, wy, wz, nx, ny, nz), inverse);
  jx = L::add(v0x, L::add(L::mul(e1x, b), L::mul(e2x, c)));
  jy = L::add(v0y, L::add(L::mul(e1y, b), L::mul(e2y, c)));
  jz = L::add(v0z, L::add(L::mul(e1z, b), L::mul(e2z, c)));
  return L::both(L::both(face, L::ge(b, zero)), L::both(L::ge(c, zero), L::le(L::add(b, c), L::set(1))));
}

/// Where the segment [s, e] crosses the plane of triangle (v0, v1, v2) (n,
/// `inverse`, `face`: face_normal) from one strict side to the other: x on
/// the segment, its projection j on the triangle (face_projection), and
/// whether j falls inside it. Then (x, j) is a pair at distance 0 up to
/// rounding, which crossing triangles need (an edge through the other's
/// interior: no edge pair or vertex projection comes near it). Both points
/// lie on their features whatever the rounding of the plane, so the pair is
/// an upper bound like every other.
template <class L>
typename L::M edge_through_face(typename L::V sx, typename L::V sy, typename L::V sz, typename L::V ex,
                                typename L::V ey, typename L::V ez, typename L::V v0x, typename L::V v0y,
                                typename L::V v0z, typename L::V v1x, typename L::V v1y, typename L::V v1z,
                                typename L::V v2x, typename L::V v2y, typename L::V v2z, typename L::V nx,
                                typename L::V ny, typename L::V nz, typename L::V inverse, typename L::M face,
                                typename L::V& xx, typename L::V& xy, typename L::V& xz, typename L::V& jx,
                                typename L::V& jy, typename L::V& jz) {
  using V = typename L::V;
  const V zero = L::set(0);
  const V ds = dot3<L>(nx, ny, nz, L::sub(sx, v0x), L::sub(sy, v0y), L::sub(sz, v0z));
  const V de = dot3<L>(nx, ny, nz, L::sub(ex, v0x), L::sub(ey, v0y), L::sub(ez, v0z));
  const auto crosses = L::either(L::both(L::gt(ds, zero), L::lt(de, zero)), L::both(L::lt(ds, zero), L::gt(de, zero)));
  const V r = clamp01<L>(L::div(ds, L::select(crosses, L::sub(ds, de), L::set(1))));
  xx = L::add(sx, L::mul(L::sub(ex, sx), r));
  xy = L::add(sy, L::mul(L::sub(ey, sy), r));
  xz = L::add(sz, L::mul(L::sub(ez, sz), r));
  return L::both(crosses, face_projection<L>(xx, xy, xz, v0x, v0y, v0z, v1x, v1y, v1z, v2x, v2y, v2z, nx, ny, nz,
                                             inverse, face, jx, jy, jz));
}

}  // namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_ADVANCE_CLOSEST_POINTS_INL_H_
