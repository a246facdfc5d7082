// Polyhedra against polyhedra under one rigid motion (include/simdccd/polyhedra.hpp).
#include "simdccd/polyhedra.hpp"

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "simdccd/broad_phase.hpp"
#include "simdccd/rigid/tile_io.hpp"
#include "simdccd/rigid_oracle.hpp"
#include "common/arena.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Added to the bounds below: their relative terms do not cover the rounding
/// of tiny coordinates, whose every operation may lose up to half the
/// smallest subnormal, 2^-1075 (64 of them here).
constexpr double kSubnormalSlack = 0x1p-1068;

Vec3 abs(const Vec3& a) { return {std::abs(a.x), std::abs(a.y), std::abs(a.z)}; }
Vec3 unit(const Vec3& a) {
  const Vec3 b = near_one(a);  // a tiny normal's square would underflow
  const double n = norm(b);
  return n > 0 ? (1 / n) * b : Vec3{};
}
double at(const Vec3& a, int axis) { return axis == 0 ? a.x : axis == 1 ? a.y : a.z; }

/// The normal (f1 - f0) x (f2 - f0) of a triangle, and its permanent (the
/// cross product with every product added: p1.y p2.z + p1.z p2.y, ..., of p1
/// = |f1| + |f0| and p2 = |f2| + |f0|, which bounds each product the normal
/// sums), both times one power of two: the one that brings p1 and p2 to
/// [1, 2) each, so that a tiny triangle's products neither underflow (at
/// 2^-540 they would be 0). Every sign and comparison of the two is that of
/// the unscaled ones, and so is the direction.
Vec3 normal_of(const Polyhedron& body, const Triangle& t, Vec3* permanent = nullptr) {
  const Vec3& f0 = body.vertices[t[0]];
  const Vec3 p1 = abs(body.vertices[t[1]]) + abs(f0), p2 = abs(body.vertices[t[2]]) + abs(f0);
  const int k1 = unit_exponent(p1), k2 = unit_exponent(p2);
  if (permanent != nullptr) {
    const Vec3 a = ldexp(p1, k1), b = ldexp(p2, k2);
    *permanent = {a.y * b.z + a.z * b.y, a.z * b.x + a.x * b.z, a.x * b.y + a.y * b.x};
  }
  return cross(ldexp(body.vertices[t[1]] - f0, k1), ldexp(body.vertices[t[2]] - f0, k2));
}

/// Exact: whether the edge (a, b) shared by triangles with third vertices c
/// and d, oriented oppositely along it, is internal: c and d coplanar with
/// the edge and on opposite sides of it.
bool flat_edge(const Polyhedron& body, std::int32_t a, std::int32_t b, std::int32_t c, std::int32_t d) {
  using Q = std::array<mpq_class, 3>;
  const auto q = [&](std::int32_t i) {
    const Vec3& v = body.vertices[i];
    return Q{mpq_class(v.x), mpq_class(v.y), mpq_class(v.z)};
  };
  const auto minus = [](const Q& x, const Q& y) { return Q{x[0] - y[0], x[1] - y[1], x[2] - y[2]}; };
  const auto cross_q = [](const Q& x, const Q& y) {
    return Q{x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
  };
  const auto dot_q = [](const Q& x, const Q& y) { return mpq_class(x[0] * y[0] + x[1] * y[1] + x[2] * y[2]); };
  const Q qa = q(a), e = minus(q(b), qa);
  const Q nc = cross_q(e, minus(q(c), qa)), nd = cross_q(e, minus(q(d), qa));
  if (sgn(dot_q(nc, minus(q(d), qa))) != 0) return false;  // not coplanar
  return sgn(dot_q(nc, nd)) < 0;                           // opposite sides
}

void check(const Polyhedron& body) {
  for (const Vec3& v : body.vertices) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
      throw std::invalid_argument("polyhedron: a vertex coordinate is not finite");
    }
  }
  for (const Triangle& t : body.triangles) {
    for (const std::int32_t i : t) {
      if (i < 0 || static_cast<std::size_t>(i) >= body.vertices.size()) {
        throw std::invalid_argument("polyhedron: triangle vertex index " + std::to_string(i) + " out of range");
      }
    }
  }
}

