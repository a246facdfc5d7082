// The exact oracle of the rigid-body model (include/simdccd/rigid_oracle.hpp).
//
// Frame and scale. relative_to_still: the first primitive moves (VF the
// vertex, EE edge a), the second is still. The query is scaled so that all
// numbers are integers: space (points, translation, center, expel) by the
// common denominator L, which scales every distance and the expel zone alike;
// the axis a by the common denominator L_a of its coordinates, and (g, s) of
// rigid_motion.hpp by lambda = q L_a (tau = p / q) or L_a (half turn), with
// s / L_a, which leaves g and s a scaled by the one factor lambda and so no
// point moved (motion_formulas.hpp). Every moving point is then x(u) =
// X(u) / W(u) with integer polynomials X (degree <= 2) and W = g^2 + s^2
// |a|^2 > 0 (degree 2 for a rotation, W = 1 for a translation); a still
// point x is X = W x (exact::PolyMotion).
//
// Plain contact (expel 0): exact::plain_contact on that motion (the
// coplanarity polynomial is W^2 times a quadratic for a rotation, the W^2
// divided out).
//
// Expel zone (expel e > 0). With D = X' W - X W' = W^2 dx/du (a positive
// multiple of the velocity), each rule of rigid_ccd.hpp is a sign condition
// on a polynomial in u, and exact::earliest_where finds the infimum of the
// set where they all hold (candidates: 0 and the roots in [0, 1]):
// - VF, n = (f1 - f0) x (f2 - f0) (constant; none: no contact), h = H / (W |n|):
//   H = n . (X - W f0);          0 <= h:   H >= 0
//   Z = e^2 |n|^2 W^2 - H^2;     h <= e:   Z >= 0 (given H >= 0)
//   N = n . D = H' W - H W';     h strictly decreasing right after u: the
//                                right-sign of N (first nonzero derivative) < 0
//   ray x + lambda d, lambda >= 0, meets the closed triangle: where N < 0 the
//   ray crosses the plane at lambda = h |n| W^2 / -N >= 0 and the Pluecker
//   sidedness d . ((f_i - x) x (f_i+1 - x)) = S_i / W^3 of its line against
//   each edge must have the sign of n . d or be 0:
//   K_i = W (f_i x f_i+1) + (f_i+1 - f_i) x X,   S_i = D . K_i <= 0.
//   Where N = 0 (isolated u: N = 0 throughout means h is constant, never
//   decreasing) the ray is parallel to the plane: it meets the triangle only
//   inside the plane (H = 0), where with the edge functions b_i(y) =
//   (f_i x f_i+1 + (f_i+1 - f_i) x y) . n (all >= 0 on the triangle) some
//   lambda >= 0 must have b_i(x) + lambda beta_i >= 0, beta_i = (e_i x d) . n:
//   a one-dimensional feasibility decided from the signs of B_i = n . K_i,
//   Beta_i = (e_i x D) . n and B_j Beta_i - B_i Beta_j (read at that u only).
//   For a translation H is linear, Z quadratic, N and S_i constant (the
//   sidedness of the line of the whole move).
//   x within e of the closed triangle: the closest point of the triangle is
//   in its interior (x over the triangle, B_i = n . K_i >= 0 for all i, and
//   |h| <= e: Z >= 0), on an edge (0 <= (x - f_i).e_i <= |e_i|^2 and
//   |(x - f_i) x e_i|^2 <= e^2 |e_i|^2: T_i = (X - W f_i) . e_i, |e_i|^2 W -
//   T_i >= 0, E_i = e^2 |e_i|^2 W^2 - |(X - W f_i) x e_i|^2 >= 0) or a
//   vertex (P_i = e^2 W^2 - |X - W f_i|^2 >= 0); any of them will do.
// - EE, edge a moving (A0, A1), b still, db = b1 - b0, with M = (A1 - A0) x db
//   = W m and V = W b0 - A0 = W (b0 - a0) (exact::line_parameters):
//   Q = M . M = W^2 |m|^2;        m != 0:   Q > 0
//   P = (M . V) / W (exact: a rotation preserves dot and cross products, so
//     W m . (b0 - a0) has no W in its denominator), g^2 = P^2 / Q;
//   Z = e^2 Q - P^2;              g <= e:   Z >= 0
//   F = 2 P' Q - P Q';            g strictly decreasing right after u: the
//                                 right-sign of (g^2)' = P F / Q^2 < 0, that
//                                 is right-sign(P) right-sign(F) < 0
//   s_a = ((b0 - a0) x db) . m / |m|^2 = SA / Q,  SA = (V x db) . M;
//   s_b = ((b0 - a0) x da) . m / |m|^2 = SB / Q,  SB = (V x (A1 - A0)) . M / W
//     (exact, as P);              0 <= s_a, s_b <= 1: SA, Q - SA, SB, Q - SB >= 0.
// "Right after u" at u = 1 reads the motion's formula continued past 1 (the
// rules need it for the point u = 1 itself: is h, or g, decreasing there).
//
// When the infimum is no contact itself. rigid_ccd.hpp names the case of a
// vertex moving parallel to the face at u (N(u) = 0) with h(u) > 0, so that
// the ray misses the plane at u, in contact right after u; but right after u
// the ray meets the plane ever farther away (lambda -> infinity as N -> 0),
// so a bounded face never catches it: for VF the infimum is a contact. For EE
// it need not be: edges parallel at u (m = 0, excluded) may be in the zone
// right after u with the closest points on both segments
// (tests/test_rigid_oracle.cpp has such a case: the rotation axis crosses
// both edges). earliest_where covers both by its test right after each
// candidate.
#include "simdccd/rigid_oracle.hpp"

