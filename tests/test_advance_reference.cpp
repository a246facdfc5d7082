// The references of conservative advancement (advance_reference.hpp) on
// hand-derived cases, the geometry and the expected answer in each comment,
// and against each other on random soups.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <random>
#include <stdexcept>

#include "simdccd/advance_reference.hpp"

namespace simdccd {
namespace {

constexpr double kPi = std::numbers::pi;

// The box [lo, hi], 12 triangles (built here: the references' tests use
// nothing of the advancement code).
TriangleSoup box_soup(const Vec3& lo, const Vec3& hi) {
  TriangleSoup s;
  for (int i = 0; i < 8; ++i) s.vertices.push_back({i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z});
  s.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                 {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return s;
}
TriangleSoup unit_cube() { return box_soup({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}); }

TriangleSoup triangle_soup(const Vec3& a, const Vec3& b, const Vec3& c) { return {{a, b, c}, {{0, 1, 2}}}; }

RigidPath moving(const Vec3& from, const Vec3& velocity) {
  RigidPath p;
  p.start.x = from;
  p.velocity = velocity;
  return p;
}
RigidPath still(const Pose& pose = {}) {
  RigidPath p;
  p.start = pose;
  return p;
}

// a: the rod [0, 2] x [-0.1, 0] x [-0.1, 0.1] (its top face y = 0) turning
// about z through the origin by pi/2; b: the box [0, 3] x [1, 2] x [-1, 1].
// The rod's top far corner (2, 0) is at (2 cos theta, 2 sin theta), the
// highest point of the rod, and reaches b's bottom face y = 1 (x = 2 cos
// theta = sqrt(3) lies in [0, 3]) at theta = pi/6: t* = (pi/6) / (pi/2) = 1/3.
TriangleSoup rod() { return box_soup({0, -0.1, -0.1}, {2, 0, 0.1}); }
TriangleSoup rod_target() { return box_soup({0, 1, -1}, {3, 2, 1}); }

/// Random triangles with vertices in the ball of radius `radius`.
TriangleSoup random_soup(std::mt19937_64& random, int triangles, double radius) {
  std::uniform_real_distribution<double> u(-radius, radius);
  TriangleSoup s;
  while (static_cast<int>(s.triangles.size()) < triangles) {
    const Vec3 c{u(random), u(random), u(random)};
    if (c.x * c.x + c.y * c.y + c.z * c.z > radius * radius) continue;
    const auto base = static_cast<std::uint32_t>(s.vertices.size());
    for (int k = 0; k < 3; ++k) s.vertices.push_back({c.x + u(random) / 3, c.y + u(random) / 3, c.z + u(random) / 3});
    s.triangles.push_back({base, base + 1, base + 2});
  }
  return s;
}

}  // namespace

TEST_CASE("advance reference: exact first contact of a cube translated through a cube") {
  // a: unit cube from (-3, 0, 0) moving by (6, 0, 0); b: unit cube at the
  // origin. a's face x = -2.5 + 6t meets b's face x = -0.5 at t* = 1/3
  // (face on face: vertex-face and edge-edge pairs all touch then).
  const ExactContact e = exact_first_contact(unit_cube(), {-3, 0, 0}, {6, 0, 0}, {0, 0, 1}, 0, unit_cube(), Pose{});
  CHECK(e.contact);
  CHECK(std::abs(e.toc - 1.0 / 3) <= 1e-15);
  CHECK(e.toc <= 1.0 / 3);
  CHECK(e.feature_pairs > 0);
  // Moving the other way from the other side: the same instant.
  const ExactContact back = exact_first_contact(unit_cube(), {3, 0, 0}, {-6, 0, 0}, {0, 0, 1}, 0, unit_cube(), Pose{});
  CHECK(std::abs(back.toc - 1.0 / 3) <= 1e-15);
}

TEST_CASE("advance reference: exact first contact that only a vertex of the still model makes") {
  // b: the tetrahedron with apex (0, 0.1, 0.2) and base at x = 1 (it points
  // at -x); a: unit cube from (-3, 0, 0) by (6, 0, 0). a's face x = -2.5 + 6t
  // meets the apex at t* = 2.5 / 6 = 5/12, inside the face (|y|, |z| < 0.5):
  // a vertex of b against a face of a (the moving face's pair).
  TriangleSoup tetra{{{0, 0.1, 0.2}, {1, -1, -1}, {1, 1, -1}, {1, 0, 1}}, {{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}}};
  const ExactContact e = exact_first_contact(unit_cube(), {-3, 0, 0}, {6, 0, 0}, {0, 0, 1}, 0, tetra, Pose{});
  CHECK(e.contact);
  CHECK(std::abs(e.toc - 5.0 / 12) <= 1e-15);
}

TEST_CASE("advance reference: exact first contact of two crossing edges") {
  // a: the triangle (0, 0, -1), (0, 0, 1), (-1, 0, 0) (leading edge on the z
  // axis) moving by (2, 0, 0); b: the triangle (1, -1, 0), (1, 1, 0), (2, 0, 0)
  // (leading edge along y at x = 1). The edges cross at (1, 0, 0) at t* = 1/2;
  // a's trailing vertex reaches b's edge only at t = 1.
  const TriangleSoup a = triangle_soup({0, 0, -1}, {0, 0, 1}, {-1, 0, 0});
  const TriangleSoup b = triangle_soup({1, -1, 0}, {1, 1, 0}, {2, 0, 0});
  const ExactContact e = exact_first_contact(a, {0, 0, 0}, {2, 0, 0}, {0, 0, 1}, 0, b, Pose{});
  CHECK(e.contact);
  CHECK(e.toc == 0.5);
  // Lifted by 1.5 in z, a's edge passes above b: no contact.
  const ExactContact miss = exact_first_contact(a, {0, 0, 1.5}, {2, 0, 0}, {0, 0, 1}, 0, b, Pose{});
  CHECK_FALSE(miss.contact);
  CHECK(miss.toc == 1);
}

TEST_CASE("advance reference: exact first contact of a turning rod") {
  // The rod of rod() against rod_target(): t* = 1/3 (see rod()).
  const ExactContact e = exact_first_contact(rod(), {0, 0, 0}, {}, {0, 0, 1}, kPi / 2, rod_target(), Pose{});
  CHECK(e.contact);
  CHECK(std::abs(e.toc - 1.0 / 3) <= 1e-12);
  // The same turn as a negative angle about -z.
  const ExactContact flipped = exact_first_contact(rod(), {0, 0, 0}, {}, {0, 0, -1}, -kPi / 2, rod_target(), Pose{});
  CHECK(std::abs(flipped.toc - 1.0 / 3) <= 1e-12);
  // Turning by pi/7 < pi/6 the rod stops short.
  const ExactContact short_turn = exact_first_contact(rod(), {0, 0, 0}, {}, {0, 0, 1}, kPi / 7, rod_target(), Pose{});
  CHECK_FALSE(short_turn.contact);
  // A half turn (pi): the same contact at (pi/6) / pi = 1/6.
  const ExactContact half = exact_first_contact(rod(), {0, 0, 0}, {}, {0, 0, 1}, kPi, rod_target(), Pose{});
  CHECK(std::abs(half.toc - 1.0 / 6) <= 1e-12);
}

TEST_CASE("advance reference: exact first contact against a turned still cube, and a miss") {
  // b: unit cube turned 45 degrees about z: its vertical edge at
  // x = -sqrt(1/2) faces a's face x = -2.5 + 6t: t* = (2.5 - sqrt(1/2)) / 6.
  const Pose turned = pose_from_axis_angle({0, 0, 1}, kPi / 4);
  const ExactContact e = exact_first_contact(unit_cube(), {-3, 0, 0}, {6, 0, 0}, {0, 0, 1}, 0, unit_cube(), turned);
  CHECK(e.contact);
  CHECK(std::abs(e.toc - (2.5 - std::sqrt(0.5)) / 6) <= 1e-12);
  // a along y = 1.2: its face y = 0.7 passes 0.2 above b's face y = 0.5.
  const ExactContact miss = exact_first_contact(unit_cube(), {-3, 1.2, 0}, {6, 0, 0}, {0, 0, 1}, 0, unit_cube(), Pose{});
  CHECK_FALSE(miss.contact);
  CHECK(miss.toc == 1);
}

TEST_CASE("advance reference: exact first contact of models that start crossing") {
  // a: unit cube at (0.7, 0.1, 0.2), b: unit cube at the origin: a's edges
  // cross b's face x = 0.5 (no vertex on a face, no edges touching): in
  // contact at 0, whatever the motion, and no feature pair is needed.
  const ExactContact e = exact_first_contact(unit_cube(), {0.7, 0.1, 0.2}, {1, 0, 0}, {0, 0, 1}, 0, unit_cube(), Pose{});
  CHECK(e.contact);
  CHECK(e.toc == 0);
  CHECK(e.feature_pairs == 0);
}

TEST_CASE("advance reference: exact first contact rejects invalid input") {
  const TriangleSoup c = unit_cube();
  CHECK_THROWS_AS(exact_first_contact(c, {}, {1, 0, 0}, {0, 0, 1}, 0.5, c, Pose{}), std::invalid_argument);
  CHECK_THROWS_AS(exact_first_contact(c, {}, {}, {0, 0, 1}, 4, c, Pose{}), std::invalid_argument);
  CHECK_THROWS_AS(exact_first_contact(c, {NAN, 0, 0}, {1, 0, 0}, {0, 0, 1}, 0, c, Pose{}), std::invalid_argument);
  TriangleSoup bad = c;
  bad.triangles[0][1] = 8;
  CHECK_THROWS_AS(exact_first_contact(bad, {}, {1, 0, 0}, {0, 0, 1}, 0, c, Pose{}), std::invalid_argument);
}

TEST_CASE("advance reference: certify_separation of a cube translated at a cube") {
  // As the exact case: contact at t* = 1/3; the gap is 2 - 6t before.
  const TriangleSoup cube = unit_cube();
  const RigidPath pa = moving({-3, 0, 0}, {6, 0, 0});
  CHECK(certify_separation(cube, pa, cube, still(), 0, 1.0 / 3 - 1e-3) == true);
  CHECK(certify_separation(cube, pa, cube, still(), 0, 1.0 / 3 - 1e-7) == true);
  CHECK(certify_separation(cube, pa, cube, still(), 0.3, 0.3) == true);
  // Intervals holding the contact are never certified; with b smaller and
  // off center (no coplanar edges), a's face certainly cuts b's edges after t*
  // = (2.5 - 0.25) / 6: false.
  CHECK(certify_separation(cube, pa, cube, still(), 0, 1.0 / 3 + 1e-3) != true);
  CHECK(certify_separation(cube, pa, cube, still(), 0.3, 0.4) != true);
  const TriangleSoup small = box_soup({-0.25, -0.15, -0.2}, {0.25, 0.35, 0.3});
  CHECK(certify_separation(cube, pa, small, still(), 0, 1) == false);
  CHECK(certify_separation(cube, pa, small, still(), 0.3, 0.38) == false);
  CHECK(certify_separation(cube, pa, small, still(), 0, 2.25 / 6 - 1e-4) == true);
  // Beside: a along y = 1.2 stays 0.2 away over the whole move.
  CHECK(certify_separation(cube, moving({-3, 1.2, 0}, {6, 0, 0}), cube, still(), 0, 1) == true);
  // Grazing: along y = 1 a's face y = 0.5 slides on b's face y = 0.5 from
  // t = 1/3 to 2/3. Touching is never certified, nor certainly a contact.
  CHECK_FALSE(certify_separation(cube, moving({-3, 1, 0}, {6, 0, 0}), cube, still(), 0, 1, 1e-6).has_value());
}

TEST_CASE("advance reference: certify_separation of both models moving, and turned") {
  // a from (-3, 0, 0) by (3, 0, 0), b from (3, 0, 0) by (-3, 0, 0), b turned
  // 45 degrees about z: a's face x = -2.5 + 3t meets b's edge at
  // x = 3 - 3t - sqrt(1/2) when 6t = 5.5 - sqrt(1/2): t* = 0.798815...
  const TriangleSoup cube = unit_cube();
  RigidPath pb = moving({3, 0, 0}, {-3, 0, 0});
  pb.start.R = pose_from_axis_angle({0, 0, 1}, kPi / 4).R;
  const double t_star = (5.5 - std::sqrt(0.5)) / 6;
  CHECK(certify_separation(cube, moving({-3, 0, 0}, {3, 0, 0}), cube, pb, 0, t_star - 1e-4) == true);
  CHECK(certify_separation(cube, moving({-3, 0, 0}, {3, 0, 0}), cube, pb, 0, t_star + 1e-2) == false);
}

TEST_CASE("advance reference: certify_separation of a spinning cube and a turning rod") {
  // a: unit cube spinning about its center by pi about (1, 2, 3)/|.| while
  // moving from (-3, 0, 0) by (6, 0, 0); b: unit cube at the origin. a lies
  // within sqrt(3)/2 of its center, which is 2.5 - 6t - sqrt(3)/2 > 0 from
  // b's face x = -0.5 up to t = 0.2723: apart on [0, 0.27]. a holds the ball
  // of radius 1/2 about its center, which enters b by 0.04 at t = 0.34.
  RigidPath pa = moving({-3, 0, 0}, {6, 0, 0});
  const double n = std::sqrt(14.0);
  pa.axis = {1 / n, 2 / n, 3 / n};
  pa.angle = kPi;
  const TriangleSoup cube = unit_cube();
  CHECK(certify_separation(cube, pa, cube, still(), 0, 0.27) == true);
  CHECK(certify_separation(cube, pa, cube, still(), 0, 0.34) == false);
  // The rod of rod(): apart until t* = 1/3.
  RigidPath turn;
  turn.angle = kPi / 2;
  CHECK(certify_separation(rod(), turn, rod_target(), still(), 0, 1.0 / 3 - 1e-4) == true);
  CHECK(certify_separation(rod(), turn, rod_target(), still(), 0, 0.4) == false);
  // A prebuilt tree gives the same answers.
  const ReferenceTree tree_a(rod()), tree_b(rod_target());
  CHECK(certify_separation(tree_a, turn, tree_b, still(), 0, 1.0 / 3 - 1e-4) == true);
  CHECK(certify_separation(tree_a, turn, tree_b, still(), 0, 0.4) == false);
}

TEST_CASE("advance reference: certify_separation of a rod turning past the top") {
  // The rod of rod() turning by 5 radians about z; b: the box [-0.5, 0.5] x
  // [1.999, 3] x [-1, 1]. The rod's highest point, its top far corner (2, 0)
  // at height 2 sin theta, rises above b's face y = 1.999 only for |theta -
  // pi/2| < acos(0.9995) = 0.0316 (x = 2 cos theta within [-0.5, 0.5]), and
  // pokes 0.001 through it at pi/2: contact from t = (pi/2 - 0.0316) / 5 =
  // 0.3078. The pieces around t = pi/10 must enclose the peak of sin.
  RigidPath turn;
  turn.angle = 5;
  const TriangleSoup lid = box_soup({-0.5, 1.999, -1}, {0.5, 3, 1});
  CHECK(certify_separation(rod(), turn, lid, still(), 0, 0.3) == true);
  CHECK(certify_separation(rod(), turn, lid, still(), 0, 1) == false);
  CHECK(certify_separation(rod(), turn, lid, still(), 0.25, 0.375) == false);
}

TEST_CASE("advance reference: certify_separation of coplanar triangles") {
  // In the plane z = 0: a = (0, 0), (1, 0), (0, 1) below the line x + y = 1
  // and b = (1.2, 0), (0, 1.2), (5, -3.5) above x + y = 1.2. Their boxes
  // overlap, and only an in-plane axis, (1, 1), separates them (the normals
  // and edge cross products are all along z; the centroids' offset does not).
  // a moving by (0.2, 0.2, 0) closes the gap at t = 1/2.
  const TriangleSoup a = triangle_soup({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  const TriangleSoup b = triangle_soup({1.2, 0, 0}, {0, 1.2, 0}, {5, -3.5, 0});
  CHECK(certify_separation(a, still(), b, still(), 0, 1) == true);
  CHECK(certify_separation(a, moving({}, {0.2, 0.2, 0}), b, still(), 0, 0.45) == true);
  CHECK(certify_separation(a, moving({}, {0.2, 0.2, 0}), b, still(), 0, 0.6) != true);
}

TEST_CASE("advance reference: certify_separation rejects invalid input") {
  const TriangleSoup cube = unit_cube();
  CHECK_THROWS_AS(certify_separation(cube, still(), cube, still(), 1, 0), std::invalid_argument);
  CHECK_THROWS_AS(certify_separation(cube, still(), cube, still(), 0, NAN), std::invalid_argument);
  CHECK_THROWS_AS(certify_separation(cube, moving({}, {NAN, 0, 0}), cube, still(), 0, 1), std::invalid_argument);
  // A model without triangles is apart from anything, and infinitely far.
  CHECK(certify_separation(TriangleSoup{}, still(), cube, still(), 0, 1) == true);
  CHECK(reference_distance(TriangleSoup{}, Pose{}, cube, Pose{}).distance == INFINITY);
}

TEST_CASE("advance reference: the box tree") {
  // Two boxes side by side: 24 triangles, 47 nodes; the root's box is the
  // union [-0.5, 2.5] x [-0.5, 0.5]^2, each leaf's box its triangle's.
  TriangleSoup s = unit_cube(), right = box_soup({1.5, -0.5, -0.5}, {2.5, 0.5, 0.5});
  for (auto t : right.triangles) s.triangles.push_back({t[0] + 8, t[1] + 8, t[2] + 8});
  s.vertices.insert(s.vertices.end(), right.vertices.begin(), right.vertices.end());
  const ReferenceTree tree(s);
  REQUIRE(tree.nodes.size() == 47);
  CHECK(tree.nodes[0].count == 24);
  CHECK(tree.nodes[0].lo == Vec3{-0.5, -0.5, -0.5});
  CHECK(tree.nodes[0].hi == Vec3{2.5, 0.5, 0.5});
  int leaves = 0;
  for (const ReferenceTree::Node& n : tree.nodes) {
    if (n.count != 1) {
      CHECK(tree.nodes[n.first].count + tree.nodes[n.first + 1].count == n.count);
      continue;
    }
    ++leaves;
    for (const std::uint32_t v : s.triangles[n.first]) {
      const Vec3& p = s.vertices[v];
      CHECK((n.lo.x <= p.x && p.x <= n.hi.x && n.lo.y <= p.y && p.y <= n.hi.y && n.lo.z <= p.z && p.z <= n.hi.z));
    }
  }
  CHECK(leaves == 24);
  // The first split (along x) separates the boxes.
  CHECK(tree.nodes[1].hi.x == 0.5);
  CHECK(tree.nodes[2].lo.x == 1.5);
  s.triangles[3][2] = 16;
  CHECK_THROWS_AS(ReferenceTree{s}, std::invalid_argument);
}

TEST_CASE("advance reference: reference_distance of hand-derived configurations") {
  const TriangleSoup cube = unit_cube();
  SUBCASE("parallel faces") {
    // a's face x = -1.5 (a at (-2, 0, 0)) and b's face x = -0.5: distance 1.
    Pose pa;
    pa.x = {-2, 0, 0};
    const ReferenceDistance d = reference_distance(cube, pa, cube, Pose{});
    CHECK(d.distance == 1);
    CHECK(d.error <= 1e-15);
    // The same far from the origin: the poses' offset is exact in doubles.
    pa.x = {1e6 - 2, 5e5, -3e5};
    Pose pb;
    pb.x = {1e6, 5e5, -3e5};
    CHECK(reference_distance(cube, pa, cube, pb).distance == 1);
  }
  SUBCASE("skew edges, posed") {
    // a: the edge (-1, 0, 0)-(1, 0, 0) of a triangle in z = 0, y <= 0; b: the
    // edge (-1, 0, 1)-(1, 0, 1) of a triangle in y = 0, z >= 1, turned about
    // z by phi: every point of b has z >= 1, the edges' lines at heights 0
    // and 1 cross in projection at the origin: distance 1 for phi in (0, pi).
    const TriangleSoup a = triangle_soup({-1, 0, 0}, {1, 0, 0}, {0, -1, 0});
    const TriangleSoup b = triangle_soup({-1, 0, 1}, {1, 0, 1}, {0, 0, 2});
    for (const double phi : {kPi / 2, kPi / 6, 2.0}) {
      CAPTURE(phi);
      const ReferenceDistance d = reference_distance(a, Pose{}, b, pose_from_axis_angle({0, 0, 1}, phi));
      CHECK(std::abs(d.distance - 1) <= 1e-15);
      CHECK(d.error <= 1e-15);
    }
    // Parallel (phi = 0): the edges overlap along x, still 1 apart.
    CHECK(reference_distance(a, Pose{}, b, Pose{}).distance == 1);
  }
  SUBCASE("vertex over a face, and an edge past a corner") {
    // b: the tetrahedron with apex (0.1, 0.2, 0.75) over a's top face z = 0.5:
    // distance 0.25 (its base is higher).
    const TriangleSoup tetra{{{0.1, 0.2, 0.75}, {-1, -1, 2}, {1, -1, 2}, {0, 1, 2}},
                             {{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}}};
    CHECK(reference_distance(cube, Pose{}, tetra, Pose{}).distance == 0.25);
    // a single triangle whose edge x + y = 2 (z = 0.5) passes the corner
    // (0.5, 0.5) of a's top face at distance 1/sqrt(2).
    const TriangleSoup t = triangle_soup({2, 0, 0.5}, {0, 2, 0.5}, {3, 3, 0.5});
    CHECK(std::abs(reference_distance(cube, Pose{}, t, Pose{}).distance - std::sqrt(0.5)) <= 1e-15);
  }
  SUBCASE("intersecting and touching") {
    Pose pb;
    pb.x = {0.7, 0.1, 0.2};
    const ReferenceDistance d = reference_distance(cube, Pose{}, cube, pb);
    CHECK(d.distance == 0);
    CHECK(d.error == 0);
    // A triangle through a's interior (no vertex or edge of it touches a's
    // edges): its edges cross a's faces.
    const TriangleSoup t = triangle_soup({-2, -0.1, 0.05}, {2, -0.05, 0.1}, {0.1, 2, -0.1});
    CHECK(reference_distance(cube, Pose{}, t, Pose{}).distance == 0);
    // Face on face: a at (-1, 0, 0) touches b along x = -0.5.
    Pose pa;
    pa.x = {-1, 0, 0};
    CHECK(reference_distance(cube, pa, cube, Pose{}).distance == 0);
  }
  SUBCASE("turned cube") {
    // b: unit cube turned 45 degrees about z, centered at (2, 0, 0): its edge
    // at x = 2 - sqrt(1/2) faces a's face x = 0.5: distance 1.5 - sqrt(1/2).
    const ReferenceDistance d = reference_distance(cube, Pose{}, cube, pose_from_axis_angle({0, 0, 1}, kPi / 4, {2, 0, 0}));
    CHECK(std::abs(d.distance - (1.5 - std::sqrt(0.5))) <= 1e-15);
  }
}

TEST_CASE("advance reference: the references agree on random soups") {
  // Two random soups of 40 triangles in balls of radius 1; a translated past
  // b. The exact first contact t* (if any) is certified neither apart over
  // [0, t* + 0.02] nor, by the distance, after it: the distance at t* is 0
  // up to the rounding of the pose (a's start and velocity are exact on the
  // 2^-20 grid). Before t*, the certified intervals and the distance agree.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto grid = [](double x) { return std::round(x * 0x1p20) * 0x1p-20; };
  int contacts = 0;
  for (int trial = 0; trial < 12; ++trial) {
    CAPTURE(trial);
    const TriangleSoup a = random_soup(random, 40, 1), b = random_soup(random, 40, 1);
    const Vec3 from{grid(-3), grid(2.5 * u(random)), grid(2.5 * u(random))};
    const Vec3 velocity{grid(6), grid(0.2 * u(random)), grid(0.2 * u(random))};
    const ExactContact e = exact_first_contact(a, from, velocity, {0, 0, 1}, 0, b, Pose{});
    const RigidPath pa = moving(from, velocity);
    const auto at = [&](double t) { return reference_distance(a, pose_at(pa, t), b, Pose{}); };
    if (e.contact) {
      ++contacts;
      CHECK(at(e.toc).distance <= 1e-12);
      CHECK(certify_separation(a, pa, b, still(), 0, std::min(1.0, e.toc + 0.02)) != true);
      if (e.toc > 0.02) {
        CHECK(certify_separation(a, pa, b, still(), 0, e.toc - 0.02) == true);
        CHECK(at(e.toc - 0.02).distance > 0);
      }
    } else {
      CHECK(certify_separation(a, pa, b, still(), 0, 1) == true);
      for (double t = 0; t <= 1; t += 0.125) CHECK(at(t).distance > 0);
    }
  }
  CHECK(contacts >= 3);
  CHECK(contacts <= 11);
}

TEST_CASE("advance reference: the references agree on random soups turning") {
  // As above, a turning by up to pi about a random axis through its origin
  // (b placed by a random turn): the exact ToC converted to the path's time.
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int contacts = 0;
  for (int trial = 0; trial < 8; ++trial) {
    CAPTURE(trial);
    const TriangleSoup a = random_soup(random, 30, 0.8), b = random_soup(random, 30, 0.8);
    Vec3 axis{u(random), u(random), u(random)};
    const double n = std::sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    axis = {axis.x / n, axis.y / n, axis.z / n};
    RigidPath pa;
    pa.start.x = {1.6 + 0.4 * u(random), 0.4 * u(random), 0.4 * u(random)};
    pa.axis = axis;
    pa.angle = kPi * (0.5 + 0.5 * std::abs(u(random)));
    const Pose pb = pose_from_axis_angle({0, 0, 1}, u(random));
    const ExactContact e = exact_first_contact(a, pa.start.x, {}, pa.axis, pa.angle, b, pb);
    const auto at = [&](double t) { return reference_distance(a, pose_at(pa, t), b, pb); };
    if (e.contact) {
      ++contacts;
      CHECK(at(e.toc).distance <= 1e-12);
      CHECK(certify_separation(a, pa, b, still(pb), 0, std::min(1.0, e.toc + 0.02)) != true);
      if (e.toc > 0.02) CHECK(certify_separation(a, pa, b, still(pb), 0, e.toc - 0.02) == true);
    } else {
      CHECK(certify_separation(a, pa, b, still(pb), 0, 1) == true);
    }
  }
  CHECK(contacts >= 2);
  CHECK(contacts <= 7);
}

}  // namespace simdccd
