// Watertightness of the space-time model (spacetime_oracle.hpp) on meshes:
// elements that share vertices share the diagonals of their space-time
// prisms and quads when the diagonals are chosen by global vertex id, so a
// vertex or an edge whose space-time path passes exactly through a shared
// edge, a shared vertex or a diagonal hits at least one element.
//
// Meshes: a triangle fan (a hexagon around a centre), a closed tetrahedron (4
// faces) and a 4 x 4 grid of vertices (3 x 3 quads, each split in two
// triangles), their vertex indices scrambled so that the id order of a face
// varies; each static, translating, and with per-vertex motion. Every
// coordinate and time is dyadic, so every construction is exact in doubles.
//
// Crossings: 4D points on the pieces of the model (a vertex's path; a point
// of each of the two triangles of an edge's quad, and of its diagonal a-b'
// (a the lower id); a point of each of the two triangles inside a face's
// prism, (x1, x2, x3') and (x1, x2', x3')), each at its own time t*. A point
// (VF) or a short, rigidly translating edge (EE) passes through the crossing
// at t*, across the surface (straight across, or also sliding across the
// edge), and meets the mesh nowhere else. Against every
// face (VF) or mesh edge (EE), ids the mesh vertex indices:
// - at least one element hits, in every mode (conservative, exact, oracle),
//   on every runnable implementation and the xsimd entry, both through
//   IndexedQueries and through SoaQueries with SpacetimeIdArrays (and the two
//   give bit-identical answers);
// - the oracle's contact time of every element it reports hit is t* exactly;
//   exact mode's toi lies in [t* - time_tolerance, t*], conservative mode's
//   is <= t*; exact mode's hits equal the oracle's.
// The negative control: two faces sharing an edge whose quad is not flat
// (one endpoint moves), each given its own private id order, so the shared
// edge is cut by different diagonals: a point through the gap between them
// misses both faces, although it starts on one side of the surface and ends
// on the other (with consistent ids it hits). (The mesh tests catch this
// too: with each face given a private id order, (i + face) % 3, the sliding
// probes slip through on the grid with per-vertex motion.) Under SIMDCCD_TEST_SCALE < 1
// (QEMU) fewer motions run, each probe against the elements near it only.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "hard_queries.hpp"
#include "simdccd/spacetime_ccd.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/targets.hpp"
#include "simdccd/xsimd.hpp"

namespace simdccd {
namespace {

constexpr double kTolerance = 1e-9;
constexpr QueryType VF = QueryType::vertex_face;
constexpr QueryType EE = QueryType::edge_edge;

Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

using Face = std::array<std::int32_t, 3>;
using Edge = std::array<std::int32_t, 2>;

struct Mesh {
  std::string name;
  std::vector<Vec3> x0, x1;
  std::vector<Face> faces;
  std::vector<Edge> edges;  ///< every edge of a face once, lower index first
  bool height_field = true;  ///< planar in z = 0 at t=0; else closed around `centre`
  Vec3 centre{};
};

/// The mesh's edges from its faces.
void derive_edges(Mesh& m) {
  std::map<std::pair<int, int>, int> seen;
  for (const Face& f : m.faces) {
    for (int k = 0; k < 3; ++k) {
      const int a = std::min(f[k], f[(k + 1) % 3]), b = std::max(f[k], f[(k + 1) % 3]);
      if (seen.emplace(std::pair{a, b}, 0).second) m.edges.push_back({a, b});
    }
  }
}

/// Renumbers the vertices: vertex i becomes perm[i] (so the id order differs from the build order).
void scramble(Mesh& m, const std::vector<int>& perm) {
  std::vector<Vec3> x0(m.x0.size());
  for (std::size_t i = 0; i < perm.size(); ++i) x0[perm[i]] = m.x0[i];
  m.x0 = x0;
  for (Face& f : m.faces) {
    for (auto& v : f) v = perm[v];
  }
}

std::vector<int> multiplicative_perm(int n, int k) {
  std::vector<int> p(n);
  for (int i = 0; i < n; ++i) p[i] = (i * k + 3) % n;
  return p;
}

Mesh fan() {
  Mesh m;
  m.name = "fan";
  m.x0 = {{0, 0, 0}, {1, 0, 0}, {0.5, 1, 0}, {-0.5, 1, 0}, {-1, 0, 0}, {-0.5, -1, 0}, {0.5, -1, 0}};
  for (int i = 1; i <= 6; ++i) m.faces.push_back({0, i, i % 6 + 1});
  scramble(m, {4, 2, 6, 0, 5, 1, 3});  // the centre gets id 4: every order of a face occurs
  derive_edges(m);
  return m;
}

Mesh tetrahedron() {
  Mesh m;
  m.name = "tetrahedron";
  m.x0 = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 0, 2}};
  m.faces = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  scramble(m, {2, 0, 3, 1});
  derive_edges(m);
  m.height_field = false;
  m.centre = {0.5, 0.5, 0.5};
  return m;
}

