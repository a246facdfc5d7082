// Whole steps in the space-time model (step.hpp, StepModel::spacetime):
// watertightness on a whole mesh, where the step must pass the mesh's vertex
// indices as ids and its broad phase must keep pairs whose boxes only touch;
// and the step's guarantees (determinism, invalid input, the scenes' pairs)
// in this model.
//
// The mesh: a 5 x 5 grid of vertices (i, j, 0), index 5 j + i; each unit quad
// [i, i+1] x [j, j+1] split along its diagonal (i, j)-(i+1, j+1) into the
// counter-clockwise triangles lower (i,j),(i+1,j),(i+1,j+1) and upper
// (i,j),(i+1,j+1),(i,j+1), so every interior vertex is shared by 6 triangles.
// Vertices move along z only. Then x and y never change, and a point of
// either model's swept element at any time lies over the element's triangle
// (or segment) in x-y, its weights being on the element's vertices at t=0 and
// t=1: the grid never touches itself (its x-y triangles meet only at shared
// vertices and edges, whose pairs are no candidates), and a probe meets only
// the elements its x-y path passes over. Every coordinate and time is dyadic,
// so every construction below is exact in doubles.
//
// The probes (each its own step: the grid, then the probe's vertices and
// edge), each hand-derived to meet the grid exactly at t* and nowhere else:
// - vertex: a point moving up at speed 1 through the path of a vertex shared
//   by 6 triangles at t*; over that x-y point each swept face is the vertex's
//   path alone (a corner of the triangle takes all the weight), in either
//   model: exactly those 6 faces hit, at t*.
// - kink: a point moving up at speed 1 through the point (1 - t*) a + t* b'
//   of the quad a b b' a' of an edge shared by two triangles (a the lower
//   index: the quad is cut along a-b' into (a, b, b') and (a, a', b')). Over
//   the x-y point (1 - t*) a + t* b of the edge, each face's swept prism is
//   that cut quad: z = t h_b for t <= t* (triangle (a, b, b')) and t* h_b +
//   (t - t*) h_a after (triangle (a, a', b')), h the vertices' rises. The
//   probe's z - that is (1 - h_b)(t - t*) before and (1 - h_a)(t - t*) after,
//   zero only at t* (|h| < 1): exactly the two faces hit, at t*. (The linear
//   model's edge point is at z = t ((1 - t*) h_a + t* h_b) instead.)
// - gap: with the other cut (b-a') on one face, the prisms of the two faces
//   would leave a gap between them; a probe aimed through it hits with the
//   mesh's indices as ids and slips through with the faces' vertices ordered
//   as listed (derivation at `gap_step`).
// - edge through a vertex: a short edge translating up at speed 1 whose
//   midpoint passes through the path of a vertex at t*, its x-y direction
//   along none of the vertex's 6 edges: exactly those 6 edges hit, at t*.
// - edge through a kink: a short edge across a mesh edge, through the kink
//   above at t*: exactly that edge hits, at t*.
// The probe edges' endpoints also cross faces (undesigned VF pairs): those,
// and every other pair of a probe, must equal the space-time oracle's answer.
// Each step runs with ccd_step and StepSequence, on 1 and 2 threads, in every
// mode. What makes the checks fail: a pair dropped by the broad phase (the
// vertex and kink probes' boxes only touch their faces' boxes: checked below),
// other ids than the mesh's indices (the gap probe), a wrong toi.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "scenes.hpp"
#include "step_determinism.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/step.hpp"

namespace simdccd {
namespace {

constexpr double kTolerance = 1e-9;
constexpr int kSide = 5;  // vertices per side of the grid
constexpr std::int32_t kGridVertices = kSide * kSide;

std::int32_t vertex(int i, int j) { return kSide * j + i; }

/// The grid, vertex (i, j) rising by rise(i, j) along z over the step.
Mesh grid(const std::function<double(int, int)>& rise) {
  Mesh m;
  for (int j = 0; j < kSide; ++j) {
    for (int i = 0; i < kSide; ++i) {
      m.x0.push_back({double(i), double(j), 0});
      m.x1.push_back({double(i), double(j), rise(i, j)});
    }
  }
  for (int j = 0; j + 1 < kSide; ++j) {
    for (int i = 0; i + 1 < kSide; ++i) {
      m.faces.push_back({vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1)});
      m.faces.push_back({vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1)});
    }
  }
  m.edges = extract_edges(m.faces);
  return m;
}

