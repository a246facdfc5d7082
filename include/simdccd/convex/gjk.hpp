// GJK (Gilbert, Johnson and Keerthi) in van den Bergen's form: the distance
// and the closest points of two posed convex shapes (convex/shape.hpp), or
// that they intersect, from support points of their Minkowski difference
// A - B alone (never built). docs/convex.md describes the choices.
//
// Guarantee. Let D be the exact distance between the posed shapes (box and
// polytope: the convex hulls of world_vertices(), the very doubles GJK uses;
// sphere and capsule: the ball or segment about apply(pose, core) of the
// exact radius; cylinder: {apply(pose, p)} over the body cylinder in exact
// arithmetic) and tau = GjkResult::tolerance = gjk_tolerance(options,
// pair_size(a, pa, b, pb), |pa.x| + |pb.x|), that is options.tolerance times
// reach(a) + reach(b) + |pa.x - pb.x|, plus 2^-40 (|pa.x| + |pb.x|) for the
// rounding of world points far from the origin (a pair at 2^30 is posed to
// about 2^-22). A pair whose sizes, body vertices and translations all lie
// below 2^-64 in magnitude runs at 2^k times its size, the exact power of two
// that brings the largest to [1, 2) (the kernel's products of up to six
// lengths would underflow from about 2^-170 on): tau is then the scaled
// pair's, and the answer's lengths are scaled back. A pair whose every size,
// body vertex and translation lies below 2^-960 (not all 0) is invalid: its
// world points would round on the subnormal grid, which scaling cannot undo.
// Then for every valid result:
//   1. intersecting  =>  D <= tau;
//   2. not intersecting  =>  lower_bound - tau/16 <= D <= distance + tau/16;
//   3. converged and not intersecting  =>  D >= distance - tau/4 - tau/16 > 0,
//      so |distance - D| <= tau, and in particular
//   4. converged and D = 0  =>  intersecting;
//   5. D = 0  =>  intersecting, for every pair without a cylinder: where
//      GJK ends short of the termination test (the iteration cap, or a
//      stall on rounding, as on the sliver faces of very thin shapes) with a
//      lower bound that leaves |v| <= margin + tau/2 possible, the exact
//      distance of the cores (exact_gjk.hpp, any number of vertices) decides
//      (intersecting and converged when it is at most margin + tau/2; else
//      the answer stays).
// So: D > tau gives "separate" always; D = 0 gives "intersecting" always
// but for a cylinder that stalls (docs/convex.md, "Thin shapes"); in the
// band 0 < D <= tau either answer
// may come. tau/16 bounds the rounding of the supports, of
// the closest point of the simplex and of the lower bound (every
// computation is a few roundings of magnitude at most the pair size, or of
// the poses' translations, and tau/16 >= 2^-40 pair size + 2^-44 (|pa.x| +
// |pb.x|)). The upper bound holds because v is a convex
// combination of support points (or their plane's projection of the
// origin); the lower bound because every plane normal to a v through the
// support point S(-v) bounds all of A - B, whatever the accuracy of v.
// Closest points: point_a - point_b is the final v, so |point_b - point_a|
// is the distance (up to tau; on a blunt triangle each point is moved by
// half the rounding of its weights, which v's projection does not share); on
// curved surfaces (cylinder side and rims) the points themselves are only
// accurate to about sqrt(tau * size), the distance being stationary there.
#pragma once

#include <array>
#include <cstdint>

#include "simdccd/convex/shape.hpp"
#include "simdccd/pose.hpp"
#include "simdccd/query.hpp"