Mesh grid() {
  Mesh m;
  m.name = "grid";
  for (int j = 0; j < 4; ++j) {
    for (int i = 0; i < 4; ++i) m.x0.push_back({0.5 * i, 0.5 * j, 0});
  }
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      const int a = 4 * j + i, b = a + 1, c = a + 4, d = a + 5;
      if ((i + j) % 2 == 0) {
        m.faces.push_back({a, b, d});
        m.faces.push_back({a, d, c});
      } else {
        m.faces.push_back({a, b, c});
        m.faces.push_back({b, d, c});
      }
    }
  }
  scramble(m, multiplicative_perm(16, 7));
  derive_edges(m);
  return m;
}

enum class Motion { at_rest, translating, per_vertex };
const char* to_string(Motion m) {
  return m == Motion::at_rest ? "at rest" : m == Motion::translating ? "translating" : "per-vertex motion";
}
const Vec3 kShift{0.25, -0.125, 0.375};

/// Sets the t=1 positions. Per-vertex motion of a height field moves each
/// vertex along z by its own amount (|dz| <= 1/4) after the shift; of the
/// tetrahedron, by its own small vector (|d| <= 1/16 per axis).
void move(Mesh& m, Motion motion) {
  m.x1 = m.x0;
  if (motion == Motion::at_rest) return;
  for (std::size_t i = 0; i < m.x0.size(); ++i) {
    Vec3 d = kShift;
    if (motion == Motion::per_vertex) {
      const double k = double(int(i * 5 % 9) - 4);  // -4..4
      d = m.height_field ? d + Vec3{0, 0, k / 16}
                         : d + Vec3{k / 64, double(int(i * 3 % 5) - 2) / 64, double(int(i % 3) - 1) / 32};
    }
    m.x1[i] = m.x0[i] + d;
  }
}

/// A point of space-time and its time.
struct Crossing {
  Vec3 x;
  double t;
  std::string what;
  std::int32_t vertex = -1;  ///< when the crossing is on a vertex's path: the vertex
  Edge edge{-1, -1};          ///< when on an edge's quad (and not at a vertex): the edge
};

/// sum w_k (p_k at time tau_k), tau in {0, 1}.
Crossing combine(const Mesh& m, std::initializer_list<std::tuple<double, std::int32_t, int>> terms, std::string what) {
  Crossing c{{0, 0, 0}, 0, std::move(what)};
  for (const auto& [w, v, tau] : terms) {
    c.x = c.x + w * (tau == 0 ? m.x0[v] : m.x1[v]);
    c.t += w * tau;
  }
  return c;
}

/// The crossings: every vertex's path, the two triangles and the diagonal of
/// every edge's quad, the two triangles inside every face's prism (VF only).
std::vector<Crossing> crossings(const Mesh& m, QueryType type) {
  std::vector<Crossing> out;
  const double times[] = {0.25, 0.375, 0.5, 0.625, 0.75};
  for (std::int32_t v = 0; v < std::int32_t(m.x0.size()); ++v) {
    const double t = times[v % 5];
    Crossing c = combine(m, {{1 - t, v, 0}, {t, v, 1}}, "vertex " + std::to_string(v));
    c.vertex = v;
    out.push_back(c);
  }
  for (const Edge& e : m.edges) {
    const std::int32_t a = e[0], b = e[1];  // a < b: the quad's diagonal is a-b'
    const std::string name = " of edge " + std::to_string(a) + "-" + std::to_string(b);
    for (Crossing c : {combine(m, {{0.625, a, 0}, {0.375, b, 1}}, "diagonal a-b'" + name),
                       combine(m, {{0.25, a, 0}, {0.5, b, 0}, {0.25, b, 1}}, "triangle (a, b, b')" + name),
                       combine(m, {{0.5, a, 0}, {0.25, a, 1}, {0.25, b, 1}}, "triangle (a, a', b')" + name)}) {
      c.edge = e;
      out.push_back(c);
    }
  }
  if (type == VF) {
    for (const Face& f : m.faces) {
      Face s = f;
      std::sort(s.begin(), s.end());  // x1 < x2 < x3
      const std::string name = " in face " + std::to_string(s[0]) + "," + std::to_string(s[1]) + "," + std::to_string(s[2]);
      out.push_back(combine(m, {{0.25, s[0], 0}, {0.25, s[1], 0}, {0.5, s[2], 1}}, "triangle (x1, x2, x3')" + name));
      out.push_back(combine(m, {{0.5, s[0], 0}, {0.125, s[1], 1}, {0.375, s[2], 1}}, "triangle (x1, x2', x3')" + name));
      // (The prism's diagonals x1-x2', x1-x3', x2-x3' lie on its side quads: the edges' diagonals above.)
    }
  }
  return out;
}

