// Hand-made degenerate CCD cases for the exact oracle (simdccd/exact_oracle.hpp).
//
// Every expected answer below is derived by hand in the comment next to the
// case; none was obtained by running the oracle.
//
// Conventions used in the derivations:
// - VF coplanarity cubic: p(t) = det(f1-f0, f2-f0, v-f0) = (v-f0) . ((f1-f0) x (f2-f0)).
// - EE coplanarity cubic: p(t) = det(a1-a0, b0-a0, b1-a0).
//   (Scaling or negating p does not change its roots, so the oracle may use any
//   equivalent orientation.)
// - T denotes the standard triangle f0=(0,0,0), f1=(1,0,0), f2=(0,1,0). For a
//   static T the cubic is just v_z(t), and (x,y,0) is in T iff x>=0, y>=0, x+y<=1.
// - "roots" = expected contact_roots; "coplanar" = expected always_coplanar.
// - Each double query is checked through both overloads (Query, and the same
//   query converted exactly with to_rational).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <limits>
#include <string>

#include <gmpxx.h>

#include "simdccd/exact_oracle.hpp"
#include "simdccd/query.hpp"
#include "simdccd/rational_query.hpp"
#include "simdccd/result.hpp"

namespace {

using simdccd::exact_ccd;
using simdccd::Query;
using simdccd::QueryType;
using simdccd::RationalQuery;
using simdccd::RationalVec3;
using simdccd::Result;
using simdccd::Status;
using simdccd::Vec3;
using Q = mpq_class;

constexpr QueryType VF = QueryType::vertex_face;
constexpr QueryType EE = QueryType::edge_edge;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double e20 = 0x1p-20;
constexpr double e30 = 0x1p-30;
constexpr double e39 = 0x1p-39;
constexpr double e40 = 0x1p-40;
constexpr double e41 = 0x1p-41;

// ---------------------------------------------------------------- builders

Vec3 P(double x, double y, double z) { return Vec3{x, y, z}; }

/// VF in contract order: v, f0, f1, f2 at t=0, then v, f0, f1, f2 at t=1.
Query vf(Vec3 v0, Vec3 f00, Vec3 f10, Vec3 f20, Vec3 v1, Vec3 f01, Vec3 f11, Vec3 f21) {
  Query q;
  q.points = {v0, f00, f10, f20, v1, f01, f11, f21};
  return q;
}

/// VF with the static standard triangle T.
Query vfT(Vec3 v0, Vec3 v1) {
  return vf(v0, P(0, 0, 0), P(1, 0, 0), P(0, 1, 0), v1, P(0, 0, 0), P(1, 0, 0), P(0, 1, 0));
}

/// EE in contract order: a0, a1, b0, b1 at t=0, then the same at t=1.
Query ee(Vec3 a00, Vec3 a10, Vec3 b00, Vec3 b10, Vec3 a01, Vec3 a11, Vec3 b01, Vec3 b11) {
  Query q;
  q.points = {a00, a10, b00, b10, a01, a11, b01, b11};
  return q;
}

/// EE with static a = (-1,0,0)-(1,0,0); b given at t=0 and t=1.
Query eeA(Vec3 b00, Vec3 b10, Vec3 b01, Vec3 b11) {
  return ee(P(-1, 0, 0), P(1, 0, 0), b00, b10, P(-1, 0, 0), P(1, 0, 0), b01, b11);
}

/// EE with static a = (0,0,0)-(1,0,0); b given at t=0 and t=1.
Query eeU(Vec3 b00, Vec3 b10, Vec3 b01, Vec3 b11) {
  return ee(P(0, 0, 0), P(1, 0, 0), b00, b10, P(0, 0, 0), P(1, 0, 0), b01, b11);
}

Q q(long n, long d = 1) {
  Q r(n, d);
  r.canonicalize();
  return r;
}

RationalVec3 R(const Q& x, const Q& y, const Q& z) { return RationalVec3{x, y, z}; }

RationalQuery rq(RationalVec3 p0, RationalVec3 p1, RationalVec3 p2, RationalVec3 p3,
                 RationalVec3 p4, RationalVec3 p5, RationalVec3 p6, RationalVec3 p7) {
  RationalQuery r;
  r.points = {p0, p1, p2, p3, p4, p5, p6, p7};
  return r;
}

// ------------------------------------------------------------- transforms

/// Triangle vertices reordered: new f_i = old f_{p[i]}, at both times.
template <class Qy>
Qy permute_tri(const Qy& in, std::array<int, 3> p) {
  Qy r = in;
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 3; ++i) r.points[4 * k + 1 + i] = in.points[4 * k + 1 + p[i]];
  return r;
}

/// EE: (a, b) -> (b, a).
template <class Qy>
Qy swap_edges(const Qy& in) {
  Qy r = in;
  for (int k = 0; k < 2; ++k) {
    r.points[4 * k + 0] = in.points[4 * k + 2];
    r.points[4 * k + 1] = in.points[4 * k + 3];
    r.points[4 * k + 2] = in.points[4 * k + 0];
    r.points[4 * k + 3] = in.points[4 * k + 1];
  }
  return r;
}

/// EE: reverse the direction of edge a (which = 0) or edge b (which = 2).
template <class Qy>
Qy reverse_edge(const Qy& in, int which) {
  Qy r = in;
  for (int k = 0; k < 2; ++k) std::swap(r.points[4 * k + which], r.points[4 * k + which + 1]);
  return r;
}

/// All 8 points translated by d (use dyadic d so the translation is exact).
Query translate(const Query& in, Vec3 d) {
  Query r = in;
  for (Vec3& p : r.points) p = P(p.x + d.x, p.y + d.y, p.z + d.z);
  return r;
}

/// All 24 coordinates multiplied by s (use a power of two so it is exact).
Query scale(const Query& in, double s) {
  Query r = in;
  for (Vec3& p : r.points) p = P(p.x * s, p.y * s, p.z * s);
  return r;
}

constexpr std::array<std::array<int, 3>, 6> kPerms = {{
    {0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}}};

// ----------------------------------------------------------------- checks

bool is_double(const Q& t) {
  const double d = t.get_d();
  return std::isfinite(d) && Q(d) == t;
}

/// toi_lo <= t <= toi_hi exactly; equal to t when t is a double, else adjacent doubles.
void check_toi(const Result& r, const Q& t) {
  INFO("expected t* = " << t.get_str() << " (~" << t.get_d() << "), got [" << r.toi_lo << ", "
                        << r.toi_hi << "]");
  if (!std::isfinite(r.toi_lo) || !std::isfinite(r.toi_hi)) {
    FAIL_CHECK("toi is not finite for a hit");
    return;
  }
  CHECK(Q(r.toi_lo) <= t);
  CHECK(t <= Q(r.toi_hi));
  if (is_double(t)) {
    CHECK(r.toi_lo == t.get_d());
    CHECK(r.toi_hi == t.get_d());
  } else {
    CHECK(r.toi_lo < r.toi_hi);
    CHECK(std::nextafter(r.toi_lo, 2.0) == r.toi_hi);
  }
}

void check_hit_result(const Result& r, const Q& t, int roots, bool coplanar) {
  CHECK(r.status == Status::exact);
  CHECK(r.hit);
  check_toi(r, t);
  CHECK(int(r.contact_roots) == roots);
  CHECK(r.always_coplanar == coplanar);
}

void check_miss_result(const Result& r, bool coplanar) {
  CHECK(r.status == Status::exact);
  CHECK_FALSE(r.hit);
  CHECK(r.toi_lo == kInf);
  CHECK(r.toi_hi == kInf);
  CHECK(int(r.contact_roots) == 0);
  CHECK(r.always_coplanar == coplanar);
}

/// Expected hit with earliest contact time t (through both overloads).
void hit(QueryType type, const Query& qd, const Q& t, int roots, bool coplanar) {
  {
    INFO("double overload");
    check_hit_result(exact_ccd(type, qd), t, roots, coplanar);
  }
  {
    INFO("rational overload (to_rational)");
    check_hit_result(exact_ccd(type, simdccd::to_rational(qd)), t, roots, coplanar);
  }
}

void hit(QueryType type, const RationalQuery& qr, const Q& t, int roots, bool coplanar) {
  INFO("rational query");
  check_hit_result(exact_ccd(type, qr), t, roots, coplanar);
}

/// Expected miss (through both overloads).
void miss(QueryType type, const Query& qd, bool coplanar) {
  {
    INFO("double overload");
    check_miss_result(exact_ccd(type, qd), coplanar);
  }
  {
    INFO("rational overload (to_rational)");
    check_miss_result(exact_ccd(type, simdccd::to_rational(qd)), coplanar);
  }
}

void miss(QueryType type, const RationalQuery& qr, bool coplanar) {
  INFO("rational query");
  check_miss_result(exact_ccd(type, qr), coplanar);
}

/// Hit at the irrational time t* = 1/sqrt(2): lo^2 < 1/2 < hi^2, adjacent doubles.
void check_hit_inv_sqrt2(const Result& r, int roots, bool coplanar) {
  CHECK(r.status == Status::exact);
  CHECK(r.hit);
  CHECK(int(r.contact_roots) == roots);
  CHECK(r.always_coplanar == coplanar);
  INFO("got [" << r.toi_lo << ", " << r.toi_hi << "], expected around 0.70710678118654752");
  if (!std::isfinite(r.toi_lo) || !std::isfinite(r.toi_hi)) {
    FAIL_CHECK("toi is not finite for a hit");
    return;
  }
  CHECK(r.toi_lo > 0);
  const Q lo(r.toi_lo), hi(r.toi_hi), half(1, 2);
  CHECK(lo * lo < half);
  CHECK(hi * hi > half);
  CHECK(std::nextafter(r.toi_lo, 2.0) == r.toi_hi);
}

}  // namespace

