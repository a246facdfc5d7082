// The judges of conservative advancement (advance.hpp): independent
// references for the ToC of two rigid triangle soups, and a certified
// distance, written without the advancement code (no SSV hierarchy, no
// kernels), so that a bug there cannot hide itself.
//
// - exact_first_contact: pure translation or pure rotation of model a (b
//   still), decided by the exact feature-pair oracle of the rigid family
//   (rigid_oracle.hpp) over every vertex-face and edge-edge pair whose swept
//   boxes meet.
// - certify_separation: any rigid paths (translation and rotation at once):
//   interval arithmetic over time sub-intervals on all triangle pairs.
// - reference_distance: the distance of two posed soups, over all triangle
//   pairs (long double, box-culled), the closest candidates decided in exact
//   rational arithmetic, with a rigorous error bound.
//
// "True" values below are those of real arithmetic on the doubles given: a
// pose's R is used as given (it need not be exactly orthogonal), a path's
// R(t) = Rot(axis, t angle) start.R with the exact sine and cosine.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "simdccd/advance.hpp"

namespace simdccd {

/// The exact first contact of model a, placed at `start` (a pose with the
/// identity rotation, so that its world vertices are body + start.x, rounded
/// once) and moving by `velocity` (translation) or turning by `angle` radians
/// about the unit `axis` through start.x (rotation), against model b placed at
/// `pose_b` (world vertices apply(pose_b, v), rounded once) and still. At most
/// one of velocity / angle is nonzero (neither: contact only if the models
/// touch where they stand); |angle| <= pi (a negative angle turns about
/// -axis). Else, or for a triangle index out of range or a coordinate that is
/// not finite, throws std::invalid_argument.
///
/// The rotation is the oracle's Cayley motion (rigid_motion.hpp) about the
/// same center and axis with tan_half = tan(|angle| / 2) rounded: it turns by
/// |angle| up to rounding (about 1e-16 relative). Models that touch or cross
/// where they start (reference_distance exactly 0) are in contact at 0.
///
/// Broad phase: the move is halved in time (in angle for a rotation) until a
/// piece's feature pairs with meeting swept boxes are few; pieces are taken
/// earliest first, so the oracle sees few pairs past the first contact
/// (tens of milliseconds for 35k-triangle models, more where the models
/// start in near contact under a rotation).
struct ExactContact {
  bool contact = false;
  /// The first contact in the time of advance.hpp's RigidPath (constant
  /// angular velocity): for a translation the oracle's toi_lo (never above
  /// the exact contact); for a rotation 2 atan(u tan(angle / 2)) / angle of
  /// the oracle's Cayley toi_lo u (rounded: about 1e-15 relative; the judge
  /// allows 1e-12). 1 without contact.
  double toc = 1;
  std::uint64_t feature_pairs = 0;  ///< pairs the oracle decided
};
ExactContact exact_first_contact(const TriangleSoup& a, const Vec3& start, const Vec3& velocity,
                                 const Vec3& axis, double angle, const TriangleSoup& b, const Pose& pose_b);

/// A box hierarchy over a soup's triangles in body coordinates, for the
/// references only (independent of the SSV hierarchy of advance.hpp). Build it
/// once to certify or measure one model many times; immutable and shareable
/// across threads.
struct ReferenceTree {
  struct Node {
    Vec3 lo, hi;  ///< the exact box of the vertices of the node's triangles
    /// Leaf (count == 1): `first` is the triangle. Inner node: the children
    /// are `first` and `first + 1`.
    std::uint32_t first = 0, count = 0;
  };
  TriangleSoup soup;
  std::vector<Node> nodes;  ///< node 0 is the root; none for a soup without triangles

  /// Top-down median split of the triangles' centroids along the widest axis.
  /// Throws std::invalid_argument for a triangle index out of range or a
  /// vertex coordinate that is not finite.
  explicit ReferenceTree(TriangleSoup soup);
};

/// Whether the models, a along pa and b along pb, are certainly apart (distance
/// > 0) at every time of [t0, t1]: interval enclosures of the poses over time
/// pieces (outward rounding), the trees' node boxes mapped through them, and
/// a separating-axis test on interval vertices (face normals, edge cross
/// products, in-plane edge normals) for the triangle pairs whose boxes meet.
/// Pieces are halved, earliest first, until certified; one narrower than
/// `min_width` (or the 2^18-th piece: a long graze) that stays uncertified
/// ends the call: false when a contact is certain (an edge of one of its
/// uncertified triangle pairs certainly crosses the other triangle at a
/// probed time s0 + 2^j (s1 - s0) or t1), else nullopt (undecided; a grazing
/// contact is never certain). Throws std::invalid_argument unless t0 <= t1
/// are finite, min_width >= 0 and the paths are finite.
std::optional<bool> certify_separation(const TriangleSoup& a, const RigidPath& pa, const TriangleSoup& b,
                                       const RigidPath& pb, double t0, double t1, double min_width = 1e-9);
/// The same on prebuilt trees (building them is most of a short call's time).
std::optional<bool> certify_separation(const ReferenceTree& a, const RigidPath& pa, const ReferenceTree& b,
                                       const RigidPath& pb, double t0, double t1, double min_width = 1e-9);

/// The distance of a at pose pa and b at pose pb, over all triangle pairs
/// (culled by boxes): long double finds the pairs within a generous bound of
/// its error of the closest, exact rational arithmetic decides among them;
/// `error` bounds |distance - true distance| (the final rounding: 2^-50 of
/// the distance, 0 for touching models).
struct ReferenceDistance {
  double distance = 0;
  double error = 0;
};
ReferenceDistance reference_distance(const TriangleSoup& a, const Pose& pa, const TriangleSoup& b, const Pose& pb);
/// The same on prebuilt trees. An empty model is infinitely far.
ReferenceDistance reference_distance(const ReferenceTree& a, const Pose& pa, const ReferenceTree& b, const Pose& pb);

}  // namespace simdccd