/// The velocity of the probe (point or edge) through a crossing: across the
/// surface, faster than the mesh moves relative to the shift.
Vec3 edge_direction(const Mesh& m, const Crossing& c);

Vec3 velocity(const Mesh& m, const Crossing& c, Motion motion, int k) {
  const Vec3 drift = motion == Motion::at_rest ? Vec3{0, 0, 0} : kShift;
  if (m.height_field) {
    // Up or down; every other probe also slides across the edge (or past the
    // vertex) at 1/8 of the edge length per unit time, which a gap between
    // inconsistent diagonals would let through.
    const Vec3 vertical = drift + Vec3{0, 0, k % 2 == 0 ? 1.0 : -1.0};
    return k % 4 < 2 ? vertical : vertical + 0.125 * edge_direction(m, c);
  }
  // Towards the centre (moving with the shift), half way by t=1.
  const Vec3 centre = m.centre + c.t * drift;
  return drift + 0.5 * (centre - c.x);
}

/// The direction of a probe edge at the crossing: across the mesh edge(s) there, and along the surface.
Vec3 edge_direction(const Mesh& m, const Crossing& c) {
  if (m.height_field) {
    if (c.edge[0] >= 0) {
      const Vec3 e = m.x0[c.edge[1]] - m.x0[c.edge[0]];
      return {-e.y, e.x, 0};
    }
    return {1, 0.375, 0};  // a vertex: not along any edge of the fan or the grid
  }
  const Vec3 inward = m.centre - c.x;
  const Vec3 along = c.edge[0] >= 0 ? m.x0[c.edge[1]] - m.x0[c.edge[0]] : Vec3{1, 2, 3};
  return cross(along, inward);
}

/// One batch: every crossing's probe against every element of the mesh.
struct Batch {
  QueryType type;
  std::vector<Query> queries;
  std::vector<SpacetimeIds> ids;
  std::vector<std::array<std::int32_t, 2>> pairs;  ///< for the indexed form
  std::vector<std::size_t> crossing_of;            ///< query -> crossing
  std::vector<Crossing> crossings;
  std::vector<Vec3> x0, x1;  ///< the mesh's vertices, then the probes'
  std::vector<Edge> edges;   ///< EE: the mesh's edges, then the probes'
};

/// Under SIMDCCD_TEST_SCALE < 1 (QEMU), a probe of a height field meets only
/// the elements with a vertex within this distance of its crossing (at the
/// crossing's time); else, and for the tetrahedron, every element.
double near_radius(const Mesh& m) {
  const char* s = std::getenv("SIMDCCD_TEST_SCALE");
  const bool cut = s != nullptr && std::atof(s) > 0 && std::atof(s) < 1;
  return cut && m.height_field ? 0.875 : std::numeric_limits<double>::infinity();
}