// ===========================================================================
// VF, generic position: static T, the vertex crossing z=0.
// ===========================================================================
TEST_CASE("oracle.degenerate.vf_generic") {
  SUBCASE("interior hit at 1/2") {
    // v=(1/4,1/4,1-2t): p=v_z=1-2t, root 1/2; (1/4,1/4) is interior.
    hit(VF, vfT(P(.25, .25, 1), P(.25, .25, -1)), q(1, 2), 1, false);
  }
  SUBCASE("interior hit at 1/3 (not a double)") {
    // v_z = 1-3t, root 1/3; point (1/4,1/4) constant, interior.
    hit(VF, vfT(P(.25, .25, 1), P(.25, .25, -2)), q(1, 3), 1, false);
  }
  SUBCASE("oblique path, interior hit") {
    // v(t) = (-1/2+3t/2, 1/2-t/2, 1-2t): root 1/2 at (1/4,1/4,0), interior.
    hit(VF, vfT(P(-.5, .5, 1), P(1, 0, -1)), q(1, 2), 1, false);
  }
  SUBCASE("miss beside: crosses plane at (2,2)") {
    // root 1/2 at (2,2): x+y=4>1.
    miss(VF, vfT(P(2, 2, 1), P(2, 2, -1)), false);
  }
  SUBCASE("miss beside: crosses plane at x<0") {
    // root 1/2 at (-1/2,1/4): x<0.
    miss(VF, vfT(P(-.5, .25, 1), P(-.5, .25, -1)), false);
  }
  SUBCASE("miss: projection crosses T only while below the plane") {
    // v(t) = (-1+2t, 1/4, 1/2-2t): v_z root t=1/4 at x=-1/2 (outside).
    // The xy-path enters T (x in [0,3/4]) only for t in [1/2,7/8] where v_z<0.
    miss(VF, vfT(P(-1, .25, .5), P(1, .25, -1.5)), false);
  }
  SUBCASE("hit exactly on edge f0f1") {
    // (1/2,0) at t=1/2: y=0 on the closed edge.
    hit(VF, vfT(P(.5, 0, 1), P(.5, 0, -1)), q(1, 2), 1, false);
  }
  SUBCASE("hit exactly on edge f1f2") {
    // (1/2,1/2): x+y=1.
    hit(VF, vfT(P(.5, .5, 1), P(.5, .5, -1)), q(1, 2), 1, false);
  }
  SUBCASE("hit exactly on edge f2f0") {
    // (0,1/2): x=0.
    hit(VF, vfT(P(0, .5, 1), P(0, .5, -1)), q(1, 2), 1, false);
  }
  SUBCASE("hit exactly on vertex f0") {
    hit(VF, vfT(P(0, 0, 1), P(0, 0, -1)), q(1, 2), 1, false);
  }
  SUBCASE("hit exactly on vertex f1") {
    hit(VF, vfT(P(1, 0, 1), P(1, 0, -1)), q(1, 2), 1, false);
  }
  SUBCASE("hit exactly on vertex f2") {
    hit(VF, vfT(P(0, 1, 1), P(0, 1, -1)), q(1, 2), 1, false);
  }
  SUBCASE("miss by 2^-40 below edge f0f1") {
    // (1/2,-2^-40): y<0.
    miss(VF, vfT(P(.5, -e40, 1), P(.5, -e40, -1)), false);
  }
  SUBCASE("miss by 2^-40 beyond edge f1f2") {
    // x=y=1/2+2^-41: x+y = 1+2^-40 > 1.
    miss(VF, vfT(P(.5 + e41, .5 + e41, 1), P(.5 + e41, .5 + e41, -1)), false);
  }
  SUBCASE("miss by 2^-40 beyond vertex f1") {
    // (1+2^-40, 0): x+y>1.
    miss(VF, vfT(P(1 + e40, 0, 1), P(1 + e40, 0, -1)), false);
  }
  SUBCASE("hit 2^-40 inside near vertex f0") {
    // (2^-40, 2^-40): x,y>0, x+y<1.
    hit(VF, vfT(P(e40, e40, 1), P(e40, e40, -1)), q(1, 2), 1, false);
  }
  // Rotating triangle with an irrational root.
  // f0=0, f1=(1,0,0) static, f2(t)=(0,1,2t-1); normal n=(f1-f0)x(f2-f0)=(0,1-2t,1).
  // v(t)=(vx, 1/2-t/2, -1+3t/2): p = (1-2t)(1/2-t/2) - 1 + 3t/2 = t^2 - 1/2.
  // Root in [0,1]: t*=1/sqrt(2). There v-f0 = a e1 + b e2 with a=vx,
  // b=v_y=(1-t*)/2 ~ 0.1464466; inside iff vx>=0 and vx+b<=1 i.e.
  // vx <= (1+1/sqrt(2))/2 = 0.85355339059327376...
  SUBCASE("rotating triangle, irrational root 1/sqrt(2), interior") {
    const Query qy = vf(P(.25, .5, -1), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1),
                        P(.25, 0, .5), P(0, 0, 0), P(1, 0, 0), P(0, 1, 1));
    check_hit_inv_sqrt2(exact_ccd(VF, qy), 1, false);
    check_hit_inv_sqrt2(exact_ccd(VF, simdccd::to_rational(qy)), 1, false);
  }
  SUBCASE("rotating triangle, irrational root, just inside hypotenuse") {
    // vx = 0.85355339 < 0.8535533905932... (margin ~6e-10): hit.
    const Query qy = vf(P(0.85355339, .5, -1), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1),
                        P(0.85355339, 0, .5), P(0, 0, 0), P(1, 0, 0), P(0, 1, 1));
    check_hit_inv_sqrt2(exact_ccd(VF, qy), 1, false);
  }
  SUBCASE("rotating triangle, irrational root, just outside hypotenuse") {
    // vx = 0.8535534 > 0.8535533905932... (margin ~9e-9): miss.
    miss(VF,
         vf(P(0.8535534, .5, -1), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(0.8535534, 0, .5),
            P(0, 0, 0), P(1, 0, 0), P(0, 1, 1)),
         false);
  }
  SUBCASE("rotating triangle, irrational root, outside (vx=1)") {
    miss(VF,
         vf(P(1, .5, -1), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(1, 0, .5), P(0, 0, 0),
            P(1, 0, 0), P(0, 1, 1)),
         false);
  }
}

// ===========================================================================
// Contact at the ends of the time interval.
// ===========================================================================
TEST_CASE("oracle.degenerate.vf_time_boundaries") {
  SUBCASE("contact at t=0, moving up") {
    // v_z = t, root 0 at interior (1/4,1/4).
    hit(VF, vfT(P(.25, .25, 0), P(.25, .25, 1)), q(0), 1, false);
  }
  SUBCASE("contact at t=0, moving down through") {
    // v_z = -t, root 0.
    hit(VF, vfT(P(.25, .25, 0), P(.25, .25, -1)), q(0), 1, false);
  }
  SUBCASE("contact at t=1") {
    // v_z = 1-t, root 1.
    hit(VF, vfT(P(.25, .25, 1), P(.25, .25, 0)), q(1), 1, false);
  }
  SUBCASE("contact at t=1 on vertex f2") {
    hit(VF, vfT(P(0, 1, 1), P(0, 1, 0)), q(1), 1, false);
  }
  SUBCASE("just after t=1: miss") {
    // v_z = 1-(1-2^-30)t >= 2^-30 on [0,1]; root 1/(1-2^-30) > 1.
    miss(VF, vfT(P(.25, .25, 1), P(.25, .25, e30)), false);
  }
  SUBCASE("just before t=0: miss") {
    // v_z = 2^-30 + (1-2^-30)t > 0 on [0,1]; root < 0.
    miss(VF, vfT(P(.25, .25, e30), P(.25, .25, 1)), false);
  }
  SUBCASE("just before t=1: hit at 2^30/(2^30+1)") {
    // v_z = 1-(1+2^-30)t, root 1/(1+2^-30) = 2^30/(2^30+1) (not dyadic).
    const mpz_class two30 = mpz_class(1) << 30;
    const mpz_class two30p1 = two30 + 1;
    hit(VF, vfT(P(.25, .25, 1), P(.25, .25, -e30)), Q(two30, two30p1), 1, false);
  }
  SUBCASE("coplanar at t=0 but outside, moving away") {
    // v_z=t, only root 0, at (2,0): outside.
    miss(VF, vfT(P(2, 0, 0), P(2, 0, 1)), false);
  }
  SUBCASE("coplanar at t=0 outside, then passing above T") {
    // v(t)=(2-7t/4, t/4, t): only root 0 at (2,0) outside; later v_z>0.
    miss(VF, vfT(P(2, 0, 0), P(.25, .25, 1)), false);
  }
  SUBCASE("coplanar at t=1 outside after passing above T") {
    // v_z = 1-t, only root 1 at (2,2): outside.
    miss(VF, vfT(P(.25, .25, 1), P(2, 2, 0)), false);
  }
  SUBCASE("on edge at t=0 and leaving") {
    // v_z = t, root 0 at (1/2,0) on edge f0f1.
    hit(VF, vfT(P(.5, 0, 0), P(.5, -1, 1)), q(0), 1, false);
  }
  SUBCASE("triangle arriving at t=1 onto a static vertex") {
    // f_i(t) = T_i + (0,0,1-t); p = (v-f0)_z = -(1-t), root 1; v=(1/4,1/4,0) interior.
    hit(VF,
        vf(P(.25, .25, 0), P(0, 0, 1), P(1, 0, 1), P(0, 1, 1), P(.25, .25, 0), P(0, 0, 0),
           P(1, 0, 0), P(0, 1, 0)),
        q(1), 1, false);
  }
}

