// Rigid motions of the rigid-body model: what the motion parameters mean, in
// one place for the kernels, the exact oracle, the random workload, the CSV
// reader and the polyhedra scenes.
//
// After van Waveren, "Robust Continuous Collision Detection Between Arbitrary
// Polyhedra Using Trajectory Parameterization of Polyhedral Features" (id
// Software, 2005): a move between two poses is either a translation or a
// rotation about an arbitrary axis, applied to one body while the others stay
// still (two moving bodies reduce to one by relative motion). The motion
// parameter u runs over [0, 1]; a point x of the moving body is at x(u).
//
// - Translation by `translation` = v:  x(u) = x + u v  (u is van Waveren's
//   "fraction" of the move).
// - Rotation about the line through `center` = c along `axis` = a (any
//   nonzero length; it need not be a unit vector), with the half-angle tangent
//   `tan_half` = tau of the end angle, finite or +-infinity (a half turn):
//     (g(u), s(u)) = (1, u tau) for finite tau,  (1 - u, +-u) for tau = +-inf,
//     W(u) = g^2 + s^2 |a|^2,
//     R(u) = [(g^2 - s^2 |a|^2) I + 2 s^2 a a^T + 2 g s [a]x] / W(u),
//     x(u) = c + R(u) (x - c),
//   where [a]x y = a x y. R(u) is the rotation by theta(u) = 2 atan2(s |a|, g)
//   about a / |a|, counter-clockwise seen from the tip of a (right-handed):
//     finite tau:  theta(u) = 2 atan(u tau |a|), so with |a| = 1 the move
//                  turns by beta = 2 atan(tau), and tau = tan(beta / 2);
//     tau = +-inf: theta(u) = +-2 atan(u |a| / (1 - u)), a turn by +-pi.
//   This is the Cayley form: R(u) is a rational function of u whose
//   coefficients are polynomials in the doubles given, so the exact oracle
//   decides the motion exactly (no sine, cosine, square root or arc tangent).
//   theta(u) is strictly monotone in u (unless a = 0 or tau = 0: no
//   rotation), so ordering contacts by u orders them by angle (van Waveren
//   orders them by tan(alpha / 2), the same order), and a rotation never
//   passes |theta| = pi: beta is in (-pi, pi) for finite tau, +-pi for +-inf.
//   u is not proportional to the angle: theta(1/2) = 2 atan(tau / 2) for a
//   unit axis, not beta / 2 (except for a half turn: theta(1/2) = +-pi/2).
//
// Valid input (the kernels' domain; anything else is `invalid_input`):
// coordinates, the translation, the center and the axis finite and of
// magnitude at most kMaxRigidCoordinate = 2^60; tau finite with |tau| <= 2^60,
// or +-infinity with a nonzero axis. The exact oracle decides any finite input
// (a half turn needs a nonzero axis).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "simdccd/query.hpp"

namespace simdccd {

enum class RigidMotionType : std::uint8_t { translation, rotation };

/// "translation", "rotation".
std::string_view to_string(RigidMotionType type);
/// The inverse of to_string; nullopt for anything else.
std::optional<RigidMotionType> parse_rigid_motion_type(std::string_view name);

/// One rigid motion (see the top). Only the fields of `type` are read.
struct RigidMotion {
  RigidMotionType type = RigidMotionType::translation;
  Vec3 translation{};  ///< translation: the displacement at u = 1
  Vec3 center{};       ///< rotation: a point on the axis
  Vec3 axis{};         ///< rotation: the axis direction, any nonzero length
  double tan_half = 0;  ///< rotation: tau, finite or +-infinity (a half turn)

  static RigidMotion translate(Vec3 v) { return {RigidMotionType::translation, v, {}, {}, 0}; }
  static RigidMotion rotate(Vec3 center, Vec3 axis, double tan_half) {
    return {RigidMotionType::rotation, {}, center, axis, tan_half};
  }
  friend bool operator==(const RigidMotion&, const RigidMotion&) = default;
};

/// Largest magnitude of a valid coordinate or motion parameter (see the top).
inline constexpr double kMaxRigidCoordinate = 0x1p60;

/// Whether the motion's parameters lie in the valid domain (see the top).
bool is_valid(const RigidMotion& motion);
/// Whether a point's coordinates do: finite, magnitude <= kMaxRigidCoordinate.
bool in_rigid_domain(const Vec3& p);

/// The relative motion the other way round, exactly: when body B moves by
/// `motion` and body A stays still, A moves by inverse(motion) in the frame
/// of B (x(u) = c + R(u)^T (x - c)): translation -v; rotation about the same
/// center with axis -a and the same tan_half. A query whose second primitive
/// moves is decided this way (rigid_ccd.hpp).
RigidMotion inverse(const RigidMotion& motion);

/// x(u), evaluated in double arithmetic (each operation rounded): for
/// placing a body at the end of a move. Not exact: the kernels and the oracle
/// never use it.
Vec3 apply(const RigidMotion& motion, const Vec3& x, double u);

}  // namespace simdccd
