// Time of impact of convex shapes (convex/time_of_impact.hpp): hand-derived
// geometry (in the comments), the exact hull triangles, random polytope and
// box pairs under random translations and rotations against the exact first
// contact (never later, and close), the bisection baseline under the same
// checks, RigidPaths checked by sampling with the exact judge, and a batch
// of them against each pair's own answer.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "common/splitmix.hpp"
#include "simdccd/convex/exact_distance.hpp"
#include "simdccd/convex/time_of_impact.hpp"
#include "test_scale.hpp"

namespace simdccd::convex {
namespace {

constexpr double kTol = exact_contact_time_tolerance;

Pose at(Vec3 x) {
  Pose p;
  p.x = x;
  return p;
}

Vec3 minus(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// b's world vertices moved to u (double; within ~2^-50 of the exact motion).
std::vector<Vec3> moved_vertices(const ConvexShape& b, const Pose& pb, const RigidMotion& m, double u) {
  std::vector<Vec3> w = world_vertices(b, pb);
  for (Vec3& v : w) v = apply(m, v, u);
  return w;
}

// The distance between a and b moved to u (the exact judge on the doubles).
double distance_at(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb,
                   const RigidMotion& m, double u) {
  const auto r = exact_polytope_distance(world_vertices(a, pa), moved_vertices(b, pb, m, u));
  return r.intersecting ? 0 : r.distance;
}

// ---- Exact hull triangles ----

// Closed 2-manifold, outward: every directed edge once and its reverse once;
// each triangle's normal points away from an interior point.
void check_closed_outward(const std::vector<Vec3>& p, const std::vector<std::array<std::uint32_t, 3>>& tris,
                          const Vec3& inside) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (const auto& t : tris) {
    for (int i = 0; i < 3; ++i) ++directed[{t[i], t[(i + 1) % 3]}];
    const Vec3 n = cross(minus(p[t[1]], p[t[0]]), minus(p[t[2]], p[t[0]]));
    CHECK(dot(n, minus(p[t[0]], inside)) > 0);
  }
  for (const auto& [e, count] : directed) {
    CHECK(count == 1);
    CHECK(directed.count({e.second, e.first}) == 1);
  }
}

// Each motion's hand-derived first contact u: both methods answer contact no later
// than u (and not long before), and the exact reference finds u.
void check_known_contacts(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb,
                          std::span<const std::pair<RigidMotion, double>> cases) {
  for (const auto& [m, u] : cases) {
    for (int bisection = 0; bisection < 2; ++bisection) {
      const ToiResult r = bisection ? time_of_impact_bisection(a, pa, b, pb, m) : time_of_impact(a, pa, b, pb, m);
      CAPTURE(bisection);
      CHECK(r.status == ToiStatus::contact);
      CHECK(r.toi <= u + 1e-12);
      CHECK(r.toi >= u - 1e-5);
    }
    const auto ex = exact_first_contact(a, pa, b, pb, m);
    REQUIRE(ex.has_value());
    CHECK(std::fabs(*ex - u) <= kTol + 1e-12);
  }
}

TEST_CASE("convex.toi: exact hull triangles of cubes, flat, segment and point hulls") {
  // The unit cube's corners, then points on a face, an edge and inside: the
  // 6 square facets fan into 2 triangles each over the 8 corners only.
  std::vector<Vec3> p;
  for (int i = 0; i < 8; ++i) p.push_back({double(i & 1), double((i >> 1) & 1), double((i >> 2) & 1)});
  p.push_back({0.5, 0.5, 1});    // on the top face
  p.push_back({0.5, 0, 0});      // on an edge
  p.push_back({0.5, 0.5, 0.5});  // inside
  p.push_back(p[3]);             // a duplicate
  const auto tris = exact_hull_triangles(p);
  CHECK(tris.size() == 12);
  for (const auto& t : tris) {
    for (auto i : t) CHECK(i < 8);
  }
  check_closed_outward(p, tris, {0.5, 0.5, 0.5});

  // A flat square (z = 0) with its center: 2 triangles, counter-clockwise about
  // (p1 - p0) x (p2 - p0) = +z.
  const std::vector<Vec3> sq{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.5, 0}};
  const auto flat = exact_hull_triangles(sq);
  CHECK(flat.size() == 2);
  for (const auto& t : flat) CHECK(cross(minus(sq[t[1]], sq[t[0]]), minus(sq[t[2]], sq[t[0]])).z > 0);

  // A segment: {lo, hi, hi} of its ends (x = -1 at index 1, x = 2 at index 2).
  const std::vector<Vec3> seg{{0, 0, 0}, {-1, 0, 0}, {2, 0, 0}, {1, 0, 0}};
  const auto s = exact_hull_triangles(seg);
  REQUIRE(s.size() == 1);
  CHECK(s[0] == std::array<std::uint32_t, 3>{1, 2, 2});
  CHECK(exact_hull_triangles(std::vector<Vec3>{{1, 2, 3}, {1, 2, 3}}).empty());