// ===========================================================================
// Tangential contact: the cubic has a double root.
// Base: f0=0, f1=(1,0,0) static, f2(t)=(0,1,2t-1), n=(0,1-2t,1),
// p = (1-2t) v_y + v_z (v_x does not enter p). Inside test at a root t:
// v = a e1 + b e2 with a = v_x, b = v_y; inside iff a>=0, b>=0, a+b<=1.
// ===========================================================================
TEST_CASE("oracle.degenerate.vf_tangential") {
  // v(t)=(vx, 1/2-t/2, -1/4+t/2): p = 1/2-3t/2+t^2 -1/4+t/2 = t^2-t+1/4 = (t-1/2)^2.
  // At t=1/2: f2=(0,1,0) (triangle is T), v=(vx,1/4,0).
  auto tangent = [](double vx) {
    return vf(P(vx, .5, -.25), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(vx, 0, .25), P(0, 0, 0),
              P(1, 0, 0), P(0, 1, 1));
  };
  SUBCASE("double root at 1/2, interior") { hit(VF, tangent(.25), q(1, 2), 1, false); }
  SUBCASE("double root at 1/2, outside (vx=2)") { miss(VF, tangent(2), false); }
  SUBCASE("double root at 1/2, outside (vx=-1/4)") { miss(VF, tangent(-.25), false); }
  SUBCASE("double root at 1/2, on edge f0f2 (vx=0)") { hit(VF, tangent(0), q(1, 2), 1, false); }
  SUBCASE("double root at 1/2, on hypotenuse (vx=3/4)") {
    hit(VF, tangent(.75), q(1, 2), 1, false);
  }
  SUBCASE("double root at 1/2, 2^-40 beyond hypotenuse") {
    miss(VF, tangent(.75 + e40), false);
  }
  SUBCASE("double root at t=0, interior") {
    // v(t)=(1/4, 1/2-t/2, -1/2+3t/2): p = 1/2-3t/2+t^2 -1/2+3t/2 = t^2.
    // At 0: f2=(0,1,-1), v=(1/4,1/2,-1/2) = 1/4 e1 + 1/2 e2: inside.
    hit(VF,
        vf(P(.25, .5, -.5), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(.25, 0, 1), P(0, 0, 0),
           P(1, 0, 0), P(0, 1, 1)),
        q(0), 1, false);
  }
  SUBCASE("double root at t=1, on edge f0f1") {
    // v(t)=(1/4, 1/2-t/2, 1/2-t/2): p = 1/2-3t/2+t^2 +1/2-t/2 = (t-1)^2.
    // At 1: v=(1/4,0,0): a=1/4, b=0 -> on edge f0f1.
    hit(VF,
        vf(P(.25, .5, .5), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(.25, 0, 0), P(0, 0, 0),
           P(1, 0, 0), P(0, 1, 1)),
        q(1), 1, false);
  }
  SUBCASE("double root at t=1, just outside (vx=-1/4)") {
    miss(VF,
         vf(P(-.25, .5, .5), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(-.25, 0, 0), P(0, 0, 0),
            P(1, 0, 0), P(0, 1, 1)),
         false);
  }
  // Rational: v(t)=(vx, 1/2-t/2, -7/18+5t/6):
  // p = 1/2-3t/2+t^2 -7/18+5t/6 = t^2 - 2t/3 + 1/9 = (t-1/3)^2.
  // At 1/3: b = v_y = 1/3, a = vx.
  auto tangent_third = [](const Q& vx) {
    return rq(R(vx, q(1, 2), q(-7, 18)), R(0, 0, 0), R(1, 0, 0), R(0, 1, -1),
              R(vx, 0, q(4, 9)), R(0, 0, 0), R(1, 0, 0), R(0, 1, 1));
  };
  SUBCASE("rational double root at 1/3, interior") {
    // a=1/4, b=1/3, a+b=7/12.
    hit(VF, tangent_third(q(1, 4)), q(1, 3), 1, false);
  }
  SUBCASE("rational double root at 1/3, exactly on hypotenuse") {
    // a=2/3, b=1/3, a+b=1.
    hit(VF, tangent_third(q(2, 3)), q(1, 3), 1, false);
  }
  SUBCASE("rational double root at 1/3, outside") {
    // a=1, a+b=4/3>1.
    miss(VF, tangent_third(q(1)), false);
  }
}

// ===========================================================================
// Several coplanarity roots; the answer is the earliest *contacting* root.
// ===========================================================================
TEST_CASE("oracle.degenerate.vf_multiple_roots") {
  // Two roots. f0=0, f1=(1,0,0), f2(t)=(0,1,2t-1); v(t)=(vx(t), 1/2-t/2, -5/16+t/2):
  // p = 1/2-3t/2+t^2 -5/16+t/2 = t^2 - t + 3/16 = (t-1/4)(t-3/4).
  // b(1/4)=3/8, b(3/4)=1/8; a = vx(t).
  auto two = [](double vx0, double vx1) {
    return vf(P(vx0, .5, -.3125), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(vx1, 0, .1875),
              P(0, 0, 0), P(1, 0, 0), P(0, 1, 1));
  };
  SUBCASE("two roots, contact only at the later (3/4)") {
    // vx=-1+2t: a(1/4)=-1/2 outside; a(3/4)=1/2, a+b=5/8 inside.
    hit(VF, two(-1, 1), q(3, 4), 1, false);
  }
  SUBCASE("two roots, contact at both") {
    // vx=1/4: a+b = 5/8 and 3/8, both inside.
    hit(VF, two(.25, .25), q(1, 4), 2, false);
  }
  SUBCASE("two roots, contact only at the earlier (1/4)") {
    // vx=1-2t: a(1/4)=1/2, a+b=7/8 inside; a(3/4)=-1/2 outside.
    hit(VF, two(1, -1), q(1, 4), 1, false);
  }
  SUBCASE("two roots, no contact") {
    // vx=2: a+b>1 at both.
    miss(VF, two(2, 2), false);
  }
  SUBCASE("two roots, contact only at the later one, on edge f0f2") {
    // vx=-3+4t: a(1/4)=-2 outside, a(3/4)=0 (on edge x=0 side, b=1/8).
    hit(VF, two(-3, 1), q(3, 4), 1, false);
  }

  // Three roots via an upper-triangular determinant: f0=0 static and rows
  // f1(t), f2(t), v(t) with diagonal t-1/4, t-1/2, t-3/4 => p = (t-1/4)(t-1/2)(t-3/4).
  SUBCASE("three roots, contact only at the last (3/4)") {
    // f1=(t-1/4,0,0), f2=(0,t-1/2,0), v=(0,0,t-3/4).
    // 1/4: f1=f0, triangle = segment 0..(0,-1/4,0); v=(0,0,-1/2) not on it.
    // 1/2: f2=f0, segment 0..(1/4,0,0); v=(0,0,-1/4) not on it.
    // 3/4: v=0=f0: vertex contact.
    hit(VF,
        vf(P(0, 0, -.75), P(0, 0, 0), P(-.25, 0, 0), P(0, -.5, 0), P(0, 0, .25), P(0, 0, 0),
           P(.75, 0, 0), P(0, .5, 0)),
        q(3, 4), 1, false);
  }
  SUBCASE("three roots, contact at the first and last") {
    // f1=(t-1/4,0,-1), f2=(0,t-1/2,0), v=(0,0,t-3/4).
    // 1/4: f1=(0,0,-1): v=(0,0,-1/2) on edge f0f1.
    // 1/2: f2=f0, segment s(1/4,0,-1); v=(0,0,-1/4) would need s/4=0, s=1/4: no.
    // 3/4: v=f0.
    hit(VF,
        vf(P(0, 0, -.75), P(0, 0, 0), P(-.25, 0, -1), P(0, -.5, 0), P(0, 0, .25), P(0, 0, 0),
           P(.75, 0, -1), P(0, .5, 0)),
        q(1, 4), 2, false);
  }
  SUBCASE("three roots, contact at all three") {
    // f1=(t-1/4,0,-1), f2=(0,t-1/2,-1), v=(0,0,t-3/4).
    // 1/4: v=(0,0,-1/2) on edge f0f1 (f1=(0,0,-1)).
    // 1/2: f2=(0,0,-1): v=(0,0,-1/4) on edge f0f2.  3/4: v=f0.
    hit(VF,
        vf(P(0, 0, -.75), P(0, 0, 0), P(-.25, 0, -1), P(0, -.5, -1), P(0, 0, .25), P(0, 0, 0),
           P(.75, 0, -1), P(0, .5, -1)),
        q(1, 4), 3, false);
  }
  SUBCASE("three roots, contact at the middle and last") {
    // f1=(t-1/4,0,0), f2=(0,t-1/2,-1), v=(0,0,t-3/4).
    // 1/4: f1=f0, segment s(0,-1/4,-1); v=(0,0,-1/2) needs s=0 and s=1/2: no.
    // 1/2: f2=(0,0,-1): v=(0,0,-1/4) on edge f0f2.  3/4: v=f0.
    hit(VF,
        vf(P(0, 0, -.75), P(0, 0, 0), P(-.25, 0, 0), P(0, -.5, -1), P(0, 0, .25), P(0, 0, 0),
           P(.75, 0, 0), P(0, .5, -1)),
        q(1, 2), 2, false);
  }
  SUBCASE("three roots, no contact") {
    // f1=(t-1/4,0,0), f2=(0,t-1/2,0), v=(1,0,t-3/4); det is still the product
    // (first row (t-1/4,0,0) kills the v_x term).
    // 3/4: triangle (0,0),(1/2,0),(0,1/4) in z=0; v=(1,0): 2x+4y=2>1 outside.
    // 1/4, 1/2: segments in z=0 and on an axis; v has z != 0.
    miss(VF,
         vf(P(1, 0, -.75), P(0, 0, 0), P(-.25, 0, 0), P(0, -.5, 0), P(1, 0, .25), P(0, 0, 0),
            P(.75, 0, 0), P(0, .5, 0)),
         false);
  }
  SUBCASE("roots at 0 and 1, contact only at 1") {
    // f1=(t,0,0), f2=(0,1,0), v=(0,0,t-1): p = t(t-1).
    // 0: f1=f0, segment 0..(0,1,0); v=(0,0,-1) not on it.  1: v=f0.
    hit(VF,
        vf(P(0, 0, -1), P(0, 0, 0), P(0, 0, 0), P(0, 1, 0), P(0, 0, 0), P(0, 0, 0), P(1, 0, 0),
           P(0, 1, 0)),
        q(1), 1, false);
  }
}