/// The boxes of elements (edges or triangles) as unions of vertex boxes; an
/// element with `skip` set gets an empty box.
template <class Element>
Boxes element_boxes(const Boxes& vertices, const std::vector<Element>& elements,
                    const std::vector<std::uint8_t>* skip = nullptr) {
  Boxes boxes;
  boxes.resize(elements.size());
  for (std::size_t i = 0; i < elements.size(); ++i) {
    for (int a = 0; a < 3; ++a) {
      double lo = kInf, hi = -kInf;
      if (skip == nullptr || !(*skip)[i]) {
        for (const std::int32_t v : elements[i]) lo = std::min(lo, vertices.lo[a][v]), hi = std::max(hi, vertices.hi[a][v]);
      }
      boxes.lo[a][i] = lo, boxes.hi[a][i] = hi;
    }
  }
  return boxes;
}

/// The moving vertices' swept boxes over the whole move (see polyhedra.hpp),
/// with margins for the rounding of the end positions and the sagitta.
Boxes swept_vertex_boxes(const Polyhedron& body, const RigidMotion& motion) {
  Boxes boxes;
  boxes.resize(body.vertices.size());
  const bool rotation = motion.type == RigidMotionType::rotation;
  // The axis a near 1, a = 2^ka axis: the sagitta takes only its direction,
  // and a tiny axis's square would underflow.
  const int ka = unit_exponent(motion.axis);
  const Vec3 a = ldexp(motion.axis, ka);
  const double A = dot(a, a);
  // cos(theta(1) / 2) = g / sqrt(g^2 + s^2 |axis|^2) at u = 1, |axis|^2 = 2^-2ka A.
  const bool half_turn = std::isinf(motion.tan_half);
  const double tA = std::ldexp(motion.tan_half * motion.tan_half * A, -2 * ka);
  const double cos_half = !rotation || A == 0 ? 1 : half_turn ? 0 : 1 / std::sqrt(1 + tA);
  for (std::size_t i = 0; i < body.vertices.size(); ++i) {
    const Vec3& x = body.vertices[i];
    const Vec3 y = apply(motion, x, 1);
    double margin;
    if (rotation) {
      const Vec3 w = x - motion.center;
      const double rho = A > 0 ? stable_norm(cross(a, w)) / std::sqrt(A) : 0;
      margin = rho * (1 - cos_half) * (1 + 0x1p-40) + 0x1p-40 * (max_abs(motion.center) + 2 * stable_norm(w));
    } else {
      margin = 0x1p-50 * (max_abs(x) + max_abs(motion.translation));
    }
    margin += kSubnormalSlack;
    for (int k = 0; k < 3; ++k) {
      boxes.lo[k][i] = std::min(at(x, k), at(y, k)) - margin;
      boxes.hi[k][i] = std::max(at(x, k), at(y, k)) + margin;
    }
  }
  return boxes;
}

/// The still vertices' boxes widened by `gap` (rounded outwards).
Boxes point_boxes(const Polyhedron& body, double gap) {
  Boxes boxes;
  boxes.resize(body.vertices.size());
  for (std::size_t i = 0; i < body.vertices.size(); ++i) {
    const Vec3& x = body.vertices[i];
    const double margin = gap * (1 + 0x1p-50) + (gap > 0 ? 0x1p-50 * max_abs(x) : 0);
    for (int k = 0; k < 3; ++k) boxes.lo[k][i] = at(x, k) - margin, boxes.hi[k][i] = at(x, k) + margin;
  }
  return boxes;
}

