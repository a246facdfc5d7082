// Continuous collision of polyhedra under one rigid motion (van Waveren's
// trace): one moving polyhedron against still ones, translation or rotation
// (rigid_motion.hpp), first contact and contact points, decided by the rigid
// kernels (rigid_ccd.hpp) on every feature pair a broad phase keeps.
//
// A polyhedron is a triangle mesh, closed or not: a single polygon (its
// triangles), a set of points (vertices, no triangles) or a solid. Triangles
// are counter-clockwise seen from outside (their front, rigid_ccd.hpp), which
// the expel zone needs; plain contact (expel 0) ignores orientation.
//
// Feature pairs, for a move of body M against still bodies S:
// - vertex-face: a vertex of M against a triangle of S (Mover::first);
// - face-vertex: a triangle of M against a vertex of S (Mover::second: the
//   vertex of the still body meets a face of the moving one);
// - edge-edge: an edge of M against an edge of S. An edge of a flat polygon
//   (its two triangles exactly coplanar and consistently oriented: van
//   Waveren's internal edge) is skipped: for bodies apart at the start and
//   plain contact, any contact through it is first one with a vertex or a
//   boundary edge. (Not so for bodies that overlap at the start, nor within
//   an expel zone, where an internal edge can come within e first: the
//   answer is then the first contact of the other feature pairs, which is
//   what van Waveren's rules define.) Dangling edges (one triangle)
//   and sharp edges need no special case: the edge-edge zone is the rounded
//   region about the edge (rigid_ccd.hpp), with no edge normal to choose.
// Broad phase: each moving feature's swept box (a translation: the box of
// both ends; a rotation: the box of its vertices at both ends widened by the
// arc's sagitta, the largest distance of an arc from its chord) against the
// still features' boxes widened by the expel zone, by one sort and sweep.
// Back-face culling (expel zone only; plain contact is two-sided): a
// translation drops the vertex-face pairs whose face the relative motion does
// not approach (n.v >= 0, certified in floating point); a rotation drops the
// still faces whose plane has the whole swept ball of the moving body behind it.
// Every pair left goes to the kernels; culling only skips pairs the rules
// could not let touch.
//
// Exact mode decides the pairs in the kernels' conservative mode first, then
// asks the exact oracle about the uncertain pairs in order of their toi
// bounds, only while a bound is not above every contact found so far
// (certified ones plus the time tolerance): the others cannot come first, so
// the answer is that of deciding every pair in exact mode, at a fraction of
// the oracle calls (van Waveren's trace shrinks its fraction likewise).
//
// Determinism: the same result for any thread count and implementation: the
// kernels' answers are, and the first contact is the least toi, ties broken
// by (kind, body, moving feature, still feature).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "simdccd/linear_ccd.hpp"
#include "simdccd/mesh.hpp"
#include "simdccd/query.hpp"
#include "simdccd/rigid_ccd.hpp"
#include "simdccd/rigid_motion.hpp"