  // Random point clouds: closed and outward, Euler V - E + F = 2.
  Random rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<Vec3> q;
    const int n = 4 + trial % 20;
    for (int i = 0; i < n; ++i) {
      const Vec3 u = rng.unit_vector();
      const double r = trial % 2 ? 1 : rng.uniform(0.2, 1);
      q.push_back({r * u.x, r * u.y, r * u.z});
    }
    const auto t = exact_hull_triangles(q);
    Vec3 c{};
    std::vector<char> used(q.size(), 0);
    for (const auto& f : t) {
      for (auto i : f) used[i] = 1;
    }
    int v = 0;
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (used[i]) {
        ++v;
        c = {c.x + q[i].x, c.y + q[i].y, c.z + q[i].z};
      }
    }
    c = {c.x / v, c.y / v, c.z / v};
    check_closed_outward(q, t, c);
    CHECK(v - static_cast<int>(t.size()) * 3 / 2 + static_cast<int>(t.size()) == 2);
  }
}

// ---- Hand-derived cases ----

TEST_CASE("convex.toi: a unit box translated into another along x touches at u = 1/2") {
  // a = [-1/2, 1/2]^3; b the same box centered at x = 3, moved by (-4, 0, 0):
  // its face x = 3 - 1/2 - 4u meets a's face x = 1/2 at u = 1/2.
  const ConvexShape a = box({0.5, 0.5, 0.5}), b = box({0.5, 0.5, 0.5});
  const Pose pa = at({0, 0, 0}), pb = at({3, 0.25, -0.1});
  const RigidMotion m = RigidMotion::translate({-4, 0, 0});
  for (int bisection = 0; bisection < 2; ++bisection) {
    const ToiResult r = bisection ? time_of_impact_bisection(a, pa, b, pb, m) : time_of_impact(a, pa, b, pb, m);
    CHECK(r.status == ToiStatus::contact);
    CHECK(r.toi <= 0.5);
    CHECK(r.toi >= 0.5 - 1e-5);  // within threshold * size / |v| = 2^-20 * 4.7 / 4
    CHECK(r.at_toi.valid);
  }
  // CA along a translation: the first step lands within 2^-40 of the contact.
  CHECK(time_of_impact(a, pa, b, pb, m).iterations <= 3);
  const auto ex = exact_first_contact(a, pa, b, pb, m);
  REQUIRE(ex.has_value());
  CHECK(*ex <= 0.5);
  CHECK(*ex >= 0.5 - kTol);
  // Moving away (+x) or past (offset in y by 1.5 > 1): separate, toi 1.
  CHECK(time_of_impact(a, pa, b, pb, RigidMotion::translate({4, 0, 0})).status == ToiStatus::separate);
  const ToiResult past = time_of_impact(a, pa, b, at({3, 1.5, 0}), m);
  CHECK(past.status == ToiStatus::separate);
  CHECK(past.toi == 1);
  CHECK(!exact_first_contact(a, pa, b, at({3, 1.5, 0}), m).has_value());
}

TEST_CASE("convex.toi: two points closing in reach contact, not the iteration cap") {
  // a: the point 0; b: the point (2, 0, 0) moved by (-3, 0, 0), so 2 - 3u = 0
  // at u = 2/3. Their pair size is their distance, so the threshold shrinks
  // with it: CA used to creep to the iteration cap once its certified steps
  // rounded away (iteration_limit at 2/3 - 2.4e-14 after 1000 queries).
  const ConvexShape a = polytope({{0, 0, 0}}), b = polytope({{0, 0, 0}});
  const Pose pa = at({0, 0, 0}), pb = at({2, 0, 0});
  const RigidMotion m = RigidMotion::translate({-3, 0, 0});
  for (int bisection = 0; bisection < 2; ++bisection) {
    CAPTURE(bisection);
    const ToiResult r = bisection ? time_of_impact_bisection(a, pa, b, pb, m) : time_of_impact(a, pa, b, pb, m);
    CHECK(r.status == ToiStatus::contact);
    CHECK(r.toi <= 2.0 / 3);
    CHECK(r.toi >= 2.0 / 3 - 0x1p-40);
  }
  CHECK(time_of_impact(a, pa, b, pb, m).iterations <= 10);
}