#include <cassert>
#include <cmath>

#include "conversions.hpp"
#include "exact/contact.hpp"
#include "exact/earliest_where.hpp"
#include "exact/within_distance.hpp"
#include "rigid/motion_formulas.hpp"

namespace simdccd {
namespace {

using exact::cross;
using exact::dot;
using exact::Poly;
using exact::PolyVec3;
using exact::SignsAt;
using Enclosure = exact::RealRoot::Enclosure;

// The query in the frame of the still primitive, scaled to integers (see the top).
struct Scene {
  exact::PolyMotion motion;      // X_i = W x_i for all four points
  std::array<PolyVec3, 4> still;  // the still points' constant coordinates (the others unused)
  mpq_class expel;
};

RationalVec3 scaled(const RationalVec3& p, const mpz_class& s) { return {s * p.x, s * p.y, s * p.z}; }

PolyVec3 constant(const RationalVec3& p) { return {Poly{p.x}, Poly{p.y}, Poly{p.z}}; }

// q relative to the still primitive (q.mover first).
Scene scene_of(QueryType type, const RationalRigidQuery& q, const mpq_class& expel) {
  const int moving = type == QueryType::vertex_face ? 1 : 2;
  const RationalRigidMotion& m = q.motion;
  const bool translation = m.type == RigidMotionType::translation;
  mpz_class L = expel.get_den();
  for (const RationalVec3& p : q.points) include_denominators(L, p);
  include_denominators(L, translation ? m.translation : m.center);
  Scene scene;
  scene.expel = L * expel;
  std::array<RationalVec3, 4> x;
  for (int i = 0; i < 4; ++i) x[i] = scaled(q.points[i], L);
  Poly& W = scene.motion.W;
  if (translation) {
    const RationalVec3 v = scaled(m.translation, L);
    for (int i = 0; i < moving; ++i) {
      scene.motion.X[i] = {Poly{x[i].x, v.x}, Poly{x[i].y, v.y}, Poly{x[i].z, v.z}};
    }
  } else {
    mpz_class La = 1;
    include_denominators(La, m.axis);
    const RationalVec3 a = scaled(m.axis, La), c = scaled(m.center, L);
    const mpq_class lambda = m.tan_half_infinity != 0 ? mpq_class(La) : mpq_class(La * m.tan_half.get_den());
    const auto [g, s] = rigid::cayley_parameters(Poly{0, 1}, Poly{1}, m.tan_half, m.tan_half_infinity);
    const Poly g_scaled = lambda * g, s_scaled = mpq_class(lambda / La) * s;
    for (int i = 0; i < moving; ++i) {
      const auto X = rigid::rotate(rigid::rotation_terms(x[i], c, a), g_scaled, s_scaled);
      scene.motion.X[i] = {X[0], X[1], X[2]};
      W = X[3];  // the same for every point
    }
  }
  for (int i = moving; i < 4; ++i) {
    scene.still[i] = constant(x[i]);
    scene.motion.X[i] = W * scene.still[i];
  }
  return scene;
}

// W^2 dx/du for x = X / W.
PolyVec3 velocity(const PolyVec3& X, const Poly& W) {
  return W * exact::derivative(X) - exact::derivative(W) * X;
}

// The in-plane ray x + lambda d, lambda >= 0, meets the closed triangle: some
// lambda >= 0 has B_i + lambda Beta_i >= 0 for all i (see the top).
bool in_plane_ray_meets_triangle(SignsAt& at, const std::array<Poly, 3>& B,
                                 const std::array<PolyVec3, 3>& edges, const PolyVec3& D,
                                 const PolyVec3& n) {
  std::array<Poly, 3> Beta;
  std::array<int, 3> beta;
  for (int i = 0; i < 3; ++i) {
    Beta[i] = dot(cross(edges[i], D), n);
    beta[i] = at.sign(Beta[i]);
    // lambda >= 0 and b_i < 0 need beta_i > 0.
    if (beta[i] <= 0 && at.sign(B[i]) < 0) return false;
  }
  // Each lower bound -b_i / beta_i (beta_i > 0) below each upper bound
  // b_j / -beta_j (beta_j < 0).
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      if (beta[i] > 0 && beta[j] < 0 && at.sign(B[j] * Beta[i] - B[i] * Beta[j]) < 0) return false;
    }
  }
  return true;
}