namespace simdccd::convex {

struct GjkOptions {
  /// The tolerance relative to the pair size (gjk_tolerance()); at least
  /// 2^-36 (so that tau/16 >= 2^-40 size, well above the rounding) and below 1.
  double tolerance = 0x1p-30;
  /// Support evaluations before giving up (converged = false). A pair
  /// that reaches the cap with contact still possible is settled by exact
  /// GJK (rule 5), which costs far more than iterations: a low cap buys no
  /// speed.
  int max_iterations = 128;
  /// An intersection test only: stop as soon as a plane holds the shapes
  /// more than 5 tau/8 apart (then D > tau/2: not intersecting, converged
  /// false, distance and lower_bound only the bounds reached so far). The
  /// first such plane tried lies between the bounding spheres (radius
  /// reach() about pa.x and pb.x): where they are that far apart the answer
  /// comes with no support point (iterations 0, lower_bound the spheres'
  /// gap, distance |pa.x - pb.x| + reach(a) + reach(b), separating_axis
  /// along pb.x - pa.x, no closest points or features). The intersecting
  /// flag is always the distance query's: such a pair's distance can never
  /// fall to the intersection threshold.
  bool intersection_only = false;
};

/// Options in range: tolerance in [2^-36, 1), max_iterations >= 1.
bool is_valid(const GjkOptions& options);

/// The size of a pair: reach(a) + reach(b) + |pa.x - pb.x|, which bounds the
/// norm of every point of the Minkowski difference.
double pair_size(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb);

/// tau = options.tolerance * size + 2^-40 offset, with offset = |pa.x| +
/// |pb.x|: the band of the guarantee above.
double gjk_tolerance(const GjkOptions& options, double size, double offset);

/// What a next call on a coherent frame can start from (GjkResult::warm).
struct GjkWarmStart {
  /// The last direction v = point_a - point_b of the cores (zero: none, as
  /// after an intersecting answer: the next call starts cold).
  Vec3 direction{};
  /// The final simplex as support vertex ids on a and b (SupportPoint::vertex
  /// of the cores: sphere 0, capsule end 0 / 1, box and polytope vertex);
  /// count = 0 when a shape has no vertex ids (cylinder). Ids out of range
  /// for the shapes of the next call are ignored (the direction is used).
  std::uint8_t count = 0;
  std::array<std::uint32_t, 4> vertex_a{}, vertex_b{};
};

struct GjkResult {
  bool valid = false;         ///< false: a shape, pose or option out of range; nothing else is set
  bool intersecting = false;  ///< see the guarantee; distance = 0 then
  /// The termination test was met (not the iteration cap or a stall), or
  /// exact GJK settled a stall as a contact (rule 5).
  bool converged = false;
  double distance = 0;        ///< |v| less the radii: an upper bound of D (up to tau/16)
  double lower_bound = 0;     ///< the best v . w / |v| less the radii, at least 0: a lower bound of D
  double tolerance = 0;       ///< tau
  /// When lower_bound > 0: the unit vector u (from a toward b) of the plane
  /// that certifies it, min over b of u . p - max over a of u . p >=
  /// lower_bound (up to tau/16); else zero.
  Vec3 separating_axis{};
  /// Closest points in world coordinates, on a and on b (intersecting: a
  /// common point of the cores pushed out by the radii, meaningful only as a
  /// witness; a contact exact GJK settled keeps the stalled simplex's
  /// closest points, near the contact).
  Vec3 point_a{}, point_b{};
  /// The closest features (shape.hpp's ids; from the final simplex for box,
  /// polytope and capsule, from the closest point for cylinder).
  FeatureId feature_a{}, feature_b{};
  std::uint32_t iterations = 0;  ///< support evaluations of A - B
  GjkWarmStart warm{};
};

/// a and b are the same answer: every field equal, doubles bit for bit (what
/// gjk_batch() on any target and thread count gives against gjk()).
bool identical(const GjkResult& a, const GjkResult& b);

/// The distance of shape a at pose pa and shape b at pose pb, or that they
/// intersect. `warm`: the previous frame's result.warm (may be null).
/// Sphere and capsule run as their core point and segment with the radius
/// added back at the end. Deterministic (same answer, bit for bit, on every
/// machine with IEEE doubles and no contraction). No allocation, but where
/// rule 5 settles a stall: exact GJK allocates (and may throw
/// std::bad_alloc) and takes about 0.1 to 0.5 ms (up to hundreds of
/// vertices; docs/convex_exact.md).
GjkResult gjk(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb,
              const GjkOptions& options = {}, const GjkWarmStart* warm = nullptr);

}  // namespace simdccd::convex