// b = [-1, 1]^3 turning counter-clockwise about z through its center; a =
// [1.2, 2.2] x [-1/2, 1/2] x [-1/2, 1/2]. a's vertical edge at (1.2, -0.5) lies
// at radius r = 1.3 (5-12-13) and polar angle phi = -atan(5/12). b's face
// x = 1, turned by theta, is the line at distance 1 along angle theta, so it
// reaches the edge when cos(phi - theta) = 1 / 1.3: theta* = acos(10/13) -
// atan(5/12) (about 17.1 degrees); farther up a (y > -1/2) the face is
// farther left, and b's corner (1, -1) passes below y = -1/2, so the edge is
// the first contact. Cayley: theta(u) = 2 atan(u tau) (unit axis), so
// u* = tan(theta*/2) / tau; a half turn: theta(u) = 2 atan(u / (1 - u)), so
// u* = T / (1 + T) with T = tan(theta*/2).
TEST_CASE("convex.toi: a box rotating into a box edge at the Cayley parameter of a known angle") {
  const ConvexShape a = box({0.5, 0.5, 0.5}), b = box({1, 1, 1});
  const Pose pa = at({1.7, 0, 0}), pb = at({0, 0, 0});
  const double theta = std::acos(10.0 / 13.0) - std::atan(5.0 / 12.0);
  const double T = std::tan(theta / 2);
  const double tau = std::tan(std::numbers::pi / 12);  // a 30 degree turn in all
  const std::pair<RigidMotion, double> cases[] = {
      {RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, tau), T / tau},
      {RigidMotion::rotate({0, 0, 0}, {0, 0, 2}, tau / 2), T / tau},  // |a| = 2: theta = 2 atan(u tau |a|)
      {RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, std::numeric_limits<double>::infinity()), T / (1 + T)},
  };
  check_known_contacts(a, pa, b, pb, cases);
  // a moved out to x in [1.5, 2.5]: its nearest edges at radius sqrt(2.5) lie
  // beyond b's corners (radius sqrt(2)), so even a half turn misses.
  const RigidMotion half = RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, std::numeric_limits<double>::infinity());
  CHECK(time_of_impact(a, at({2, 0, 0}), b, pb, half).status == ToiStatus::separate);
  CHECK(time_of_impact_bisection(a, at({2, 0, 0}), b, pb, half).status == ToiStatus::separate);
  CHECK(!exact_first_contact(a, at({2, 0, 0}), b, pb, half).has_value());
}

// A small box orbiting into a wall, where the motion bound is nearly tight
// (b far from the axis, moving along the wall's normal at first): b = 0.05
// half extents at (3, 0, 0), turning counter-clockwise about z through the
// origin; a = [-5, 5] x [2, 3] x [-1, 1]. b's highest point turned by theta
// is the corner (3.05, 0.05): y = 3.05 sin(theta) + 0.05 cos(theta) = R
// sin(theta + psi), R = |(3.05, 0.05)|, psi = atan2(0.05, 3.05), so it meets
// y = 2 at theta* = asin(2 / R) - psi (about 40.9 degrees). A half turn
// speeds up until u = 1/2 (theta' = 2 / ((1 - u)^2 + u^2), 2 at u = 0 and 4 at
// u = 1/2): a bound taken at the step's start (2) overshoots the contact.
TEST_CASE("convex.toi: a box orbiting into a wall, half turn and finite turn (tight motion bounds)") {
  const ConvexShape a = box({5, 0.5, 1}), b = box({0.05, 0.05, 0.05});
  const Pose pa = at({0, 2.5, 0}), pb = at({3, 0, 0});
  const double R = std::hypot(3.05, 0.05), theta = std::asin(2 / R) - std::atan2(0.05, 3.05);
  const double T = std::tan(theta / 2);
  const std::pair<RigidMotion, double> cases[] = {
      {RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, std::numeric_limits<double>::infinity()), T / (1 + T)},
      {RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, 1.0), T},  // a quarter turn: theta = 2 atan(u)
  };
  check_known_contacts(a, pa, b, pb, cases);
}

