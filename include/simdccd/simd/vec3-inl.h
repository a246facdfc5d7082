// 3D vector helpers over the lane type L (lanes.hpp), shared by the kernels.
//
// Vectors of lanes cannot live in structs or arrays (SVE's are sizeless), so a
// 3D vector is either three named locals or a view: a callable `v(axis)`
// returning its component (vec() wraps three locals; the compiler inlines the
// calls away).
//
// Defined in namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE, re-included per
// Highway target like the kernels that use it.
#if defined(SIMDCCD_SIMD_VEC3_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_SIMD_VEC3_INL_H_
#undef SIMDCCD_SIMD_VEC3_INL_H_
#else
#define SIMDCCD_SIMD_VEC3_INL_H_
#endif

#include "simdccd/simd/lanes.hpp"

namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE {

/// A 3D cross product, and the same on absolute values (for permanents).
template <class L>
void cross3(typename L::V ax, typename L::V ay, typename L::V az, typename L::V bx,
            typename L::V by, typename L::V bz, typename L::V& x, typename L::V& y,
            typename L::V& z) {
  x = L::sub(L::mul(ay, bz), L::mul(az, by));
  y = L::sub(L::mul(az, bx), L::mul(ax, bz));
  z = L::sub(L::mul(ax, by), L::mul(ay, bx));
}
template <class L>
void abs_cross3(typename L::V ax, typename L::V ay, typename L::V az, typename L::V bx,
                typename L::V by, typename L::V bz, typename L::V& x, typename L::V& y,
                typename L::V& z) {
  x = L::add(L::mul(L::abs(ay), L::abs(bz)), L::mul(L::abs(az), L::abs(by)));
  y = L::add(L::mul(L::abs(az), L::abs(bx)), L::mul(L::abs(ax), L::abs(bz)));
  z = L::add(L::mul(L::abs(ax), L::abs(by)), L::mul(L::abs(ay), L::abs(bx)));
}

template <class L>
typename L::V dot3(typename L::V ax, typename L::V ay, typename L::V az, typename L::V bx,
                   typename L::V by, typename L::V bz) {
  return L::add(L::add(L::mul(ax, bx), L::mul(ay, by)), L::mul(az, bz));
}

/// A view of three locals (see the top).
template <class L>
auto vec(const typename L::V& x, const typename L::V& y, const typename L::V& z) {
  return [&x, &y, &z](int axis) -> typename L::V { return axis == 0 ? x : axis == 1 ? y : z; };
}

/// a.b of two views.
template <class L, class A, class B>
typename L::V dot(const A& a, const B& b) {
  return dot3<L>(a(0), a(1), a(2), b(0), b(1), b(2));
}

/// a x b of two views, into three locals; abs_cross the same on absolute values.
template <class L, class A, class B>
void cross(const A& a, const B& b, typename L::V& x, typename L::V& y, typename L::V& z) {
  cross3<L>(a(0), a(1), a(2), b(0), b(1), b(2), x, y, z);
}
template <class L, class A, class B>
void abs_cross(const A& a, const B& b, typename L::V& x, typename L::V& y, typename L::V& z) {
  abs_cross3<L>(a(0), a(1), a(2), b(0), b(1), b(2), x, y, z);
}

}  // namespace simdccd::simd::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_SIMD_VEC3_INL_H_