Batch make_batch(const Mesh& m, Motion motion, QueryType type) {
  const double radius = near_radius(m);
  Batch b{type, {}, {}, {}, {}, crossings(m, type), m.x0, m.x1, m.edges};
  constexpr double kHalfLength = 1.0 / 32;
  for (std::size_t k = 0; k < b.crossings.size(); ++k) {
    const Crossing& c = b.crossings[k];
    const Vec3 v = velocity(m, c, motion, int(k));
    const Vec3 u = kHalfLength * edge_direction(m, c);
    // The probe's vertices at t=0 and t=1: through c.x at c.t.
    const auto at = [&](Vec3 p, double tau) { return p + (tau - c.t) * v; };
    std::array<Vec3, 2> p0{}, p1{};
    if (type == VF) {
      p0[0] = at(c.x, 0), p1[0] = at(c.x, 1);
    } else {
      p0 = {at(c.x - u, 0), at(c.x + u, 0)};
      p1 = {at(c.x - u, 1), at(c.x + u, 1)};
    }
    const auto first = static_cast<std::int32_t>(b.x0.size());
    const int probe_points = type == VF ? 1 : 2;
    for (int i = 0; i < probe_points; ++i) b.x0.push_back(p0[i]), b.x1.push_back(p1[i]);
    if (type == EE) b.edges.push_back({first, first + 1});
    const std::size_t elements = type == VF ? m.faces.size() : m.edges.size();
    for (std::size_t e = 0; e < elements; ++e) {
      const auto near = [&](std::int32_t v) {
        const Vec3 d = (1 - c.t) * m.x0[v] + c.t * m.x1[v] - c.x;
        return d.x * d.x + d.y * d.y + d.z * d.z <= radius * radius;
      };
      const bool close = type == VF ? near(m.faces[e][0]) || near(m.faces[e][1]) || near(m.faces[e][2])
                                    : near(m.edges[e][0]) || near(m.edges[e][1]);
      if (!close) continue;
      Query q;
      SpacetimeIds ids;
      if (type == VF) {
        const Face& f = m.faces[e];
        q.points[0] = p0[0], q.points[4] = p1[0];
        ids.id[0] = first;
        for (int i = 0; i < 3; ++i) q.points[1 + i] = m.x0[f[i]], q.points[5 + i] = m.x1[f[i]], ids.id[1 + i] = f[i];
        b.pairs.push_back({first, std::int32_t(e)});
      } else {
        const Edge& me = m.edges[e];
        q.points[0] = p0[0], q.points[1] = p0[1], q.points[4] = p1[0], q.points[5] = p1[1];
        ids.id[0] = first, ids.id[1] = first + 1;
        for (int i = 0; i < 2; ++i) q.points[2 + i] = m.x0[me[i]], q.points[6 + i] = m.x1[me[i]], ids.id[2 + i] = me[i];
        b.pairs.push_back({std::int32_t(b.edges.size() - 1), std::int32_t(e)});
      }
      b.queries.push_back(q);
      b.ids.push_back(ids);
      b.crossing_of.push_back(k);
    }
  }
  return b;
}

using Answers = test::BatchAnswers;

bool same(const Answers& a, const Answers& b, std::size_t i) { return a.at(i) == b.at(i); }

/// Both forms of the batch: SoA with id arrays, and indexed (ids = indices).
struct Forms {
  std::vector<double> coords;
  std::vector<std::int64_t> id_storage;
  SoaQueries soa;
  SpacetimeIdArrays ids;
  IndexedQueries indexed;

  explicit Forms(const Batch& b, const std::vector<Face>& faces) {
    const std::size_t n = b.queries.size();
    coords.resize(24 * n);
    id_storage.resize(4 * n);
    soa.type = b.type;
    soa.count = n;
    for (int k = 0; k < 24; ++k) {
      double* column = coords.data() + k * n;
      soa.coord[k] = column;
      for (std::size_t i = 0; i < n; ++i) {
        const Vec3& p = b.queries[i].points[k / 3];
        column[i] = k % 3 == 0 ? p.x : k % 3 == 1 ? p.y : p.z;
      }
    }
    for (int p = 0; p < 4; ++p) {
      ids.id[p] = id_storage.data() + p * n;
      for (std::size_t i = 0; i < n; ++i) id_storage[p * n + i] = b.ids[i].id[p];
    }
    indexed.type = b.type;
    indexed.x0 = b.x0, indexed.x1 = b.x1, indexed.faces = faces, indexed.edges = b.edges, indexed.pairs = b.pairs;
  }
  Forms(const Forms&) = delete;
};

struct RestoreAuto {
  ~RestoreAuto() { set_implementation("auto"); }
};

/// Runs one implementation ("xsimd": the xsimd entry) in one mode on both forms; checks they agree.
Answers run(const std::string& impl, const Forms& f, Mode mode) {
  const std::size_t n = f.soa.count;
  Answers soa(n), indexed(n);
  const Options options{mode, kTolerance};
  BatchStats s1, s2;
  if (impl == "xsimd") {
    s1 = spacetime_ccd_xsimd(f.soa, f.ids, options, soa.view(), 0, n);
    s2 = spacetime_ccd_xsimd(f.indexed, options, indexed.view(), 0, n);
  } else {
    REQUIRE(set_implementation(impl));
    s1 = spacetime_ccd(f.soa, f.ids, options, soa.view(), 0, n);
    s2 = spacetime_ccd(f.indexed, options, indexed.view(), 0, n);
  }
  std::size_t differ = 0;
  for (std::size_t i = 0; i < n; ++i) differ += !same(soa, indexed, i);
  CHECK_MESSAGE(differ == 0, impl, " ", to_string(mode), ": the indexed form differs from the SoA form");
  CHECK(s1.invalid == 0);
  CHECK(s2.invalid == 0);
  return soa;
}