/// The rises of most probes: (3i + 5j) mod 8 - 4 sixteenths, -1/4 to 3/16.
double wave(int i, int j) { return double((3 * i + 5 * j) % 8 - 4) / 16; }

Vec3 at(const Mesh& m, std::int32_t v, double t) {
  return {m.x0[v].x + t * (m.x1[v].x - m.x0[v].x), m.x0[v].y + t * (m.x1[v].y - m.x0[v].y),
          m.x0[v].z + t * (m.x1[v].z - m.x0[v].z)};
}

/// A designed contact: a pair of the step and its exact time.
struct Designed {
  CandidatePair pair;
  double t;
};

struct ProbeStep {
  std::string name;
  Mesh mesh;
  QueryType type;                 ///< of the designed contacts
  std::vector<Designed> designed;  ///< exactly the step's hits of this type
};

/// Adds a probe point through `x` at time t, moving up at speed 1; returns its index.
std::int32_t add_point(Mesh& m, Vec3 x, double t) {
  m.x0.push_back({x.x, x.y, x.z - t});
  m.x1.push_back({x.x, x.y, x.z + 1 - t});
  return std::int32_t(m.x0.size() - 1);
}

/// Adds a probe edge whose midpoint passes through `x` at time t, the
/// endpoints at x -+ half, translating up at speed 1; returns its index.
std::int32_t add_edge(Mesh& m, Vec3 x, Vec3 half, double t) {
  const std::int32_t a = add_point(m, {x.x - half.x, x.y - half.y, x.z}, t);
  const std::int32_t b = add_point(m, {x.x + half.x, x.y + half.y, x.z}, t);
  m.edges.push_back({a, b});  // after every grid edge, as extract_edges would number it
  return std::int32_t(m.edges.size() - 1);
}

bool has(const std::array<std::int32_t, 3>& face, std::int32_t v) {
  return std::find(face.begin(), face.end(), v) != face.end();
}

/// Designs the contacts of the probe element `probe` (a vertex for VF, the
/// probe edge for EE) with every grid element (face or edge) k that
/// `aimed(k)`, at t; requires `count` of them.
void design(ProbeStep& s, std::int32_t probe, double t, std::size_t count,
            const std::function<bool(std::int32_t)>& aimed) {
  const bool vf = s.type == QueryType::vertex_face;
  const auto elements = std::int32_t(vf ? s.mesh.faces.size() : s.mesh.edges.size() - 1);
  for (std::int32_t k = 0; k < elements; ++k) {
    if (aimed(k)) s.designed.push_back({vf ? CandidatePair{probe, k} : CandidatePair{k, probe}, t});
  }
  REQUIRE(s.designed.size() == count);
}

/// The kink of edge (a, b), a < b, at time t: (1 - t) a + t b' in x-y-z.
Vec3 kink(const Mesh& m, std::int32_t a, std::int32_t b, double t) {
  const Vec3 p = m.x0[a], q = m.x1[b];
  return {(1 - t) * p.x + t * q.x, (1 - t) * p.y + t * q.y, (1 - t) * p.z + t * q.z};
}

// Vertex (2,2), rise -1/4, shared by 6 triangles; t* = 5/8, where the vertex
// is at z = -5/32.
ProbeStep vertex_step() {
  ProbeStep s{"vertex probe through the vertex (2,2) of 6 triangles", grid(wave), QueryType::vertex_face, {}};
  const std::int32_t v = vertex(2, 2);
  const double t = 0.625;
  const std::int32_t p = add_point(s.mesh, at(s.mesh, v, t), t);
  design(s, p, t, 6, [&](std::int32_t f) { return has(s.mesh.faces[f], v); });
  return s;
}

// Edge a = (2,3) (index 17, rise 1/16) - b = (3,3) (18, rise -1/4), shared by
// lower(2,3) and upper(2,2); t* = 3/8: the kink at (2 + 3/8, 3, -3/32).
ProbeStep kink_step() {
  ProbeStep s{"vertex probe through the kink of the edge (2,3)-(3,3)", grid(wave), QueryType::vertex_face, {}};
  const std::int32_t a = vertex(2, 3), b = vertex(3, 3);
  const double t = 0.375;
  const std::int32_t p = add_point(s.mesh, kink(s.mesh, a, b, t), t);
  design(s, p, t, 2, [&](std::int32_t f) { return has(s.mesh.faces[f], a) && has(s.mesh.faces[f], b); });
  return s;
}

