// The polynomials of a rotation in the Cayley form (rigid_motion.hpp), with
// forward error bounds: the algebra that the rotation kernels share.
//
// With (g, s) the homogeneous half-angle parameters of rigid_motion.hpp, A =
// |a|^2 and W = g^2 + s^2 A, the rotation R(u) satisfies
//   W R y = (g^2 - s^2 A) y + 2 s^2 (a.y) a + 2 g s (a x y),
// so for fixed vectors y and z (rotated_dot)
//   W (R y).z = g^2 (y.z) + g s 2 (a x y).z + s^2 (2 (a.y)(a.z) - A (y.z)),
// and for a point x moving about the center c (w = x - c) and an affine
// functional k.(x - f), W k.(x(u) - f) = k.(c - f) W + W (R w).k (add_weight).
// Every condition of a vertex-face or edge-edge query under a rotation is a
// sum of such terms: a quadratic form in (g, s), Q = Qgg g^2 + Qgs g s +
// Qss s^2. With g = 1 - u + C u and s = S u ((C, S) = (1, tau), or (0, +-1)
// for a half turn) it is a quadratic in u, held by its Bernstein coefficients
// on [0, 1] (bernstein_in_u):
//   b0 = Qgg,  b1 = C Qgg + S Qgs / 2,  b2 = C Qgg + C S Qgs + S^2 Qss   (C^2 = C).
//
// Error bounds: every value comes with its permanent P (the same expression
// evaluated on absolute values of the inputs and of the differences of input
// points, its other subtractions turned into additions); each
// value is off by at most kFormError * P + kFormTiny, kFormError = 64 u, about
// twice the 2 (d + 1) u that an expression of d <= 16 rounded operations per
// path needs (the deepest, an edge-edge coefficient in u elevated to a cubic,
// has 15). kFormTiny absorbs underflow: an underflow error of 2^-1075 is
// multiplied by at most 2^450 on its way through these expressions
// (coordinates, axis and tau of magnitude <= 2^60), far under kFormTiny.
//
// Vectors of lanes are views (simd/vec3-inl.h): callables v(axis).
//
// Defined in namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE, re-included
// per Highway target by dispatch/rigid_ccd.cc (see dispatch/linear_ccd.cc).
#if defined(SIMDCCD_RIGID_CAYLEY_FORMS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_RIGID_CAYLEY_FORMS_INL_H_
#undef SIMDCCD_RIGID_CAYLEY_FORMS_INL_H_
#else
#define SIMDCCD_RIGID_CAYLEY_FORMS_INL_H_
#endif

#include <cstddef>

#include "simdccd/rigid/tile.hpp"
#include "simdccd/simd/error_bounds.hpp"
#include "simdccd/simd/lanes.hpp"
#include "simdccd/simd/vec3-inl.h"

namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE {

using simd::SIMDCCD_TARGET_NAMESPACE::abs_cross;
using simd::SIMDCCD_TARGET_NAMESPACE::cross;
using simd::SIMDCCD_TARGET_NAMESPACE::dot;
using simd::SIMDCCD_TARGET_NAMESPACE::vec;

inline constexpr double kFormError = 64 * simd::kUnitRoundoff;
inline constexpr double kFormTiny = 0x1p-500;

/// Reads a query of a rigid tile: `row[k]` holds lanes() queries from index i on.
template <class L>
struct QueryLanes {
  using V = typename L::V;
  const double* const* row;
  std::size_t i;

  V point(int p, int axis) const { return L::load(row[3 * p + axis] + i); }
  V param(int k) const { return L::load(row[kParam + k] + i); }
  /// Point p minus point q, or minus the rotation's center for q = -1, and
  /// its permanent: its own magnitude (a difference of inputs is a leaf of
  /// every expression: rounded once, relative to itself; an exact zero, as
  /// between points of one axis-aligned plane, stays a zero of the
  /// permanents).
  V diff(int p, int q, int axis, V& perm) const {
    const V d = L::sub(point(p, axis), q < 0 ? param(axis) : point(q, axis));
    perm = L::abs(d);
    return d;
  }
};

/// A bound on the error of a value with permanent `perm` (see the top).
template <class L>
typename L::V form_bound(typename L::V perm) {
  return L::add(L::mul(L::set(kFormError), perm), L::set(kFormTiny));
}

/// The rotation's constants of a lane: A = |a|^2 (its own permanent) and
/// (C, S) (see the top; C is 0 or 1, S is tau or +-1).
template <class L>
void rotation_constants(const QueryLanes<L>& q, typename L::V& A, typename L::V& C, typename L::V& S) {
  using V = typename L::V;
  const V ax = q.param(3), ay = q.param(4), az = q.param(5), tau = q.param(6);
  A = dot<L>(vec<L>(ax, ay, az), vec<L>(ax, ay, az));
  const typename L::M finite = L::le(L::abs(tau), L::set(simd::kMaxCoordinate));
  const V one = L::set(1), zero = L::set(0);
  C = L::select(finite, one, zero);
  S = L::select(finite, tau, L::select(L::lt(tau, zero), L::set(-1), one));
}

/// A quadratic form in (g, s) with the permanents of its coefficients.
/// Passed as six references (vectors of lanes cannot be struct members).
#define SIMDCCD_RIGID_FORM_PARAMS(name)                                                         \
  typename L::V &name##gg, typename L::V &name##gs, typename L::V &name##ss,                    \
      typename L::V &name##pgg, typename L::V &name##pgs, typename L::V &name##pss

/// What W (R y).z needs of y, shared by every z: y, a.y, a x y, with
/// permanents (views `y`, `py`, `c`, `pc`, scalars `ay`, `pay`).
template <class L, class Axis, class Y, class PY>
void axis_products(const Axis& a, const Y& y, const PY& py, typename L::V& ay, typename L::V& pay,
                   typename L::V& cx, typename L::V& cy, typename L::V& cz, typename L::V& pcx,
                   typename L::V& pcy, typename L::V& pcz) {
  const auto abs_a = [&](int k) { return L::abs(a(k)); };
  ay = dot<L>(a, y);
  pay = dot<L>(abs_a, py);
  cross<L>(a, y, cx, cy, cz);
  abs_cross<L>(a, py, pcx, pcy, pcz);
}

/// W (R y).z as a form (see the top), from y's axis_products.
template <class L, class Axis, class Y, class PY, class C, class PC, class Z, class PZ>
void rotated_dot(const Axis& a, typename L::V A, const Y& y, const PY& py, typename L::V ay,
                 typename L::V pay, const C& c, const PC& pc, const Z& z, const PZ& pz,
                 SIMDCCD_RIGID_FORM_PARAMS(q)) {
  using V = typename L::V;
  const V two = L::set(2);
  const auto abs_a = [&](int k) { return L::abs(a(k)); };
  qgg = dot<L>(y, z);
  qpgg = dot<L>(py, pz);
  qgs = L::mul(two, dot<L>(c, z));
  qpgs = L::mul(two, dot<L>(pc, pz));
  const V az = dot<L>(a, z), paz = dot<L>(abs_a, pz);
  qss = L::sub(L::mul(two, L::mul(ay, az)), L::mul(A, qgg));
  qpss = L::add(L::mul(two, L::mul(pay, paz)), L::mul(A, qpgg));
}

/// Adds d W = d (g^2 + s^2 A) to a form: an affine functional's constant
/// part k.(c - f) (see the top).
template <class L>
void add_weight(typename L::V d, typename L::V pd, typename L::V A, SIMDCCD_RIGID_FORM_PARAMS(q)) {
  qgg = L::add(qgg, d), qpgg = L::add(qpgg, pd);
  qss = L::add(qss, L::mul(A, d)), qpss = L::add(qpss, L::mul(A, pd));
  (void)qgs, (void)qpgs;
}

/// Adds form r to form q.
template <class L>
void add_form(typename L::V rgg, typename L::V rgs, typename L::V rss, typename L::V rpgg,
              typename L::V rpgs, typename L::V rpss, SIMDCCD_RIGID_FORM_PARAMS(q)) {
  qgg = L::add(qgg, rgg), qgs = L::add(qgs, rgs), qss = L::add(qss, rss);
  qpgg = L::add(qpgg, rpgg), qpgs = L::add(qpgs, rpgs), qpss = L::add(qpss, rpss);
}

#undef SIMDCCD_RIGID_FORM_PARAMS

/// The Bernstein coefficients on [0, 1] in u of a form (see the top), with
/// their error bounds.
template <class L>
void bernstein_in_u(typename L::V C, typename L::V S, typename L::V gg, typename L::V gs,
                    typename L::V ss, typename L::V pgg, typename L::V pgs, typename L::V pss,
                    typename L::V& b0, typename L::V& b1, typename L::V& b2, typename L::V& e0,
                    typename L::V& e1, typename L::V& e2) {
  using V = typename L::V;
  const V half = L::set(0.5), aS = L::abs(S), S2 = L::mul(S, S);
  b0 = gg;
  b1 = L::add(L::mul(C, gg), L::mul(half, L::mul(S, gs)));
  b2 = L::add(L::add(L::mul(C, gg), L::mul(C, L::mul(S, gs))), L::mul(S2, ss));
  e0 = form_bound<L>(pgg);
  e1 = form_bound<L>(L::add(L::mul(C, pgg), L::mul(half, L::mul(aS, pgs))));
  e2 = form_bound<L>(L::add(L::add(L::mul(C, pgg), L::mul(C, L::mul(aS, pgs))), L::mul(S2, pss)));
}

/// A polynomial of degree <= 2 given by its Bernstein coefficients, as a
/// cubic (degree elevation), bounds included: the cubic root machinery
/// (simd/cubic_roots-inl.h) then isolates its roots. The two new
/// coefficients take two roundings and the rounded 1/3: 8 u of the sum of
/// magnitudes covers them.
template <class L>
void elevate(typename L::V q0, typename L::V q1, typename L::V q2, typename L::V f0,
             typename L::V f1, typename L::V f2, typename L::V& b0, typename L::V& b1,
             typename L::V& b2, typename L::V& b3, typename L::V& e0, typename L::V& e1,
             typename L::V& e2, typename L::V& e3) {
  using V = typename L::V;
  const V third = L::set(1.0 / 3), two = L::set(2), u8 = L::set(8 * simd::kUnitRoundoff);
  const V grow = L::set(1 + 8 * simd::kUnitRoundoff);  // the bound's own rounding
  b0 = q0, e0 = f0;
  b1 = L::mul(L::add(q0, L::mul(two, q1)), third);
  b2 = L::mul(L::add(L::mul(two, q1), q2), third);
  b3 = q2, e3 = f2;
  e1 = L::mul(L::add(L::mul(L::add(f0, L::mul(two, f1)), third),
                     L::mul(u8, L::add(L::abs(q0), L::mul(two, L::abs(q1))))),
              grow);
  e2 = L::mul(L::add(L::mul(L::add(L::mul(two, f1), f2), third),
                     L::mul(u8, L::add(L::mul(two, L::abs(q1)), L::abs(q2)))),
              grow);
}

/// Whether a polynomial of degree <= 2 (Bernstein q0, q1, q2 with bounds f0,
/// f1, f2 on [0, 1]) certainly has one strict sign on [lo, hi], a subset of
/// [0, 1]: its Bernstein coefficients on [lo, hi] (the blossoms q(lo, lo),
/// q(lo, hi), q(hi, hi)) share a sign beyond their bound. Each blossom is a
/// convex combination of the q_k, off by max f_k plus two levels of lerp (5 u
/// each) times max |q_k|; we use 16 u.
template <class L>
void sign_on(typename L::V q0, typename L::V q1, typename L::V q2, typename L::V f0,
             typename L::V f1, typename L::V f2, typename L::V lo, typename L::V hi,
             typename L::M& positive, typename L::M& negative) {
  using V = typename L::V;
  const auto lerp = [](V x, V y, V t) { return L::add(x, L::mul(t, L::sub(y, x))); };
  const V l0 = lerp(q0, q1, lo), l1 = lerp(q1, q2, lo), h0 = lerp(q0, q1, hi), h1 = lerp(q1, q2, hi);
  const V ll = lerp(l0, l1, lo), lh = lerp(l0, l1, hi), hh = lerp(h0, h1, hi);
  const V qmax = L::max(L::max(L::abs(q0), L::abs(q1)), L::abs(q2));
  const V bound = L::add(L::add(L::max(L::max(f0, f1), f2), L::mul(L::set(16 * simd::kUnitRoundoff), qmax)),
                         L::set(simd::kTiny));
  const V nbound = L::sub(L::set(0), bound);
  positive = L::both(L::both(L::gt(ll, bound), L::gt(lh, bound)), L::gt(hh, bound));
  negative = L::both(L::both(L::lt(ll, nbound), L::lt(lh, nbound)), L::lt(hh, nbound));
}

/// The form's sign on [lo, hi] (sign_on of its Bernstein coefficients in u).
template <class L>
void form_sign_on(typename L::V C, typename L::V S, typename L::V gg, typename L::V gs,
                  typename L::V ss, typename L::V pgg, typename L::V pgs, typename L::V pss,
                  typename L::V lo, typename L::V hi, typename L::M& positive, typename L::M& negative) {
  typename L::V q0, q1, q2, f0, f1, f2;
  bernstein_in_u<L>(C, S, gg, gs, ss, pgg, pgs, pss, q0, q1, q2, f0, f1, f2);
  sign_on<L>(q0, q1, q2, f0, f1, f2, lo, hi, positive, negative);
}

}  // namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_RIGID_CAYLEY_FORMS_INL_H_
