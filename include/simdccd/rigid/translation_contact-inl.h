// Plain contact under a translation (rigid_ccd.hpp, expel = 0): van Waveren's
// translational vertex-polygon and edge-edge tests.
//
// In the still primitive's frame the first primitive moves by v (the vertex,
// or edge a: x(f) = x + f v). The features can only touch where the four
// points are coplanar, which is linear in the fraction f:
// - VF: n.(x - f0) + f n.v, n = (f1 - f0) x (f2 - f0);
// - EE: m.(a0 - b0) + f m.v, m = (a1 - a0) x (b1 - b0);
// it goes to the shared root isolation as a cubic (degree elevation). Whether
// the features meet at that root does not depend on f: it is the sidedness of
// Pluecker lines, the permuted inner products of van Waveren's report, here
// as triple products:
// - VF: the vertex's path (the line through x along v) passes through the
//   closed triangle iff s_i = v.((f_i - x) x (f_{i+1} - x)), the sidedness of
//   the path and the directed edge f_i f_{i+1}, are all >= 0 or all <= 0
//   (their sum is n.v: the sign of the crossing). The edge computations
//   depend on the edge alone, so adjacent faces agree on a shared edge: no
//   crack opens between them.
// - EE: the segments cross at the root iff the paths of a0 and a1 pass line b
//   on opposite sides (v.((b0 - a_i) x (b1 - a_i)) of opposite signs) and b0,
//   b1 pass line a on opposite sides (v.((a0 - b_j) x (a1 - b_j))), the
//   sidedness tests of the report.
// Each triple product is certified against 16 u of its permanent (a
// difference, a cross product and a dot product: 6 roundings). Touching (a
// zero sidedness) is never certified: uncertain.
#if defined(SIMDCCD_RIGID_TRANSLATION_CONTACT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SIMDCCD_RIGID_TRANSLATION_CONTACT_INL_H_
#undef SIMDCCD_RIGID_TRANSLATION_CONTACT_INL_H_
#else
#define SIMDCCD_RIGID_TRANSLATION_CONTACT_INL_H_
#endif

#include "simdccd/query.hpp"
#include "simdccd/rigid/cayley_forms-inl.h"
#include "simdccd/rigid/rotation_contact-inl.h"

namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE {

/// The translation v of a lane (exact input: its own permanent is |v|).
template <class L>
auto translation_of(const QueryLanes<L>& q, typename L::V& vx, typename L::V& vy, typename L::V& vz) {
  vx = q.param(0), vy = q.param(1), vz = q.param(2);
  return vec<L>(vx, vy, vz);
}

/// The normal of the contact plane: VF n = (f1 - f0) x (f2 - f0), EE m =
/// (a1 - a0) x (b1 - b0), with its permanent.
template <class L, QueryType kType>
void contact_normal(const QueryLanes<L>& q, typename L::V& nx, typename L::V& ny, typename L::V& nz,
                    typename L::V& pnx, typename L::V& pny, typename L::V& pnz) {
  using V = typename L::V;
  if constexpr (kType == QueryType::vertex_face) {
    normal_of<L>(q, 1, 2, 3, nx, ny, nz, pnx, pny, pnz);
  } else {
    V dax, day, daz, pax, pay, paz, dbx, dby, dbz, pbx, pby, pbz;
    difference<L>(q, 1, 0, dax, day, daz, pax, pay, paz);
    difference<L>(q, 3, 2, dbx, dby, dbz, pbx, pby, pbz);
    cross<L>(vec<L>(dax, day, daz), vec<L>(dbx, dby, dbz), nx, ny, nz);
    abs_cross<L>(vec<L>(pax, pay, paz), vec<L>(pbx, pby, pbz), pnx, pny, pnz);
  }
}

/// The contact polynomial of a translation query (see the top), linear in
/// the fraction: its value at 0 (`start`: VF n.(x - f0), EE m.(a0 - b0)) and
/// its slope (`speed`: n.v or m.v), with bounds.
template <class L, QueryType kType>
void contact_line(const QueryLanes<L>& q, typename L::V& start, typename L::V& e_start,
                  typename L::V& speed, typename L::V& e_speed) {
  using V = typename L::V;
  V vx, vy, vz;
  const auto v = translation_of<L>(q, vx, vy, vz);
  V nx, ny, nz, pnx, pny, pnz;
  contact_normal<L, kType>(q, nx, ny, nz, pnx, pny, pnz);
  const auto n = vec<L>(nx, ny, nz);
  const auto pn = vec<L>(pnx, pny, pnz);
  V hx, hy, hz, phx, phy, phz;  // VF x - f0; EE a0 - b0
  difference<L>(q, 0, kType == QueryType::vertex_face ? 1 : 2, hx, hy, hz, phx, phy, phz);
  start = dot<L>(n, vec<L>(hx, hy, hz));
  e_start = form_bound<L>(dot<L>(pn, vec<L>(phx, phy, phz)));
  speed = dot<L>(n, v);
  e_speed = form_bound<L>(dot<L>(pn, [&](int k) { return L::abs(v(k)); }));
}

/// The same as a cubic in the fraction (degree elevation of the line through
/// start and end = start + speed), for the shared root isolation.
template <class L, QueryType kType>
void translation_cubic(const QueryLanes<L>& q, typename L::V& b0, typename L::V& b1,
                       typename L::V& b2, typename L::V& b3, typename L::V& e0, typename L::V& e1,
                       typename L::V& e2, typename L::V& e3) {
  using V = typename L::V;
  V start, e_start, speed, e_speed;
  contact_line<L, kType>(q, start, e_start, speed, e_speed);
  const V end = L::add(start, speed);
  const V third = L::set(1.0 / 3), two = L::set(2);
  b0 = start, b3 = end;
  b1 = L::mul(L::add(L::mul(two, start), end), third);
  b2 = L::mul(L::add(start, L::mul(two, end)), third);
  // The bounds are 64 u of permanents: the few extra roundings (the sum, the
  // elevation) fit in doubling them.
  e0 = e_start;
  e3 = L::add(e_start, e_speed);
  e1 = e2 = L::mul(two, e3);
}

/// The sidedness of the path of point p (along v) and the line through
/// points r0, r1: v.((r0 - p) x (r1 - p)), `positive` / `negative` where
/// certified.
template <class L, class Vv>
void sidedness(const QueryLanes<L>& q, const Vv& v, int p, int r0, int r1, typename L::M& positive,
               typename L::M& negative) {
  using V = typename L::V;
  V ax, ay, az, pax, pay, paz, bx, by, bz, pbx, pby, pbz;
  difference<L>(q, r0, p, ax, ay, az, pax, pay, paz);
  difference<L>(q, r1, p, bx, by, bz, pbx, pby, pbz);
  V cx, cy, cz, pcx, pcy, pcz;
  cross<L>(vec<L>(ax, ay, az), vec<L>(bx, by, bz), cx, cy, cz);
  abs_cross<L>(vec<L>(pax, pay, paz), vec<L>(pbx, pby, pbz), pcx, pcy, pcz);
  const V s = dot<L>(v, vec<L>(cx, cy, cz));
  const V perm = dot<L>([&](int k) { return L::abs(v(k)); }, vec<L>(pcx, pcy, pcz));
  const V bound = L::add(L::mul(L::set(16 * simd::kUnitRoundoff), perm), L::set(simd::kTiny));
  positive = L::gt(s, bound);
  negative = L::lt(s, L::sub(L::set(0), bound));
}

/// Inclusion at any root (see the top; it does not depend on the fraction):
/// `inside` where certain, `outside` where certainly not.
template <class L, QueryType kType>
void translation_inclusion(const QueryLanes<L>& q, typename L::M& inside, typename L::M& outside) {
  using M = typename L::M;
  typename L::V vx, vy, vz;
  const auto v = translation_of<L>(q, vx, vy, vz);
  if constexpr (kType == QueryType::vertex_face) {
    M p0, n0, p1, n1, p2, n2;
    sidedness<L>(q, v, 0, 1, 2, p0, n0);
    sidedness<L>(q, v, 0, 2, 3, p1, n1);
    sidedness<L>(q, v, 0, 3, 1, p2, n2);
    inside = L::either(L::both(L::both(p0, p1), p2), L::both(L::both(n0, n1), n2));
    // Two certified opposite signs: not all of one sign, whatever n.v is.
    const M some_pos = L::either(L::either(p0, p1), p2), some_neg = L::either(L::either(n0, n1), n2);
    outside = L::both(some_pos, some_neg);
  } else {
    M pa0, na0, pa1, na1, pb0, nb0, pb1, nb1;
    sidedness<L>(q, v, 0, 2, 3, pa0, na0);
    sidedness<L>(q, v, 1, 2, 3, pa1, na1);
    sidedness<L>(q, v, 2, 0, 1, pb0, nb0);
    sidedness<L>(q, v, 3, 0, 1, pb1, nb1);
    inside = L::both(L::either(L::both(pa0, na1), L::both(na0, pa1)),
                     L::either(L::both(pb0, nb1), L::both(nb0, pb1)));
    outside = L::either(L::either(L::both(pa0, pa1), L::both(na0, na1)),
                        L::either(L::both(pb0, pb1), L::both(nb0, nb1)));
  }
}

}  // namespace simdccd::rigid::SIMDCCD_TARGET_NAMESPACE

#endif  // SIMDCCD_RIGID_TRANSLATION_CONTACT_INL_H_