// The orbit above and a capsule's at tiny scales, where a square of a length
// underflows (from about 2^-537 on): every length times s, the contact times
// unchanged. The capsule (radius s, core from -s z to s z) starts at (4s, 0,
// 0) and makes a half turn about the z axis through the origin into the wall
// a = [-5s, -3s] x [-10s, 10s]^2: its center at angle theta is 4s (cos theta,
// sin theta), so it meets x = -3s when 4s cos(theta) - s = -3s, theta =
// 2 pi / 3, and a half turn's theta = 2 atan(u / (1 - u)) gives u = sqrt(3) /
// (1 + sqrt(3)). A ball of radius s at the capsule's center meets it alike.
TEST_CASE("convex.toi: tiny queries: the same first contacts at every scale down to 2^-900") {
  constexpr double kHalf = std::numeric_limits<double>::infinity();
  const double R = std::hypot(3.05, 0.05), theta = std::asin(2 / R) - std::atan2(0.05, 3.05);
  const double T = std::tan(theta / 2), u_capsule = std::sqrt(3.0) / (1 + std::sqrt(3.0));
  for (const double s : {0x1p-300, 0x1p-540, 0x1p-700, 0x1p-900}) {
    CAPTURE(s);
    const std::pair<RigidMotion, double> cases[] = {
        {RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, kHalf), T / (1 + T)},
        {RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, 1.0), T},
    };
    check_known_contacts(box({5 * s, 0.5 * s, s}), at({0, 2.5 * s, 0}), box({0.05 * s, 0.05 * s, 0.05 * s}),
                         at({3 * s, 0, 0}), cases);
    const ConvexShape wall = box({s, 10 * s, 10 * s});
    const RigidMotion half = RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, kHalf);
    for (const ConvexShape& b : {capsule(s, s), sphere(s)}) {
      for (int bisection = 0; bisection < 2; ++bisection) {
        CAPTURE(bisection);
        const ToiResult r = bisection ? time_of_impact_bisection(wall, at({-4 * s, 0, 0}), b, at({4 * s, 0, 0}), half)
                                      : time_of_impact(wall, at({-4 * s, 0, 0}), b, at({4 * s, 0, 0}), half);
        CHECK(r.status == ToiStatus::contact);
        CHECK(r.toi <= u_capsule + 1e-12);
        CHECK(r.toi >= u_capsule - 1e-5);
        CHECK(r.at_toi.tolerance < 0x1p-20 * s);  // GJK's lengths scaled back
      }
    }
  }
  // A path at 2^-540 is the one at 1/2 scaled by an exact power of two, and
  // runs as it: b (half extents s) at (3s, 0, 0), spinning a radian about z
  // while it moves by (-s, 0, 0), against a (half extents s) at the origin.
  const auto spinning = [](double s) {
    RigidPath pa, pb;
    pb.start = at({3 * s, 0, 0});
    pb.velocity = {-s, 0, 0};
    pb.angle = 1;
    return time_of_impact(box({s, s, s}), pa, box({s, s, s}), pb);
  };
  const ToiResult tiny = spinning(0x1p-540), half_size = spinning(0.5);
  CHECK(half_size.status == ToiStatus::contact);
  CHECK(tiny.status == half_size.status);
  CHECK(tiny.toi == half_size.toi);
  CHECK(tiny.iterations == half_size.iterations);
}

TEST_CASE("convex.toi: a half turn about a tiny axis turns in the last instant") {
  // A half turn about the z axis through the origin with |a| = 2^-1000 or
  // 10^-10: theta(u) = 2 atan(u |a| / (1 - u)) stays tiny until 1 - u is of
  // the order of |a|, so the small box (half extent 0.1 at (1.5, 0, 0))
  // stays 2.4 from the wall [-3, -1] x [-1, 1]^2 until the very end, then
  // swings round into it. The angular speed bound 2 |a| / q(u*) took q(u*) =
  // |a|^2 / (1 + |a|^2), which underflowed to 0 at 2^-1000: the bound was
  // infinite, the first step rounded away and CA answered "contact" at u = 0
  // for shapes 2.4 apart. At 10^-10 the bound over [t, 1] (2 10^10) made CA
  // creep to its iteration cap at u = 7 10^-8. Bounds over windows let it
  // cross the slow stretch: contact where the exact first contact is, never
  // after it (at 2^-1000 within the last ulps before 1, where no later time
  // can be certified).
  const ConvexShape wall = box({1, 1, 1}), small = box({0.1, 0.1, 0.1});
  for (const double len : {0x1p-1000, 1e-10}) {
    CAPTURE(len);
    const RigidMotion m = RigidMotion::rotate({0, 0, 0}, {0, 0, len}, std::numeric_limits<double>::infinity());
    const std::optional<double> exact = exact_first_contact(wall, at({-2, 0, 0}), small, at({1.5, 0, 0}), m);
    REQUIRE(exact.has_value());
    CHECK(*exact > 1 - 1e-10);
    for (const bool bisection : {false, true}) {
      CAPTURE(bisection);
      const ToiResult r = bisection ? time_of_impact_bisection(wall, at({-2, 0, 0}), small, at({1.5, 0, 0}), m)
                                    : time_of_impact(wall, at({-2, 0, 0}), small, at({1.5, 0, 0}), m);
      CHECK(r.status != ToiStatus::invalid_input);
      CHECK(r.toi <= *exact);
      CHECK(r.toi > 1 - 1e-9);
      if (!bisection) {
        CHECK(r.status == ToiStatus::contact);
        CHECK(r.iterations < 100);
      }
    }
  }
}