// The gap. Only a = (1,2) (index 11) moves: it rises by 1. The edge a - b,
// b = (2,2) (12), is shared by F1 = upper(1,1) = (c1, b, a), c1 = (1,1) (6),
// and F2 = lower(1,2) = (a, b, c2), c2 = (2,3) (17). Local coordinates
// (x, y) = position - a: a (0,0), b (1,0), c1 (0,-1), c2 (1,1). The probe:
// x = 1/2, y = (1/2 - t)/4, z = 1/4: over F2 for t <= 1/2, over F1 after,
// crossing the edge at t = 1/2. Each swept face is the graph of z = Z(x, y, t)
// over its prism cut into three tetrahedra (spacetime_oracle.hpp), and z is
// the weight of a' (the only point off z = 0).
// - Ids = mesh indices (the step): F2 ordered a < b < c2; only its
//   tetrahedron (a, a', b', c2') holds a', where Z = t - x (>= 0), so Z = 0 on
//   the probe's path over F2 (t <= x = 1/2): no contact. F1 ordered c1 < a < b:
//   tetrahedra (c1, a, b, b') with Z = 0, (c1, a, a', b') with Z = t - x
//   (weights c1 -y, a 1 + y - t, a' t - x, b' x), (c1, c1', a', b') with
//   Z = 1 - x + y. On the path at t in [1/2, 9/10] the probe lies in the
//   second (every weight >= 0), Z = t - 1/2 reaches 1/4 at t = 3/4: F1 hits at
//   t* = 3/4, F2 misses.
// - Ids = the faces' listed order (what null ids or query-order ids give): F2
//   (a, b, c2) as before, no contact; F1 (c1, b, a) ordered c1 < b < a cuts
//   its side quad along b-a': tetrahedra (c1, b, a, a') with Z = t, only where
//   t <= 1/2 + y (<= 1/2 on the path), and (c1, b, b', a'), (c1, c1', b', a')
//   with Z = 1 - x + y = 1/2 + y >= 3/8 on the path after t = 1/2: the probe at
//   z = 1/4 never meets F1 either. It slips between the two cuts.
ProbeStep gap_step() {
  ProbeStep s{"vertex probe through the gap between two cuts of the edge (1,2)-(2,2)",
              grid([](int i, int j) { return i == 1 && j == 2 ? 1.0 : 0.0; }), QueryType::vertex_face, {}};
  s.mesh.x0.push_back({1.5, 2.125, 0.25});
  s.mesh.x1.push_back({1.5, 1.875, 0.25});
  const Triangle f1{vertex(1, 1), vertex(2, 2), vertex(1, 2)};
  design(s, kGridVertices, 0.75, 1, [&](std::int32_t f) { return s.mesh.faces[f] == f1; });
  return s;
}

// Vertex (3,2) (index 13, rise -1/16); t* = 1/2, where it is at z = -1/32. The
// probe edge's half-vector (1/8, 3/64, 0) is along none of the vertex's edges,
// and shorter than its distance (>= 1/sqrt(2)) to any other edge.
ProbeStep edge_vertex_step() {
  ProbeStep s{"edge probe through the vertex (3,2)", grid(wave), QueryType::edge_edge, {}};
  const std::int32_t v = vertex(3, 2);
  const double t = 0.5;
  const std::int32_t e = add_edge(s.mesh, at(s.mesh, v, t), {0.125, 0.046875, 0}, t);
  design(s, e, t, 6, [&](std::int32_t k) { return s.mesh.edges[k][0] == v || s.mesh.edges[k][1] == v; });
  return s;
}

// Edge a = (1,1) (index 6, rise -1/4) - b = (2,1) (7, rise -1/16); t* = 3/8:
// the kink at (1 + 3/8, 1, -3/128). The probe edge crosses it along y, half
// length 1/8: it passes over no other edge (the diagonals nearby cross
// x = 1 + 3/8 at y = 3/8 and y = 1 + 3/8).
ProbeStep edge_kink_step() {
  ProbeStep s{"edge probe through the kink of the edge (1,1)-(2,1)", grid(wave), QueryType::edge_edge, {}};
  const std::int32_t a = vertex(1, 1), b = vertex(2, 1);
  const double t = 0.375;
  const std::int32_t e = add_edge(s.mesh, kink(s.mesh, a, b, t), {0, 0.125, 0}, t);
  design(s, e, t, 1, [&](std::int32_t k) { return s.mesh.edges[k] == Edge{a, b}; });
  return s;
}

