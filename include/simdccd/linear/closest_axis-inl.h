// The direction between the closest points of a point and a triangle, and of
// two segments, in plain floating point: the best candidate separating axis
// of the minimum-separation kernel (separation-inl.h). Ericson, "Real-Time
// Collision Detection", 5.1.5 and 5.1.9, with the region branches as
// selects and every division guarded. Any axis is a valid separating axis,
// so no error bound is needed here: rounding only makes the axis a little
// less good. Degenerate input gives some finite axis (or NaN from NaN input,
// which then excludes nothing).
//
// Defined in namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target (see tile_kernel-inl.h).
#if defined(SIMDCCD_LINEAR_CLOSEST_AXIS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_LINEAR_CLOSEST_AXIS_INL_H_
#undef SIMDCCD_LINEAR_CLOSEST_AXIS_INL_H_
#else
#define SIMDCCD_LINEAR_CLOSEST_AXIS_INL_H_
#endif

#include "simdccd/simd/tile_common-inl.h"
#include "simdccd/simd/vec3-inl.h"

namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE {

namespace closest {

using simd::SIMDCCD_TARGET_NAMESPACE::dot3;

/// n / d, with 1 for d where d is 0 (a lane whose region does not use it).
template <class L>
typename L::V guarded_div(typename L::V n, typename L::V d) {
  const typename L::V zero = L::set(0);
  return L::div(n, L::select(L::eq(d, zero), L::set(1), d));
}

template <class L>
typename L::V clamp01(typename L::V x) {
  return L::min(L::max(x, L::set(0)), L::set(1));
}

/// p - q for q the point of the triangle (a, b, c) closest to p, from
/// ap = p - a, bp = p - b, cp = p - c.
template <class L>
void point_triangle(typename L::V apx, typename L::V apy, typename L::V apz, typename L::V bpx, typename L::V bpy,
                    typename L::V bpz, typename L::V cpx, typename L::V cpy, typename L::V cpz, typename L::V& x,
                    typename L::V& y, typename L::V& z) {
  using V = typename L::V;
  const V zero = L::set(0);
  // b - a = (p - a) - (p - b); c - a likewise.
  const V abx = L::sub(apx, bpx), aby = L::sub(apy, bpy), abz = L::sub(apz, bpz);
  const V acx = L::sub(apx, cpx), acy = L::sub(apy, cpy), acz = L::sub(apz, cpz);
  const V d1 = dot3<L>(abx, aby, abz, apx, apy, apz), d2 = dot3<L>(acx, acy, acz, apx, apy, apz);
  const V d3 = dot3<L>(abx, aby, abz, bpx, bpy, bpz), d4 = dot3<L>(acx, acy, acz, bpx, bpy, bpz);
  const V d5 = dot3<L>(abx, aby, abz, cpx, cpy, cpz), d6 = dot3<L>(acx, acy, acz, cpx, cpy, cpz);
  const V va = L::sub(L::mul(d3, d6), L::mul(d5, d4)), vb = L::sub(L::mul(d5, d2), L::mul(d1, d6)),
          vc = L::sub(L::mul(d1, d4), L::mul(d3, d2));
  // Inside the face: q = a + v ab + w ac.
  const V sum = L::add(L::add(va, vb), vc), v = guarded_div<L>(vb, sum), w = guarded_div<L>(vc, sum);
  x = L::sub(L::sub(apx, L::mul(v, abx)), L::mul(w, acx));
  y = L::sub(L::sub(apy, L::mul(v, aby)), L::mul(w, acy));
  z = L::sub(L::sub(apz, L::mul(v, abz)), L::mul(w, acz));
  // The regions in reverse order of Ericson's tests, so that earlier tests win.
  const auto region = [&](typename L::M in, V rx, V ry, V rz) {
    x = L::select(in, rx, x), y = L::select(in, ry, y), z = L::select(in, rz, z);
  };
  const V d43 = L::sub(d4, d3), d56 = L::sub(d5, d6), wbc = guarded_div<L>(d43, L::add(d43, d56));
  region(L::both(L::le(va, zero), L::both(L::ge(d43, zero), L::ge(d56, zero))),  // edge bc: q = b + w (c - b)
         L::sub(bpx, L::mul(wbc, L::sub(bpx, cpx))), L::sub(bpy, L::mul(wbc, L::sub(bpy, cpy))),
         L::sub(bpz, L::mul(wbc, L::sub(bpz, cpz))));
  const V wac = guarded_div<L>(d2, L::sub(d2, d6));
  region(L::both(L::le(vb, zero), L::both(L::ge(d2, zero), L::le(d6, zero))),  // edge ac
         L::sub(apx, L::mul(wac, acx)), L::sub(apy, L::mul(wac, acy)), L::sub(apz, L::mul(wac, acz)));
  region(L::both(L::ge(d6, zero), L::le(d5, d6)), cpx, cpy, cpz);  // corner c
  const V vab = guarded_div<L>(d1, L::sub(d1, d3));
  region(L::both(L::le(vc, zero), L::both(L::ge(d1, zero), L::le(d3, zero))),  // edge ab
         L::sub(apx, L::mul(vab, abx)), L::sub(apy, L::mul(vab, aby)), L::sub(apz, L::mul(vab, abz)));
  region(L::both(L::ge(d3, zero), L::le(d4, d3)), bpx, bpy, bpz);    // corner b
  region(L::both(L::le(d1, zero), L::le(d2, zero)), apx, apy, apz);  // corner a
}

/// (p1 + s d1) - (p2 + t d2) for the closest points of the segments
/// p1 + s d1 and p2 + t d2 (s, t in [0, 1]), from r = p1 - p2, d1, d2.
template <class L>
void segment_segment(typename L::V rx, typename L::V ry, typename L::V rz, typename L::V d1x, typename L::V d1y,
                     typename L::V d1z, typename L::V d2x, typename L::V d2y, typename L::V d2z, typename L::V& x,
                     typename L::V& y, typename L::V& z) {
  using V = typename L::V;
  const V zero = L::set(0), one = L::set(1);
  const V a = dot3<L>(d1x, d1y, d1z, d1x, d1y, d1z), e = dot3<L>(d2x, d2y, d2z, d2x, d2y, d2z);
  const V b = dot3<L>(d1x, d1y, d1z, d2x, d2y, d2z), c = dot3<L>(d1x, d1y, d1z, rx, ry, rz);
  const V f = dot3<L>(d2x, d2y, d2z, rx, ry, rz);
  const V denom = L::sub(L::mul(a, e), L::mul(b, b));
  // The lines' closest s, clamped (0 for parallel lines), then t for it.
  V s = L::select(L::gt(denom, zero), clamp01<L>(guarded_div<L>(L::sub(L::mul(b, f), L::mul(c, e)), denom)), zero);
  V t = guarded_div<L>(L::add(L::mul(b, s), f), e);
  // t out of [0, 1]: clamp it and recompute s for it.
  const typename L::M below = L::lt(t, zero), above = L::gt(t, one);
  s = L::select(below, clamp01<L>(guarded_div<L>(L::sub(zero, c), a)), s);
  s = L::select(above, clamp01<L>(guarded_div<L>(L::sub(b, c), a)), s);
  t = clamp01<L>(t);
  x = L::sub(L::add(rx, L::mul(s, d1x)), L::mul(t, d2x));
  y = L::sub(L::add(ry, L::mul(s, d1y)), L::mul(t, d2y));
  z = L::sub(L::add(rz, L::mul(s, d1z)), L::mul(t, d2z));
}

}  // namespace closest

}  // namespace simdccd::linear::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_LINEAR_CLOSEST_AXIS_INL_H_
