// Conservative advancement (advance.hpp) on hand-derived cases: the
// geometry of each is in its comment, the expected ToC derived there. The
// randomized trials against the references are in test_advance_judge.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "implementations.hpp"
#include "simdccd/advance.hpp"
#include "simdccd/advance_reference.hpp"
#include "simdccd/advance_scenes.hpp"

namespace simdccd {
namespace {

constexpr AdvanceMethod kMethods[] = {AdvanceMethod::ca, AdvanceMethod::c2a, AdvanceMethod::hca};

// The box [lo, hi] as a soup (box() is centered at the origin).
TriangleSoup box_between(const Vec3& lo, const Vec3& hi) {
  TriangleSoup s = box({(hi.x - lo.x) / 2, (hi.y - lo.y) / 2, (hi.z - lo.z) / 2});
  for (Vec3& v : s.vertices) v = {v.x + (hi.x + lo.x) / 2, v.y + (hi.y + lo.y) / 2, v.z + (hi.z + lo.z) / 2};
  return s;
}

RigidPath still_at(const Vec3& x) {
  RigidPath p;
  p.start.x = x;
  return p;
}

double distance_between(const Vec3& p, const Vec3& q) { return std::hypot(q.x - p.x, q.y - p.y, q.z - p.z); }

}  // namespace

TEST_CASE("advance: two unit cubes, one translated through the other (every method, implementation and scale)") {
  // a: unit cube centered at (-3, 0, 0) moving by (6, 0, 0); b: unit cube at
  // the origin. The gap between a's face x = -2.5 + 6t and b's face x = -0.5
  // is 2 - 6t: first contact t* = 1/3, and the distance is at most the
  // threshold tau only for t >= (2 - tau) / 6. (FCL's CA answers 1 here.)
  // The same scaled by s (sizes, positions, speed and threshold; an exact
  // scaling, the same times): at s = 2^-390 the scale (reaches plus offsets,
  // about 10.7 s) is above 2^-400 and the answer is the unscaled one; at
  // s = 2^-420 it is below: invalid input.
  test::RestoreAuto restore;
  for (const double s : {1.0, 0x1p-390, 0x1p-420}) {
    CAPTURE(s);
    const RigidModel a = build_model(box({0.5 * s, 0.5 * s, 0.5 * s}));
    const RigidModel b = build_model(box({0.5 * s, 0.5 * s, 0.5 * s}));
    RigidPath pa = still_at({-3 * s, 0, 0});
    pa.velocity = {6 * s, 0, 0};
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      for (AdvanceMethod m : kMethods) {
        CAPTURE(impl);
        CAPTURE(to_string(m));
        AdvanceOptions o;
        o.method = m;
        o.threshold = 1e-3 * s;
        const AdvanceResult r = advance(a, pa, b, still_at({}), o);
        if (s < 0x1p-400) {
          CHECK(r.status == AdvanceStatus::invalid_input);
          continue;
        }
        CHECK(r.status == AdvanceStatus::contact);
        CHECK(r.toc <= 1.0 / 3);
        CHECK(r.toc >= (2 - 1e-3) / 6);
        CHECK(r.closest.distance <= 1e-3 * s);
        // The closest points lie on a's face x = -2.5 + 6 toc and b's face x = -0.5.
        CHECK(std::abs(r.closest.point_a.x - (-2.5 + 6 * r.toc) * s) <= 1e-9 * s);
        CHECK(std::abs(r.closest.point_b.x + 0.5 * s) <= 1e-9 * s);
      }
    }
  }
}

TEST_CASE("advance: a cube passing beside another stays separate") {
  // As above, but a runs along y = 1.2: its face y = 0.7 passes 0.2 above b's
  // face y = 0.5 the whole time.
  const RigidModel a = build_model(box({0.5, 0.5, 0.5})), b = build_model(box({0.5, 0.5, 0.5}));
  RigidPath pa = still_at({-3, 1.2, 0});
  pa.velocity = {6, 0, 0};
  for (AdvanceMethod m : kMethods) {
    AdvanceOptions o;
    o.method = m;
    const AdvanceResult r = advance(a, pa, b, still_at({}), o);
    CAPTURE(to_string(m));
    CHECK(r.status == AdvanceStatus::separate);
    CHECK(r.toc == 1);
  }
}

