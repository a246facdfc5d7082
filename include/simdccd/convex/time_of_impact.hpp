// Time of impact (ToI) of two convex shapes (convex/shape.hpp) by
// conservative advancement on GJK (convex/gjk.hpp), a bisection baseline, and
// an exact reference for polytopes and boxes. docs/convex_toi.md derives the
// motion bounds and the rounding allowances.
//
// Guarantee (valid input, status contact, separate or iteration_limit): the
// shapes are apart at every time in [0, toi) of the true motion, so `toi` is
// never later than the first contact:
// - RigidMotion: the true motion is the exact one of rigid_motion.hpp applied
//   to b as posed at pose_b (box and polytope: the convex hull of
//   world_vertices(b, pose_b), the very doubles exact_first_contact moves);
// - RigidPath: the exact path of pose.hpp (exact sine and cosine, the axis
//   normalized) and also the poses pose_at() computes in double at any time
//   (the bound covers both, so sampling pose_at() never finds a contact
//   before toi).
// `separate`: apart over all of [0, 1]. `contact`: at toi the certified
// distance (GJK's lower bound less every rounding allowance) is at most
// threshold * pair size, or the shapes intersect (toi = 0 when they start in
// contact), or no later time can be certified (the certified gap is below
// what the motion may close in an ulp or two of toi: contact to the
// resolution of time, as for two points closing in, whose pair size shrinks
// with their distance). `iteration_limit`: toi is the last time certified so far.
// Each step's allowance for rounding (the posed points against the exact
// motion) is an a-priori bound: 2^-46 (reach + |x| + |v|) for a translation,
// 2^-41 (reach + |x| + |x - c| + |c|) for a rotation about c, 2^-41 (reach
// (1 + angle) + |x| + |v|) per body on a RigidPath, counted twice (docs/convex_toi.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "simdccd/convex/gjk.hpp"
#include "simdccd/convex/shape.hpp"
#include "simdccd/pose.hpp"
#include "simdccd/rigid_motion.hpp"

namespace simdccd::convex {

struct ToiOptions {
  GjkOptions gjk;              ///< the GJK queries' options
  /// Contact is declared when the certified distance is within threshold *
  /// pair size (relative; pair_size() at the current time). Finite, in [0, 1).
  double threshold = 0x1p-20;
  /// Advancement steps (GJK queries) before giving up: status
  /// iteration_limit, toi = the last safe time. At least 1.
  int max_iterations = 1000;
};

/// Options in range (see the fields; gjk by is_valid(GjkOptions)).
bool is_valid(const ToiOptions& options);

enum class ToiStatus : std::uint8_t { separate, contact, iteration_limit, invalid_input };

/// "separate", "contact", "iteration-limit", "invalid-input".
const char* to_string(ToiStatus status);

struct ToiResult {
  ToiStatus status = ToiStatus::invalid_input;
  double toi = 1;              ///< contact: the time reached, never later than the first contact; separate: 1
  std::uint32_t iterations = 0;  ///< GJK queries made (the one at_toi reports included)
  GjkResult at_toi;            ///< GJK at the reported time (closest points, features, separating axis)
};

/// Conservative advancement: shape a stays at pose_a, shape b starts at
/// pose_b and moves by motion_b (rigid_motion.hpp: x(u) for u in [0, 1];
/// toi is in u). Invalid shapes, poses, motion or options, or a motion that
/// may carry b's origin beyond (1 - 2^-40) max_magnitude (a nonzero
/// translation's ends; a rotation's circle about c, |c| + |x_b - c|): the
/// poses computed in double stray from the motion by far less, so none
/// reaches past max_magnitude, where GJK refuses poses: invalid_input, before
/// any step. A query whose every length (sizes,
/// vertices, translations, the motion's displacement or center) lies below
/// 2^-64 runs at the power of two that brings the largest to [1, 2), exactly
/// as GJK runs a tiny pair (gjk.hpp): the motion bounds square lengths, which
/// underflow from about 2^-537 on; the answer's GJK lengths are scaled back.
ToiResult time_of_impact(const ConvexShape& a, const Pose& pose_a, const ConvexShape& b, const Pose& pose_b,
                         const RigidMotion& motion_b, const ToiOptions& options = {});

/// Both bodies move along RigidPaths (pose.hpp, t in [0, 1]). A path is valid
/// when its start is a valid pose, its velocity finite and at most
/// max_magnitude, its start's and end's translations within (1 - 2^-40)
/// max_magnitude when it moves (as above), its angle finite in [0, 2^20],
/// its axis finite, and (angle > 0) unit within 2^-45 in squared norm. Tiny queries
/// run scaled as above (lengths: sizes, vertices, starts and velocities).
ToiResult time_of_impact(const ConvexShape& a, const RigidPath& path_a, const ConvexShape& b, const RigidPath& path_b,
                         const ToiOptions& options = {});

/// Two bodies of a batch, each along its RigidPath: shapes[a] and shapes[b].
struct MovingPair {
  std::uint32_t a = 0, b = 0;
  RigidPath path_a, path_b;
};

/// results[i] = time_of_impact(shapes[pairs[i].a], pairs[i].path_a,
/// shapes[pairs[i].b], pairs[i].path_b, options), the pairs spread over
/// `threads` cores (0 or less: all; above 4096: 4096); the same answers for
/// every count. An index past the shapes gives invalid_input. Throws
/// std::invalid_argument when results is not as long as pairs.
void time_of_impact_batch(std::span<const ConvexShape> shapes, std::span<const MovingPair> pairs,
                          std::span<ToiResult> results, const ToiOptions& options = {}, int threads = 0);

/// The PA199 slides' bisection baseline (same contract: never later than the
/// first contact): halve [lo, hi] by GJK at the midpoint, keeping lo
/// certified free by a motion bound (the midpoint is taken as the new lo when
/// lo's forward bound or the midpoint's backward bound covers [lo, mid]; a
/// midpoint within the threshold becomes hi).
ToiResult time_of_impact_bisection(const ConvexShape& a, const Pose& pose_a, const ConvexShape& b, const Pose& pose_b,
                                   const RigidMotion& motion_b, const ToiOptions& options = {});

/// The time tolerance exact_first_contact runs the rigid kernels with.
inline constexpr double exact_contact_time_tolerance = 0x1p-30;

/// The exact first contact of two polytopes or boxes: a (the convex hull of
/// world_vertices(a, pose_a)) still, b (the hull of world_vertices(b,
/// pose_b)) moved by motion_b in exact arithmetic. u* is the least u in
/// [0, 1] where the closed hulls share a point. Returns nullopt when there is
/// none; 0 when they intersect at u = 0 (exact_intersecting); otherwise the
/// fraction of PolyhedraScene::trace (polyhedra.hpp) of the hulls' boundary
/// triangles (exact_hull_triangles) in exact mode with plain contact
/// (expel 0) and time_tolerance exact_contact_time_tolerance, which certifies
///   u* - exact_contact_time_tolerance <= fraction <= u*.
/// Throws std::invalid_argument for a shape that is not a box or polytope,
/// invalid shapes, poses or motion, or a polytope over exact_max_points
/// vertices (convex/exact_distance.hpp).
std::optional<double> exact_first_contact(const ConvexShape& a, const Pose& pose_a, const ConvexShape& b,
                                          const Pose& pose_b, const RigidMotion& motion_b);

}  // namespace simdccd::convex