/// Checks one mode's answers: a hit for every crossing, tois bounded by t*.
void judge(const Batch& b, const std::vector<SpacetimeResult>& oracle, const Answers& a, Mode mode,
           const std::string& where) {
  std::vector<int> hits(b.crossings.size(), 0);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < b.queries.size(); ++i) {
    const Crossing& c = b.crossings[b.crossing_of[i]];
    hits[b.crossing_of[i]] += a.hit[i] == 1;
    bool ok = a.hit[i] <= 1 && a.status[i] != Status::invalid_input;
    if (mode != Mode::conservative) ok = ok && (a.hit[i] == 1) == oracle[i].hit;
    if (a.hit[i] == 1) {
      if (mode == Mode::conservative) ok = ok && a.toi[i] >= 0 && a.toi[i] <= c.t;
      if (mode == Mode::exact) ok = ok && a.toi[i] >= c.t - kTolerance && a.toi[i] <= c.t;
      if (mode == Mode::oracle) ok = ok && a.toi[i] == c.t;
    } else {
      ok = ok && a.toi[i] == std::numeric_limits<double>::infinity();
    }
    if (!ok && wrong++ < 5) {
      MESSAGE(where, ": ", c.what, " at t* = ", c.t, ", element ", b.pairs[i][1], ": hit ", int(a.hit[i]), " toi ",
              a.toi[i], " status ", to_string(a.status[i]), "; oracle hit ", oracle[i].hit, " toi ", oracle[i].toi_lo);
    }
  }
  CHECK_MESSAGE(wrong == 0, where);
  std::size_t missed = 0;
  for (std::size_t k = 0; k < hits.size(); ++k) {
    if (hits[k] == 0 && missed++ < 5) MESSAGE(where, ": no element hit by the probe through ", b.crossings[k].what);
  }
  CHECK_MESSAGE(missed == 0, where);
}

void check_mesh(Mesh m, Motion motion, QueryType type) {
  RestoreAuto restore;
  move(m, motion);
  const Batch b = make_batch(m, motion, type);
  const Forms forms(b, m.faces);
  const std::string where = m.name + " " + to_string(motion) + " " + std::string(to_string(type));

  // The oracle: every hit at the designed time exactly, and every crossing hit.
  std::vector<SpacetimeResult> oracle(b.queries.size());
  std::vector<int> oracle_hits(b.crossings.size(), 0);
  std::size_t early = 0;
  for (std::size_t i = 0; i < b.queries.size(); ++i) {
    oracle[i] = spacetime_exact_ccd(type, b.queries[i], b.ids[i]);
    const Crossing& c = b.crossings[b.crossing_of[i]];
    if (oracle[i].hit) {
      ++oracle_hits[b.crossing_of[i]];
      if (!(oracle[i].toi_lo == c.t && oracle[i].toi_hi == c.t) && early++ < 5) {
        MESSAGE(where, ": oracle contact of ", c.what, " with element ", b.pairs[i][1], " at ", oracle[i].toi_lo,
                ", designed ", c.t);
      }
    }
  }
  CHECK_MESSAGE(early == 0, where);
  for (std::size_t k = 0; k < oracle_hits.size(); ++k) {
    CHECK_MESSAGE(oracle_hits[k] > 0, where, ": the oracle misses the probe through ", b.crossings[k].what);
  }
  MESSAGE(where, ": ", b.crossings.size(), " crossings, ", b.queries.size(), " queries");

  std::vector<std::string> impls = runnable_implementations();
  impls.push_back("xsimd");
  for (const std::string& impl : impls) {
    for (Mode mode : {Mode::conservative, Mode::exact}) {
      judge(b, oracle, run(impl, forms, mode), mode, where + " on " + impl + " in " + std::string(to_string(mode)));
    }
  }
  judge(b, oracle, run(impls.front(), forms, Mode::oracle), Mode::oracle, where + " in oracle mode");
}

