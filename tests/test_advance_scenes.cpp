// The benchmark scenes of conservative advancement (advance_scenes.hpp):
// - generators: triangle counts, closed and consistently outward (every
//   directed edge once, its reverse once; positive volume near the shape's),
//   no degenerate triangles;
// - scenes: deterministic per seed, trials finite with unit axes and angles
//   in [0, pi], fly-by starts with the bounding spheres apart, links listed
//   parents first, one joint value per link;
// - names: the list, unknown names rejected with the valid ones named;
// - the funnel frame without its ground plane.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "simdccd/advance_scenes.hpp"

namespace simdccd {
namespace {

constexpr double kPi = std::numbers::pi;

Vec3 sub(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double norm(const Vec3& a) { return std::sqrt(dot(a, a)); }

/// Every directed edge appears once and its reverse once: closed (each edge
/// in exactly two triangles) and consistently oriented.
bool closed_and_oriented(const TriangleSoup& soup) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (const auto& t : soup.triangles) {
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  }
  for (const auto& [edge, count] : directed) {
    const auto reverse = directed.find({edge.second, edge.first});
    if (count != 1 || reverse == directed.end() || reverse->second != 1) return false;
  }
  return true;
}

/// The signed volume (divergence theorem): positive when outward.
double volume(const TriangleSoup& soup) {
  double v = 0;
  for (const auto& t : soup.triangles) {
    v += dot(soup.vertices[t[0]], cross(soup.vertices[t[1]], soup.vertices[t[2]])) / 6;
  }
  return v;
}

/// The smallest triangle area over the square of its longest edge (0 for a
/// degenerate triangle; 0.433 for an equilateral one).
double worst_shape(const TriangleSoup& soup) {
  double worst = 1;
  for (const auto& t : soup.triangles) {
    const Vec3 &a = soup.vertices[t[0]], &b = soup.vertices[t[1]], &c = soup.vertices[t[2]];
    const double area = norm(cross(sub(b, a), sub(c, a))) / 2;
    const double longest = std::max({norm(sub(b, a)), norm(sub(c, b)), norm(sub(a, c))});
    worst = std::min(worst, area / (longest * longest));
  }
  return worst;
}

double reach(const TriangleSoup& soup) {
  double r = 0;
  for (const Vec3& v : soup.vertices) r = std::max(r, norm(v));
  return r;
}

bool same_bits(const RigidPath& a, const RigidPath& b) {
  return std::memcmp(&a.start, &b.start, sizeof(Pose)) == 0 && std::memcmp(&a.velocity, &b.velocity, sizeof(Vec3)) == 0 &&
         std::memcmp(&a.axis, &b.axis, sizeof(Vec3)) == 0 && a.angle == b.angle;
}

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

void check_path(const RigidPath& path) {
  for (double r : path.start.R) CHECK(std::isfinite(r));
  CHECK(finite(path.start.x));
  CHECK(finite(path.velocity));
  CHECK(norm(path.axis) == doctest::Approx(1).epsilon(1e-12));
  CHECK(path.angle >= 0);
  CHECK(path.angle <= kPi);
}

void check_articulated_path(const ArticulatedPath& path, const ArticulatedModel& model) {
  check_path(path.base);
  REQUIRE(path.q0.size() == model.links.size());
  REQUIRE(path.q1.size() == model.links.size());
  for (std::size_t k = 0; k < path.q0.size(); ++k) {
    CHECK(std::isfinite(path.q0[k]));
    CHECK(std::isfinite(path.q1[k]));
  }
}

void check_links(const ArticulatedModel& model) {
  for (std::size_t i = 0; i < model.links.size(); ++i) {
    const Link& link = model.links[i];
    CHECK(link.parent < static_cast<std::int32_t>(i));
    CHECK(link.parent >= (i == 0 ? -1 : 0));
    CHECK(norm(link.axis) == doctest::Approx(1).epsilon(1e-12));
    REQUIRE(link.model != nullptr);
    CHECK(closed_and_oriented(link.model->soup));
  }
}

}  // namespace

TEST_CASE("advance scenes: generators are closed, outward and without degenerate triangles") {
  SUBCASE("torus knot: the paper's 34.6k triangles, the tube's volume") {
    const TriangleSoup knot = torus_knot(2, 3, 720, 24, 0.6, 0.25, 0.1);
    CHECK(knot.triangles.size() == 34560);
    CHECK(closed_and_oriented(knot));
    CHECK(worst_shape(knot) > 0.1);
    // The 24-gon's area times the curve's length (8.974 for these radii).
    CHECK(volume(knot) == doctest::Approx(12 * std::sin(2 * kPi / 24) * 0.01 * 8.974).epsilon(0.01));
    CHECK(reach(knot) <= 0.95 + 1e-12);
  }
  SUBCASE("gear: 25.6k triangles, between the root and tip discs") {
    const TriangleSoup g = gear(20, 1, 0.3, 40);
    CHECK(g.triangles.size() == 25600);
    CHECK(closed_and_oriented(g));
    CHECK(worst_shape(g) > 1e-4);
    const GearProfile p = gear_profile(20, 1);
    const double v = volume(g);
    CHECK(v > 0.3 * kPi * (p.root * p.root - p.hole * p.hole));
    CHECK(v < 0.3 * kPi * (p.tip * p.tip - p.hole * p.hole));
    CHECK(reach(g) == doctest::Approx(std::hypot(1.0, 0.15)));
    CHECK_THROWS_AS(gear(10, 1, 0.3, 4), std::invalid_argument);
  }
  SUBCASE("uv sphere and box") {
    const TriangleSoup s = uv_sphere(2, 16, 32);
    CHECK(s.triangles.size() == 2 * 32 * 15);
    CHECK(closed_and_oriented(s));
    CHECK(worst_shape(s) > 0.01);
    CHECK(volume(s) == doctest::Approx(4 * kPi * 8 / 3).epsilon(0.03));
    const TriangleSoup b = box({0.5, 1, 2});
    CHECK(b.triangles.size() == 12);
    CHECK(closed_and_oriented(b));
    CHECK(volume(b) == doctest::Approx(8));
  }
  SUBCASE("invalid arguments") {
    CHECK_THROWS_AS(torus_knot(2, 4, 100, 8, 1, 0.3, 0.1), std::invalid_argument);
    CHECK_THROWS_AS(torus_knot(2, 3, 2, 8, 1, 0.3, 0.1), std::invalid_argument);
    CHECK_THROWS_AS(uv_sphere(1, 1, 8), std::invalid_argument);
  }
}

TEST_CASE("advance scenes: rigid trials are valid, fly-bys start apart, deterministic per seed") {
  for (const char* name : {"cubes", "torusknot", "gear"}) {
    CAPTURE(name);
    const RigidScene scene = rigid_scene(name, 16, 7);
    CHECK(scene.name == name);
    REQUIRE(scene.trials.size() == 16);
    REQUIRE(scene.a != nullptr);
    REQUIRE(scene.b != nullptr);
    const double span = reach(scene.a->soup) + reach(scene.b->soup);
    for (const RigidTrial& trial : scene.trials) {
      check_path(trial.path_a);
      check_path(trial.path_b);
      CHECK(trial.path_b.angle == 0);
      CHECK(norm(trial.path_b.velocity) == 0);
      // b still at the origin; a's ends outside its reach (fly-bys) or at
      // gear meshing distance.
      const double start = norm(trial.path_a.start.x);
      const double end = norm(pose_at(trial.path_a, 1).x);
      if (std::string(name) == "gear") {
        CHECK(start > 1.8);
        CHECK(start < 2.2);
      } else {
        CHECK(start > span);
        CHECK(end > span);
      }
    }
    const RigidScene again = rigid_scene(name, 16, 7), other = rigid_scene(name, 16, 8);
    for (std::size_t i = 0; i < scene.trials.size(); ++i) {
      CHECK(same_bits(scene.trials[i].path_a, again.trials[i].path_a));
      CHECK_FALSE(same_bits(scene.trials[i].path_a, other.trials[i].path_a));
    }
  }
}

TEST_CASE("advance scenes: articulated models list parents first, trials are valid and deterministic") {
  const ArticulatedScene chain = articulated_scene("chain", 8, 3);
  CHECK(chain.a.links.size() == 15);
  CHECK(chain.b.links.size() == 1);
  const ArticulatedScene hand = articulated_scene("hand", 8, 3);
  CHECK(hand.a.links.size() == 21);
  CHECK(hand.b.links.size() == 1);
  for (const ArticulatedScene* scene : {&chain, &hand}) {
    CAPTURE(scene->name);
    check_links(scene->a);
    check_links(scene->b);
    REQUIRE(scene->trials.size() == 8);
    for (const ArticulatedTrial& trial : scene->trials) {
      check_articulated_path(trial.path_a, scene->a);
      check_articulated_path(trial.path_b, scene->b);
    }
    const ArticulatedScene again = articulated_scene(scene->name, 8, 3);
    for (std::size_t i = 0; i < scene->trials.size(); ++i) {
      CHECK(again.trials[i].path_a.q1 == scene->trials[i].path_a.q1);
      CHECK(same_bits(again.trials[i].path_b.base, scene->trials[i].path_b.base));
    }
  }
}

TEST_CASE("advance scenes: names") {
  const std::vector<std::string> names = advance_scene_names();
  CHECK(names == std::vector<std::string>{"torusknot", "gear", "cubes", "chain", "hand"});
  CHECK(is_articulated_scene("chain"));
  CHECK(is_articulated_scene("hand"));
  CHECK_FALSE(is_articulated_scene("gear"));
  CHECK_FALSE(is_articulated_scene("nonsense"));
  CHECK_THROWS_AS(rigid_scene("chain", 1, 0), std::invalid_argument);
  CHECK_THROWS_AS(articulated_scene("gear", 1, 0), std::invalid_argument);
  CHECK_THROWS_AS(rigid_scene("cubes", -1, 0), std::invalid_argument);
  try {
    rigid_scene("nonsense", 1, 0);
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK(what.find("nonsense") != std::string::npos);
    for (const std::string& name : names) CHECK(what.find(name) != std::string::npos);
  }
}

TEST_CASE("advance scenes: meshes from data, without ground planes") {
  SUBCASE("a flat component is dropped and the vertices renumbered") {
    PlyMesh frame;
    frame.vertices = {{5, 5, 0}, {6, 5, 0}, {5, 6, 0},               // flat (z = 0)
                      {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};  // a tetrahedron
    frame.faces = {{0, 1, 2}, {3, 5, 4}, {3, 4, 6}, {4, 5, 6}, {3, 6, 5}};
    const TriangleSoup soup = frame_soup(frame);
    CHECK(soup.vertices.size() == 4);
    CHECK(soup.triangles.size() == 4);
    CHECK(closed_and_oriented(soup));
    const RigidScene scene = rigid_scene_from_mesh("tetra", soup, 4, 1);
    CHECK(scene.name == "tetra");
    CHECK(scene.trials.size() == 4);
    // Centered at the box center (0.5, 0.5, 0.5).
    CHECK(scene.a->soup.vertices[0].x == -0.5);
  }
  SUBCASE("the bundled funnel frame: cloth, funnel and ball; no floor") {
    const RigidScene scene = funnel_scene(std::string(SIMDCCD_TEST_DATA "/simulation/") + std::string(kFunnelFrame), 4, 1);
    CHECK(scene.a->soup.triangles.size() == 18484 - 200);
    CHECK(reach(scene.a->soup) < 1.1);
    for (const RigidTrial& trial : scene.trials) check_path(trial.path_a);
  }
}

}  // namespace simdccd