// ===========================================================================
// Always coplanar (cubic identically zero): contact_roots 0.
// ===========================================================================
TEST_CASE("oracle.degenerate.vf_always_coplanar") {
  SUBCASE("point sliding into T through edge f0f2 at 1/2") {
    // v=(-1+2t,1/4,0): enters when x=0 -> t=1/2.
    hit(VF, vfT(P(-1, .25, 0), P(1, .25, 0)), q(1, 2), 0, true);
  }
  SUBCASE("point sliding into T at 1/3") {
    // x=-1+3t=0 at t=1/3.
    hit(VF, vfT(P(-1, .25, 0), P(2, .25, 0)), q(1, 3), 0, true);
  }
  SUBCASE("point inside at t=0") { hit(VF, vfT(P(.25, .25, 0), P(5, 5, 0)), q(0), 0, true); }
  SUBCASE("point sliding past T") {
    // y=2 always.
    miss(VF, vfT(P(-1, 2, 0), P(2, 2, 0)), true);
  }
  SUBCASE("point sliding parallel to hypotenuse, 2^-40 outside") {
    // direction (3,-3): x+y = 1+2^-40 constant.
    miss(VF, vfT(P(-1, 2 + e40, 0), P(2, -1 + e40, 0)), true);
  }
  SUBCASE("point sliding along the hypotenuse line, enters at f2 at 1/3") {
    // v=(-1+3t, 2-3t): x+y=1; x>=0 from t=1/3 where v=(0,1)=f2.
    hit(VF, vfT(P(-1, 2, 0), P(2, -1, 0)), q(1, 3), 0, true);
  }
  SUBCASE("point and triangle moving together, inside") {
    hit(VF,
        vf(P(.25, .25, 0), P(0, 0, 0), P(1, 0, 0), P(0, 1, 0), P(1.25, 1.25, 0), P(1, 1, 0),
           P(2, 1, 0), P(1, 2, 0)),
        q(0), 0, true);
  }
  SUBCASE("point and triangle moving together, outside") {
    miss(VF,
         vf(P(2, 2, 0), P(0, 0, 0), P(1, 0, 0), P(0, 1, 0), P(3, 3, 0), P(1, 1, 0), P(2, 1, 0),
            P(1, 2, 0)),
         true);
  }
  SUBCASE("triangle shrinking onto the point, contact at t=1") {
    // f_i(t) = (1-t)F_i, F=(1,0),(2,0),(1,1) (x>=1); v=0 static.
    // Homothety about 0 of a triangle not containing 0: contact only at t=1.
    hit(VF,
        vf(P(0, 0, 0), P(1, 0, 0), P(2, 0, 0), P(1, 1, 0), P(0, 0, 0), P(0, 0, 0), P(0, 0, 0),
           P(0, 0, 0)),
        q(1), 0, true);
  }
  SUBCASE("triangle shrinking onto another point") {
    // f_i(t) = (1-t)F_i + t(5,5): x >= (1-t)+5t > 0; v=0 never covered.
    miss(VF,
         vf(P(0, 0, 0), P(1, 0, 0), P(2, 0, 0), P(1, 1, 0), P(0, 0, 0), P(5, 5, 0), P(5, 5, 0),
            P(5, 5, 0)),
         true);
  }
  SUBCASE("triangle growing over a static point at 3/7") {
    // f0=0, f1=(L,0), f2=(0,L), L=1/2+7t/2; (1,1) inside iff L>=2 iff t>=3/7.
    hit(VF,
        vf(P(1, 1, 0), P(0, 0, 0), P(.5, 0, 0), P(0, .5, 0), P(1, 1, 0), P(0, 0, 0), P(4, 0, 0),
           P(0, 4, 0)),
        q(3, 7), 0, true);
  }
  SUBCASE("triangle translating over a static point at 3/8") {
    // T+(d,0,0), d=-2+4t; v=(1/4,1/4) inside iff -1/2 <= d <= 1/4 -> first t=3/8.
    hit(VF,
        vf(P(.25, .25, 0), P(-2, 0, 0), P(-1, 0, 0), P(-2, 1, 0), P(.25, .25, 0), P(2, 0, 0),
           P(3, 0, 0), P(2, 1, 0)),
        q(3, 8), 0, true);
  }
  SUBCASE("tilted plane z=x, sliding in at 1/2") {
    // Everything in the plane z=x; same (x,y) motion as the first case.
    hit(VF,
        vf(P(-1, .25, -1), P(0, 0, 0), P(1, 0, 1), P(0, 1, 0), P(1, .25, 1), P(0, 0, 0),
           P(1, 0, 1), P(0, 1, 0)),
        q(1, 2), 0, true);
  }
  SUBCASE("moving plane z=t, sliding in at 1/2") {
    // T+(0,0,t) and v=(-1+2t,1/4,t): (v-f0)_z = 0 always.
    hit(VF,
        vf(P(-1, .25, 0), P(0, 0, 0), P(1, 0, 0), P(0, 1, 0), P(1, .25, 1), P(0, 0, 1),
           P(1, 0, 1), P(0, 1, 1)),
        q(1, 2), 0, true);
  }
}

// ===========================================================================
// Degenerate triangles.
// ===========================================================================
TEST_CASE("oracle.degenerate.vf_degenerate_triangle") {
  // Collinear at all times: f0=0, f1=(1,0,0), f2=(2,0,0) => (f1-f0)x(f2-f0)=0, p=0.
  // The closed triangle is the segment [0,2] on the x-axis.
  auto line = [](Vec3 v0, Vec3 v1) {
    return vf(v0, P(0, 0, 0), P(1, 0, 0), P(2, 0, 0), v1, P(0, 0, 0), P(1, 0, 0), P(2, 0, 0));
  };
  SUBCASE("collinear triangle, point crosses at x=1/2") {
    // v=(1/2,1-2t,1-2t): on the x-axis only at t=1/2, x=1/2 in [0,2].
    hit(VF, line(P(.5, 1, 1), P(.5, -1, -1)), q(1, 2), 0, true);
  }
  SUBCASE("collinear triangle, point crosses at x=3/2 (between f1 and f2)") {
    hit(VF, line(P(1.5, 1, 1), P(1.5, -1, -1)), q(1, 2), 0, true);
  }
  SUBCASE("collinear triangle, point crosses the line beyond f2") {
    miss(VF, line(P(3, 1, 1), P(3, -1, -1)), true);
  }
  SUBCASE("collinear triangle, point passes 2^-40 off the line") {
    // y=0 only at t=1/2, where z = 1+(-2+2^-39)/2 = 2^-40.
    miss(VF, line(P(.5, 1, 1), P(.5, -1, -1 + e39)), true);
  }
  SUBCASE("collinear triangle translating onto a static point") {
    // All on y=0, z=t; e1=(1,0,0), e2=(2,0,0) constant. v=(1,0,1/2): t=1/2.
    hit(VF,
        vf(P(1, 0, .5), P(0, 0, 0), P(1, 0, 0), P(2, 0, 0), P(1, 0, .5), P(0, 0, 1), P(1, 0, 1),
           P(2, 0, 1)),
        q(1, 2), 0, true);
  }
  SUBCASE("collinear triangle rotating onto a static point") {
    // f1=(1-t,t,0), f2=2 f1: segment 0..(2-2t,2t,0). v=(1/2,1/2,0) needs
    // direction (1,1) -> t=1/2, then segment ends at (1,1): contains v.
    hit(VF,
        vf(P(.5, .5, 0), P(0, 0, 0), P(1, 0, 0), P(2, 0, 0), P(.5, .5, 0), P(0, 0, 0),
           P(0, 1, 0), P(0, 2, 0)),
        q(1, 2), 0, true);
  }
  SUBCASE("collinear triangle rotating, static point beyond its reach") {
    // v=(2,2,0): only direction match at t=1/2, segment ends at (1,1): miss.
    miss(VF,
         vf(P(2, 2, 0), P(0, 0, 0), P(1, 0, 0), P(2, 0, 0), P(2, 2, 0), P(0, 0, 0), P(0, 1, 0),
            P(0, 2, 0)),
         true);
  }
  SUBCASE("triangle collapsed to a point, vertex passes through it") {
    // f=(1,1,1) always; v=(2t,2t,2t) equals it at 1/2.
    hit(VF,
        vf(P(0, 0, 0), P(1, 1, 1), P(1, 1, 1), P(1, 1, 1), P(2, 2, 2), P(1, 1, 1), P(1, 1, 1),
           P(1, 1, 1)),
        q(1, 2), 0, true);
  }
  SUBCASE("triangle collapsed to a point, vertex misses by 2^-21") {
    // x=1 only at t=1/2 where z = 1+2^-21.
    miss(VF,
         vf(P(0, 0, 0), P(1, 1, 1), P(1, 1, 1), P(1, 1, 1), P(2, 2, 2 + e20), P(1, 1, 1),
            P(1, 1, 1), P(1, 1, 1)),
         true);
  }
  SUBCASE("moving collapsed triangle meets the vertex") {
    // f=(t,t,0), v=(1-t,t,0): equal at t=1/2.
    hit(VF,
        vf(P(1, 0, 0), P(0, 0, 0), P(0, 0, 0), P(0, 0, 0), P(0, 1, 0), P(1, 1, 0), P(1, 1, 0),
           P(1, 1, 0)),
        q(1, 2), 0, true);
  }
  SUBCASE("moving collapsed triangle, vertex 2^-40 above") {
    // z differs by 2^-40 at all times.
    miss(VF,
         vf(P(1, 0, e40), P(0, 0, 0), P(0, 0, 0), P(0, 0, 0), P(0, 1, e40), P(1, 1, 0), P(1, 1, 0),
            P(1, 1, 0)),
         true);
  }
  // Degenerate at one instant only.
  SUBCASE("in-plane flip through the x-axis, point on the segment") {
    // f0=0, f1=(1,0,0), f2=(0,1-2t,0): n=(0,0,1-2t); v=(1/2,0,1-2t): p=(1-2t)^2.
    // t=1/2: triangle = [0,1] on x-axis, v=(1/2,0,0) on it.
    hit(VF,
        vf(P(.5, 0, 1), P(0, 0, 0), P(1, 0, 0), P(0, 1, 0), P(.5, 0, -1), P(0, 0, 0),
           P(1, 0, 0), P(0, -1, 0)),
        q(1, 2), 1, false);
  }
  SUBCASE("in-plane flip through the x-axis, point off the segment") {
    // Same p; at t=1/2 v=(2,0,0) not in [0,1].
    miss(VF,
         vf(P(2, 0, 1), P(0, 0, 0), P(1, 0, 0), P(0, 1, 0), P(2, 0, -1), P(0, 0, 0), P(1, 0, 0),
            P(0, -1, 0)),
         false);
  }
  // Out-of-plane: f2=(0,s,s), s=1-2t; n=(0,-s,s); v=(vx, s, -s): p = s(v_z-v_y) = -2s^2.
  // t=1/2: f2=f0, triangle = [0,1] on the x-axis, v=(vx,0,0).
  auto fold = [](double vx) {
    return vf(P(vx, 1, -1), P(0, 0, 0), P(1, 0, 0), P(0, 1, 1), P(vx, -1, 1), P(0, 0, 0),
              P(1, 0, 0), P(0, -1, -1));
  };
  SUBCASE("folding through a line, point on the segment") { hit(VF, fold(.5), q(1, 2), 1, false); }
  SUBCASE("folding through a line, point at the segment's end f1") {
    hit(VF, fold(1), q(1, 2), 1, false);
  }
  SUBCASE("folding through a line, point on the line but off the segment") {
    miss(VF, fold(1.5), false);
  }
  SUBCASE("two coincident vertices: point crossing the segment") {
    // f0=f1=0, f2=(0,1,0): segment on y-axis. v=(1-2t,1/2,1-2t): at 1/2 (0,1/2,0).
    hit(VF,
        vf(P(1, .5, 1), P(0, 0, 0), P(0, 0, 0), P(0, 1, 0), P(-1, .5, -1), P(0, 0, 0),
           P(0, 0, 0), P(0, 1, 0)),
        q(1, 2), 0, true);
  }
}