/// Faces no contact can reach under the zone's rules (see polyhedra.hpp):
/// `still` for the still body's faces (vertex-face pairs), else the moving
/// body's (face-vertex pairs, translations only).
std::vector<std::uint8_t> culled_faces(const Polyhedron& body, const RigidMotion& motion, bool still,
                                       double moving_radius) {
  std::vector<std::uint8_t> culled(body.triangles.size(), 0);
  for (std::size_t f = 0; f < body.triangles.size(); ++f) {
    Vec3 pn;
    const Vec3 n = normal_of(body, body.triangles[f], &pn);
    if (motion.type == RigidMotionType::translation) {
      // The relative motion of the vertex: v (vertex-face) or -v (face-vertex).
      const double approach = dot(n, motion.translation) * (still ? 1 : -1);
      culled[f] = approach > 0x1p-44 * dot(pn, abs(motion.translation)) + kSubnormalSlack;
    } else if (still) {
      const Vec3& f0 = body.vertices[body.triangles[f][0]];
      const double height = dot(n, motion.center - f0) + moving_radius * norm(n);
      culled[f] =
          height < -0x1p-40 * (dot(pn, abs(motion.center) + abs(f0)) + moving_radius * norm(pn)) - kSubnormalSlack;
    }
  }
  return culled;
}

/// The lines a0 + s da and b0 + t db, r = b0 - a0: skew unless parallel to
/// 2^-40 (|da x db| against |da| |db|); then s and t of their closest points,
/// the gap |m . r| / |m| between them and m, da x db times a power of two;
/// parallel: t of the still line's point nearest a0 (0 for a zero db). Each
/// vector is taken near 1 first, so that the products of up to four lengths
/// of a tiny pair do not underflow; the same bits as unscaled wherever those
/// stay normal.
struct LinePair {
  bool skew = false;
  double s = 0, t = 0, gap = 0;
  Vec3 m{};
};
LinePair closest_parameters(const Vec3& da, const Vec3& db, const Vec3& r) {
  const int ka = unit_exponent(da), kb = unit_exponent(db), kr = unit_exponent(r);
  const Vec3 a = ldexp(da, ka), b = ldexp(db, kb), q = ldexp(r, kr);
  LinePair p;
  p.m = cross(a, b);
  const double mm = dot(p.m, p.m);
  p.skew = mm > 0x1p-80 * dot(a, a) * dot(b, b);
  if (p.skew) {
    p.s = std::ldexp(dot(cross(q, b), p.m) / mm, ka - kr);
    p.t = std::ldexp(dot(cross(q, a), p.m) / mm, kb - kr);
    p.gap = std::ldexp(std::abs(dot(p.m, q)) / std::sqrt(mm), -kr);
  } else {
    const double bb = dot(b, b);
    p.t = bb > 0 ? std::ldexp(-dot(q, b) / bb, kb - kr) : 0;
  }
  return p;
}

using Key = std::tuple<ContactKind, std::int32_t, std::int32_t, std::int32_t>;

Key key_of(const PolyhedronContact& c) { return {c.kind, c.body, c.moving_feature, c.still_feature}; }

/// The normal and point of a contact (see polyhedra.hpp), the moving body at
/// the contact's fraction.
void describe(PolyhedronContact& c, const Polyhedron& moving_at, const Polyhedron& still,
              const PolyhedronEdges& moving_edges, const PolyhedronEdges& still_edges, const RigidMotion& motion,
              const Polyhedron& moving_start) {
  switch (c.kind) {
    case ContactKind::vertex_face:
      c.normal = unit(normal_of(still, still.triangles[c.still_feature]));
      c.point = moving_at.vertices[c.moving_feature];
      return;
    case ContactKind::face_vertex:
      c.normal = -1 * unit(normal_of(moving_at, moving_at.triangles[c.moving_feature]));
      c.point = still.vertices[c.still_feature];
      return;
    case ContactKind::edge_edge: {
      const Edge& ea = moving_edges.edges[c.moving_feature];
      const Edge& eb = still_edges.edges[c.still_feature];
      const Vec3 a0 = moving_at.vertices[ea[0]], da = moving_at.vertices[ea[1]] - a0;
      const Vec3 b0 = still.vertices[eb[0]], db = still.vertices[eb[1]] - b0;
      const LinePair lines = closest_parameters(da, db, b0 - a0);
      c.point = b0 + lines.t * db;  // parallel: the still line's point nearest a0
      // From the still line's closest point to the moving line's.
      Vec3 from_still = (lines.skew ? a0 + lines.s * da : a0) - c.point;
      if (is_zero(from_still)) {
        // Touching: against the moving edge's velocity at the contact.
        const double du = 0x1p-20;
        const Vec3 ahead = apply(motion, moving_start.vertices[ea[0]], std::min(1.0, c.fraction + du));
        const Vec3 behind = apply(motion, moving_start.vertices[ea[0]], std::max(0.0, c.fraction - du));
        from_still = behind - ahead;
      }
      if (lines.skew) from_still = dot(from_still, lines.m) < 0 ? -1 * lines.m : lines.m;
      c.normal = unit(from_still);
      return;
    }
  }
}