/// A probe's pair that the space-time oracle (ids the mesh's indices) says hits.
struct OracleHit {
  CandidatePair pair;
  SpacetimeResult r;
};

/// The oracle's hits among the probes' pairs of a type: a probe vertex and
/// any face, or the probe edge (the last edge) and any grid edge.
std::vector<OracleHit> oracle_hits(const Mesh& m, QueryType type) {
  std::vector<CandidatePair> pairs;
  const auto last = std::int32_t(m.edges.size() - 1);
  if (type == QueryType::vertex_face) {
    for (std::int32_t v = kGridVertices; v < std::int32_t(m.x0.size()); ++v) {
      for (std::int32_t f = 0; f < std::int32_t(m.faces.size()); ++f) pairs.push_back({v, f});
    }
  } else if (m.edges[last][0] >= kGridVertices) {
    for (std::int32_t e = 0; e < last; ++e) pairs.push_back({e, last});
  }
  std::vector<OracleHit> hits;
  for (const CandidatePair& pair : pairs) {
    const PairQuery q = pair_query(m, type, pair);
    const SpacetimeResult r = spacetime_exact_ccd(type, q.query, SpacetimeIds{q.vertices});
    if (r.hit) hits.push_back({pair, r});
  }
  return hits;
}

/// A probe step with the oracle's hits of each type.
struct JudgedStep {
  ProbeStep s;
  std::vector<OracleHit> vf, ee;
  explicit JudgedStep(ProbeStep step)
      : s(std::move(step)),
        vf(oracle_hits(s.mesh, QueryType::vertex_face)),
        ee(oracle_hits(s.mesh, QueryType::edge_edge)) {}
};

/// The collision of `pair` among `hits`, or null.
const Collision* find(const std::vector<Collision>& hits, const CandidatePair& pair) {
  const auto c = std::find_if(hits.begin(), hits.end(),
                              [&](const Collision& h) { return h.a == pair[0] && h.b == pair[1]; });
  return c == hits.end() ? nullptr : &*c;
}

/// Checks one run of a probe step in one mode.
void judge(const JudgedStep& j, const StepResult& r, Mode mode, const std::string& where) {
  const ProbeStep& s = j.s;
  INFO(s.name, " (", where, ", ", to_string(mode), ")");
  CHECK(r.stats.vf.invalid + r.stats.ee.invalid == 0);
  // The designed contacts, at t* (certified within the tolerance in exact mode).
  const auto& hits = s.type == QueryType::vertex_face ? r.vf : r.ee;
  for (const Designed& d : s.designed) {
    CAPTURE(d.pair[0]);
    CAPTURE(d.pair[1]);
    const Collision* c = find(hits, d.pair);
    CHECK_MESSAGE(c != nullptr, "a designed pair missed");
    if (c == nullptr) continue;
    CHECK(c->toi <= d.t);
    if (mode == Mode::exact) CHECK(c->toi >= d.t - kTolerance);
    if (mode == Mode::oracle) CHECK(c->toi == d.t);
  }
  // Every hit is a probe's; exact and oracle mode hit exactly the oracle's
  // pairs (so of the designed type exactly the designed ones), conservative
  // mode at least those.
  for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
    const bool vf = type == QueryType::vertex_face;
    const std::vector<OracleHit>& truth = vf ? j.vf : j.ee;
    const std::vector<Collision>& found = vf ? r.vf : r.ee;
    for (const Collision& c : found) CHECK((vf ? c.a >= kGridVertices : s.mesh.edges[c.b][0] >= kGridVertices));
    if (type == s.type && mode != Mode::conservative) CHECK(found.size() == s.designed.size());
    for (const OracleHit& h : truth) {
      const Collision* c = find(found, h.pair);
      CHECK_MESSAGE(c != nullptr, to_string(type), " pair (", h.pair[0], ", ", h.pair[1], ") missed");
      if (c == nullptr) continue;
      CHECK(c->toi <= h.r.toi_hi);
      if (mode == Mode::exact) CHECK(c->toi >= h.r.toi_lo - kTolerance);
    }
    if (mode != Mode::conservative) CHECK(found.size() == truth.size());
  }
}

std::vector<JudgedStep> probe_steps() {
  std::vector<JudgedStep> out;
  for (ProbeStep s : {vertex_step(), kink_step(), gap_step(), edge_vertex_step(), edge_kink_step()}) {
    out.emplace_back(std::move(s));
  }
  return out;
}