TEST_CASE("convex.toi: a sphere moving past a box misses, shapes starting in contact give toi 0") {
  // Sphere r = 1/2 from (-5, 2, 0) to (5, 2, 0) past [-1, 1]^3: its least
  // distance is 2 - 1 - 1/2 = 1/2 (over the box's top face).
  const ConvexShape s = sphere(0.5), cube = box({1, 1, 1});
  const ToiResult miss = time_of_impact(cube, at({}), s, at({-5, 2, 0}), RigidMotion::translate({10, 0, 0}));
  CHECK(miss.status == ToiStatus::separate);
  CHECK(miss.toi == 1);
  CHECK(miss.at_toi.distance == doctest::Approx(std::sqrt(16 + 1) - 0.5).epsilon(1e-6));  // to the edge (1, 1, z)
  // Lower by 1: it hits the face x = -1 when its center reaches x = -1.5: u = 0.35.
  const ToiResult hit = time_of_impact(cube, at({}), s, at({-5, 1, 0}), RigidMotion::translate({10, 0, 0}));
  CHECK(hit.status == ToiStatus::contact);
  CHECK(hit.toi <= 0.35);
  CHECK(hit.toi >= 0.35 - 1e-5);
  // Overlapping, and touching exactly (faces at x = 1): contact at 0.
  for (const double x : {1.5, 2.0}) {
    const ToiResult r =
        time_of_impact(cube, at({}), box({1, 1, 1}), at({x, 0, 0}), RigidMotion::translate({1, 0, 0}));
    CHECK(r.status == ToiStatus::contact);
    CHECK(r.toi == 0);
    CHECK(exact_first_contact(cube, at({}), box({1, 1, 1}), at({x, 0, 0}), RigidMotion::translate({1, 0, 0})) ==
          0.0);
  }
  // A capsule and a cylinder along a path: the capsule (r 1/2, h 1, along z)
  // falls on the cylinder's top cap (z = 1) from z = 4: its tip z - 1.5 meets
  // z = 1 when the center reaches 2.5, t = 1/2 of a fall by 3.
  RigidPath pc, pk;
  pc.start = at({0, 0, 4});
  pc.velocity = {0, 0, -3};
  pk.start = at({});
  const ToiResult fall = time_of_impact(cylinder(1, 1), pk, capsule(0.5, 1), pc);
  CHECK(fall.status == ToiStatus::contact);
  CHECK(fall.toi <= 0.5);
  CHECK(fall.toi >= 0.5 - 1e-5);
}

