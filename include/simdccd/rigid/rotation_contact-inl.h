// Plain contact under a rotation (rigid_ccd.hpp, expel = 0): the contact
// polynomial and the inclusion test of van Waveren's rotational vertex-polygon
// and edge-edge cases, in the Cayley form of cayley_forms-inl.h.
//
// In the still primitive's frame the first primitive turns (the vertex, or
// edge a). The features can only touch where the four points are coplanar
// (van Waveren's a cos(alpha) + b sin(alpha) + c = 0): times W a quadratic
// form in (g, s), so a quadratic in u:
// - VF: n.(x(u) - f0) with n = (f1 - f0) x (f2 - f0);
// - EE: det(R da, db, a0(u) - b0) = (R da).((b0 - c) x db) + (R ((a0 - c) x da)).db
//   (the second term as det(R y, db, R w) = (R (w x y)).db).
// It goes to the shared root isolation as a cubic (degree elevation). At a
// root, inclusion is decided on the root's bracket [lo, hi] from quadratics
// again, each certified of one sign on the whole bracket:
// - VF: the vertex is in the closed triangle iff k_i.(x - f_i) >= 0 for the
//   three edges, k_i = n x (f_{i+1} - f_i) (the edge's inward normal in the
//   plane);
// - EE: with a fixed vector nu transversal to the plane at the root (n(u) at
//   the bracket's middle, in floating point: any nu whose nu.n(u) is
//   certified nonzero on the bracket serves, so nu needs no error bound), the
//   segments cross iff a0, a1 lie on opposite sides of line b and b0, b1 on
//   opposite sides of line a: det(nu, a_i(u) - b0, db) = (db x nu).(a_i(u) - b0)
//   and det(nu, b_j - a0(u), R da) = (R da).(nu x (b_j - c)) - (R ((a0 - c) x da)).nu.
// Touching (a zero inclusion or side value) is never certified: uncertain.
#if defined(SIMDCCD_RIGID_ROTATION_CONTACT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_RIGID_ROTATION_CONTACT_INL_H_
#undef SIMDCCD_RIGID_ROTATION_CONTACT_INL_H_
#else
#define SIMDCCD_RIGID_ROTATION_CONTACT_INL_H_
#endif

#include "simdccd/query.hpp"
#include "simdccd/rigid/cayley_forms-inl.h"

namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE {

/// Point p minus point r (r = -1: the center) as three locals with permanents.
template <class L>
void difference(const QueryLanes<L>& q, int p, int r, typename L::V& x, typename L::V& y,
                typename L::V& z, typename L::V& px, typename L::V& py, typename L::V& pz) {
  x = q.diff(p, r, 0, px), y = q.diff(p, r, 1, py), z = q.diff(p, r, 2, pz);
}

/// (point p1 - point p0) x (point p2 - point p0), with its permanent.
template <class L>
void normal_of(const QueryLanes<L>& q, int p0, int p1, int p2, typename L::V& x, typename L::V& y,
               typename L::V& z, typename L::V& px, typename L::V& py, typename L::V& pz) {
  typename L::V d1x, d1y, d1z, p1x, p1y, p1z, d2x, d2y, d2z, p2x, p2y, p2z;
  difference<L>(q, p1, p0, d1x, d1y, d1z, p1x, p1y, p1z);
  difference<L>(q, p2, p0, d2x, d2y, d2z, p2x, p2y, p2z);
  cross<L>(vec<L>(d1x, d1y, d1z), vec<L>(d2x, d2y, d2z), x, y, z);
  abs_cross<L>(vec<L>(p1x, p1y, p1z), vec<L>(p2x, p2y, p2z), px, py, pz);
}

/// W (R (point p - point r)).z for a still vector z: the difference of two
/// points (r = -1: the center) turned.
template <class L, class Axis, class Z, class PZ>
void turned_difference_form(const QueryLanes<L>& q, const Axis& a, typename L::V A, int p, int r, const Z& z,
                            const PZ& pz, typename L::V& gg, typename L::V& gs, typename L::V& ss,
                            typename L::V& pgg, typename L::V& pgs, typename L::V& pss) {
  using V = typename L::V;
  V dx, dy, dz, pdx, pdy, pdz;
  difference<L>(q, p, r, dx, dy, dz, pdx, pdy, pdz);
  const auto d = vec<L>(dx, dy, dz);
  const auto pd = vec<L>(pdx, pdy, pdz);
  V ad, pad, cx, cy, cz, pcx, pcy, pcz;
  axis_products<L>(a, d, pd, ad, pad, cx, cy, cz, pcx, pcy, pcz);
  rotated_dot<L>(a, A, d, pd, ad, pad, vec<L>(cx, cy, cz), vec<L>(pcx, pcy, pcz), z, pz, gg, gs, ss, pgg,
                 pgs, pss);
}

/// W k.(x(u) - f) for the moving point p (x) and the still point r (f) as a
/// form: W k.(R (x - c)), plus k.(c - f) W.
template <class L, class Axis, class K, class PK>
void moving_affine(const QueryLanes<L>& q, const Axis& a, typename L::V A, int p, int r, const K& k,
                   const PK& pk, typename L::V& gg, typename L::V& gs, typename L::V& ss,
                   typename L::V& pgg, typename L::V& pgs, typename L::V& pss) {
  using V = typename L::V;
  turned_difference_form<L>(q, a, A, p, -1, k, pk, gg, gs, ss, pgg, pgs, pss);
  V gx, gy, gz, pgx, pgy, pgz;
  difference<L>(q, r, -1, gx, gy, gz, pgx, pgy, pgz);  // f - c
  add_weight<L>(L::sub(L::set(0), dot<L>(k, vec<L>(gx, gy, gz))), dot<L>(pk, vec<L>(pgx, pgy, pgz)), A,
                gg, gs, ss, pgg, pgs, pss);
}

/// EE: W (R da).z for a still vector z: the direction of edge a turned.
template <class L, class Axis, class Z, class PZ>
void direction_form(const QueryLanes<L>& q, const Axis& a, typename L::V A, const Z& z, const PZ& pz,
                    typename L::V& gg, typename L::V& gs, typename L::V& ss, typename L::V& pgg,
                    typename L::V& pgs, typename L::V& pss) {
  turned_difference_form<L>(q, a, A, 1, 0, z, pz, gg, gs, ss, pgg, pgs, pss);
}

/// EE: adds W (R ((a0 - c) x da)).z for a still vector z: edge a's moment
/// about the center, turned.
template <class L, class Axis, class Z, class PZ>
void add_moment_form(const QueryLanes<L>& q, const Axis& a, typename L::V A, const Z& z, const PZ& pz,
                     typename L::V& gg, typename L::V& gs, typename L::V& ss, typename L::V& pgg,
                     typename L::V& pgs, typename L::V& pss) {
  using V = typename L::V;
  V dx, dy, dz, pdx, pdy, pdz, wx, wy, wz, pwx, pwy, pwz;
  difference<L>(q, 1, 0, dx, dy, dz, pdx, pdy, pdz);
  difference<L>(q, 0, -1, wx, wy, wz, pwx, pwy, pwz);
  V yx, yy, yz, pyx, pyy, pyz;
  cross<L>(vec<L>(wx, wy, wz), vec<L>(dx, dy, dz), yx, yy, yz);
  abs_cross<L>(vec<L>(pwx, pwy, pwz), vec<L>(pdx, pdy, pdz), pyx, pyy, pyz);
  const auto y = vec<L>(yx, yy, yz);
  const auto py = vec<L>(pyx, pyy, pyz);
  V ay, pay, ex, ey, ez, pex, pey, pez;
  axis_products<L>(a, y, py, ay, pay, ex, ey, ez, pex, pey, pez);
  V rgg, rgs, rss, rpgg, rpgs, rpss;
  rotated_dot<L>(a, A, y, py, ay, pay, vec<L>(ex, ey, ez), vec<L>(pex, pey, pez), z, pz, rgg, rgs, rss,
                 rpgg, rpgs, rpss);
  add_form<L>(rgg, rgs, rss, rpgg, rpgs, rpss, gg, gs, ss, pgg, pgs, pss);
}

/// The contact polynomial of a rotation query (see the top), times W, as a
/// quadratic form in (g, s) with the permanents of its coefficients, and the
/// rotation's constants A, C, S (rotation_constants).
template <class L, QueryType kType>
void contact_form(const QueryLanes<L>& q, typename L::V& gg, typename L::V& gs, typename L::V& ss,
                  typename L::V& pgg, typename L::V& pgs, typename L::V& pss, typename L::V& A,
                  typename L::V& C, typename L::V& S) {
  using V = typename L::V;
  const V ax = q.param(3), ay = q.param(4), az = q.param(5);
  const auto a = vec<L>(ax, ay, az);
  rotation_constants<L>(q, A, C, S);
  if constexpr (kType == QueryType::vertex_face) {
    V nx, ny, nz, pnx, pny, pnz;
    normal_of<L>(q, 1, 2, 3, nx, ny, nz, pnx, pny, pnz);
    moving_affine<L>(q, a, A, 0, 1, vec<L>(nx, ny, nz), vec<L>(pnx, pny, pnz), gg, gs, ss, pgg, pgs, pss);
  } else {
    V dbx, dby, dbz, pbx, pby, pbz, hx, hy, hz, phx, phy, phz;
    difference<L>(q, 3, 2, dbx, dby, dbz, pbx, pby, pbz);
    difference<L>(q, 2, -1, hx, hy, hz, phx, phy, phz);
    const auto db = vec<L>(dbx, dby, dbz);
    const auto pdb = vec<L>(pbx, pby, pbz);
    V mx, my, mz, pmx, pmy, pmz;  // (b0 - c) x db
    cross<L>(vec<L>(hx, hy, hz), db, mx, my, mz);
    abs_cross<L>(vec<L>(phx, phy, phz), pdb, pmx, pmy, pmz);
    direction_form<L>(q, a, A, vec<L>(mx, my, mz), vec<L>(pmx, pmy, pmz), gg, gs, ss, pgg, pgs, pss);
    add_moment_form<L>(q, a, A, db, pdb, gg, gs, ss, pgg, pgs, pss);
  }
}

/// The same as a quadratic in u: Bernstein coefficients q0..q2 with bounds f0..f2.
template <class L, QueryType kType>
void contact_quadratic(const QueryLanes<L>& q, typename L::V& q0, typename L::V& q1, typename L::V& q2,
                       typename L::V& f0, typename L::V& f1, typename L::V& f2) {
  typename L::V gg, gs, ss, pgg, pgs, pss, A, C, S;
  contact_form<L, kType>(q, gg, gs, ss, pgg, pgs, pss, A, C, S);
  bernstein_in_u<L>(C, S, gg, gs, ss, pgg, pgs, pss, q0, q1, q2, f0, f1, f2);
}

/// The same as a cubic (degree elevation), for the shared root isolation.
template <class L, QueryType kType>
void rotation_cubic(const QueryLanes<L>& q, typename L::V& b0, typename L::V& b1,
                    typename L::V& b2, typename L::V& b3, typename L::V& e0, typename L::V& e1,
                    typename L::V& e2, typename L::V& e3) {
  typename L::V q0, q1, q2, f0, f1, f2;
  contact_quadratic<L, kType>(q, q0, q1, q2, f0, f1, f2);
  elevate<L>(q0, q1, q2, f0, f1, f2, b0, b1, b2, b3, e0, e1, e2, e3);
}

/// Inclusion at a root in [lo, hi] (see the top): `inside` where it
/// certainly holds on the whole bracket, `outside` where it certainly fails.
template <class L, QueryType kType>
void rotation_inclusion(const QueryLanes<L>& q, typename L::V lo, typename L::V hi,
                        typename L::M& inside, typename L::M& outside) {
  using V = typename L::V;
  using M = typename L::M;
  const V ax = q.param(3), ay = q.param(4), az = q.param(5);
  const auto a = vec<L>(ax, ay, az);
  V A, C, S;
  rotation_constants<L>(q, A, C, S);
  const auto sign = [&](V gg, V gs, V ss, V pgg, V pgs, V pss, M& positive, M& negative) {
    form_sign_on<L>(C, S, gg, gs, ss, pgg, pgs, pss, lo, hi, positive, negative);
  };
  if constexpr (kType == QueryType::vertex_face) {
    V nx, ny, nz, pnx, pny, pnz;
    normal_of<L>(q, 1, 2, 3, nx, ny, nz, pnx, pny, pnz);
    inside = L::le(L::set(0), L::set(1));
    outside = L::lt(L::set(1), L::set(0));
    for (int i = 0; i < 3; ++i) {
      const int from = 1 + i, to = 1 + (i + 1) % 3;
      V ex, ey, ez, pex, pey, pez;
      difference<L>(q, to, from, ex, ey, ez, pex, pey, pez);
      V kx, ky, kz, pkx, pky, pkz;  // k_i = n x e_i
      cross<L>(vec<L>(nx, ny, nz), vec<L>(ex, ey, ez), kx, ky, kz);
      abs_cross<L>(vec<L>(pnx, pny, pnz), vec<L>(pex, pey, pez), pkx, pky, pkz);
      V gg, gs, ss, pgg, pgs, pss;
      moving_affine<L>(q, a, A, 0, from, vec<L>(kx, ky, kz), vec<L>(pkx, pky, pkz), gg, gs, ss, pgg, pgs, pss);
      M positive, negative;
      sign(gg, gs, ss, pgg, pgs, pss, positive, negative);
      inside = L::both(inside, positive);
      outside = L::either(outside, negative);
    }
  } else {
    // nu = n at the bracket's middle, up to the positive factor W.
    const V um = L::mul(L::set(0.5), L::add(lo, hi));
    const V g = L::add(L::sub(L::set(1), um), L::mul(C, um)), s = L::mul(S, um);
    V dax, day, daz, pax, pay, paz, dbx, dby, dbz, pbx, pby, pbz;
    difference<L>(q, 1, 0, dax, day, daz, pax, pay, paz);
    difference<L>(q, 3, 2, dbx, dby, dbz, pbx, pby, pbz);
    const auto db = vec<L>(dbx, dby, dbz);
    const auto pdb = vec<L>(pbx, pby, pbz);
    V rx, ry, rz;  // W R da
    {
      V cx, cy, cz;
      cross<L>(a, vec<L>(dax, day, daz), cx, cy, cz);
      const V ad = dot<L>(a, vec<L>(dax, day, daz));
      const V diag = L::sub(L::mul(g, g), L::mul(L::mul(s, s), A));
      const V along = L::mul(L::set(2), L::mul(L::mul(s, s), ad)), turn = L::mul(L::set(2), L::mul(g, s));
      rx = L::add(L::add(L::mul(diag, dax), L::mul(along, ax)), L::mul(turn, cx));
      ry = L::add(L::add(L::mul(diag, day), L::mul(along, ay)), L::mul(turn, cy));
      rz = L::add(L::add(L::mul(diag, daz), L::mul(along, az)), L::mul(turn, cz));
    }
    V nux, nuy, nuz;
    cross<L>(vec<L>(rx, ry, rz), db, nux, nuy, nuz);
    const auto nu = vec<L>(nux, nuy, nuz);
    const auto pnu = [&](int k) { return L::abs(nu(k)); };
    V kx, ky, kz, pkx, pky, pkz;  // kappa = db x nu
    cross<L>(db, nu, kx, ky, kz);
    abs_cross<L>(pdb, pnu, pkx, pky, pkz);
    const auto kappa = vec<L>(kx, ky, kz);
    const auto pkappa = vec<L>(pkx, pky, pkz);
    V gg, gs, ss, pgg, pgs, pss;
    M transversal_up, transversal_down;  // nu.n(u) = (R da).kappa
    direction_form<L>(q, a, A, kappa, pkappa, gg, gs, ss, pgg, pgs, pss);
    sign(gg, gs, ss, pgg, pgs, pss, transversal_up, transversal_down);
    // a_i against line b: kappa.(a_i(u) - b0).
    const auto side_a = [&](int i, M& positive, M& negative) {
      moving_affine<L>(q, a, A, i, 2, kappa, pkappa, gg, gs, ss, pgg, pgs, pss);
      sign(gg, gs, ss, pgg, pgs, pss, positive, negative);
    };
    // b_j against line a: (R da).(nu x (b_j - c)) + (R ((a0 - c) x da)).(-nu).
    const auto side_b = [&](int j, M& positive, M& negative) {
      V hx, hy, hz, phx, phy, phz;
      difference<L>(q, 2 + j, -1, hx, hy, hz, phx, phy, phz);
      V zx, zy, zz, pzx, pzy, pzz;
      cross<L>(nu, vec<L>(hx, hy, hz), zx, zy, zz);
      abs_cross<L>(pnu, vec<L>(phx, phy, phz), pzx, pzy, pzz);
      direction_form<L>(q, a, A, vec<L>(zx, zy, zz), vec<L>(pzx, pzy, pzz), gg, gs, ss, pgg, pgs, pss);
      add_moment_form<L>(q, a, A, [&](int k) { return L::sub(L::set(0), nu(k)); }, pnu, gg, gs, ss, pgg, pgs,
                         pss);
      sign(gg, gs, ss, pgg, pgs, pss, positive, negative);
    };
    M a0_pos, a0_neg, a1_pos, a1_neg, b0_pos, b0_neg, b1_pos, b1_neg;
    side_a(0, a0_pos, a0_neg), side_a(1, a1_pos, a1_neg);
    side_b(0, b0_pos, b0_neg), side_b(1, b1_pos, b1_neg);
    const M crossing = L::both(L::either(L::both(a0_pos, a1_neg), L::both(a0_neg, a1_pos)),
                               L::either(L::both(b0_pos, b1_neg), L::both(b0_neg, b1_pos)));
    const M apart = L::either(L::either(L::both(a0_pos, a1_pos), L::both(a0_neg, a1_neg)),
                              L::either(L::both(b0_pos, b1_pos), L::both(b0_neg, b1_neg)));
    const M transversal = L::either(transversal_up, transversal_down);
    inside = L::both(transversal, crossing);
    outside = L::both(transversal, apart);
  }
}

}  // namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_RIGID_ROTATION_CONTACT_INL_H_