// ===========================================================================
// Nothing (or only part) moves.
// ===========================================================================
TEST_CASE("oracle.degenerate.vf_stationary") {
  SUBCASE("everything static, touching interior") {
    // p = 0 constant -> always coplanar; contact at 0.
    hit(VF, vfT(P(.25, .25, 0), P(.25, .25, 0)), q(0), 0, true);
  }
  SUBCASE("everything static, touching vertex f2") {
    hit(VF, vfT(P(0, 1, 0), P(0, 1, 0)), q(0), 0, true);
  }
  SUBCASE("everything static, touching hypotenuse") {
    hit(VF, vfT(P(.5, .5, 0), P(.5, .5, 0)), q(0), 0, true);
  }
  SUBCASE("everything static, separated above") {
    // p = 1 constant, non-zero: not coplanar, no roots.
    miss(VF, vfT(P(.25, .25, 1), P(.25, .25, 1)), false);
  }
  SUBCASE("everything static, 2^-40 above") {
    miss(VF, vfT(P(.25, .25, e40), P(.25, .25, e40)), false);
  }
  SUBCASE("everything static, coplanar but outside") {
    miss(VF, vfT(P(2, 2, 0), P(2, 2, 0)), true);
  }
  SUBCASE("everything static, coplanar, 2^-40 outside edge f0f2") {
    miss(VF, vfT(P(-e40, .5, 0), P(-e40, .5, 0)), true);
  }
  SUBCASE("static vertex, triangle moving through it") {
    // f_i = T_i + (0,0,1-2t): p = (v-f0)_z = 2t-1, root 1/2, v interior.
    hit(VF,
        vf(P(.25, .25, 0), P(0, 0, 1), P(1, 0, 1), P(0, 1, 1), P(.25, .25, 0), P(0, 0, -1),
           P(1, 0, -1), P(0, 1, -1)),
        q(1, 2), 1, false);
  }
  SUBCASE("static vertex, triangle passing its plane beside it") {
    // Same motion; v=(2,2,0) outside T at t=1/2.
    miss(VF,
         vf(P(2, 2, 0), P(0, 0, 1), P(1, 0, 1), P(0, 1, 1), P(2, 2, 0), P(0, 0, -1), P(1, 0, -1),
            P(0, 1, -1)),
         false);
  }
}

// ===========================================================================
// VF reducing to point-edge / point-point contact (always coplanar).
// ===========================================================================
TEST_CASE("oracle.degenerate.vf_point_edge_point_point") {
  SUBCASE("point hits vertex f0 exactly at 1/4") {
    // v=(-1/4+t,-1/4+t,0): x<0 before 1/4; v=f0 at 1/4.
    hit(VF, vfT(P(-.25, -.25, 0), P(.75, .75, 0)), q(1, 4), 0, true);
  }
  SUBCASE("point grazes vertex f1 exactly at 1/4") {
    // v=(4t,4t-1,0): y<0 before 1/4; (1,0)=f1 at 1/4; after, x+y=8t-1>1.
    hit(VF, vfT(P(0, -1, 0), P(4, 3, 0)), q(1, 4), 0, true);
  }
  SUBCASE("point passes 2^-40 beside vertex f1") {
    // v=(4t+2^-40, 4t-1): y<0 before 1/4; x+y = 8t-1+2^-40 > 1 from 1/4 on.
    miss(VF, vfT(P(e40, -1, 0), P(4 + e40, 3, 0)), true);
  }
  SUBCASE("point sliding along edge line f0f1, reaches f0 at 1/2") {
    hit(VF, vfT(P(-1, 0, 0), P(1, 0, 0)), q(1, 2), 0, true);
  }
  SUBCASE("point sliding along edge line, moving away") {
    miss(VF, vfT(P(-1, 0, 0), P(-2, 0, 0)), true);
  }
  SUBCASE("point sliding along edge line from beyond f1, reaches it at 2/3") {
    // x = 3-3t = 1 at t=2/3.
    hit(VF, vfT(P(3, 0, 0), P(0, 0, 0)), q(2, 3), 0, true);
  }
  SUBCASE("collinear degenerate triangle, point along its line at 3/8") {
    // Triangle = [0,2] on x-axis; x = 5-8t = 2 at t=3/8.
    hit(VF,
        vf(P(5, 0, 0), P(0, 0, 0), P(1, 0, 0), P(2, 0, 0), P(-3, 0, 0), P(0, 0, 0), P(1, 0, 0),
           P(2, 0, 0)),
        q(3, 8), 0, true);
  }
  SUBCASE("point-point on a line at 3/5") {
    // Collapsed triangle at (t,0,0), v=(3-4t,0,0): equal at t=3/5.
    hit(VF,
        vf(P(3, 0, 0), P(0, 0, 0), P(0, 0, 0), P(0, 0, 0), P(-1, 0, 0), P(1, 0, 0), P(1, 0, 0),
           P(1, 0, 0)),
        q(3, 5), 0, true);
  }
  SUBCASE("point-point in 3D at 1/3") {
    // v=(t,t,t), collapsed triangle (1-2t,t,t): equal at t=1/3.
    hit(VF,
        vf(P(0, 0, 0), P(1, 0, 0), P(1, 0, 0), P(1, 0, 0), P(1, 1, 1), P(-1, 1, 1), P(-1, 1, 1),
           P(-1, 1, 1)),
        q(1, 3), 0, true);
  }
  SUBCASE("point-edge: two coincident vertices, point along the segment's line") {
    // Segment 0..(0,1,0); v=(0,3-4t,0) reaches y=1 at t=1/2.
    hit(VF,
        vf(P(0, 3, 0), P(0, 0, 0), P(0, 0, 0), P(0, 1, 0), P(0, -1, 0), P(0, 0, 0), P(0, 0, 0),
           P(0, 1, 0)),
        q(1, 2), 0, true);
  }
}