TEST_CASE("convex.toi: invalid input") {
  const ConvexShape a = box({1, 1, 1});
  const RigidMotion m = RigidMotion::translate({1, 0, 0});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(time_of_impact(a, at({}), a, at({nan, 0, 0}), m).status == ToiStatus::invalid_input);
  CHECK(time_of_impact(a, at({}), box({-1, 1, 1}), at({3, 0, 0}), m).status == ToiStatus::invalid_input);
  CHECK(time_of_impact(a, at({}), a, at({3, 0, 0}), RigidMotion::translate({nan, 0, 0})).status ==
        ToiStatus::invalid_input);
  const RigidMotion zero_half_turn = RigidMotion::rotate({}, {0, 0, 0}, std::numeric_limits<double>::infinity());
  CHECK(time_of_impact_bisection(a, at({}), a, at({3, 0, 0}), zero_half_turn).status == ToiStatus::invalid_input);
  ToiOptions o;
  o.threshold = -1;
  CHECK(time_of_impact(a, at({}), a, at({3, 0, 0}), m, o).status == ToiStatus::invalid_input);
  o = {};
  o.max_iterations = 0;
  CHECK(time_of_impact(a, at({}), a, at({3, 0, 0}), m, o).status == ToiStatus::invalid_input);
  RigidPath p;
  p.start = at({3, 0, 0});
  p.angle = 1;
  p.axis = {0, 0, 2};  // not unit
  CHECK(time_of_impact(a, RigidPath{}, a, p).status == ToiStatus::invalid_input);
  p.axis = {0, 0, 1};
  p.angle = nan;
  CHECK(time_of_impact(a, RigidPath{}, a, p).status == ToiStatus::invalid_input);
  p.angle = 0;  // a non-finite axis is bad input even where it turns nothing (as for advance())
  p.axis = {nan, 0, 0};
  CHECK(time_of_impact(a, RigidPath{}, a, p).status == ToiStatus::invalid_input);
  p.axis = {0, -std::numeric_limits<double>::infinity(), 0};
  CHECK(time_of_impact(a, p, a, RigidPath{}).status == ToiStatus::invalid_input);
  // b starts 2^12 below max_magnitude (2^60) along x and moves 2^13 farther:
  // apart all along, but its end pose is past what GJK accepts.
  const Pose edge = at({0x1p60 - 0x1p12, 0, 0});
  const RigidMotion out = RigidMotion::translate({0x1p13, 0, 0});
  CHECK(time_of_impact(a, at({}), a, edge, out).status == ToiStatus::invalid_input);
  CHECK(time_of_impact_bisection(a, at({}), a, edge, out).status == ToiStatus::invalid_input);
  // b at (C, -C, 0), C = 1.001 2^59, makes a half turn about the vertical
  // line through c = (C, 0, 0): it ends at (C, C, 0), |x| = 0.71 2^60 as at
  // its start, but passes (2C, 0, 0), |x| = 1.001 2^60, at u = 1/2. Invalid
  // before any step (|c| + |x_b - c| = 2C bounds the circle), whichever times
  // the steps would try (CA's answered "separate" where bisection's hit u = 1/2).
  const double C = 0x1p59 * 1.001;
  const Pose inner = at({C, -C, 0});
  const RigidMotion wide = RigidMotion::rotate({C, 0, 0}, {0, 0, 1}, std::numeric_limits<double>::infinity());
  CHECK(time_of_impact(a, at({}), a, inner, wide).status == ToiStatus::invalid_input);
  CHECK(time_of_impact_bisection(a, at({}), a, inner, wide).status == ToiStatus::invalid_input);
  // A reviewer's circle of radius exactly 2^60 (|c| + |x_b - c| = 0 + 2^60,
  // b a unit ball at (2^60, 0, 0) turned a half turn about the origin): its
  // rounded poses partway stray past 2^60, where GJK refuses them, so the
  // answer depended on the times tried (CA: invalid_input after steps,
  // bisection: separate). Within 2^-40 of the edge a moving origin is invalid.
  const ConvexShape big = box({0x1p50, 0x1p50, 0x1p50});
  const RigidMotion rim = RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, std::numeric_limits<double>::infinity());
  CHECK(time_of_impact(big, at({0, 0x1p59, 0}), sphere(1), at({0x1p60, 0, 0}), rim).status == ToiStatus::invalid_input);
  CHECK(time_of_impact_bisection(big, at({0, 0x1p59, 0}), sphere(1), at({0x1p60, 0, 0}), rim).status ==
        ToiStatus::invalid_input);
  RigidPath far;
  far.start = edge;
  far.velocity = {0x1p13, 0, 0};  // its end beyond 2^60
  CHECK(time_of_impact(a, RigidPath{}, a, far).status == ToiStatus::invalid_input);
  far.start = at({0x1p60, 0, 0});
  far.velocity = {-1, 0, 0};  // inward from the edge: within 2^-40 of it
  CHECK(time_of_impact(a, RigidPath{}, a, far).status == ToiStatus::invalid_input);
  far.velocity = {};  // standing still at the edge: its pose is its start, exactly
  CHECK(time_of_impact(a, RigidPath{}, a, far).status == ToiStatus::separate);
  CHECK_THROWS(exact_first_contact(sphere(1), at({}), a, at({3, 0, 0}), m));
  // The iteration cap: toi is the last certified time, before the contact.
  o = {};
  o.max_iterations = 2;
  const RigidMotion turn = RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, std::tan(std::numbers::pi / 12));
  const ToiResult capped = time_of_impact(box({0.5, 0.5, 0.5}), at({1.7, 0, 0}), box({1, 1, 1}), at({}), turn, o);
  CHECK(capped.status == ToiStatus::iteration_limit);
  CHECK(capped.iterations == 2);
  CHECK(capped.toi < 0.57);
}

// ---- Random pairs against the exact first contact ----

ConvexShape random_shape(Random& rng, double scale) {
  if (rng.uniform() < 0.3) {
    return box({scale * rng.uniform(0.2, 1), scale * rng.uniform(0.2, 1), scale * rng.uniform(0.2, 1)});
  }
  std::vector<Vec3> v;
  const int n = 4 + static_cast<int>(rng.next() % 9);
  for (int i = 0; i < n; ++i) {
    const Vec3 u = rng.unit_vector();
    const double r = scale * rng.uniform(0.3, 1);
    v.push_back({r * u.x, r * u.y, r * u.z});
  }
  return polytope(std::move(v));
}

Pose random_pose(Random& rng, Vec3 x) {
  Pose p;
  p.R = rng.rotation();
  p.x = x;
  return p;
}

struct Tally {
  int contact = 0, separate = 0, limit = 0, exact_hits = 0;
  long iterations = 0;
};

// The checks of one case, for CA or the bisection.
void check_case(const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb, const RigidMotion& m,
                const std::optional<double>& ex, const ToiResult& r, Tally& tally) {
  REQUIRE(r.status != ToiStatus::invalid_input);
  tally.iterations += r.iterations;
  CHECK(r.toi >= 0);
  CHECK(r.toi <= 1);
  if (ex) CHECK(r.toi <= *ex + kTol);  // never later than the first contact (ex is within kTol below it)
  if (r.status == ToiStatus::separate) {
    CHECK(!ex.has_value());
    ++tally.separate;
  } else if (r.status == ToiStatus::contact) {
    // Close: the distance at toi is within the threshold (plus GJK's band).
    // pair_size at toi: b's origin stays within 2 |pb.x - pa.x| + 2 reach of a's here.
    const double size = 3 * (reach(a) + reach(b)) + 2 * std::sqrt(dot(minus(pa.x, pb.x), minus(pa.x, pb.x)));
    CHECK(distance_at(a, pa, b, pb, m, r.toi) <= 2 * ToiOptions{}.threshold * size);
    ++tally.contact;
  } else {
    ++tally.limit;
  }
}