TEST_CASE("advance: a turning rod meets a cube at the hand-derived angle") {
  // a: the rod [-1, 1] x [-0.05, 0.05]^2 turning about z by pi/2 (constant
  // rate); b: the box [-0.1, 0.1] x [0.7, 0.9] x [-0.1, 0.1]. The rod's face
  // y = 0.05 (body) first reaches b's corner (0.1, 0.7), at polar angle
  // phi = atan2(0.7, 0.1) and radius r = sqrt(0.5), when the rod has turned
  // theta* = phi - asin(0.05 / r) (the other corners lie at larger angles).
  const RigidModel a = build_model(box({1, 0.05, 0.05}));
  const RigidModel b = build_model(box_between({-0.1, 0.7, -0.1}, {0.1, 0.9, 0.1}));
  RigidPath pa;
  pa.axis = {0, 0, 1};
  pa.angle = M_PI / 2;
  const double t_star = (std::atan2(0.7, 0.1) - std::asin(0.05 / std::sqrt(0.5))) / (M_PI / 2);
  for (AdvanceMethod m : kMethods) {
    AdvanceOptions o;
    o.method = m;
    o.threshold = 1e-4;
    const AdvanceResult r = advance(a, pa, b, still_at({}), o);
    CAPTURE(to_string(m));
    REQUIRE(r.status == AdvanceStatus::contact);
    CHECK(r.toc <= t_star);
    // The distance closes at most at the speed of the corner's turn, pi/2 r,
    // so a ToC within 1e-4 of contact is at most 1e-4 / (pi/2 r) early... and
    // at least that close; allow the gap the threshold permits, with room.
    CHECK(r.toc >= t_star - 1e-3);
    CHECK(r.closest.distance <= 1e-4);
    // The contact is at b's corner (0.1, 0.7, z).
    CHECK(distance_between(r.closest.point_b, {0.1, 0.7, r.closest.point_b.z}) <= 1e-3);
  }
}

TEST_CASE("advance: the distance of two posed boxes, with the closest triangles") {
  // a: unit cube at the origin; b: unit cube turned 45 degrees about z and
  // centered at (2, 0, 0): its vertical edge x = 2 - sqrt(1/2), y = 0 faces
  // a's face x = 0.5, at distance 1.5 - sqrt(1/2).
  const RigidModel a = build_model(box({0.5, 0.5, 0.5})), b = build_model(box({0.5, 0.5, 0.5}));
  const Pose pb = pose_from_axis_angle({0, 0, 1}, M_PI / 4, {2, 0, 0});
  const DistanceResult d = distance(a, Pose{}, b, pb);
  CHECK(std::abs(d.distance - (1.5 - std::sqrt(0.5))) <= 1e-12);
  CHECK(std::abs(d.point_a.x - 0.5) <= 1e-12);
  CHECK(std::abs(d.point_b.x - (2 - std::sqrt(0.5))) <= 1e-12);
  CHECK(std::abs(d.point_b.y) <= 1e-12);
  // The closest triangles are a closest pair (ties: every triangle of a's
  // face x = 0.5, and of the faces z = +-0.5 at the edge's ends, is one).
  const auto one = [](const RigidModel& m, std::uint32_t t) {
    const auto& tri = m.soup.triangles[t];
    return TriangleSoup{{m.soup.vertices[tri[0]], m.soup.vertices[tri[1]], m.soup.vertices[tri[2]]}, {{0, 1, 2}}};
  };
  const ReferenceDistance pair = reference_distance(one(a, d.triangle_a), Pose{}, one(b, d.triangle_b), pb);
  CHECK(std::abs(pair.distance - (1.5 - std::sqrt(0.5))) <= 1e-12);
}