TEST_CASE("step spacetime: probes through shared vertices and edges of a grid hit at t*") {
  const std::vector<JudgedStep> steps = probe_steps();
  for (const Mode mode : {Mode::exact, Mode::conservative, Mode::oracle}) {
    for (const int threads : {1, 2}) {
      StepOptions o;
      o.model = StepModel::spacetime;
      o.narrow = {mode, kTolerance};
      o.threads = threads;
      o.batch = threads == 1 ? 5 : 4096;  // many batches per sweep chunk, or one
      // One sequence for the vertex probes, one for the edge probes (the same
      // mesh each), stepped through the probes in order: incremental sorting.
      StepSequence vertex_sequence, edge_sequence;
      for (const JudgedStep& j : steps) {
        const std::string threads_text = std::to_string(threads) + " thread(s)";
        judge(j, ccd_step(j.s.mesh, o), mode, "ccd_step, " + threads_text);
        StepSequence& sequence = j.s.type == QueryType::vertex_face ? vertex_sequence : edge_sequence;
        judge(j, sequence.step(j.s.mesh, o), mode, "StepSequence, " + threads_text);
      }
    }
  }
}

// The premises of the test above, so that it can fail: the vertex and kink
// probes' boxes only touch their faces' boxes (a broad phase that took open
// boxes would drop every designed pair), and the gap probe misses both faces
// when their vertices are ordered as listed instead of by mesh index.
TEST_CASE("step spacetime: the probes' boxes only touch, and other ids let the gap probe through") {
  const auto touch_only = [](const Mesh& m, std::int32_t p, const Triangle& f) {
    bool touching = false;
    for (const auto coord : {&Vec3::x, &Vec3::y}) {
      double lo = INFINITY, hi = -INFINITY;
      for (const std::int32_t v : f) {
        lo = std::min({lo, m.x0[v].*coord, m.x1[v].*coord});
        hi = std::max({hi, m.x0[v].*coord, m.x1[v].*coord});
      }
      const double x = m.x0[p].*coord;  // the probe's box is this one value
      CHECK(m.x1[p].*coord == x);
      CHECK(lo <= x);
      CHECK(x <= hi);
      touching = touching || x == lo || x == hi;
    }
    return touching;
  };
  for (const ProbeStep& s : {vertex_step(), kink_step()}) {
    for (const Designed& d : s.designed) CHECK(touch_only(s.mesh, d.pair[0], s.mesh.faces[d.pair[1]]));
  }
  const ProbeStep gap = gap_step();
  const SpacetimeIds listed{{0, 1, 2, 3}};  // the query's order: v, then the face as listed
  for (std::int32_t f = 0; f < std::int32_t(gap.mesh.faces.size()); ++f) {
    const PairQuery q = pair_query(gap.mesh, QueryType::vertex_face, {kGridVertices, f});
    CHECK_FALSE(spacetime_exact_ccd(QueryType::vertex_face, q.query, listed).hit);
  }
}

StepOptions spacetime_options(Mode mode, int threads = 0) {
  StepOptions o;
  o.model = StepModel::spacetime;
  o.narrow.mode = mode;
  o.threads = threads;
  return o;
}

TEST_CASE("step spacetime: answers do not depend on threads, target, batch or incremental sorting") {
  const Mesh m = test::kScenes[0].mesh();
  for (const Mode mode : {Mode::exact, Mode::conservative}) {
    CAPTURE(to_string(mode));
    const StepResult reference = ccd_step(m, spacetime_options(mode, 1));
    REQUIRE(!reference.vf.empty());
    REQUIRE(!reference.ee.empty());
    test::check_same_on_every_target(m, spacetime_options(mode), reference);
    StepSequence sequence;
    for (int k = 0; k < 2; ++k) {  // a second step of the same mesh: the incremental path
      const StepResult r = sequence.step(m, spacetime_options(mode));
      CHECK(r.vf == reference.vf);
      CHECK(r.ee == reference.ee);
    }
  }
}

