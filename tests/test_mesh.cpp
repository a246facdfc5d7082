// Meshes: edge extraction, the data set's element numbering, input checks.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "scenes.hpp"
#include "simdccd/io/query_csv.hpp"
#include "simdccd/mesh.hpp"

namespace simdccd {
namespace {

TEST_CASE("mesh.edges are unique, a < b, sorted by (b, a)") {
  // Two triangles sharing edge 1-2, a third sharing vertex 0 only; listed by hand.
  const std::vector<Triangle> faces = {{0, 1, 2}, {2, 1, 3}, {4, 0, 5}};
  const std::vector<Edge> expected = {{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}, {0, 4}, {0, 5}, {4, 5}};
  CHECK(extract_edges(faces) == expected);
  CHECK(extract_edges({}).empty());
}

TEST_CASE("mesh.data set ids map to mesh pairs, and only those of the mesh") {
  // 4 vertices, 5 edges, 2 faces: vertex ids 0-3, edge ids 4-8, face ids 9-10.
  const Mesh m = make_mesh(std::vector<Vec3>(4), std::vector<Vec3>(4), {{0, 1, 2}, {2, 1, 3}});
  const ElementIds ids(m);
  using Pair = std::array<std::int32_t, 2>;
  CHECK(ids.mesh_pair(QueryType::vertex_face, 3, 10) == Pair{3, 1});
  CHECK(ids.mesh_pair(QueryType::vertex_face, 0, 9) == Pair{0, 0});
  CHECK_FALSE(ids.mesh_pair(QueryType::vertex_face, 4, 10));   // an edge id, not a vertex
  CHECK_FALSE(ids.mesh_pair(QueryType::vertex_face, 3, 11));   // past the last face
  CHECK_FALSE(ids.mesh_pair(QueryType::vertex_face, 3, 8));    // an edge id, not a face
  CHECK(ids.mesh_pair(QueryType::edge_edge, 8, 5) == Pair{1, 4});  // ascending
  CHECK_FALSE(ids.mesh_pair(QueryType::edge_edge, 3, 5));      // a vertex id
  CHECK_FALSE(ids.mesh_pair(QueryType::edge_edge, 5, 9));      // a face id
}

TEST_CASE("mesh.element ids rebuild the data set's queries") {
  // Each row of queries/<n>vf.csv and <n>ee.csv is built from the vertices of
  // the pair listed in boxes/ (tests/data/simulation/README.md): our edge and
  // face numbering must give the very same points.
  for (const test::Scene& scene : {test::kScenes[0], test::kScenes[1]}) {
    CAPTURE(scene.name);
    const Mesh mesh = scene.mesh();
    for (const bool vf : {true, false}) {
      const auto listed = test::listed_pairs(scene, mesh, vf);
      const QueryFile file = read_query_csv(scene.dir() / "queries" / (scene.step + (vf ? "vf.csv" : "ee.csv")));
      REQUIRE(file.queries.size() == listed.size());
      for (std::size_t k = 0; k < listed.size(); ++k) {
        const auto [a, b] = listed[k].pair;
        std::array<std::int32_t, 4> v{};
        if (vf) {
          v = {a, mesh.faces[b][0], mesh.faces[b][1], mesh.faces[b][2]};
        } else {
          v = {mesh.edges[a][0], mesh.edges[a][1], mesh.edges[b][0], mesh.edges[b][1]};
        }
        Query expected;
        for (int p = 0; p < 4; ++p) expected.points[p] = mesh.x0[v[p]], expected.points[p + 4] = mesh.x1[v[p]];
        if (to_double(file.queries[k]) != expected) FAIL_CHECK("pair " << k << " of " << (vf ? "vf" : "ee"));
      }
    }
  }
}

TEST_CASE("mesh.make_mesh rejects inconsistent input") {
  const std::vector<Vec3> three(3), two(2);
  CHECK_NOTHROW(make_mesh(three, three, {{0, 1, 2}}));
  CHECK_THROWS_AS(make_mesh(three, two, {}), std::invalid_argument);
  CHECK_THROWS_AS(make_mesh(three, three, {{0, 1, 3}}), std::invalid_argument);
  CHECK_THROWS_AS(make_mesh(three, three, {{-1, 1, 2}}), std::invalid_argument);
  std::vector<Vec3> nan = three;
  nan[1].y = NAN;
  CHECK_THROWS_AS(make_mesh(three, nan, {}), std::invalid_argument);
}

TEST_CASE("mesh.read_mesh rejects frames of different meshes") {
  const test::Scene& cloth = test::kScenes[0];
  const test::Scene& rod = test::kScenes[1];
  CHECK_THROWS_AS(read_mesh(cloth.dir() / "frames" / cloth.frame0, rod.dir() / "frames" / rod.frame0),
                  std::invalid_argument);
  const Mesh m = cloth.mesh();
  CHECK(m.x0.size() == 9450);
  CHECK(m.edges.size() == 27930);
  CHECK(m.faces.size() == 18484);
}

TEST_CASE("mesh.transform moves both frames by the pose, faces and edges kept") {
  // A quarter turn about z (x -> y, y -> -x) then a shift by (1, 2, 3): exact
  // in doubles, so (1, 0, 0) lands on (1, 3, 3) and (0, 1, 0) on (0, 2, 3).
  Mesh m = make_mesh({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 1, 0}, {0, 0, 0}, {2, 0, 0}}, {{0, 1, 2}});
  const std::vector<Edge> edges = m.edges;
  transform(m, Pose{{0, -1, 0, 1, 0, 0, 0, 0, 1}, {1, 2, 3}});
  CHECK(m.x0 == std::vector<Vec3>{{1, 3, 3}, {0, 2, 3}, {1, 2, 4}});
  CHECK(m.x1 == std::vector<Vec3>{{0, 2, 3}, {1, 2, 3}, {1, 4, 3}});
  CHECK(m.faces == std::vector<Triangle>{{0, 1, 2}});
  CHECK(m.edges == edges);
}

}  // namespace
}  // namespace simdccd