TEST_CASE("advance: crossing triangles are at distance 0, still or not") {
  // a: the triangle (-1, -1, 0), (1, -1, 0), (0, 1, 0) in the plane z = 0,
  // which holds the origin (at y = 0 it spans x in [-1/2, 1/2]); b: the
  // triangle (0, 0, -1), (0, 0, 1), (0, -5, 0) in the plane x = 0, whose
  // edge on the z axis pierces a at the origin, while a's edge y = -1
  // pierces b at (0, -1, 0) (b spans z in [-4/5, 4/5] at y = -1). So they
  // meet along the segment x = z = 0, y in [-1, 0] (at distance 0, which no
  // edge pair or vertex projection shows: the nearest, a's edge 2x + y = 1
  // and b's z axis, are 1/sqrt(5) apart), and with nothing moving the
  // contact is at t = 0 with its closest points within the threshold.
  const RigidModel a = build_model(TriangleSoup{{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}}, {{0, 1, 2}}});
  const RigidModel b = build_model(TriangleSoup{{{0, 0, -1}, {0, 0, 1}, {0, -5, 0}}, {{0, 1, 2}}});
  const DistanceResult d = distance(a, Pose{}, b, Pose{});
  CHECK(d.distance <= distance_error(a.reach, b.reach, 0));
  CHECK(distance_between(d.point_a, d.point_b) <= 1e-12);
  CHECK(std::abs(d.point_a.x) + std::abs(d.point_a.z) <= 1e-12);
  CHECK((d.point_a.y >= -1 - 1e-12 && d.point_a.y <= 1e-12));
  for (const AdvanceMethod m : kMethods) {
    AdvanceOptions o;
    o.method = m;
    const AdvanceResult r = advance(a, RigidPath{}, b, RigidPath{}, o);
    CAPTURE(to_string(m));
    CHECK(r.status == AdvanceStatus::contact);
    CHECK(r.toc == 0);
    CHECK(r.closest.distance <= r.threshold);
  }
}