// The data set lists the pairs that collide or nearly do (under the linear
// model): the hardest candidates. Exact mode must equal the space-time oracle
// on each, ids the mesh's vertex indices; and every hit of the step must be
// the oracle's, with its toi certified.
TEST_CASE("step spacetime: exact mode equals the space-time oracle on the listed pairs and every hit") {
  for (const test::Scene& scene : {test::kScenes[0], test::kScenes[1]}) {
    CAPTURE(scene.name);
    const Mesh m = scene.mesh();
    const StepResult r = ccd_step(m, spacetime_options(Mode::exact));
    const StepResult linear = ccd_step(m, [] {
      StepOptions o;
      o.narrow.mode = Mode::conservative;
      return o;
    }());
    CHECK(r.stats.vf_candidates == linear.stats.vf_candidates);  // the same broad phase as the linear model
    CHECK(r.stats.ee_candidates == linear.stats.ee_candidates);
    CHECK(r.stats.vf_candidates <= scene.vf_candidates);  // body frames drop pairs of one body
    CHECK(r.stats.ee_candidates <= scene.ee_candidates);
    CHECK(r.stats.vf.root_stage + r.stats.ee.root_stage == 0);
    for (const QueryType type : {QueryType::vertex_face, QueryType::edge_edge}) {
      const bool vf = type == QueryType::vertex_face;
      const std::vector<Collision>& hits = vf ? r.vf : r.ee;
      const auto oracle = [&](const CandidatePair& pair) {
        const PairQuery q = pair_query(m, type, pair);
        return spacetime_exact_ccd(type, q.query, SpacetimeIds{q.vertices});
      };
      std::size_t wrong = 0;
      double earliest = INFINITY;
      for (const Collision& c : hits) {
        const SpacetimeResult e = oracle({c.a, c.b});
        wrong += !e.hit || c.toi > e.toi_hi || c.toi < e.toi_lo - kTolerance;
        earliest = std::min(earliest, e.toi_lo);
      }
      CHECK(wrong == 0);
      CHECK(r.earliest_toi <= earliest);
      std::size_t differ = 0, listed_hits = 0;
      for (const test::ListedPair& p : test::listed_pairs(scene, m, vf)) {
        const bool found = std::binary_search(hits.begin(), hits.end(), Collision{p.pair[0], p.pair[1]},
                                              [](const Collision& x, const Collision& y) {
                                                return x.a < y.a || (x.a == y.a && x.b < y.b);
                                              });
        const bool hit = oracle(p.pair).hit;
        differ += found != hit;
        listed_hits += hit;
      }
      CHECK(differ == 0);
      CHECK(listed_hits > 0);
    }
  }
}

TEST_CASE("step spacetime: a non-finite or out-of-range vertex makes its pairs invalid, as in the linear model") {
  const ProbeStep s = vertex_step();
  const std::int32_t p = s.designed[0].pair[0];
  for (const double bad : {double(NAN), double(INFINITY), 0x1p61}) {
    CAPTURE(bad);
    Mesh broken = s.mesh;
    broken.x1[p].x = bad;
    const StepResult r = ccd_step(broken, spacetime_options(Mode::exact));
    StepOptions linear = spacetime_options(Mode::exact);
    linear.model = StepModel::linear;
    const StepResult l = ccd_step(broken, linear);
    // The probe's box grew: its 6 faces are still candidates, now invalid.
    CHECK(r.stats.vf.invalid >= s.designed.size());
    CHECK(r.stats.vf.invalid == l.stats.vf.invalid);
    CHECK(r.stats.ee.invalid == 0);
    CHECK(std::none_of(r.vf.begin(), r.vf.end(), [&](const Collision& c) { return c.a == p; }));
  }
}

TEST_CASE("step spacetime: pair_query gives the query and the mesh indices, bad input is refused") {
  const Mesh m = vertex_step().mesh;
  // Face 0 is lower(0,0): vertices 0, 1, 6; the probe is vertex 25.
  const PairQuery q = pair_query(m, QueryType::vertex_face, {kGridVertices, 0});
  CHECK(q.vertices == std::array<std::int64_t, 4>{kGridVertices, 0, 1, 6});
  CHECK(q.query.points[0] == m.x0[kGridVertices]);
  CHECK(q.query.points[7] == m.x1[6]);
  // Edges by (b, a): edge 0 is 0-1, edge 1 is 1-2.
  CHECK(pair_query(m, QueryType::edge_edge, {0, 1}).vertices == std::array<std::int64_t, 4>{0, 1, 1, 2});
  CHECK_THROWS_AS(pair_query(m, QueryType::vertex_face, {0, 32}), std::out_of_range);
  StepOptions o;
  o.model = static_cast<StepModel>(7);
  CHECK_THROWS_AS(ccd_step(m, o), std::invalid_argument);
}

}  // namespace
}  // namespace simdccd
