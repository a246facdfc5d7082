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

/// The projection j of p on the plane of triangle (v0, v1, v2), and whether
/// it falls inside the triangle (a nondegenerate one): then (p, j) is the
/// vertex-face closest pair.
template <class L>
typename L::M face_projection(typename L::V px, typename L::V py, typename L::V pz, typename L::V v0x,
                              typename L::V v0y, typename L::V v0z, typename L::V v1x, typename L::V v1y,
                              typename L::V v1z, typename L::V v2x, typename L::V v2y, typename L::V v2z,
                              typename L::V& jx, typename L::V& jy, typename L::V& jz) {
  using V = typename L::V;
  const V zero = L::set(0);
  V nx, ny, nz;
  cross3<L>(L::sub(v1x, v0x), L::sub(v1y, v0y), L::sub(v1z, v0z), L::sub(v2x, v0x), L::sub(v2y, v0y),
            L::sub(v2z, v0z), nx, ny, nz);
  const V nn = dot3<L>(nx, ny, nz, nx, ny, nz);
  // p is on the inner side of the edge (from, to) when (to - from) x (p - from) points along n.
  const auto inner = [&](V fx, V fy, V fz, V tx, V ty, V tz) {
    V cx, cy, cz;
    cross3<L>(L::sub(tx, fx), L::sub(ty, fy), L::sub(tz, fz), L::sub(px, fx), L::sub(py, fy), L::sub(pz, fz), cx,
              cy, cz);
    return L::ge(dot3<L>(cx, cy, cz, nx, ny, nz), zero);
  };
  const auto inside = L::both(L::both(L::gt(nn, zero), inner(v0x, v0y, v0z, v1x, v1y, v1z)),
                              L::both(inner(v1x, v1y, v1z, v2x, v2y, v2z), inner(v2x, v2y, v2z, v0x, v0y, v0z)));
  const V k = L::div(dot3<L>(nx, ny, nz, L::sub(px, v0x), L::sub(py, v0y), L::sub(pz, v0z)),
                     L::select(L::gt(nn, zero), nn, L::set(1)));
  jx = L::sub(px, L::mul(nx, k));
  jy = L::sub(py, L::mul(ny, k));
  jz = L::sub(pz, L::mul(nz, k));
  return inside;
}

}  // namespace simdccd::advancement::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_ADVANCE_CLOSEST_POINTS_INL_H_
