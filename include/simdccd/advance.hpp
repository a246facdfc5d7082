// Conservative advancement (CA, C2A, HCA) for rigid and articulated polygon
// soups, after Tang, Manocha and Kim, "Hierarchical and Controlled Advancement
// for Continuous Collision Detection of Rigid and Articulated Models" (TVCG).
// docs/advance.md describes the method, the error bounds and the guarantees.
//
// Question: two models move over t in [0, 1]; when do they first come within
// `threshold` of each other? Answer: a time of contact (ToC) that is never
// later than the first time their distance is zero, with the distance at the
// reported ToC at most the threshold (both certified in floating point:
// every distance carries the bound of distance_error()), or "separate" when
// they stay apart over the whole step.
//
// Models are triangle soups: no manifold, orientation or connectivity
// assumption; degenerate triangles are allowed.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "simdccd/pose.hpp"
#include "simdccd/query.hpp"

namespace simdccd {

/// A triangle soup in body coordinates.
struct TriangleSoup {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;
};

/// A node of the swept-sphere-volume hierarchy: the rectangle-swept sphere
/// (PQP's RSS) of the rectangle {center + s u + t v : |s|, |t| <= 1} (u, v
/// orthogonal half-axes, v possibly zero: a line-swept sphere, both zero: a
/// point-swept sphere) and `radius` contains the node's triangles; `reach`
/// bounds the distance of any of its points from the body origin (the motion
/// bound's lever arm).
struct SsvNode {
  Vec3 center, u, v;
  double radius = 0, reach = 0;
  double size = 0;  ///< |u| + |v| + radius: which node of a pair to split first
  /// Inner node: the children's indices; leaf (count == 1): `first` is the
  /// triangle and `second` is unused.
  std::uint32_t first = 0, second = 0;
  std::uint32_t count = 0;  ///< triangles below
};

/// A soup with its hierarchy (built once; immutable and shareable across
/// threads). Node 0 is the root; leaves hold one triangle each.
struct RigidModel {
  TriangleSoup soup;
  std::vector<SsvNode> nodes;
  double reach = 0;  ///< the root's reach
};

/// Builds the hierarchy (top-down median split along the widest principal
/// direction). Throws std::invalid_argument for an empty soup, an index out of
/// range, or a coordinate that is not finite or above 2^60 in magnitude.
RigidModel build_model(TriangleSoup soup);

/// The closest points of two posed models.
struct DistanceResult {
  double distance = 0;  ///< computed |point_b - point_a|; within distance_error() of the true one
  Vec3 point_a{}, point_b{};  ///< world coordinates, on triangle_a and triangle_b
  std::uint32_t triangle_a = 0, triangle_b = 0;  ///< the closest triangle pair (feature ids)
};

/// The distance between model a at pose pa and model b at pose pb. Throws
/// std::invalid_argument for a pose that is not finite, not a rotation (to
/// 2^-46) or translated beyond 2^60, or a pair whose scale (both reaches and
/// both translations) is below 2^-400.
DistanceResult distance(const RigidModel& a, const Pose& pa, const RigidModel& b, const Pose& pb);

/// The absolute bound on the error of every computed distance between models
/// placed with poses whose translations are at most `offset` in magnitude:
/// 2^-40 (reach_a + reach_b + offset) (docs/advance.md derives it).
double distance_error(double reach_a, double reach_b, double offset);

/// The threshold a zero AdvanceOptions::threshold stands for: 10^-3 times
/// the smaller reach.
double default_threshold(const RigidModel& a, const RigidModel& b);

enum class AdvanceMethod : std::uint8_t {
  ca,   ///< plain CA: whole-model distance and motion bound per iteration
  c2a,  ///< controlled: per-pair directional bounds over the hierarchy
  hca,  ///< hierarchical: CA iterated per node pair, culled by the current ToC
};
std::string_view to_string(AdvanceMethod method);
/// The inverse of to_string ("ca", "c2a", "hca"); false if unknown.
bool parse_advance_method(std::string_view name, AdvanceMethod& method);

struct AdvanceOptions {
  AdvanceMethod method = AdvanceMethod::c2a;
  /// Stop when the certified distance is at most this. 0: 10^-3 times the
  /// smallest model reach (articulated: of any link's model). Must exceed 8
  /// distance_error() of the query (of every link pair).
  double threshold = 0;
  /// The paper's control w of C2A and CA, in (0, 1]: while the models are
  /// farther than 8 thresholds, a sweep culls node pairs whose bound is not
  /// below w times the best leaf's and advances by the least bound it kept
  /// (at least w times the best: less work per iteration, more iterations);
  /// 1 near the end.
  double control = 0.3;
  /// Iterations of the outer loop (ca, c2a) or per node pair (hca) before
  /// giving up with `iteration_limit` (the ToC so far is still conservative).
  int max_iterations = 1000;
};

enum class AdvanceStatus : std::uint8_t {
  contact,          ///< within threshold at toc
  separate,         ///< never within zero distance over [0, 1]
  iteration_limit,  ///< gave up at toc (no contact before toc)
  invalid_input,    ///< non-finite pose, path (its axis too, even at angle 0) or joint axis, a threshold, control, iteration cap or method out of range (checked before any pair is culled), or a scale below 2^-400
};
std::string_view to_string(AdvanceStatus status);

struct AdvanceResult {
  AdvanceStatus status = AdvanceStatus::separate;
  double toc = 1;  ///< contact: the ToC; separate: 1
  DistanceResult closest;  ///< at toc (contact, iteration_limit)
  std::uint32_t link_a = 0, link_b = 0;  ///< articulated models: the closest links
  double threshold = 0;  ///< the distance threshold used (options.threshold resolved)
  std::uint32_t iterations = 0;
  std::uint64_t node_pairs = 0, triangle_pairs = 0;  ///< kernel work
};

/// The ToC of model a moving along pa and model b along pb.
AdvanceResult advance(const RigidModel& a, const RigidPath& pa, const RigidModel& b, const RigidPath& pb,
                      const AdvanceOptions& options = {});

/// One query of a batch (the models are not owned).
struct AdvanceQuery {
  const RigidModel* a = nullptr;
  const RigidModel* b = nullptr;
  RigidPath path_a, path_b;
};
/// Independent queries spread over the cores (oneTBB; the caller limits the
/// threads with tbb::global_control). Answers do not depend on the thread
/// count or the target.
std::vector<AdvanceResult> advance_batch(std::span<const AdvanceQuery> queries,
                                         const AdvanceOptions& options = {});

// ---- Articulated models (section 5 of the paper) ----

enum class JointType : std::uint8_t { fixed, revolute, prismatic };

/// A link: its frame is parent_frame * offset * joint(q), where joint(q) turns
/// by q radians about `axis` (revolute) or slides by q along it (prismatic).
/// Links are listed parents first; the root's parent frame is the base pose.
struct Link {
  std::int32_t parent = -1;
  JointType joint = JointType::fixed;
  Pose offset;
  Vec3 axis{0, 0, 1};  ///< unit (a fixed joint: any finite vector), in the offset frame
  std::shared_ptr<const RigidModel> model;  ///< may be null (no geometry)
};

struct ArticulatedModel {
  std::vector<Link> links;
};

/// Joint values interpolated linearly over the step; the base moves along `base`.
struct ArticulatedPath {
  RigidPath base;
  std::vector<double> q0, q1;  ///< one value per link (fixed joints: ignored)
};

/// Each link's frame at time t.
std::vector<Pose> link_poses(const ArticulatedModel& model, const ArticulatedPath& path, double t);

/// The ToC between two articulated models (a rigid model is a one-link
/// articulated model). Link pairs of the same model are not tested.
AdvanceResult advance(const ArticulatedModel& a, const ArticulatedPath& pa, const ArticulatedModel& b,
                      const ArticulatedPath& pb, const AdvanceOptions& options = {});

}  // namespace simdccd