TEST_CASE("convex.toi: random polytopes and boxes under translations and rotations, CA and bisection") {
  Random rng(2024);
  const int n = static_cast<int>(test::scaled(400, 40));
  Tally ca, bi;
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    const double scale = std::ldexp(1.0, static_cast<int>(rng.next() % 5) - 2);  // 1/4 .. 4
    const ConvexShape a = random_shape(rng, scale), b = random_shape(rng, scale);
    const Pose pa = random_pose(rng, {0, 0, 0});
    const Vec3 dir = rng.unit_vector();
    const double d = scale * rng.uniform(2.2, 4);
    const Pose pb = random_pose(rng, {d * dir.x, d * dir.y, d * dir.z});
    RigidMotion m;
    if (i % 2 == 0) {  // towards a, off by a random aim
      const Vec3 aim = rng.unit_vector();
      const double off = scale * rng.uniform(0, 1.5), len = d * rng.uniform(0.8, 2);
      Vec3 v{-d * dir.x + off * aim.x, -d * dir.y + off * aim.y, -d * dir.z + off * aim.z};
      const double nv = std::sqrt(dot(v, v));
      m = RigidMotion::translate({v.x / nv * len, v.y / nv * len, v.z / nv * len});
    } else {  // about a random axis through a point near the middle
      const Vec3 c = rng.unit_vector(), ax = rng.unit_vector();
      const double tau =
          i % 10 == 1 ? (i % 20 == 1 ? 1 : -1) * std::numeric_limits<double>::infinity() : rng.uniform(-3, 3);
      m = RigidMotion::rotate({pb.x.x / 2 + scale * c.x, pb.x.y / 2 + scale * c.y, pb.x.z / 2 + scale * c.z},
                              {ax.x * 2, ax.y * 2, ax.z * 2}, tau);
    }
    const auto ex = exact_first_contact(a, pa, b, pb, m);
    ca.exact_hits += ex.has_value();
    check_case(a, pa, b, pb, m, ex, time_of_impact(a, pa, b, pb, m), ca);
    check_case(a, pa, b, pb, m, ex, time_of_impact_bisection(a, pa, b, pb, m), bi);
  }
  MESSAGE("CA: ", ca.contact, " contact, ", ca.separate, " separate, ", ca.limit, " limit, ", ca.iterations,
          " GJK calls; bisection: ", bi.contact, " / ", bi.separate, " / ", bi.limit, ", ", bi.iterations,
          " GJK calls; exact hits ", ca.exact_hits, " of ", n);
  CHECK(ca.exact_hits >= n / 5);  // both outcomes well represented
  CHECK(ca.exact_hits <= n - n / 5);
  CHECK(ca.limit == 0);
  CHECK(bi.limit == 0);
}

// ---- RigidPaths ----

RigidPath random_path(Random& rng, Vec3 x, Vec3 v, double max_angle) {
  RigidPath p;
  p.start = random_pose(rng, x);
  p.velocity = v;
  p.axis = rng.unit_vector();
  p.angle = rng.uniform(0, max_angle);
  return p;
}

