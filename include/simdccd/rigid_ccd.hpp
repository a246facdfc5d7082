// Batched CCD of rigid motions (translation, rotation; rigid_motion.hpp): the
// vectorized kernels, for vertex-face and edge-edge queries where one
// primitive moves rigidly and the other stays still.
//
// A query is four points at u = 0 (VF: v, f0, f1, f2; EE: a0, a1, b0, b1),
// which primitive moves (`Mover`), and the motion. A query whose second
// primitive moves is decided in the frame of that primitive: the first moves
// by inverse(motion) relative to it (rigid_motion.hpp), which changes no
// contact. Below, "the vertex" or "edge a" moves and the other primitive is
// still, in that frame.
//
// Contact rules. RigidOptions::expel = e >= 0 picks them:
// - e = 0, plain contact: the query collides when for some u in [0, 1] the
//   closed primitives (point and closed triangle; two closed segments) share a
//   point; toi is the least such u. The definition of the linear model
//   (linear_ccd.hpp): a translation query and the linear query with the same
//   end points have the same answer.
// - e > 0, the expel zone of van Waveren's report: a body collides with the
//   other's surface pushed out by e, and a feature already inside that zone
//   may move away from the surface but not deeper. The query collides when
//   the set of "contact" parameters below is not empty, and toi is its
//   infimum (the least element, except when the contact begins right after a
//   parameter where the vertex's motion is parallel to the face).
//   - VF, with the face's front on the side n = (f1 - f0) x (f2 - f0) points
//     to (counter-clockwise seen from the front): let h(u) be the vertex's
//     signed distance from the face's plane (positive in front) and d(u) its
//     velocity dx/du. The vertex contacts the face at u when h(u) >= 0, the
//     vertex lies within e of the closed triangle (Euclidean distance), h is
//     strictly decreasing right after u (h(u') < h(u) for all u' in some
//     (u, u + delta)), and the ray from the vertex along d(u) meets the
//     closed triangle. For a translation that ray is the line of the whole
//     move (Pluecker sidedness of the vertex's path against the face's
//     edges), so the vertex stops where it first comes within e of the plane
//     on its way through the face (or, at a grazing angle, within e of the
//     face); for a rotation it is the tangent of the vertex's arc. The ray
//     keeps a vertex that slides past an edge, its path missing the face,
//     from catching on it; the distance keeps contacts near the face, so a
//     broad phase may drop any pair farther apart than e.
//     Consequences: only front faces collide (a vertex behind the plane, or
//     moving away from it, never contacts); a vertex that starts inside the
//     zone moving away is free, and a rotation lets it turn until its
//     greatest distance (where h starts to decrease) or until it re-enters
//     the zone; one that starts inside moving deeper contacts at u = 0. A
//     degenerate face (n = 0) has no front: no contact.
//   - EE: let m(u) = (a1 - a0) x (b1 - b0) and, where m != 0, g(u) the
//     distance between the edges' supporting lines. The edges contact at u
//     when m(u) != 0, g(u) <= e, the closest points of the two lines lie on
//     both closed segments, and g is strictly decreasing right after u. Both
//     sides of an edge count (an edge has no front). Parallel edges never
//     contact: the vertex-face queries of their endpoints cover them. Edges
//     that start crossing (g(0) = 0) cannot move closer, so they are free.
//   These rules keep every vertex of a closed polyhedron out of another
//   (polyhedra.hpp): a vertex crossing a face from the front passes through
//   the zone moving deeper, through the face.
//
// Guarantees, for valid input (rigid_motion.hpp: coordinates and motion
// parameters of magnitude <= 2^60; e finite, 0 <= e <= 2^60):
// - Mode::conservative: never a false negative. A hit's `toi` is <= the exact
//   toi. Queries the kernel cannot certify (status `uncertain`) count as hits
//   with a certified lower bound of the toi; only they can be false
//   positives.
// - Mode::exact: every `hit` equals the exact oracle's (rigid_oracle.hpp).
//   Certified hits have toi* - time_tolerance <= toi <= toi*; uncertain
//   queries are decided by the oracle (status `exact`, toi = its toi_lo).
// - Mode::oracle: every query decided by the oracle.
// Invalid input gets status `invalid_input`, hit 0, toi +infinity, and is
// counted in BatchStats::invalid; so does every query of a batch whose
// RigidOptions are not valid (rigid::valid_options: the mode and
// time_tolerance of valid_options, options.hpp, and e in [0, 2^60]). Answers are bit-identical on every
// implementation (targets.hpp) and thread count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "simdccd/linear_ccd.hpp"
#include "simdccd/options.hpp"
#include "simdccd/query.hpp"
#include "simdccd/rigid_motion.hpp"