TEST_CASE("advance: still pairs at 2^-270 to 2^-390 of their size answer as at unit size") {
  // Random triangle pairs (b turned at random, 1 to 3 apart) and their copies
  // scaled by exact powers of two: the distance is within the error of the
  // reference at every scale, and with nothing moving every method answers
  // "separate", as at unit size. (The closest-point formulas multiply up to
  // four lengths, which underflow from about 2^-256 of unit size on.)
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uint64_t wrong = 0;
  for (int trial = 0; trial < 60; ++trial) {
    Vec3 pa[3], pb[3];
    for (Vec3& p : pa) p = {u(rng), u(rng), u(rng)};
    for (Vec3& p : pb) p = {u(rng), u(rng), u(rng)};
    const Vec3 axis{u(rng), u(rng), u(rng)};
    const double n = std::hypot(axis.x, axis.y, axis.z);
    const Pose turn = pose_from_axis_angle({axis.x / n, axis.y / n, axis.z / n}, 3 * u(rng), {4 + u(rng), 0, 0});
    for (const int k : {0, 270, 300, 390}) {
      const double s = std::ldexp(1.0, -k);
      const auto scaled = [&](const Vec3(&v)[3]) {
        return TriangleSoup{{{s * v[0].x, s * v[0].y, s * v[0].z}, {s * v[1].x, s * v[1].y, s * v[1].z},
                             {s * v[2].x, s * v[2].y, s * v[2].z}},
                            {{0, 1, 2}}};
      };
      const TriangleSoup sa = scaled(pa), sb = scaled(pb);
      Pose pose_b = turn;
      pose_b.x = {s * turn.x.x, s * turn.x.y, s * turn.x.z};
      const RigidModel a = build_model(sa), b = build_model(sb);
      const ReferenceDistance want = reference_distance(sa, Pose{}, sb, pose_b);
      const double error = distance_error(a.reach, b.reach, s * 5);
      const DistanceResult d = distance(a, Pose{}, b, pose_b);
      if (!(std::abs(d.distance - want.distance) <= error + want.error)) ++wrong;
      RigidPath path_b;
      path_b.start = pose_b;
      for (const AdvanceMethod m : kMethods) {
        AdvanceOptions o;
        o.method = m;
        const AdvanceResult r = advance(a, RigidPath{}, b, path_b, o);
        if (want.distance - want.error > r.threshold && r.status != AdvanceStatus::separate) ++wrong;
      }
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("advance: an articulated arm bends into a box at the hand-derived angle") {
  // Two links of length 1 (boxes [0, 1] x [-0.05, 0.05]^2 in their frames),
  // link 1 attached at x = 1 of link 0; joint 0 turns about z from 0 to pi/2,
  // joint 1 stays at 0: a straight arm of length 2 turning about the origin.
  // Obstacle: the box [-0.1, 0.1] x [1.4, 1.6] x [-0.1, 0.1]. As for the rod,
  // the arm's face y = 0.05 meets the corner (0.1, 1.4) (radius r, polar
  // angle phi) at theta* = phi - asin(0.05 / r), on link 1 (r > 1).
  auto link_model = std::make_shared<const RigidModel>(build_model(box_between({0, -0.05, -0.05}, {1, 0.05, 0.05})));
  ArticulatedModel arm;
  arm.links.push_back({-1, JointType::revolute, Pose{}, {0, 0, 1}, link_model});
  Pose at_end;
  at_end.x = {1, 0, 0};
  arm.links.push_back({0, JointType::revolute, at_end, {0, 0, 1}, link_model});
  ArticulatedModel obstacle;
  obstacle.links.push_back(
      {-1, JointType::fixed, Pose{}, {0, 0, 1},
       std::make_shared<const RigidModel>(build_model(box_between({-0.1, 1.4, -0.1}, {0.1, 1.6, 0.1})))});
  ArticulatedPath pa;
  pa.q0 = {0, 0};
  pa.q1 = {M_PI / 2, 0};
  ArticulatedPath pb;
  pb.q0 = pb.q1 = {0};
  const double r = std::hypot(0.1, 1.4);
  const double t_star = (std::atan2(1.4, 0.1) - std::asin(0.05 / r)) / (M_PI / 2);
  for (AdvanceMethod m : kMethods) {
    AdvanceOptions o;
    o.method = m;
    o.threshold = 1e-4;
    const AdvanceResult res = advance(arm, pa, obstacle, pb, o);
    CAPTURE(to_string(m));
    REQUIRE(res.status == AdvanceStatus::contact);
    CHECK(res.toc <= t_star);
    CHECK(res.toc >= t_star - 1e-3);
    CHECK(res.link_a == 1);
    CHECK(res.closest.distance <= 1e-4);
  }
  // The poses: at t = 1 link 1's origin is at (0, 1, 0).
  const std::vector<Pose> end = link_poses(arm, pa, 1);
  CHECK(std::abs(end[1].x.x) <= 1e-15);
  CHECK(std::abs(end[1].x.y - 1) <= 1e-15);
}

TEST_CASE("advance: invalid input is answered as such") {
  const RigidModel a = build_model(box({0.5, 0.5, 0.5}));
  RigidPath bad = still_at({-3, 0, 0});
  bad.velocity = {std::numeric_limits<double>::quiet_NaN(), 0, 0};
  CHECK(advance(a, bad, a, still_at({})).status == AdvanceStatus::invalid_input);
  RigidPath skew = still_at({-3, 0, 0});
  skew.start.R[1] = 0.1;  // not a rotation
  CHECK(advance(a, skew, a, still_at({})).status == AdvanceStatus::invalid_input);
  AdvanceOptions tiny;
  tiny.threshold = 1e-20;  // below 8 distance_error(): cannot be certified
  CHECK(advance(a, still_at({-3, 0, 0}), a, still_at({}), tiny).status == AdvanceStatus::invalid_input);
  AdvanceOptions unknown;
  unknown.method = static_cast<AdvanceMethod>(3);  // past hca: not run as some other method
  CHECK(advance(a, still_at({-3, 0, 0}), a, still_at({}), unknown).status == AdvanceStatus::invalid_input);
  TriangleSoup out_of_range = box({1, 1, 1});
  out_of_range.triangles[3][1] = 8;
  CHECK_THROWS_AS(build_model(out_of_range), std::invalid_argument);
  TriangleSoup infinite = box({1, 1, 1});
  infinite.vertices[2].y = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(build_model(infinite), std::invalid_argument);
  CHECK_THROWS_AS(build_model(TriangleSoup{}), std::invalid_argument);
  CHECK_THROWS_AS(distance(a, skew.start, a, Pose{}), std::invalid_argument);
  CHECK_THROWS_AS(distance(a, Pose{}, a, still_at({std::numeric_limits<double>::infinity(), 0, 0}).start),
                  std::invalid_argument);
  // Two cubes of half-size 2^-410 at the origin: a scale of about 2^-409.
  const RigidModel speck = build_model(box({0x1p-410, 0x1p-410, 0x1p-410}));
  CHECK_THROWS_AS(distance(speck, Pose{}, speck, Pose{}), std::invalid_argument);
}

TEST_CASE("advance: articulated paths and offsets out of the rigid API's domain are invalid") {
  // A rod [0, 2] x [-0.05, 0.05]^2 (one fixed link) whose base turns by pi/2
  // about -z sweeps the quarter disc of radius 2 from +x to -y, through the
  // block [0.9, 1.1] x [-1.6, -1.4] x [-0.5, 0.5]: a contact. The same turn
  // written as -pi/2 about +z (a negative angle) once answered "separate";
  // it and every other path or pose the rigid API rejects is invalid input.
  const auto rod = std::make_shared<const RigidModel>(build_model(box_between({0, -0.05, -0.05}, {2, 0.05, 0.05})));
  const auto block =
      std::make_shared<const RigidModel>(build_model(box_between({0.9, -1.6, -0.5}, {1.1, -1.4, 0.5})));
  ArticulatedModel a, b;
  a.links.push_back({-1, JointType::fixed, Pose{}, {0, 0, 1}, rod});
  b.links.push_back({-1, JointType::fixed, Pose{}, {0, 0, 1}, block});
  ArticulatedPath turning, still;
  turning.q0 = turning.q1 = still.q0 = still.q1 = {0};
  turning.base.axis = {0, 0, -1};
  turning.base.angle = M_PI / 2;
  std::vector<RigidPath> bad_bases(6, turning.base);
  bad_bases[0].axis = {0, 0, 1}, bad_bases[0].angle = -M_PI / 2;  // the same turn, a negative angle
  bad_bases[1].axis = {0, 0, -2};                                   // not a unit axis
  bad_bases[2].angle = 5 * M_PI;                                    // above 4 pi
  bad_bases[3].start.R = {3, 0, 0, 0, 3, 0, 0, 0, 3};               // not a rotation
  bad_bases[4].start.R = {1, 0, 0, 0, 1, 0, 0, 0, -1};              // a reflection
  bad_bases[5].start.x = {0x1p61, 0, 0};                            // above 2^60
  std::vector<Pose> bad_offsets(3);
  bad_offsets[0].R = {3, 0, 0, 0, 3, 0, 0, 0, 3};
  bad_offsets[1].R = {1, 0, 0, 0, 1, 0, 0, 0, -1};
  bad_offsets[2].x = {0x1p61, 0, 0};
  for (AdvanceMethod m : kMethods) {
    CAPTURE(to_string(m));
    AdvanceOptions o;
    o.method = m;
    CHECK(advance(a, turning, b, still, o).status == AdvanceStatus::contact);
    for (std::size_t i = 0; i < bad_bases.size(); ++i) {
      CAPTURE(i);
      ArticulatedPath p = turning;
      p.base = bad_bases[i];
      CHECK(advance(a, p, b, still, o).status == AdvanceStatus::invalid_input);
      // The rigid API's own answer on the same base path.
      CHECK(advance(*rod, p.base, *block, still.base, o).status == AdvanceStatus::invalid_input);
    }
    for (std::size_t i = 0; i < bad_offsets.size(); ++i) {
      CAPTURE(i);
      ArticulatedModel moved = a;
      moved.links[0].offset = bad_offsets[i];
      CHECK(advance(moved, turning, b, still, o).status == AdvanceStatus::invalid_input);
    }
  }
}

TEST_CASE("advance: a non-finite axis at angle 0, options out of range with every pair culled, a NaN joint axis") {
  // Two cubes of half-size 1/2, a from x = -3 moving by (6, 0, 0) into b at
  // the origin: faces meet when -2.5 + 6 t = -0.5, t = 1/3. A path's axis
  // multiplies its angle in the motion bound: a NaN axis at angle 0 made the
  // bound NaN and c2a and hca answered "separate" (ca: the iteration cap).
  const RigidModel cube = build_model(box({0.5, 0.5, 0.5}));
  RigidPath moving = still_at({-3, 0, 0});
  moving.velocity = {6, 0, 0};
  for (AdvanceMethod m : kMethods) {
    CAPTURE(to_string(m));
    AdvanceOptions o;
    o.method = m;
    const AdvanceResult good = advance(cube, moving, cube, still_at({}), o);
    REQUIRE(good.status == AdvanceStatus::contact);
    CHECK(good.toc <= 1.0 / 3);
    for (const Vec3 axis : {Vec3{NAN, 0, 0}, Vec3{INFINITY, 0, 0}, Vec3{0, -INFINITY, 0}}) {
      RigidPath bad = moving, bad_still = still_at({});
      bad.axis = bad_still.axis = axis;
      CHECK(advance(cube, bad, cube, still_at({}), o).status == AdvanceStatus::invalid_input);
      CHECK(advance(cube, moving, cube, bad_still, o).status == AdvanceStatus::invalid_input);
      const AdvanceQuery q{&cube, &cube, bad, still_at({})};
      CHECK(advance_batch({&q, 1}, o)[0].status == AdvanceStatus::invalid_input);
    }
  }
  // Articulated: a rod [0, 2] x [-0.05, 0.05]^2 and a block 100 away, both
  // still: every link pair is culled before any advancement, where the
  // options were checked; out of range they answered "separate".
  const auto rod = std::make_shared<const RigidModel>(build_model(box_between({0, -0.05, -0.05}, {2, 0.05, 0.05})));
  const auto block = std::make_shared<const RigidModel>(build_model(box({0.1, 0.1, 0.5})));
  ArticulatedModel a, b;
  a.links.push_back({-1, JointType::fixed, Pose{}, {0, 0, 1}, rod});
  b.links.push_back({-1, JointType::fixed, Pose{}, {0, 0, 1}, block});
  ArticulatedPath here, far;
  here.q0 = here.q1 = far.q0 = far.q1 = {0};
  far.base.start.x = {100, 0, 0};
  CHECK(advance(a, here, b, far).status == AdvanceStatus::separate);
  std::vector<AdvanceOptions> bad_options(6);
  bad_options[0].method = static_cast<AdvanceMethod>(7);
  bad_options[1].threshold = NAN;
  bad_options[2].threshold = -1;
  bad_options[3].control = 0;
  bad_options[4].control = NAN;
  bad_options[5].max_iterations = -5;
  for (std::size_t i = 0; i < bad_options.size(); ++i) {
    CAPTURE(i);
    CHECK(advance(a, here, b, far, bad_options[i]).status == AdvanceStatus::invalid_input);
  }
  // A NaN joint axis (revolute or prismatic; a fixed joint's axis, unused,
  // must still be finite): the unit test |axis| - 1 <= 2^-46 let NaN through.
  for (const JointType joint : {JointType::fixed, JointType::revolute, JointType::prismatic}) {
    CAPTURE(static_cast<int>(joint));
    ArticulatedModel nan_axis = a;
    nan_axis.links[0].joint = joint;
    nan_axis.links[0].axis = {NAN, 0, 0};
    CHECK(advance(nan_axis, here, b, far).status == AdvanceStatus::invalid_input);
  }
}

}  // namespace simdccd