// ===========================================================================
// Rational-only inputs (not representable as doubles).
// ===========================================================================
TEST_CASE("oracle.degenerate.rational") {
  auto T = [](RationalVec3 v0, RationalVec3 v1) {
    return rq(v0, R(0, 0, 0), R(1, 0, 0), R(0, 1, 0), v1, R(0, 0, 0), R(1, 0, 0), R(0, 1, 0));
  };
  SUBCASE("crossing exactly on the hypotenuse at (1/3,2/3)") {
    hit(VF, T(R(q(1, 3), q(2, 3), 1), R(q(1, 3), q(2, 3), -1)), q(1, 2), 1, false);
  }
  SUBCASE("crossing 10^-30 beyond the hypotenuse") {
    const mpz_class one(1), big("1000000000000000000000000000000");
    const Q y = q(2, 3) + Q(one, big);
    miss(VF, T(R(q(1, 3), y, 1), R(q(1, 3), y, -1)), false);
  }
  SUBCASE("root at 1/3 from rational z") {
    // v_z = 1/3 - t.
    hit(VF, T(R(q(1, 4), q(1, 4), q(1, 3)), R(q(1, 4), q(1, 4), q(-2, 3))), q(1, 3), 1, false);
  }
  SUBCASE("root at 7/10") {
    // v_z = 7 - 10t.
    hit(VF, T(R(q(1, 4), q(1, 4), 7), R(q(1, 4), q(1, 4), -3)), q(7, 10), 1, false);
  }
  SUBCASE("always coplanar, sliding in at 1/3") {
    // v=(-1/3+t, 1/7, 0): x=0 at 1/3.
    hit(VF, T(R(q(-1, 3), q(1, 7), 0), R(q(2, 3), q(1, 7), 0)), q(1, 3), 0, true);
  }
  SUBCASE("EE collinear, end-to-end at 1/3") {
    // a=[0,1/3] static, b=[1/2-t/2, 1-t/2]: b0 = 1/3 at t=1/3.
    hit(EE,
        rq(R(0, 0, 0), R(q(1, 3), 0, 0), R(q(1, 2), 0, 0), R(1, 0, 0), R(0, 0, 0),
           R(q(1, 3), 0, 0), R(0, 0, 0), R(q(1, 2), 0, 0)),
        q(1, 3), 0, true);
  }
}

// ===========================================================================
// Extreme (finite) magnitudes are still exact input.
// ===========================================================================
TEST_CASE("oracle.degenerate.extreme_magnitudes") {
  const Query base = vfT(P(.25, .25, 1), P(.25, .25, -1));  // hit at 1/2 (vf_generic)
  SUBCASE("scaled by 2^1000") { hit(VF, scale(base, std::ldexp(1.0, 1000)), q(1, 2), 1, false); }
  SUBCASE("scaled by 2^-1060 (subnormal)") {
    hit(VF, scale(base, std::ldexp(1.0, -1060)), q(1, 2), 1, false);
  }
  SUBCASE("huge triangle, tiny vertex path inside") {
    // T scaled by 2^500; v=(2^-500,2^-500, 2^-500(1-2t)): root 1/2, inside.
    const double H = std::ldexp(1.0, 500), s = std::ldexp(1.0, -500);
    hit(VF,
        vf(P(s, s, s), P(0, 0, 0), P(H, 0, 0), P(0, H, 0), P(s, s, -s), P(0, 0, 0), P(H, 0, 0),
           P(0, H, 0)),
        q(1, 2), 1, false);
  }
  SUBCASE("huge triangle, vertex 2^-600 outside") {
    const double H = std::ldexp(1.0, 500), s = std::ldexp(1.0, -500), m = std::ldexp(1.0, -600);
    miss(VF,
         vf(P(-m, s, s), P(0, 0, 0), P(H, 0, 0), P(0, H, 0), P(-m, s, -s), P(0, 0, 0),
            P(H, 0, 0), P(0, H, 0)),
         false);
  }
}

// ===========================================================================
// EE generic. a = (-1,0,0)-(1,0,0) static unless stated; b = (x,-1,z)-(x,1,z):
// p = det((2,0,0), (x+1,-1,z), (x+1,1,z)) = 2(-z - z) = -4z.
// ===========================================================================
TEST_CASE("oracle.degenerate.ee_generic") {
  auto cross = [](double x, double z0, double z1) {
    return eeA(P(x, -1, z0), P(x, 1, z0), P(x, -1, z1), P(x, 1, z1));
  };
  SUBCASE("generic crossing at 1/2") {
    // z=1-2t, root 1/2; lines meet at (0,0,0) inside both.
    hit(EE, cross(0, 1, -1), q(1, 2), 1, false);
  }
  SUBCASE("generic crossing at 1/3") { hit(EE, cross(0, 1, -2), q(1, 3), 1, false); }
  SUBCASE("miss: b crosses a's line at x=2") { miss(EE, cross(2, 1, -1), false); }
  SUBCASE("miss: b crosses a's line 2^-40 beyond a1") { miss(EE, cross(1 + e40, 1, -1), false); }
  SUBCASE("hit exactly at endpoint a1") { hit(EE, cross(1, 1, -1), q(1, 2), 1, false); }
  SUBCASE("hit exactly at endpoint a0") { hit(EE, cross(-1, 1, -1), q(1, 2), 1, false); }
  SUBCASE("b's endpoint touches a's interior") {
    // b=(0,0,z)-(0,2,z): p = 2(0*z - 2z) = -4z; at 1/2 b0=(0,0,0).
    hit(EE, eeA(P(0, 0, 1), P(0, 2, 1), P(0, 0, -1), P(0, 2, -1)), q(1, 2), 1, false);
  }
  SUBCASE("endpoint-endpoint: b0 meets a1") {
    // b=(1,0,z)-(1,2,z): at 1/2 b0=(1,0,0)=a1.
    hit(EE, eeA(P(1, 0, 1), P(1, 2, 1), P(1, 0, -1), P(1, 2, -1)), q(1, 2), 1, false);
  }
  SUBCASE("b stops 2^-40 short of a") {
    // b=(0,2^-40,z)-(0,1,z): p = 2(2^-40 z - z), root 1/2; b's y in [2^-40,1].
    miss(EE, eeA(P(0, e40, 1), P(0, 1, 1), P(0, e40, -1), P(0, 1, -1)), false);
  }
  SUBCASE("both edges moving toward each other") {
    // a at z=1-2t, b=(0,-1,z)-(0,1,z) at z=-1+2t:
    // p = 2(-(4t-2) - (4t-2)) = -4(4t-2), root 1/2, meeting at the origin.
    hit(EE,
        ee(P(-1, 0, 1), P(1, 0, 1), P(0, -1, -1), P(0, 1, -1), P(-1, 0, -1), P(1, 0, -1),
           P(0, -1, 1), P(0, 1, 1)),
        q(1, 2), 1, false);
  }
  SUBCASE("contact at t=0") { hit(EE, cross(0, 0, 1), q(0), 1, false); }
  SUBCASE("contact at t=1") { hit(EE, cross(0, 1, 0), q(1), 1, false); }
  SUBCASE("just after t=1: miss") {
    // z = 1-(1-2^-30)t > 0 on [0,1].
    miss(EE, cross(0, 1, e30), false);
  }
}

// ===========================================================================
// EE parallel and collinear. a = (0,0,0)-(1,0,0) static unless stated.
// Any b parallel to the x-axis gives p = det((1,0,0),(x0,y,z),(x0+l,y,z)) = 1*(yz-zy) = 0.
// ===========================================================================
TEST_CASE("oracle.degenerate.ee_parallel_collinear") {
  SUBCASE("parallel edges in parallel planes") {
    // b at z=1 always: distance >= 1.
    miss(EE, eeU(P(0, 0, 1), P(1, 0, 1), P(0, 1, 1), P(1, 1, 1)), true);
  }
  SUBCASE("parallel edges, b passes through a's plane offset in y") {
    // b at y=1 always.
    miss(EE, eeU(P(0, 1, 1), P(1, 1, 1), P(0, 1, -1), P(1, 1, -1)), true);
  }
  SUBCASE("parallel, becoming collinear and overlapping at 1/2") {
    // b=[1/2,3/2] at z=1-2t: on the x-axis at t=1/2, overlapping [0,1].
    hit(EE, eeU(P(.5, 0, 1), P(1.5, 0, 1), P(.5, 0, -1), P(1.5, 0, -1)), q(1, 2), 0, true);
  }
  SUBCASE("parallel, becoming collinear but disjoint") {
    // b=[2,3] on the x-axis at t=1/2.
    miss(EE, eeU(P(2, 0, 1), P(3, 0, 1), P(2, 0, -1), P(3, 0, -1)), true);
  }
  SUBCASE("collinear, static, overlapping") {
    hit(EE, eeU(P(.5, 0, 0), P(1.5, 0, 0), P(.5, 0, 0), P(1.5, 0, 0)), q(0), 0, true);
  }
  SUBCASE("collinear, end-to-end at 1/3") {
    // b=[2-3t, 3-3t]; b0 = 1 at t=1/3.
    hit(EE, eeU(P(2, 0, 0), P(3, 0, 0), P(-1, 0, 0), P(0, 0, 0)), q(1, 3), 0, true);
  }
  SUBCASE("collinear, moving away") {
    miss(EE, eeU(P(2, 0, 0), P(3, 0, 0), P(3, 0, 0), P(4, 0, 0)), true);
  }
  SUBCASE("collinear, end-to-end exactly at t=1") {
    // b0 = 2-t = 1 at t=1.
    hit(EE, eeU(P(2, 0, 0), P(3, 0, 0), P(1, 0, 0), P(2, 0, 0)), q(1), 0, true);
  }
  SUBCASE("collinear, stops 2^-40 short") {
    miss(EE, eeU(P(2, 0, 0), P(3, 0, 0), P(1 + e40, 0, 0), P(2 + e40, 0, 0)), true);
  }
  SUBCASE("collinear, reversed b approaching from the left") {
    // b0 = -2+4t is b's right end; reaches 0 at t=1/2.
    hit(EE, eeU(P(-2, 0, 0), P(-3, 0, 0), P(2, 0, 0), P(1, 0, 0)), q(1, 2), 0, true);
  }
  SUBCASE("collinear, both moving along the line, meet at 3/5") {
    // a=[t,1+t], b=[4-4t,5-4t]: 4-4t = 1+t at t=3/5.
    hit(EE,
        ee(P(0, 0, 0), P(1, 0, 0), P(4, 0, 0), P(5, 0, 0), P(1, 0, 0), P(2, 0, 0), P(0, 0, 0),
           P(1, 0, 0)),
        q(3, 5), 0, true);
  }
  SUBCASE("antiparallel sliding past in the same plane") {
    // b at y=1 always.
    miss(EE, eeU(P(2, 1, 0), P(3, 1, 0), P(-3, 1, 0), P(-2, 1, 0)), true);
  }
}