namespace simdccd {

/// Which primitive of a query moves; the other stays where it is at u = 0.
enum class Mover : std::uint8_t {
  first = 0,   ///< VF: the vertex; EE: edge a
  second = 1,  ///< VF: the face; EE: edge b
};

/// One query (see the top).
struct RigidQuery {
  std::array<Vec3, 4> points{};  ///< at u = 0: VF v, f0, f1, f2; EE a0, a1, b0, b1
  Mover mover = Mover::first;
  RigidMotion motion;
  friend bool operator==(const RigidQuery&, const RigidQuery&) = default;
};

/// The same query in the frame of the still primitive: `mover` first, the
/// motion inverted when the second primitive moved (rigid_motion.hpp).
RigidQuery relative_to_still(const RigidQuery& q);

/// True when the points and the motion lie in the valid domain (see the top).
bool is_valid(const RigidQuery& q);

struct RigidOptions {
  Mode mode = Mode::exact;  ///< as Options::mode (options.hpp)
  /// Width (in u) of the bracket to which the kernels refine a contact; as
  /// Options::time_tolerance, >= 0, +infinity included.
  double time_tolerance = 1e-9;
  /// The expel zone's thickness e (see the top); 0: plain contact. Finite,
  /// 0 <= e <= 2^60, else every query is invalid input.
  double expel = 0;
};

/// Queries as structure of arrays, one motion type for the batch:
/// `coord[3 * point + axis]` for the four points at u = 0 (RigidQuery order);
/// `param` per query: translation: [0..2] the translation x, y, z; rotation:
/// [0..2] the center, [3..5] the axis, [6] tan_half (unused entries may be
/// null); `mover` per query: 0 first, 1 second (null: all first; any other
/// byte: invalid input). No alignment or padding is required.
struct RigidSoaQueries {
  QueryType type = QueryType::vertex_face;
  RigidMotionType motion = RigidMotionType::translation;
  std::size_t count = 0;
  std::array<const double*, 12> coord{};
  std::array<const double*, 7> param{};
  const std::uint8_t* mover = nullptr;
};

/// Queries by index into two bodies, the way a rigid-body engine holds them:
/// a moving body and a still one (vertex positions at u = 0, triangles, edges
/// as vertex index pairs), one motion for the whole batch, and candidate
/// pairs (first primitive, second primitive): VF (vertex, face), EE (edge,
/// edge). With `mover` first (the default, or `mover` null) the first index is
/// the moving body's and the second the still body's; with `mover` second the
/// other way round (a vertex of the still body against a face of the moving
/// one). An index out of range makes its pair invalid input.
struct RigidIndexedQueries {
  QueryType type = QueryType::vertex_face;
  RigidMotion motion;
  std::span<const Vec3> moving_vertices, still_vertices;
  std::span<const std::array<std::int32_t, 3>> moving_faces, still_faces;
  std::span<const std::array<std::int32_t, 2>> moving_edges, still_edges;
  std::span<const std::array<std::int32_t, 2>> pairs;
  const std::uint8_t* mover = nullptr;  ///< per pair: 0 first, 1 second, else invalid input; null: all first
  std::size_t count() const { return pairs.size(); }
};

/// Decides queries [begin, end) on the calling thread, writing entries
/// [begin, end) of `out`. Thread-safe on disjoint ranges.
BatchStats rigid_ccd(const RigidSoaQueries& queries, const RigidOptions& options,
                     const BatchResults& out, std::size_t begin, std::size_t end);
BatchStats rigid_ccd(const RigidIndexedQueries& queries, const RigidOptions& options,
                     const BatchResults& out, std::size_t begin, std::size_t end);

/// The whole batch over cores with oneTBB. Same answers as one thread.
BatchStats rigid_ccd_parallel(const RigidSoaQueries& queries, const RigidOptions& options,
                              const BatchResults& out, const ParallelOptions& parallel = {});
BatchStats rigid_ccd_parallel(const RigidIndexedQueries& queries, const RigidOptions& options,
                              const BatchResults& out, const ParallelOptions& parallel = {});

}  // namespace simdccd