/// Whether a pair is within e at the moving body's pose `moving_at` (see
/// polyhedra.hpp): vertex-face (and face-vertex), 0 <= h <= e with the vertex
/// over the closed triangle; edge-edge, the lines within e with their
/// closest points on both segments. Slack 2^-20 of e on distances, 2^-30 on
/// the parameters.
bool within(double e, const Vec3& x, const Polyhedron& faces_body, const Triangle& t) {
  const Vec3& f0 = faces_body.vertices[t[0]];
  const Vec3 n = normal_of(faces_body, t);
  const double nn = norm(n);
  if (nn == 0) return false;
  const Vec3 to_x = x - f0;
  const int kx = unit_exponent(to_x);
  const double h = std::ldexp(dot(n, ldexp(to_x, kx)) / nn, -kx);
  if (h < -0x1p-20 * e || h > e * (1 + 0x1p-20)) return false;
  for (int i = 0; i < 3; ++i) {
    const Vec3& p = faces_body.vertices[t[i]];
    const Vec3 edge = near_one(faces_body.vertices[t[(i + 1) % 3]] - p), to_x = near_one(x - p);
    if (dot(cross(edge, to_x), n) < -0x1p-30 * nn * norm(edge) * norm(to_x)) return false;
  }
  return true;
}

bool within(double e, const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const LinePair lines = closest_parameters(a1 - a0, b1 - b0, b0 - a0);
  if (!lines.skew) return false;
  const double slack = 0x1p-30;
  return lines.gap <= e * (1 + 0x1p-20) && lines.s >= -slack && lines.s <= 1 + slack && lines.t >= -slack &&
         lines.t <= 1 + slack;
}

}  // namespace

RigidQuery PolyhedraScene::query_of(const PolyhedronContact& c, const Polyhedron& moving,
                                    const PolyhedronEdges& moving_edges, const RigidMotion& motion) const {
  const Body& still = bodies_[c.body];
  RigidQuery q;
  q.motion = motion;
  switch (c.kind) {
    case ContactKind::vertex_face: {
      const Triangle& f = still.shape.triangles[c.still_feature];
      q.points = {moving.vertices[c.moving_feature], still.shape.vertices[f[0]], still.shape.vertices[f[1]],
                  still.shape.vertices[f[2]]};
      break;
    }
    case ContactKind::face_vertex: {
      const Triangle& f = moving.triangles[c.moving_feature];
      q.points = {still.shape.vertices[c.still_feature], moving.vertices[f[0]], moving.vertices[f[1]],
                  moving.vertices[f[2]]};
      q.mover = Mover::second;
      break;
    }
    case ContactKind::edge_edge: {
      const Edge& a = moving_edges.edges[c.moving_feature];
      const Edge& b = still.edges.edges[c.still_feature];
      q.points = {moving.vertices[a[0]], moving.vertices[a[1]], still.shape.vertices[b[0]], still.shape.vertices[b[1]]};
      break;
    }
  }
  return q;
}