std::optional<Enclosure> vertex_face_zone(const Scene& scene) {
  const Poly& W = scene.motion.W;
  const PolyVec3& X = scene.motion.X[0];
  const std::array<PolyVec3, 3> f = {scene.still[1], scene.still[2], scene.still[3]};
  const PolyVec3 n = cross(f[1] - f[0], f[2] - f[0]);
  if (dot(n, n).is_zero()) return std::nullopt;  // a degenerate face has no front
  const PolyVec3 D = velocity(X, W);
  const Poly H = dot(n, X - W * f[0]);
  const Poly N = dot(n, D);
  if (N.is_zero()) return std::nullopt;  // h constant: never strictly decreasing
  // Within e of the triangle: its vertices, edges, face (the face's
  // polynomials: |n|^2, Z = e^2 |n|^2 W^2 - H^2, the edge sides B_i).
  const std::vector<exact::Feature> near = exact::point_triangle_features(X, W, f, scene.expel * scene.expel);
  const std::vector<Poly>& face = near.back().polys;
  const Poly& Z = face[1];
  const std::array<Poly, 3> B = {face[2], face[3], face[4]};
  // In the zone and approaching: a necessary condition, cheaper to decide
  // first (most queries fail it).
  const auto approaching = [&](SignsAt& at) {
    return at.sign(H) >= 0 && at.sign(Z) >= 0 && at.right_sign(N) < 0;
  };
  if (!exact::earliest_where(std::array{&H, &Z, &N}, approaching)) return std::nullopt;
  std::array<PolyVec3, 3> edges;
  std::array<Poly, 3> S;
  for (int i = 0; i < 3; ++i) {
    edges[i] = f[(i + 1) % 3] - f[i];
    S[i] = dot(D, W * cross(f[i], f[(i + 1) % 3]) + cross(edges[i], X));
  }
  std::vector<const Poly*> polys = {&H, &N, &S[0], &S[1], &S[2]};
  for (const exact::Feature& feature : near) {
    for (const Poly& p : feature.polys) polys.push_back(&p);
  }
  return exact::earliest_where(polys, [&](SignsAt& at) {
    if (!approaching(at) || !exact::any_holds(near, at)) return false;
    if (at.sign(N) < 0) {
      return at.sign(S[0]) <= 0 && at.sign(S[1]) <= 0 && at.sign(S[2]) <= 0;
    }
    // N = 0 here (only at a point: right after it N < 0).
    return at.sign(H) == 0 && in_plane_ray_meets_triangle(at, B, edges, D, n);
  });
}