// ===========================================================================
// EE with edges degenerate to points (a repeated point => p = 0).
// ===========================================================================
TEST_CASE("oracle.degenerate.ee_point_edges") {
  SUBCASE("b is a point crossing a in a's plane") {
    // a=[0,1] on x-axis; b=(1/2,1-2t,0): on a at t=1/2.
    hit(EE, eeU(P(.5, 1, 0), P(.5, 1, 0), P(.5, -1, 0), P(.5, -1, 0)), q(1, 2), 0, true);
  }
  SUBCASE("b is a point crossing a out of plane") {
    // b=(1/2,1-2t,1-2t).
    hit(EE, eeU(P(.5, 1, 1), P(.5, 1, 1), P(.5, -1, -1), P(.5, -1, -1)), q(1, 2), 0, true);
  }
  SUBCASE("b is a point missing a") {
    miss(EE, eeU(P(2, 1, 1), P(2, 1, 1), P(2, -1, -1), P(2, -1, -1)), true);
  }
  SUBCASE("b is a point hitting endpoint a0 at 1/3") {
    // b=(0,1-3t,1-3t).
    hit(EE, eeU(P(0, 1, 1), P(0, 1, 1), P(0, -2, -2), P(0, -2, -2)), q(1, 3), 0, true);
  }
  SUBCASE("a is a point hitting b's interior") {
    // a=(0,0,1-2t); b=[-1,1] on x-axis.
    hit(EE,
        ee(P(0, 0, 1), P(0, 0, 1), P(-1, 0, 0), P(1, 0, 0), P(0, 0, -1), P(0, 0, -1), P(-1, 0, 0),
           P(1, 0, 0)),
        q(1, 2), 0, true);
  }
  SUBCASE("point-point meeting at 1/2") {
    // a=(t,t,t), b=(1-t,t,t).
    hit(EE,
        ee(P(0, 0, 0), P(0, 0, 0), P(1, 0, 0), P(1, 0, 0), P(1, 1, 1), P(1, 1, 1), P(0, 1, 1),
           P(0, 1, 1)),
        q(1, 2), 0, true);
  }
  SUBCASE("point-point meeting at 1/3") {
    // a=(t,0,0), b=(1-2t,0,0).
    hit(EE,
        ee(P(0, 0, 0), P(0, 0, 0), P(1, 0, 0), P(1, 0, 0), P(1, 0, 0), P(1, 0, 0), P(-1, 0, 0),
           P(-1, 0, 0)),
        q(1, 3), 0, true);
  }
  SUBCASE("point-point missing by 2^-30") {
    // a=(t,t,t), b=(1-t,t,t+2^-30).
    miss(EE,
         ee(P(0, 0, 0), P(0, 0, 0), P(1, 0, e30), P(1, 0, e30), P(1, 1, 1), P(1, 1, 1),
            P(0, 1, 1 + e30), P(0, 1, 1 + e30)),
         true);
  }
  SUBCASE("point-point, paths cross at different times") {
    // a=(2t,0,0) at (1,0,0) at t=1/2; b=(1,-1/2+2t,0) at (1,0,0) at t=1/4.
    // Equal would need 2t=1 and 2t=1/2: never.
    miss(EE,
         ee(P(0, 0, 0), P(0, 0, 0), P(1, -.5, 0), P(1, -.5, 0), P(2, 0, 0), P(2, 0, 0),
            P(1, 1.5, 0), P(1, 1.5, 0)),
         true);
  }
  SUBCASE("point-point, static coincident") {
    const Vec3 p = P(1, 2, 3);
    hit(EE, ee(p, p, p, p, p, p, p, p), q(0), 0, true);
  }
  SUBCASE("point-point, static 2^-40 apart") {
    const Vec3 p = P(0, 0, 0), r = P(0, 0, e40);
    miss(EE, ee(p, p, r, r, p, p, r, r), true);
  }
}

// ===========================================================================
// EE coplanar motion, skew edges becoming coplanar, T-junctions.
// ===========================================================================
TEST_CASE("oracle.degenerate.ee_coplanar_skew") {
  SUBCASE("always coplanar, b slides down onto a at 1/2") {
    // a=[-1,1] on x-axis; b=(0,1-2t)-(0,2-2t) in z=0: contains 0 iff 1-2t<=0.
    hit(EE, eeA(P(0, 1, 0), P(0, 2, 0), P(0, -1, 0), P(0, 0, 0)), q(1, 2), 0, true);
  }
  SUBCASE("always coplanar, b slides sideways onto a0 at 1/2") {
    // b=(x,-1)-(x,1), x=-3+4t: x=-1 at t=1/2.
    hit(EE, eeA(P(-3, -1, 0), P(-3, 1, 0), P(1, -1, 0), P(1, 1, 0)), q(1, 2), 0, true);
  }
  SUBCASE("always coplanar, b's free end swings onto a at 1/2") {
    // b=(0,1/2)-(1-t,1/2-t): reaches y=0 at t=1/2 at (1/2,0) in a.
    hit(EE, eeA(P(0, .5, 0), P(1, .5, 0), P(0, .5, 0), P(0, -.5, 0)), q(1, 2), 0, true);
  }
  SUBCASE("always coplanar, b sweeps across a's line beyond a1") {
    // b=(2,1-2t)-(3,2-2t): x in [2,3] while a has x<=1.
    miss(EE, eeA(P(2, 1, 0), P(3, 2, 0), P(2, -1, 0), P(3, 0, 0)), true);
  }
  SUBCASE("skew edges become coplanar, lines meet outside both") {
    // a=[0,1] on x-axis; b=(0,1,z)-(1,2,z), z=1-2t: p = 1*(1*z - z*2) = -z.
    // At 1/2 b lies on y=x+1, which meets y=0 at x=-1: outside a and b.
    miss(EE, eeU(P(0, 1, 1), P(1, 2, 1), P(0, 1, -1), P(1, 2, -1)), false);
  }
  SUBCASE("skew edges become coplanar, lines meet inside a only") {
    // a=[-1,1]; b=(0,1,z)-(0,2,z): p = 2(z-2z) = -2z; b's line meets a at 0 but b has y>=1.
    miss(EE, eeA(P(0, 1, 1), P(0, 2, 1), P(0, 1, -1), P(0, 2, -1)), false);
  }
  SUBCASE("T-junction at t=1") {
    // s=1-t; b0=(0,s,s), b1=(0,s,s+1); p = 2(s(s+1) - s*s) = 2s, root 1;
    // at 1: b0=(0,0,0) on a's interior.
    hit(EE, eeA(P(0, 1, 1), P(0, 1, 2), P(0, 0, 0), P(0, 0, 1)), q(1), 1, false);
  }
  SUBCASE("T-junction at t=1, a's endpoint on b's interior") {
    // The previous case with a and b swapped.
    hit(EE,
        ee(P(0, 1, 1), P(0, 1, 2), P(-1, 0, 0), P(1, 0, 0), P(0, 0, 0), P(0, 0, 1), P(-1, 0, 0),
           P(1, 0, 0)),
        q(1), 1, false);
  }
  SUBCASE("T-junction at t=0 then separating") {
    // s=t: p = 2t, root 0 with b0 at the origin.
    hit(EE, eeA(P(0, 0, 0), P(0, 0, 1), P(0, 1, 1), P(0, 1, 2)), q(0), 1, false);
  }
  SUBCASE("T-junction near miss: root at t=1 but b ends 2^-40 above a") {
    // b0=(0,1-t,1-t+2^-40 t), b1=b0+(0,0,1): p = 2(s(s+1+et) - (s+et)s) = 2s, root 1;
    // at 1 b=(0,0,2^-40)-(0,0,1+2^-40): z>0, no contact.
    miss(EE, eeA(P(0, 1, 1), P(0, 1, 2), P(0, 0, e40), P(0, 0, 1 + e40)), false);
  }
}

// ===========================================================================
// EE with several roots. a=(-1,0,0)-(1,0,0) static.
// b0=(x0,1,t-1/4), b1=(x1,t-3/4,0): p = 2(1*0 - (t-1/4)(t-3/4)) = -2(t-1/4)(t-3/4).
// t=1/4: b in z=0 from (x0,1) to (x1,-1/2); meets y=0 at (x0+2x1)/3.
// t=3/4: b1=(x1,0,0) is b's only point on the x-axis (b0=(x0,1,1/2)).
// ===========================================================================
TEST_CASE("oracle.degenerate.ee_multiple_roots") {
  auto two = [](double x0, double x1) {
    return eeA(P(x0, 1, -.25), P(x1, -.75, 0), P(x0, 1, .75), P(x1, .25, 0));
  };
  SUBCASE("two roots, contact only at the later (3/4)") {
    // x0=6, x1=0: 1/4 meets at x=2 (outside); 3/4: b1=(0,0,0) on a.
    hit(EE, two(6, 0), q(3, 4), 1, false);
  }
  SUBCASE("two roots, contact at both") {
    // x0=x1=0: 1/4 meets at 0; 3/4 at 0.
    hit(EE, two(0, 0), q(1, 4), 2, false);
  }
  SUBCASE("two roots, contact only at the earlier (1/4)") {
    // x0=-2, x1=2: 1/4 meets at 2/3 (inside); 3/4: x1=2 outside.
    hit(EE, two(-2, 2), q(1, 4), 1, false);
  }
  SUBCASE("two roots, no contact") {
    // x0=6, x1=2: 1/4 meets at 10/3; 3/4 at 2.
    miss(EE, two(6, 2), false);
  }
  // Double root: b0=(0,1,t-1/2), b1=(x1,t-1/2,0): p = -2(t-1/2)^2.
  // At 1/2: b from (0,1,0) to (x1,0,0), on y=0 only at b1.
  auto tangent = [](double x1) {
    return eeA(P(0, 1, -.5), P(x1, -.5, 0), P(0, 1, .5), P(x1, .5, 0));
  };
  SUBCASE("double root, touching") { hit(EE, tangent(0), q(1, 2), 1, false); }
  SUBCASE("double root, touching at a's endpoint") { hit(EE, tangent(1), q(1, 2), 1, false); }
  SUBCASE("double root, not touching") { miss(EE, tangent(2), false); }
}

