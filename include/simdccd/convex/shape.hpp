// Convex shapes in body coordinates, their support functions (in body space
// and posed in the world) and the ids of their features, for GJK
// (convex/gjk.hpp). docs/convex.md describes them.
//
// The names live in simdccd::convex: box() and the like would clash with the
// triangle-soup builders of advance_scenes.hpp and shapes.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "simdccd/pose.hpp"
#include "simdccd/query.hpp"

namespace simdccd::convex {

enum class ShapeKind : std::uint8_t {
  sphere,    ///< the ball of `radius` about the origin
  box,       ///< [-half, +half] on each axis
  capsule,   ///< the segment from -half_height z to +half_height z swept by a ball of `radius`
  cylinder,  ///< radius `radius` about the z axis, z in [-half_height, +half_height]
  polytope,  ///< the convex hull of `vertices` (no faces needed)
};

/// The most vertices a polytope may have: feature ids pack vertex indices in
/// 21-bit fields.
inline constexpr std::size_t max_polytope_vertices = std::size_t{1} << 20;
/// The largest size or coordinate magnitude accepted (shapes and poses).
inline constexpr double max_magnitude = 0x1p60;

/// A convex shape in body coordinates: plain data, built by the factories
/// below; only the fields of its kind are read.
struct ConvexShape {
  ShapeKind kind = ShapeKind::sphere;
  double radius = 0;           ///< sphere, capsule, cylinder
  double half_height = 0;      ///< capsule, cylinder (along body z)
  Vec3 half{};                 ///< box: half extents
  std::vector<Vec3> vertices;  ///< polytope
};

ConvexShape sphere(double radius);
ConvexShape box(const Vec3& half_extents);
ConvexShape capsule(double radius, double half_height);
ConvexShape cylinder(double radius, double half_height);
ConvexShape polytope(std::vector<Vec3> vertices);

/// Sizes finite, positive and at most max_magnitude; a polytope has 1 to
/// max_polytope_vertices vertices, each coordinate finite and at most
/// max_magnitude in magnitude; the kind is one of ShapeKind's.
bool is_valid(const ConvexShape& shape);

/// A pose gjk() accepts: R finite with rows of unit length and orthogonal
/// within 2^-46 and det R > 0 (a rotation to that accuracy), x finite and at
/// most max_magnitude in norm.
bool is_valid(const Pose& pose);

/// The largest distance of a point of the shape from its body origin
/// (sphere r; box |half|; capsule r + h; cylinder sqrt(r^2 + h^2);
/// polytope max |v|), in double.
double reach(const ConvexShape& shape);

/// Box vertex `index` (0..7): bit i of the index picks +half on axis i
/// (x, y, z for i = 0, 1, 2), a clear bit -half. Vertex 0 is -half.
Vec3 box_vertex(const Vec3& half, std::uint32_t index);

/// Box and polytope: the body vertices (box in box_vertex order, polytope
/// as given); other kinds: empty.
std::vector<Vec3> body_vertices(const ConvexShape& shape);

/// Box and polytope: exactly apply(pose, v) for each body vertex v in
/// body_vertices() order; the posed support points are these very doubles, so
/// an exact judge can take the convex hull of these points as the shape.
/// Other kinds: empty.
std::vector<Vec3> world_vertices(const ConvexShape& shape, const Pose& pose);
/// The core GJK runs a shape as, in the world, with core_radius() swept
/// around it (gjk.hpp's guarantee measures from these): sphere: {pose.x};
/// capsule: its segment's ends apply(pose, -h z), apply(pose, +h z), the very
/// doubles of GJK's support points; box and polytope: world_vertices().
/// Cylinder: empty (its core is curved; no exact judge takes it).
std::vector<Vec3> world_core(const ConvexShape& shape, const Pose& pose);
/// The radius swept around the core: sphere and capsule `radius`, others 0.
double core_radius(const ConvexShape& shape);

/// No vertex: a cylinder's support point (see SupportPoint::vertex).
inline constexpr std::uint32_t no_vertex = 0xFFFFFFFFu;

/// A point of the shape farthest along a direction, and which vertex it is.
struct SupportPoint {
  Vec3 point{};
  /// box, polytope: the vertex index; ties (several vertices equally far in
  /// double) go to the lowest index (for a box: a zero direction component
  /// picks -half on that axis). capsule: 0 when the point is on the
  /// hemisphere about -h z (direction z <= 0), 1 about +h z; sphere: 0;
  /// cylinder: no_vertex.
  std::uint32_t vertex = 0;
};

/// The support point in body space: a point of the shape maximizing d . p
/// (d need not be unit). Sphere: r d/|d|; box: sign(d_i) half_i; capsule:
/// the sphere's about the end (0, 0, sign(d_z) h) with sign(0) = -1;
/// cylinder (the PA199 slides): r d_xy/|d_xy| + sign(d_z) h z, the xy part 0
/// when d_xy = 0 and sign(0) = 0; polytope: the vertex of largest d . v.
/// d = 0: the sphere's and cylinder's center, capsule (0, 0, -h), box and
/// polytope vertex 0. A polytope without vertices (invalid): the origin.
/// A linear scan over a polytope's vertices.
SupportPoint support(const ConvexShape& shape, const Vec3& d);

/// The support point of the posed shape, R S(R^T d) + x. Box and polytope:
/// exactly apply(pose, v) of the chosen body vertex v.
SupportPoint support(const ConvexShape& shape, const Pose& pose, const Vec3& d);

// ---- Feature ids ----

enum class FeatureType : std::uint8_t { vertex, edge, face };

/// A feature of a shape, the closest features GJK reports:
/// - box and polytope: vertex: its index; edge: its two vertex indices
///   lo | hi << 21 with lo < hi; face: three vertex indices a < b < c packed
///   a | b << 21 | c << 42. A polytope's edge or face is that of the final
///   GJK simplex (two or three of its vertices; on a face of more than three
///   vertices, any three of them, or a diagonal for an edge). A box's is the
///   smallest box face (vertex, edge or face) holding the simplex's vertices,
///   named by its lowest vertices: an edge by its two vertices, a face by
///   its three lowest vertex indices.
/// - sphere: face 0 (the whole surface).
/// - capsule: vertex 0 / 1: the hemisphere about -h z / +h z; edge 0: the
///   cylindrical side.
/// - cylinder: face 0 / 1: the cap at z = -h / +h; face 2: the side; edge
///   0 / 1: the rim circle at z = -h / +h.
struct FeatureId {
  FeatureType type = FeatureType::vertex;
  std::uint64_t index = 0;
  friend bool operator==(const FeatureId&, const FeatureId&) = default;
};

/// The edge id of box or polytope vertices i != j.
std::uint64_t edge_index(std::uint32_t i, std::uint32_t j);
/// The face id of box or polytope vertices i, j, k (distinct, any order).
std::uint64_t face_index(std::uint32_t i, std::uint32_t j, std::uint32_t k);

struct FeatureIdHash {
  std::size_t operator()(const FeatureId& f) const noexcept;
};

}  // namespace simdccd::convex

template <>
struct std::hash<simdccd::convex::FeatureId> {
  std::size_t operator()(const simdccd::convex::FeatureId& f) const noexcept {
    return simdccd::convex::FeatureIdHash{}(f);
  }
};