// The exact quotient p / W (see the top for why W divides p).
Poly divided_by_weight(const Poly& p, const Poly& W) {
  assert(exact::remainder(p, W).is_zero());
  return exact::quotient(p, W);
}

std::optional<Enclosure> edge_edge_zone(const Scene& scene) {
  const Poly& W = scene.motion.W;
  const PolyVec3 &A0 = scene.motion.X[0], &A1 = scene.motion.X[1];
  const PolyVec3 V = W * scene.still[2] - A0, da = A1 - A0, db = scene.still[3] - scene.still[2];
  const PolyVec3 M = cross(da, db);
  const Poly Q = dot(M, M);
  if (Q.is_zero()) return std::nullopt;  // parallel edges never contact
  const Poly P = divided_by_weight(dot(M, V), W);
  const Poly Z = scene.expel * scene.expel * Q - P * P;
  const Poly F = mpq_class(2) * exact::derivative(P) * Q - P * exact::derivative(Q);
  // Lines in the zone and approaching: a necessary condition, cheaper to
  // decide first (most queries fail it).
  const auto approaching = [&](SignsAt& at) {
    return at.sign(Z) >= 0 && at.sign(Q) > 0 && at.right_sign(P) * at.right_sign(F) < 0;
  };
  if (!exact::earliest_where(std::array{&Q, &Z, &P, &F}, approaching)) return std::nullopt;
  const exact::LineParameters lines = exact::line_parameters(da, db, V, M);
  const Poly& SA = lines.along_a;
  const Poly SB = divided_by_weight(lines.along_b, W);
  const Poly SA1 = Q - SA, SB1 = Q - SB;
  return exact::earliest_where(std::array{&Q, &Z, &P, &F, &SA, &SA1, &SB, &SB1}, [&](SignsAt& at) {
    return approaching(at) && at.sign(SA) >= 0 && at.sign(SA1) >= 0 && at.sign(SB) >= 0 &&
           at.sign(SB1) >= 0;
  });
}

Result invalid() {
  Result r;
  r.status = Status::invalid_input;
  return r;
}

bool is_zero(const RationalVec3& v) { return sgn(v.x) == 0 && sgn(v.y) == 0 && sgn(v.z) == 0; }

bool is_finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

Result rigid_exact_ccd(QueryType type, const RationalRigidQuery& query, const mpq_class& expel) {
  const RationalRigidMotion& m = query.motion;
  if (sgn(expel) < 0 || (query.mover != Mover::first && query.mover != Mover::second) ||
      (m.type == RigidMotionType::rotation && m.tan_half_infinity != 0 && is_zero(m.axis))) {
    return invalid();
  }
  const Scene scene = scene_of(type, rigid::relative_to_still_of(query), expel);
  if (sgn(expel) == 0) return exact::plain_contact(type, scene.motion);
  return exact::exact_result(type == QueryType::vertex_face ? vertex_face_zone(scene)
                                                            : edge_edge_zone(scene));
}

Result rigid_exact_ccd(QueryType type, const RigidQuery& q, double expel) {
  bool finite = std::isfinite(expel);
  for (const Vec3& p : q.points) finite = finite && is_finite(p);
  const RigidMotion& m = q.motion;
  if (m.type == RigidMotionType::translation) {
    finite = finite && is_finite(m.translation);
  } else {
    finite = finite && is_finite(m.center) && is_finite(m.axis) && !std::isnan(m.tan_half);
  }
  if (!finite) return invalid();
  return rigid_exact_ccd(type, to_rational(q), mpq_class(expel));
}

}  // namespace simdccd