// ===========================================================================
// Symmetries: the same hand-derived answers after relabelling.
// ===========================================================================
TEST_CASE("oracle.degenerate.symmetry") {
  // VF: permuting the triangle's vertices only changes the cubic's sign.
  SUBCASE("VF generic hit under all vertex orders") {
    const Query base = vfT(P(.25, .25, 1), P(.25, .25, -1));  // 1/2, see vf_generic
    for (const auto& p : kPerms) {
      INFO("triangle order " << p[0] << p[1] << p[2]);
      hit(VF, permute_tri(base, p), q(1, 2), 1, false);
    }
  }
  SUBCASE("VF vertex hit under all vertex orders") {
    const Query base = vfT(P(1, 0, 1), P(1, 0, -1));  // on f1 at 1/2
    for (const auto& p : kPerms) {
      INFO("triangle order " << p[0] << p[1] << p[2]);
      hit(VF, permute_tri(base, p), q(1, 2), 1, false);
    }
  }
  SUBCASE("VF two roots, later only, under all vertex orders") {
    const Query base = vf(P(-1, .5, -.3125), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(1, 0, .1875),
                          P(0, 0, 0), P(1, 0, 0), P(0, 1, 1));  // 3/4, 1 root
    for (const auto& p : kPerms) {
      INFO("triangle order " << p[0] << p[1] << p[2]);
      hit(VF, permute_tri(base, p), q(3, 4), 1, false);
    }
  }
  SUBCASE("VF three roots, first and last, under all vertex orders") {
    const Query base = vf(P(0, 0, -.75), P(0, 0, 0), P(-.25, 0, -1), P(0, -.5, 0), P(0, 0, .25),
                          P(0, 0, 0), P(.75, 0, -1), P(0, .5, 0));  // 1/4, 2 roots
    for (const auto& p : kPerms) {
      INFO("triangle order " << p[0] << p[1] << p[2]);
      hit(VF, permute_tri(base, p), q(1, 4), 2, false);
    }
  }
  SUBCASE("VF tangential under all vertex orders") {
    const Query base = vf(P(.25, .5, -.25), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(.25, 0, .25),
                          P(0, 0, 0), P(1, 0, 0), P(0, 1, 1));  // 1/2 double root
    for (const auto& p : kPerms) {
      INFO("triangle order " << p[0] << p[1] << p[2]);
      hit(VF, permute_tri(base, p), q(1, 2), 1, false);
    }
  }
  SUBCASE("VF rational tangential at 1/3 under all vertex orders") {
    const RationalQuery base =
        rq(R(q(1, 4), q(1, 2), q(-7, 18)), R(0, 0, 0), R(1, 0, 0), R(0, 1, -1),
           R(q(1, 4), 0, q(4, 9)), R(0, 0, 0), R(1, 0, 0), R(0, 1, 1));
    for (const auto& p : kPerms) {
      INFO("triangle order " << p[0] << p[1] << p[2]);
      hit(VF, permute_tri(base, p), q(1, 3), 1, false);
    }
  }
  SUBCASE("VF always coplanar at 1/3 under all vertex orders") {
    const Query base = vfT(P(-1, .25, 0), P(2, .25, 0));
    for (const auto& p : kPerms) {
      INFO("triangle order " << p[0] << p[1] << p[2]);
      hit(VF, permute_tri(base, p), q(1, 3), 0, true);
    }
  }
  SUBCASE("VF two-root miss under all vertex orders") {
    const Query base = vf(P(2, .5, -.3125), P(0, 0, 0), P(1, 0, 0), P(0, 1, -1), P(2, 0, .1875),
                          P(0, 0, 0), P(1, 0, 0), P(0, 1, 1));
    for (const auto& p : kPerms) {
      INFO("triangle order " << p[0] << p[1] << p[2]);
      miss(VF, permute_tri(base, p), false);
    }
  }
  SUBCASE("VF translated by (1,2,-4)") {
    // Translation changes neither the cubic nor inclusion.
    const Vec3 d = P(1, 2, -4);
    hit(VF, translate(vfT(P(.25, .25, 1), P(.25, .25, -2)), d), q(1, 3), 1, false);
    hit(VF,
        translate(vf(P(0, 0, -.75), P(0, 0, 0), P(-.25, 0, 0), P(0, -.5, -1), P(0, 0, .25),
                     P(0, 0, 0), P(.75, 0, 0), P(0, .5, -1)),
                  d),
        q(1, 2), 2, false);
    miss(VF, translate(vfT(P(-1, 2, 0), P(2, 2, 0)), d), true);
  }

  // EE: swapping the edges or reversing either edge keeps the roots.
  auto ee_variants = [](const Query& base, const Q& t, int roots, bool coplanar) {
    const Query vs[] = {base,
                        swap_edges(base),
                        reverse_edge(base, 0),
                        reverse_edge(base, 2),
                        reverse_edge(reverse_edge(base, 0), 2),
                        swap_edges(reverse_edge(base, 2))};
    int i = 0;
    for (const Query& v : vs) {
      CAPTURE(i);
      hit(EE, v, t, roots, coplanar);
      ++i;
    }
  };
  SUBCASE("EE generic crossing, swapped/reversed") {
    ee_variants(eeA(P(0, -1, 1), P(0, 1, 1), P(0, -1, -2), P(0, 1, -2)), q(1, 3), 1, false);
  }
  SUBCASE("EE endpoint-endpoint, swapped/reversed") {
    ee_variants(eeA(P(1, 0, 1), P(1, 2, 1), P(1, 0, -1), P(1, 2, -1)), q(1, 2), 1, false);
  }
  SUBCASE("EE two roots later only, swapped/reversed") {
    ee_variants(eeA(P(6, 1, -.25), P(0, -.75, 0), P(6, 1, .75), P(0, .25, 0)), q(3, 4), 1, false);
  }
  SUBCASE("EE T-junction at 1, swapped/reversed") {
    ee_variants(eeA(P(0, 1, 1), P(0, 1, 2), P(0, 0, 0), P(0, 0, 1)), q(1), 1, false);
  }
  SUBCASE("EE collinear end-to-end at 1/3, swapped/reversed") {
    ee_variants(eeU(P(2, 0, 0), P(3, 0, 0), P(-1, 0, 0), P(0, 0, 0)), q(1, 3), 0, true);
  }
  SUBCASE("EE point-point at 1/3, swapped/reversed") {
    ee_variants(ee(P(0, 0, 0), P(0, 0, 0), P(1, 0, 0), P(1, 0, 0), P(1, 0, 0), P(1, 0, 0),
                   P(-1, 0, 0), P(-1, 0, 0)),
                q(1, 3), 0, true);
  }
  SUBCASE("EE skew miss, swapped") {
    const Query base = eeU(P(0, 1, 1), P(1, 2, 1), P(0, 1, -1), P(1, 2, -1));
    miss(EE, swap_edges(base), false);
    miss(EE, reverse_edge(swap_edges(base), 0), false);
  }
}

// ===========================================================================
// Non-finite input.
// ===========================================================================
TEST_CASE("oracle.degenerate.invalid_input") {
  const double bad[] = {std::numeric_limits<double>::quiet_NaN(), kInf, -kInf};
  const Query vf_base = vfT(P(.25, .25, 1), P(.25, .25, -1));           // a hit when finite
  const Query ee_base = eeA(P(0, -1, 1), P(0, 1, 1), P(0, -1, -1), P(0, 1, -1));  // a hit
  SUBCASE("each single coordinate NaN, +inf or -inf (VF and EE)") {
  for (int which = 0; which < 2; ++which) {
    const QueryType type = which == 0 ? VF : EE;
    const Query& base = which == 0 ? vf_base : ee_base;
    for (double b : bad) {
      for (int i = 0; i < 8; ++i) {
        for (int c = 0; c < 3; ++c) {
          Query qy = base;
          double* coord = c == 0 ? &qy.points[i].x : c == 1 ? &qy.points[i].y : &qy.points[i].z;
          *coord = b;
          INFO((which == 0 ? "vf" : "ee") << " value " << b << " at point " << i << " coord " << c);
          const Result r = exact_ccd(type, qy);
          CHECK(r.status == Status::invalid_input);
          CHECK_FALSE(r.hit);
          CHECK(r.toi_lo == kInf);
          CHECK(r.toi_hi == kInf);
        }
      }
    }
  }
  }
  SUBCASE("all coordinates NaN") {
    Query qy;
    for (Vec3& p : qy.points) p = P(bad[0], bad[0], bad[0]);
    const Result r = exact_ccd(VF, qy);
    CHECK(r.status == Status::invalid_input);
    CHECK_FALSE(r.hit);
  }
}