TEST_CASE("convex.toi: RigidPaths, checked by sampling with the exact judge and against RigidMotion") {
  Random rng(99);
  const int n = static_cast<int>(test::scaled(120, 20));
  int contacts = 0;
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    const ConvexShape a = random_shape(rng, 1), b = random_shape(rng, 1);
    const Vec3 dir = rng.unit_vector(), jitter = rng.unit_vector();
    const double d = rng.uniform(2.2, 4), speed = rng.uniform(0.5, 2.5);
    const RigidPath pa = random_path(rng, {}, {jitter.x * 0.3, jitter.y * 0.3, jitter.z * 0.3}, 2);
    const RigidPath pb =
        random_path(rng, {d * dir.x, d * dir.y, d * dir.z}, {-speed * dir.x, -speed * dir.y, -speed * dir.z}, 3);
    const ToiResult r = time_of_impact(a, pa, b, pb);
    REQUIRE(r.status != ToiStatus::invalid_input);
    CHECK(r.status != ToiStatus::iteration_limit);
    contacts += r.status == ToiStatus::contact;
    // No sample before toi intersects (pose_at in double, as a caller poses them).
    const int samples = 24;
    for (int k = 0; k <= samples; ++k) {
      const double t = k < samples ? r.toi * k / samples : r.toi * (1 - 1e-9);
      if (r.status == ToiStatus::separate && k == samples) continue;
      CHECK(!exact_intersecting(world_vertices(a, pose_at(pa, t)), world_vertices(b, pose_at(pb, t))));
    }
    if (r.status == ToiStatus::separate) {
      CHECK(!exact_intersecting(world_vertices(a, pose_at(pa, 1)), world_vertices(b, pose_at(pb, 1))));
    } else {  // close at toi
      const auto e =
          exact_polytope_distance(world_vertices(a, pose_at(pa, r.toi)), world_vertices(b, pose_at(pb, r.toi)));
      CHECK(e.distance <= 2 * ToiOptions{}.threshold * 12);
    }
  }
  CHECK(contacts >= n / 5);

  // A pure translation of b (a still): the same answer as the RigidMotion form.
  for (int i = 0; i < n; ++i) {
    const ConvexShape a = random_shape(rng, 1), b = random_shape(rng, 1);
    const Vec3 dir = rng.unit_vector();
    const double d = rng.uniform(2.2, 4);
    RigidPath pa, pb;
    pa.start = random_pose(rng, {});
    pb.start = random_pose(rng, {d * dir.x, d * dir.y, d * dir.z});
    pb.velocity = {-2 * d * dir.x, -2 * d * dir.y, -2 * d * dir.z};
    const RigidMotion m = RigidMotion::translate(pb.velocity);
    const ToiResult rp = time_of_impact(a, pa, b, pb), rm = time_of_impact(a, pa.start, b, pb.start, m);
    CHECK(rp.status == rm.status);
    CHECK(std::fabs(rp.toi - rm.toi) <= 1e-5);
    const auto ex = exact_first_contact(a, pa.start, b, pb.start, m);
    CAPTURE(static_cast<int>(rp.status));
    CAPTURE(rp.toi);
    CAPTURE(rp.at_toi.distance);
    CHECK(ex.has_value() == (rp.status == ToiStatus::contact));
    if (ex) CHECK(rp.toi <= *ex + kTol);
  }
}

TEST_CASE("convex.toi: a batch gives each pair's own answer on any thread count, invalid pairs per pair") {
  Random rng(123);
  std::vector<ConvexShape> shapes;
  for (int i = 0; i < 12; ++i) shapes.push_back(random_shape(rng, 1));
  std::vector<MovingPair> pairs;
  for (int i = 0; i < 60; ++i) {
    const Vec3 dir = rng.unit_vector();
    const double d = rng.uniform(2.2, 4);
    MovingPair p{static_cast<std::uint32_t>(rng.next() % 12), static_cast<std::uint32_t>(rng.next() % 12), {}, {}};
    p.path_a = random_path(rng, {}, {0.1, 0.2, -0.1}, 1);
    p.path_b = random_path(rng, {d * dir.x, d * dir.y, d * dir.z}, {-2 * dir.x, -2 * dir.y, -2 * dir.z}, 2);
    pairs.push_back(p);
  }
  pairs[7].b = 12;  // past the shapes, on either side
  pairs[8].a = 100;
  pairs[9].path_a.velocity.y = std::numeric_limits<double>::quiet_NaN();  // an invalid path
  // Options of its own: a batch that dropped them would answer otherwise
  // (a cap of 20 steps leaves some pairs at iteration_limit).
  ToiOptions options;
  options.max_iterations = 20;
  options.threshold = 0x1p-24;
  std::vector<ToiResult> expected;
  for (const MovingPair& p : pairs) {
    expected.push_back(p.a < shapes.size() && p.b < shapes.size()
                           ? time_of_impact(shapes[p.a], p.path_a, shapes[p.b], p.path_b, options)
                           : ToiResult{});
  }
  const auto count = [&](ToiStatus s) {
    return std::count_if(expected.begin(), expected.end(), [s](const ToiResult& r) { return r.status == s; });
  };
  CHECK(count(ToiStatus::contact) >= 8);
  CHECK(count(ToiStatus::iteration_limit) >= 4);
  CHECK(count(ToiStatus::invalid_input) == 3);
  for (const int threads : {1, 2, 7, 0}) {
    CAPTURE(threads);
    std::vector<ToiResult> got(pairs.size());
    time_of_impact_batch(shapes, pairs, got, options, threads);
    for (const int i : {7, 8, 9}) CHECK(got[i].status == ToiStatus::invalid_input);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      CAPTURE(i);
      CHECK(got[i].status == expected[i].status);
      CHECK(std::bit_cast<std::uint64_t>(got[i].toi) == std::bit_cast<std::uint64_t>(expected[i].toi));
      CHECK(got[i].iterations == expected[i].iterations);
      CHECK(identical(got[i].at_toi, expected[i].at_toi));
    }
  }
  std::vector<ToiResult> short_results(pairs.size() - 1);
  CHECK_THROWS_AS(time_of_impact_batch(shapes, pairs, short_results), std::invalid_argument);
}

}  // namespace
}  // namespace simdccd::convex