std::size_t PolyhedraScene::decide_uncertain(std::vector<PolyhedronContact>& hits, const Polyhedron& moving,
                                             const PolyhedronEdges& moving_edges, const RigidMotion& motion,
                                             const TraceOptions& options) const {
  // A certified hit's toi is within time_tolerance below its contact, so
  // none is later than `bound`; the oracle's tois are exact (toi_lo). An
  // uncertain pair whose lower bound exceeds `bound` cannot come first, nor
  // tie (its exact toi is at least its bound). So the uncertain pairs go to
  // the oracle in order of their bounds, in chunks of fixed size (the same
  // pairs for any thread count), until the next bound exceeds the least toi
  // found.
  double bound = std::numeric_limits<double>::infinity();
  for (const PolyhedronContact& c : hits) {
    if (c.status == Status::certified) bound = std::min(bound, c.fraction + options.narrow.time_tolerance);
  }
  std::vector<std::size_t> open;
  for (std::size_t k = 0; k < hits.size(); ++k) {
    if (hits[k].status == Status::uncertain) open.push_back(k);
  }
  std::sort(open.begin(), open.end(), [&](std::size_t x, std::size_t y) {
    return hits[x].fraction < hits[y].fraction ||
           (hits[x].fraction == hits[y].fraction && key_of(hits[x]) < key_of(hits[y]));
  });
  const auto decide = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k) {
      PolyhedronContact& c = hits[open[k]];
      const QueryType type = c.kind == ContactKind::edge_edge ? QueryType::edge_edge : QueryType::vertex_face;
      const Result r = rigid_exact_ccd(type, query_of(c, moving, moving_edges, motion), options.narrow.expel);
      c.fraction = r.hit ? r.toi_lo : std::numeric_limits<double>::infinity();
      c.status = r.status;
    }
  };
  constexpr std::size_t kChunk = 16;
  std::size_t decided = 0;
  while (decided < open.size() && hits[open[decided]].fraction <= bound) {
    const std::size_t end = std::min(open.size(), decided + kChunk);
    const auto chunk = [&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(decided, end, 1),
                        [&](const tbb::blocked_range<std::size_t>& r) { decide(r.begin(), r.end()); });
    };
    on_threads(options.threads, chunk);
    for (std::size_t k = decided; k < end; ++k) bound = std::min(bound, hits[open[k]].fraction);
    decided = end;
  }
  // Uncertain pairs left (their bound at or past `bound`) and oracle misses are no first contact.
  std::erase_if(hits, [&](const PolyhedronContact& c) {
    return c.status == Status::uncertain || c.fraction == std::numeric_limits<double>::infinity();
  });
  return decided;
}

PolyhedronEdges polyhedron_edges(const Polyhedron& body) {
  check(body);
  // For each undirected edge: its triangles' third vertices and directions.
  struct Uses {
    std::int32_t count = 0, forward = 0;
    std::int32_t third[2] = {-1, -1};
  };
  std::map<Edge, Uses> uses;
  for (const Triangle& t : body.triangles) {
    for (int i = 0; i < 3; ++i) {
      const std::int32_t a = t[i], b = t[(i + 1) % 3], c = t[(i + 2) % 3];
      if (a == b) continue;
      Uses& u = uses[{std::min(a, b), std::max(a, b)}];
      if (u.count < 2) u.third[u.count] = c;
      ++u.count;
      u.forward += a < b;
    }
  }
  PolyhedronEdges out;
  for (const auto& [edge, u] : uses) {
    out.edges.push_back(edge);
    const bool opposite = u.count == 2 && u.forward == 1;
    out.internal.push_back(opposite && flat_edge(body, edge[0], edge[1], u.third[0], u.third[1]));
  }
  return out;
}

const char* to_string(ContactKind kind) {
  switch (kind) {
    case ContactKind::vertex_face: return "vertex-face";
    case ContactKind::face_vertex: return "face-vertex";
    case ContactKind::edge_edge: return "edge-edge";
  }
  return "?";
}

Polyhedron moved(const Polyhedron& body, const RigidMotion& motion, double u) {
  Polyhedron out = body;
  for (Vec3& v : out.vertices) v = apply(motion, v, u);
  return out;
}