/// The motions to run: all three, or under SIMDCCD_TEST_SCALE < 1 (QEMU,
/// .ci/aarch64) per-vertex motion only for the grid, at rest and per-vertex
/// motion for the small meshes.
std::vector<Motion> motions(bool large) {
  const char* s = std::getenv("SIMDCCD_TEST_SCALE");
  const bool cut = s != nullptr && std::atof(s) > 0 && std::atof(s) < 1;
  if (!cut) return {Motion::at_rest, Motion::translating, Motion::per_vertex};
  if (large) return {Motion::per_vertex};
  return {Motion::at_rest, Motion::per_vertex};
}

TEST_CASE("spacetime watertight: triangle fan") {
  for (Motion motion : motions(false)) {
    for (QueryType type : {VF, EE}) check_mesh(fan(), motion, type);
  }
}

TEST_CASE("spacetime watertight: closed tetrahedron") {
  for (Motion motion : motions(false)) {
    for (QueryType type : {VF, EE}) check_mesh(tetrahedron(), motion, type);
  }
}

TEST_CASE("spacetime watertight: grid of 3 x 3 quads") {
  for (Motion motion : motions(true)) {
    for (QueryType type : {VF, EE}) check_mesh(grid(), motion, type);
  }
}

// Two faces share the edge a-b (face 1 on the side y < 0, face 2 on y > 0);
// a rises by 1 along z, every other vertex is at rest, so the edge's quad
// a b b' a' is not flat and its two diagonals a-b' and b-a' cut it
// differently. Over the edge's midpoint the quad cut by a-b' lies at
// z = max(0, t - 1/2), cut by b-a' at z = min(t, 1/2): between them at t = 1/2
// is a gap 0 < z < 1/2. A point at z = 1/4 crossing the edge at t = 1/2
// starts above the surface (z = 0 at t=0) and ends below it (at t=1 the faces
// reach z = 1/2 on the edge), so with either consistent choice of diagonal it
// must hit a face. When each face uses its own diagonal, the face it leaves
// ending at the lower cut (a-b') and the face it enters starting at the upper
// one (b-a'), it slips through the gap and both faces miss.
TEST_CASE("spacetime watertight: negative control, inconsistent diagonals leave a gap") {
  RestoreAuto restore;
  const Vec3 a{0, 0, 0}, b{1, 0, 0}, c1{0.5, -1, 0}, c2{0.5, 1, 0}, rise{0, 0, 1};
  // The probe: from (1/2, -y, 1/4) to (1/2, y, 1/4), over the midpoint at t = 1/2.
  const auto face_query = [&](Vec3 c, double y) {
    Query q;
    q.points = {Vec3{0.5, -y, 0.25}, a, b, c, Vec3{0.5, y, 0.25}, a + rise, b, c};
    return q;
  };
  // Ids (p, a, b, c): a < b (diagonal a-b') or b < a (diagonal b-a').
  const SpacetimeIds ab{{9, 0, 1, 2}}, ba{{9, 1, 0, 2}};
  struct Case {
    SpacetimeIds face1, face2;
    double y;  ///< the probe goes from face 1 to face 2 (y > 0) or back (y < 0)
    bool consistent;
  };
  const Case cases[] = {{ab, ab, 0.125, true},  {ab, ab, -0.125, true}, {ba, ba, 0.125, true},
                        {ba, ba, -0.125, true}, {ab, ba, 0.125, false}, {ba, ab, -0.125, false}};
  for (const Case& k : cases) {
    const Query q1 = face_query(c1, k.y), q2 = face_query(c2, k.y);
    const SpacetimeResult r1 = spacetime_exact_ccd(VF, q1, k.face1), r2 = spacetime_exact_ccd(VF, q2, k.face2);
    INFO("face 1 ids ", k.face1.id[1], k.face1.id[2], ", face 2 ids ", k.face2.id[1], k.face2.id[2], ", probe y ", k.y);
    if (k.consistent) {
      CHECK((r1.hit || r2.hit));
    } else {
      // The gap: both faces miss.
      CHECK(!r1.hit);
      CHECK(!r2.hit);
    }
    // The kernels agree: exact mode gives the oracle's answer.
    Batch batch{VF, {q1, q2}, {k.face1, k.face2}, {{0, 0}, {0, 1}}, {0, 0}, {}, {}, {}, {}};
    const std::vector<Face> no_faces;
    const Forms forms(batch, no_faces);
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      Answers out(2);
      spacetime_ccd(forms.soa, forms.ids, Options{Mode::exact, kTolerance}, out.view(), 0, 2);
      CHECK(out.hit[0] == r1.hit);
      CHECK(out.hit[1] == r2.hit);
    }
  }
}

}  // namespace
}  // namespace simdccd