namespace simdccd {

struct Polyhedron {
  std::vector<Vec3> vertices;
  std::vector<Triangle> triangles;  ///< counter-clockwise seen from the front (outside)
};

/// The undirected edges (a, b), a < b, of a polyhedron's triangles, and
/// whether each is internal (see the top). The edge indices of ContactFeatures.
struct PolyhedronEdges {
  std::vector<Edge> edges;
  std::vector<std::uint8_t> internal;
};
/// Throws std::invalid_argument for a triangle index out of range or a
/// coordinate that is not finite.
PolyhedronEdges polyhedron_edges(const Polyhedron& body);

/// Which features touch (see the top).
enum class ContactKind : std::uint8_t { vertex_face, face_vertex, edge_edge };

/// "vertex-face", "face-vertex", "edge-edge".
const char* to_string(ContactKind kind);

struct PolyhedronContact {
  ContactKind kind = ContactKind::vertex_face;
  std::int32_t body = -1;            ///< the still body (PolyhedraScene::add order)
  std::int32_t moving_feature = -1;  ///< vertex, triangle or edge index in the moving body
  std::int32_t still_feature = -1;   ///< triangle, vertex or edge index in the still body
  /// First contact: the pair's toi (a lower bound, rigid_ccd.hpp). Contact
  /// points: the end of the move.
  double fraction = 1;
  Status status = Status::certified;
  /// Unit normal of the contact plane, from the still body towards the moving
  /// one, at `fraction`: the still face's normal (vertex-face), the moving
  /// face's normal reversed (face-vertex), or the edges' cross product turned
  /// towards the moving edge (edge-edge; for parallel edges the direction
  /// between their closest points).
  Vec3 normal{};
  /// The contact point at `fraction`: the vertex (vertex-face: the moving
  /// vertex; face-vertex: the still one), or for edge-edge the closest point
  /// of the still edge's line to the moving one's.
  Vec3 point{};
};

struct TraceOptions {
  RigidOptions narrow;       ///< mode, tolerance and expel zone e of the kernels
  int threads = 0;           ///< 0: all cores; above 4096: 4096
  bool contact_points = false;  ///< also gather the contacts within e at the end
};

struct Trace {
  /// A feature pair touches during the move (under the rules of
  /// narrow.expel). `fraction` is then the first contact's toi: stopping
  /// there (rigid_motion.hpp apply) leaves the bodies apart; else 1.
  bool hit = false;
  double fraction = 1;
  PolyhedronContact first;  ///< the first contact, when hit
  /// With contact_points: every feature pair within e of each other at the
  /// end of the move (evaluated in floating point at `fraction`, with a
  /// relative slack of 2^-20 on e), in (kind, body, moving, still) order.
  std::vector<PolyhedronContact> contacts;
  std::size_t pairs = 0;   ///< feature pairs the kernels decided
  std::size_t culled = 0;  ///< vertex-face and face-vertex pairs back-face culling dropped
  std::size_t oracle = 0;  ///< exact mode: uncertain pairs the oracle decided (see the top)
  BatchStats stats;        ///< the kernels' counts over all pairs (conservative mode)
};

/// Still bodies, with their features and boxes prepared once, traced
/// against by any number of moving bodies.
class PolyhedraScene {
 public:
  /// Adds a still body; returns its index. Throws std::invalid_argument for a
  /// triangle index out of range or a vertex out of in_rigid_domain (a
  /// coordinate that is not finite or beyond kMaxRigidCoordinate = 2^60).
  std::int32_t add(Polyhedron body);
  std::size_t size() const { return bodies_.size(); }
  const Polyhedron& body(std::int32_t i) const { return bodies_[i].shape; }

  /// Moves `moving` (its vertices at u = 0) by `motion` against every still
  /// body. Thread-safe (const). An invalid motion (is_valid(RigidMotion)),
  /// narrow options that are not rigid::valid_options (a mode outside the
  /// enum, a negative or NaN time_tolerance, an expel outside [0, 2^60]) or
  /// a vertex of `moving` out of in_rigid_domain decides nothing: hit false,
  /// fraction 1, no pairs, first.status invalid_input and stats.invalid 1.
  /// Throws std::invalid_argument for a triangle index of `moving` out of range.
  Trace trace(const Polyhedron& moving, const RigidMotion& motion, const TraceOptions& options = {}) const;

 private:
  struct Body {
    Polyhedron shape;
    PolyhedronEdges edges;
  };
  /// The query of a feature pair (a hit's features).
  RigidQuery query_of(const PolyhedronContact& c, const Polyhedron& moving, const PolyhedronEdges& moving_edges,
                      const RigidMotion& motion) const;
  /// Exact mode: the oracle decides the uncertain hits that can still be the
  /// first contact; the others, and the oracle's misses, are dropped.
  /// Returns how many it sent to the oracle.
  std::size_t decide_uncertain(std::vector<PolyhedronContact>& hits, const Polyhedron& moving,
                               const PolyhedronEdges& moving_edges, const RigidMotion& motion,
                               const TraceOptions& options) const;
  std::vector<Body> bodies_;
};

/// The moving body at fraction u of the move (rigid_motion.hpp apply on every vertex).
Polyhedron moved(const Polyhedron& body, const RigidMotion& motion, double u);

}  // namespace simdccd