std::int32_t PolyhedraScene::add(Polyhedron body) {
  // Out of the kernels' domain a still vertex would make its pairs invalid
  // one by one, and only those the broad phase keeps: refused here instead.
  for (std::size_t i = 0; i < body.vertices.size(); ++i) {
    if (!in_rigid_domain(body.vertices[i])) {
      throw std::invalid_argument("PolyhedraScene::add: vertex " + std::to_string(i) +
                                  " is not finite or beyond 2^60 in magnitude");
    }
  }
  PolyhedronEdges edges = polyhedron_edges(body);
  bodies_.push_back({std::move(body), std::move(edges)});
  return static_cast<std::int32_t>(bodies_.size() - 1);
}

Trace PolyhedraScene::trace(const Polyhedron& moving, const RigidMotion& motion, const TraceOptions& options) const {
  Trace out;
  // Out of the kernels' domain the swept boxes would be NaN (or overflow)
  // and the broad phase would drop every pair: a silent miss. Checked before
  // polyhedron_edges, which throws for a non-finite vertex.
  if (!is_valid(motion) || !rigid::valid_options(options.narrow) ||
      !std::ranges::all_of(moving.vertices, in_rigid_domain)) {
    out.first.status = Status::invalid_input;
    out.stats.invalid = 1;
    return out;
  }
  const PolyhedronEdges moving_edges = polyhedron_edges(moving);
  const double e = options.narrow.expel;
  const bool zone = e > 0;
  // The moving features' swept boxes.
  const Boxes vertex_boxes = swept_vertex_boxes(moving, motion);
  const Boxes face_boxes = element_boxes(vertex_boxes, moving.triangles);
  const Boxes edge_boxes = element_boxes(vertex_boxes, moving_edges.edges, &moving_edges.internal);
  double radius = 0;  // of the ball about a rotation's center that holds the moving body
  for (const Vec3& v : moving.vertices) radius = std::max(radius, stable_norm(v - motion.center));
  radius *= 1 + 0x1p-40;
  const std::vector<std::uint8_t> moving_culled =
      zone ? culled_faces(moving, motion, false, radius) : std::vector<std::uint8_t>(moving.triangles.size(), 0);
  const int axis = sweep_axis(vertex_boxes);
  const ParallelOptions parallel{options.threads};

  struct Pairs {
    std::vector<std::array<std::int32_t, 2>> pairs;
    std::vector<std::uint8_t> mover;
  };
  std::vector<PolyhedronContact> hits;
  std::vector<std::tuple<std::int32_t, QueryType, Pairs>> decided;  // for the contact points
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const Body& still = bodies_[b];
    const std::vector<std::uint8_t> still_culled = zone ? culled_faces(still.shape, motion, true, radius)
                                                        : std::vector<std::uint8_t>(still.shape.triangles.size(), 0);
    const Boxes still_points = point_boxes(still.shape, e);
    const Boxes still_faces = element_boxes(still_points, still.shape.triangles);
    const Boxes still_edges = element_boxes(still_points, still.edges.edges, &still.edges.internal);
    Pairs vf, ee;
    for (const CandidatePair& p : overlapping_pairs(vertex_boxes, still_faces, axis)) {
      if (still_culled[p[1]]) {
        ++out.culled;
      } else {
        vf.pairs.push_back(p), vf.mover.push_back(0);
      }
    }
    for (const CandidatePair& p : overlapping_pairs(still_points, face_boxes, axis)) {
      if (moving_culled[p[1]]) {
        ++out.culled;
      } else {
        vf.pairs.push_back(p), vf.mover.push_back(1);
      }
    }
    for (const CandidatePair& p : overlapping_pairs(edge_boxes, still_edges, axis)) ee.pairs.push_back(p), ee.mover.push_back(0);
    for (QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      const Pairs& pairs = type == QueryType::vertex_face ? vf : ee;
      const std::size_t n = pairs.pairs.size();
      if (n == 0) continue;
      RigidIndexedQueries q;
      q.type = type;
      q.motion = motion;
      q.moving_vertices = moving.vertices;
      q.still_vertices = still.shape.vertices;
      q.moving_faces = moving.triangles;
      q.still_faces = still.shape.triangles;
      q.moving_edges = moving_edges.edges;
      q.still_edges = still.edges.edges;
      q.pairs = pairs.pairs;
      q.mover = pairs.mover.data();
      std::vector<std::uint8_t> hit(n);
      std::vector<double> toi(n);
      std::vector<Status> status(n);
      // Conservative first: the oracle only for the uncertain pairs that can
      // still be the first contact (below).
      RigidOptions kernels = options.narrow;
      if (kernels.mode == Mode::exact) kernels.mode = Mode::conservative;
      out.stats += rigid_ccd_parallel(q, kernels, {hit.data(), toi.data(), status.data()}, parallel);
      out.pairs += n;
      for (std::size_t k = 0; k < n; ++k) {
        if (!hit[k]) continue;
        PolyhedronContact c;
        const bool second = pairs.mover[k] != 0;
        c.kind = type == QueryType::edge_edge ? ContactKind::edge_edge
                                              : second ? ContactKind::face_vertex : ContactKind::vertex_face;
        c.body = static_cast<std::int32_t>(b);
        c.moving_feature = second ? pairs.pairs[k][1] : pairs.pairs[k][0];
        c.still_feature = second ? pairs.pairs[k][0] : pairs.pairs[k][1];
        c.fraction = toi[k];
        c.status = status[k];
        hits.push_back(c);
      }
      if (options.contact_points) decided.emplace_back(static_cast<std::int32_t>(b), type, pairs);
    }
  }
  if (options.narrow.mode == Mode::exact) out.oracle = decide_uncertain(hits, moving, moving_edges, motion, options);
  const auto earlier = [](const PolyhedronContact& x, const PolyhedronContact& y) {
    return x.fraction < y.fraction || (x.fraction == y.fraction && key_of(x) < key_of(y));
  };
  if (!hits.empty()) {
    out.first = *std::min_element(hits.begin(), hits.end(), earlier);
    out.hit = true;
    out.fraction = out.first.fraction;
    const Polyhedron at = moved(moving, motion, out.fraction);
    const Body& still = bodies_[out.first.body];
    describe(out.first, at, still.shape, moving_edges, still.edges, motion, moving);
  }
  if (options.contact_points) {
    const Polyhedron at = moved(moving, motion, out.fraction);
    for (const auto& [b, type, pairs] : decided) {
      const Body& still = bodies_[b];
      for (std::size_t k = 0; k < pairs.pairs.size(); ++k) {
        const auto [i, j] = pairs.pairs[k];
        const bool second = pairs.mover[k] != 0;
        PolyhedronContact c;
        c.body = b;
        c.fraction = out.fraction;
        bool close;
        if (type == QueryType::edge_edge) {
          c.kind = ContactKind::edge_edge;
          const Edge& ea = moving_edges.edges[i];
          const Edge& eb = still.edges.edges[j];
          close = within(e, at.vertices[ea[0]], at.vertices[ea[1]], still.shape.vertices[eb[0]],
                         still.shape.vertices[eb[1]]);
        } else if (!second) {
          c.kind = ContactKind::vertex_face;
          close = within(e, at.vertices[i], still.shape, still.shape.triangles[j]);
        } else {
          c.kind = ContactKind::face_vertex;
          close = within(e, still.shape.vertices[i], at, at.triangles[j]);
        }
        if (!close) continue;
        c.moving_feature = second ? j : i;
        c.still_feature = second ? i : j;
        describe(c, at, still.shape, moving_edges, still.edges, motion, moving);
        out.contacts.push_back(c);
      }
    }
    std::sort(out.contacts.begin(), out.contacts.end(),
              [](const PolyhedronContact& x, const PolyhedronContact& y) { return key_of(x) < key_of(y); });
  }
  return out;
}

}  // namespace simdccd
