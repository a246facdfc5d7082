// Polyhedra under rigid motions (polyhedra.hpp, shapes.hpp):
// - features: edges and internal edges of hand-made bodies;
// - the first contact of a trace against a brute force over every feature
//   pair with the exact oracle (no broad phase, no culling), on random scenes
//   of boxes, translations and rotations, plain contact and expel zone;
// - hand-derived traces: a box dropped on a floor (fraction, features,
//   normal, contact points), a box turned against a wall;
// - the expel zone's promise: across a long sequence of moves of a box
//   against a stack of boxes, each stopped at its first contact, no vertex
//   ever ends strictly inside another body (checked exactly), in both modes;
// - the same trace for any thread count and implementation.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "implementations.hpp"
#include "simdccd/polyhedra.hpp"
#include "simdccd/rigid_oracle.hpp"
#include "simdccd/shapes.hpp"
#include "simdccd/targets.hpp"
#include "test_scale.hpp"

namespace simdccd {
namespace {

using test::RestoreAuto;

double tan_half(double degrees) { return std::tan(degrees * std::numbers::pi / 360); }

std::size_t count_internal(const PolyhedronEdges& e) {
  return static_cast<std::size_t>(std::count(e.internal.begin(), e.internal.end(), 1));
}

TEST_CASE("rigid.polyhedra.edges and internal edges") {
  // A box: 12 edges and 6 face diagonals, the diagonals internal (each
  // splits a flat square face).
  const PolyhedronEdges cube = polyhedron_edges(box({0, 0, 0}, {1, 1, 1}));
  CHECK(cube.edges.size() == 18);
  CHECK(count_internal(cube) == 6);
  // One triangle: 3 dangling edges, none internal.
  Polyhedron tri{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}};
  CHECK(count_internal(polyhedron_edges(tri)) == 0);
  // Two coplanar triangles folded onto the same side of their shared edge
  // (0,0,0)-(1,0,0): a crease, not internal. Opposite sides: internal.
  Polyhedron folded{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 2, 0}}, {{0, 1, 2}, {1, 0, 3}}};
  CHECK(count_internal(polyhedron_edges(folded)) == 0);
  Polyhedron flat{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, -1, 0}}, {{0, 1, 2}, {1, 0, 3}}};
  CHECK(count_internal(polyhedron_edges(flat)) == 1);
  // Not coplanar (the fourth point lifted by 2^-40): not internal.
  Polyhedron bent{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, -1, std::ldexp(1.0, -40)}}, {{0, 1, 2}, {1, 0, 3}}};
  CHECK(count_internal(polyhedron_edges(bent)) == 0);
  CHECK_THROWS_AS(polyhedron_edges(Polyhedron{{{0, 0, 0}}, {{0, 1, 2}}}), std::invalid_argument);
}

/// The least toi over every feature pair (internal edges excepted, as the
/// scene skips them), each decided by the exact oracle: hit and the
/// enclosure of the first contact.
struct Brute {
  bool hit = false;
  double lo = INFINITY, hi = INFINITY;
};

Brute brute_force(const Polyhedron& moving, const std::vector<Polyhedron>& still, const RigidMotion& motion,
                  double expel) {
  Brute b;
  const auto take = [&](QueryType type, const RigidQuery& q) {
    const Result r = rigid_exact_ccd(type, q, expel);
    REQUIRE(r.status == Status::exact);
    if (r.hit) b.hit = true, b.lo = std::min(b.lo, r.toi_lo), b.hi = std::min(b.hi, r.toi_hi);
  };
  const PolyhedronEdges me = polyhedron_edges(moving);
  for (const Polyhedron& s : still) {
    const PolyhedronEdges se = polyhedron_edges(s);
    for (const Vec3& v : moving.vertices) {
      for (const Triangle& t : s.triangles) {
        take(QueryType::vertex_face, {{v, s.vertices[t[0]], s.vertices[t[1]], s.vertices[t[2]]}, Mover::first, motion});
      }
    }
    for (const Vec3& v : s.vertices) {
      for (const Triangle& t : moving.triangles) {
        take(QueryType::vertex_face,
             {{v, moving.vertices[t[0]], moving.vertices[t[1]], moving.vertices[t[2]]}, Mover::second, motion});
      }
    }
    for (std::size_t i = 0; i < me.edges.size(); ++i) {
      if (me.internal[i]) continue;
      for (std::size_t j = 0; j < se.edges.size(); ++j) {
        if (se.internal[j]) continue;
        const Edge &a = me.edges[i], &c = se.edges[j];
        take(QueryType::edge_edge,
             {{moving.vertices[a[0]], moving.vertices[a[1]], s.vertices[c[0]], s.vertices[c[1]]}, Mover::first, motion});
      }
    }
  }
  return b;
}

/// A box of random size and orientation (turned about z then x) at `at`.
Polyhedron random_box(std::mt19937_64& rng, const Vec3& at) {
  std::uniform_real_distribution<double> size(0.3, 1.0), angle(0, 90);
  const double hx = size(rng) / 2, hy = size(rng) / 2, hz = size(rng) / 2;
  Polyhedron b = box({at.x - hx, at.y - hy, at.z - hz}, {at.x + hx, at.y + hy, at.z + hz});
  b = moved(b, RigidMotion::rotate(at, {0, 0, 1}, tan_half(angle(rng))), 1);
  return moved(b, RigidMotion::rotate(at, {1, 0, 0}, tan_half(angle(rng))), 1);
}

TEST_CASE("rigid.polyhedra.first contact equals a brute force over every pair with the oracle") {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> spot(-1.5, 1.5), unit(-1, 1), turn(-2, 2);
  const std::size_t scenes = test::scaled(12, 4);
  int hits = 0;
  for (std::size_t k = 0; k < scenes; ++k) {
    std::vector<Polyhedron> still;
    PolyhedraScene world;
    for (int b = 0; b < 3; ++b) {
      still.push_back(random_box(rng, {spot(rng), spot(rng), spot(rng)}));
      world.add(still.back());
    }
    const Polyhedron moving = random_box(rng, {spot(rng), spot(rng), spot(rng)});
    const RigidMotion motion = k % 2 == 0 ? RigidMotion::translate({2 * unit(rng), 2 * unit(rng), 2 * unit(rng)})
                                          : RigidMotion::rotate({spot(rng), spot(rng), spot(rng)},
                                                                {unit(rng), unit(rng), unit(rng)}, turn(rng));
    for (const double expel : {0.0, 0.05}) {
      const Brute b = brute_force(moving, still, motion, expel);
      for (const Mode mode : {Mode::exact, Mode::conservative}) {
        CAPTURE(k);
        CAPTURE(expel);
        TraceOptions options;
        options.narrow = {.mode = mode, .expel = expel};
        const Trace t = world.trace(moving, motion, options);
        if (mode == Mode::exact) {
          CHECK(t.hit == b.hit);
          hits += b.hit;
        } else {
          CHECK((t.hit || !b.hit));  // no false negative
        }
        if (b.hit && t.hit) {
          CHECK(t.fraction <= b.hi);
          if (mode == Mode::exact) CHECK(t.fraction >= b.lo - options.narrow.time_tolerance);
        }
        if (!t.hit) CHECK(t.fraction == 1);
      }
    }
  }
  MESSAGE(hits, " first contacts in ", 2 * scenes, " exact traces");
  CHECK(hits > 0);
}

TEST_CASE("rigid.polyhedra.a box dropped on a floor") {
  // The floor's top face is z = 0 (a 20 x 20 square cut along its diagonal
  // y = x); a unit box over (2..3, 0.5..1.5), bottom at z = 1, moved down by
  // 2. Plain contact: its bottom face reaches z = 0 at u = 1/2. Expel zone
  // e = 1/4: the bottom vertices come within e of the floor at 1 - 2u = 1/4,
  // u = 3/8; each is over one floor triangle (none on the diagonal), so 4
  // vertex-face contact points at the end, at height e, normal +z.
  PolyhedraScene world;
  world.add(box({-10, -10, -1}, {10, 10, 0}));
  const Polyhedron cube = box({2, 0.5, 1}, {3, 1.5, 2});
  const RigidMotion down = RigidMotion::translate({0, 0, -2});
  TraceOptions plain;
  const Trace p = world.trace(cube, down, plain);
  REQUIRE(p.hit);
  CHECK(p.fraction <= 0.5);
  CHECK(p.fraction >= 0.5 - 1e-9);
  TraceOptions zone;
  zone.narrow.expel = 0.25;
  zone.contact_points = true;
  const Trace z = world.trace(cube, down, zone);
  REQUIRE(z.hit);
  CHECK(z.fraction <= 0.375);
  CHECK(z.fraction >= 0.375 - 1e-9);
  CHECK(z.first.kind == ContactKind::vertex_face);
  CHECK(z.first.body == 0);
  CHECK(z.first.normal == Vec3{0, 0, 1});
  CHECK(z.first.point.z == doctest::Approx(0.25));
  REQUIRE(z.contacts.size() == 4);
  for (const PolyhedronContact& c : z.contacts) {
    CHECK(c.kind == ContactKind::vertex_face);
    CHECK(c.point.z == doctest::Approx(0.25));
    CHECK(c.normal == Vec3{0, 0, 1});
  }
  // Back-face culling: moving down, the floor's bottom and side faces are
  // never approached from their front (all drops are culled except the top's
  // two triangles against the box's four bottom vertices).
  CHECK(z.culled > 0);
  // Moving up from resting within the zone: free (the zone lets it leave).
  const Polyhedron resting = moved(cube, down, z.fraction);
  const Trace up = world.trace(resting, RigidMotion::translate({0, 0, 1}), zone);
  CHECK_FALSE(up.hit);
  // Sliding along the floor inside the zone: free (the height stays).
  CHECK_FALSE(world.trace(resting, RigidMotion::translate({3, 2, 0}), zone).hit);
  // Pressing down again: stopped at once, or nearly: the body rests where
  // the first trace stopped, at most time_tolerance (of a drop by 2) before
  // the zone's boundary.
  const Trace again = world.trace(resting, RigidMotion::translate({0, 0, -1}), zone);
  REQUIRE(again.hit);
  CHECK(again.fraction <= 2 * 2 * zone.narrow.time_tolerance);
}

TEST_CASE("rigid.polyhedra.an invalid motion, option or moving vertex is reported, not a silent miss") {
  // The drop of "a box dropped on a floor" (a hit at u = 1/2), with motions
  // and expel zones out of the kernels' domain (rigid_motion.hpp): each would
  // give NaN or overflowing boxes that drop every pair. A bad mode or time
  // tolerance was once answered per kept pair, a NaN or infinite moving
  // vertex threw (polyhedron_edges) and one beyond 2^60 was answered per kept
  // pair: a lone point had none, so no hit and invalid 0.
  PolyhedraScene world;
  world.add(box({-10, -10, -1}, {10, 10, 0}));
  const Polyhedron cube = box({2, 0.5, 1}, {3, 1.5, 2});
  const RigidMotion down = RigidMotion::translate({0, 0, -2});
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<RigidMotion> motions = {
      RigidMotion::translate({nan, 0, -2}),
      RigidMotion::translate({0, 0, -inf}),
      RigidMotion::translate({0, 0, -0x1p61}),
      RigidMotion::rotate({nan, 0, 0}, {1, 0, 0}, 1),
      RigidMotion::rotate({0, 0, 0}, {nan, 0, 0}, 1),
      RigidMotion::rotate({0, 0, 0}, {1, 0, 0}, nan),
      RigidMotion::rotate({0, 0, 0}, {0, 0, 0}, inf),  // a half turn about no axis
      RigidMotion::rotate({0, 0, 0}, {1e300, 0, 0}, 1),
  };
  for (const Mode mode : {Mode::exact, Mode::conservative}) {
    CAPTURE(to_string(mode));
    TraceOptions options;
    options.narrow.mode = mode;
    const Trace valid = world.trace(cube, down, options);
    CHECK(valid.hit);
    CHECK(valid.stats.invalid == 0);
    const auto check_invalid = [](const Trace& t) {
      CHECK_FALSE(t.hit);
      CHECK(t.fraction == 1);
      CHECK(t.pairs == 0);
      CHECK(t.first.status == Status::invalid_input);
      CHECK(t.stats.invalid == 1);
    };
    for (std::size_t i = 0; i < motions.size(); ++i) {
      CAPTURE(i);
      check_invalid(world.trace(cube, motions[i], options));
    }
    for (const double expel : {nan, -0.25, inf, 0x1p61}) {
      CAPTURE(expel);
      TraceOptions bad = options;
      bad.narrow.expel = expel;
      check_invalid(world.trace(cube, down, bad));
    }
    for (const double tolerance : {nan, -1e-9}) {
      TraceOptions bad = options;
      bad.narrow.time_tolerance = tolerance;
      check_invalid(world.trace(cube, down, bad));
    }
    TraceOptions no_mode = options;
    no_mode.narrow.mode = static_cast<Mode>(7);
    check_invalid(world.trace(cube, down, no_mode));
    for (const double bad : {nan, inf, 0x1p61}) {
      CAPTURE(bad);
      Polyhedron broken = cube;
      broken.vertices[3].z = bad;
      check_invalid(world.trace(broken, down, options));
      check_invalid(world.trace(Polyhedron{{{2, 0.5, bad}}, {}}, down, options));
    }
  }
}

TEST_CASE("rigid.polyhedra.a still body out of the rigid domain is refused when added") {
  // A still vertex beyond 2^60 (or not finite) used to be accepted, its
  // pairs then answered invalid one by one, and only those the broad phase
  // kept (none for a body far from the moving one: no hit, invalid 0).
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const double bad : {0x1p61, -0x1p61, nan, inf}) {
    CAPTURE(bad);
    PolyhedraScene world;
    Polyhedron floor = box({-10, -10, -1}, {10, 10, 0});
    floor.vertices[5].y = bad;
    CHECK_THROWS_AS(world.add(floor), std::invalid_argument);
    CHECK(world.size() == 0);
  }
  PolyhedraScene world;  // the edge of the domain is in it
  CHECK(world.add(box({-0x1p60, -1, -1}, {0x1p60, 0, 0})) == 0);
}

TEST_CASE("rigid.polyhedra.a box turned against a wall") {
  // A wall whose face is the plane x = 1 (the box [1, 2] x [-5, 5] x [-5, 5])
  // and a bar [-1.2, 0.5] x [-0.1, 0.1]^2 turned about the z axis through the
  // origin. A half turn carries its long end (x = -1.2) round to x = +1.2:
  // it must hit the wall (first contact as by the oracle's brute force). A
  // 60 degree turn keeps the long end at x < 0 and the short end within
  // radius sqrt(0.26) < 1 of the axis: no contact.
  PolyhedraScene world;
  const Polyhedron wall = box({1, -5, -5}, {2, 5, 5});
  world.add(wall);
  const Polyhedron bar = box({-1.2, -0.1, -0.1}, {0.5, 0.1, 0.1});
  TraceOptions options;
  const RigidMotion half = RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, INFINITY);
  const Trace t = world.trace(bar, half, options);
  CHECK(t.hit);
  const Brute b = brute_force(bar, {wall}, half, 0);
  REQUIRE(b.hit);
  CHECK(t.fraction <= b.hi);
  CHECK(t.fraction >= b.lo - 1e-9);
  CHECK_FALSE(world.trace(bar, RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, tan_half(60)), options).hit);
}

TEST_CASE("rigid.polyhedra.tiny bodies and tiny axes: a half turn through a body hits as at size 1") {
  // The box [1.5, 2.5] x [-0.5, 0.5]^2 turned a half turn about the z axis
  // through the origin, against the still box [-0.5, 0.5] x [1.5, 2.5] x
  // [-0.5, 0.5] (both ends of the move are clear of it). Its leading corner
  // (1.5, 0.5) turned by theta is (1.5 cos - 0.5 sin, 1.5 sin + 0.5 cos), the
  // still corner (0.5, 1.5) at cos = 3/5, sin = 4/5, theta = 2 atan(1/2);
  // before that 1.5 cos > 0.5 + 0.5 sin keeps the leading edge right of
  // x = 0.5: the first contact. A half turn about a has theta(u) = 2 atan(u
  // |a| / (1 - u)): u* = 1/3 for |a| = 1, and 1 / (1 + 2 |a|), within an
  // ulp below 1, for a tiny axis. At 2^-540 and below, the swept boxes'
  // sagitta (a norm through its square) was 0 and the broad phase dropped
  // every pair; a half turn about an axis of 2^-600 evaluated the end pose as
  // 0 / 0. Both were silent misses.
  const auto scaled_box = [](double s, Vec3 lo, Vec3 hi) {
    return box({s * lo.x, s * lo.y, s * lo.z}, {s * hi.x, s * hi.y, s * hi.z});
  };
  const RigidMotion half = RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, INFINITY);
  Trace unit[2];
  for (const int k : {0, -300, -540, -700, -1000}) {
    CAPTURE(k);
    const double s = std::ldexp(1.0, k);
    PolyhedraScene world;
    world.add(scaled_box(s, {-0.5, 1.5, -0.5}, {0.5, 2.5, 0.5}));
    const Polyhedron bar = scaled_box(s, {1.5, -0.5, -0.5}, {2.5, 0.5, 0.5});
    for (int zone = 0; zone < 2; ++zone) {
      TraceOptions options;
      options.narrow.expel = zone ? 0.01 * s : 0;  // the zone stops it earlier
      const Trace t = world.trace(bar, half, options);
      REQUIRE(t.hit);
      if (zone == 0) {
        CHECK(t.fraction <= 1.0 / 3);
        CHECK(t.fraction >= 1.0 / 3 - 1e-9);
      } else {
        CHECK(t.fraction < 1.0 / 3 - 1e-3);
      }
      if (k == 0) unit[zone] = t;
      CHECK(t.fraction == unit[zone].fraction);  // scaling by 2^k changes no rounding of the kernels
      CHECK(t.first.kind == unit[zone].first.kind);
      CHECK(t.first.normal.x == unit[zone].first.normal.x);
      CHECK(t.first.normal.y == unit[zone].first.normal.y);
    }
  }
  PolyhedraScene world;
  world.add(box({-0.5, 1.5, -0.5}, {0.5, 2.5, 0.5}));
  for (const int k : {-600, -1000}) {
    CAPTURE(k);
    const Trace t = world.trace(box({1.5, -0.5, -0.5}, {2.5, 0.5, 0.5}),
                                RigidMotion::rotate({0, 0, 0}, {0, 0, std::ldexp(1.0, k)}, INFINITY));
    REQUIRE(t.hit);
    CHECK(t.fraction < 1);  // u* = 1 - 2^(k+1) + ..., within an ulp of 1
    CHECK(t.fraction >= 1 - 1e-9);
  }
}

TEST_CASE("rigid.polyhedra.contacts of a tiny scene are those at size 1, scaled") {
  // Scene 1: the still box [-0.5, 0.5]^2 x [-1, 0] and, 2^-7 above its top,
  // the box [-0.375, 0.375] x [-0.75, 0.75] x [2^-7, 1] moving down by 1,
  // zone e = 2^-6: already within it at u = 0. The moving bottom edges x =
  // +-0.375 cross the still top edges y = +-0.5 at (+-0.375, +-0.5): four
  // edge-edge contacts, points on the still edges at z = 0, normal +z; no
  // vertex lies over the other body's facing face. Scene 2: the half turn of
  // the test above with its zone, which stops short of the zone: no contact.
  // At 2^-300 and below the contact tests took products of four lengths,
  // which underflowed: scene 1 lost its four contacts (and its first contact
  // had normal (0, -1, 1/32) at 2^-300), scene 2 listed 48 false ones.
  const auto scaled_box = [](double s, Vec3 lo, Vec3 hi) {
    return box({s * lo.x, s * lo.y, s * lo.z}, {s * hi.x, s * hi.y, s * hi.z});
  };
  const auto trace_at = [&](int scene, double s) {
    PolyhedraScene world;
    TraceOptions options;
    options.contact_points = true;
    if (scene == 1) {
      world.add(scaled_box(s, {-0.5, -0.5, -1}, {0.5, 0.5, 0}));
      options.narrow.expel = 0x1p-6 * s;
      return world.trace(scaled_box(s, {-0.375, -0.75, 0x1p-7}, {0.375, 0.75, 1}),
                         RigidMotion::translate({0, 0, -s}), options);
    }
    world.add(scaled_box(s, {-0.5, 1.5, -0.5}, {0.5, 2.5, 0.5}));
    options.narrow.expel = 0.01 * s;
    return world.trace(scaled_box(s, {1.5, -0.5, -0.5}, {2.5, 0.5, 0.5}),
                       RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, INFINITY), options);
  };
  for (const int scene : {1, 2}) {
    CAPTURE(scene);
    const Trace unit = trace_at(scene, 1);
    REQUIRE(unit.hit);
    if (scene == 1) {
      CHECK(unit.fraction == 0);
      REQUIRE(unit.contacts.size() == 4);
      for (const PolyhedronContact& c : unit.contacts) {
        CHECK(c.kind == ContactKind::edge_edge);
        CHECK(std::abs(c.point.x) == 0.375);
        CHECK(std::abs(c.point.y) == 0.5);
        CHECK(c.point.z == 0);
        CHECK(c.normal.x == 0);
        CHECK(c.normal.y == 0);
        CHECK(c.normal.z == 1);
      }
    } else {
      CHECK(unit.contacts.empty());
    }
    for (const int k : {-300, -540, -700, -1000}) {
      CAPTURE(k);
      const Trace t = trace_at(scene, std::ldexp(1.0, k));
      CHECK(t.fraction == unit.fraction);
      CHECK(t.first.normal.x == unit.first.normal.x);
      CHECK(t.first.normal.y == unit.first.normal.y);
      CHECK(t.first.normal.z == unit.first.normal.z);
      REQUIRE(t.contacts.size() == unit.contacts.size());
      for (std::size_t i = 0; i < t.contacts.size(); ++i) {
        const PolyhedronContact &c = t.contacts[i], &u = unit.contacts[i];
        CHECK(c.kind == u.kind);
        CHECK(c.moving_feature == u.moving_feature);
        CHECK(c.still_feature == u.still_feature);
        CHECK(c.normal.z == u.normal.z);
        CHECK(c.point.x == std::ldexp(u.point.x, k));
        CHECK(c.point.y == std::ldexp(u.point.y, k));
        CHECK(c.point.z == std::ldexp(u.point.z, k));
      }
    }
  }
}

TEST_CASE("rigid.polyhedra.a face the swept ball crosses is not culled (a reviewer's scene)") {
  // A flat quad in the plane z = z0 (front +z) and a triangle about 2^-45
  // across on its corner v0, one vertex 2^-48.05 above the plane, turned a
  // half turn about a centre 2^-48.2 below it: the swept ball (radius about
  // 2^-46.3) crosses the plane, so no quad face may be culled, and within
  // the zone e = 0.01 the exact first contact is at u = 0 (the brute force
  // over every feature pair says so). The culling's rounding bound took the
  // cross product of |f1| + |f0| and |f2| + |f0| as the permanent: its terms
  // subtract, here to a negative dot product, so the "certainly behind" test
  // passed at +2^-46 and every vertex-face pair was culled (first contact
  // 0.34, edge-edge: late).
  Polyhedron quad;
  quad.vertices = {{-0x1.44bf8p-2, -0x1.99ae8p-1, -0x1.6618p-1},
                   {0x1.9302ep+0, -0x1.99ae8p-1, -0x1.6618p-1},
                   {0x1.9302ep+0, 0x1.e8bcp-3, -0x1.6618p-1},
                   {-0x1.44bf8p-2, 0x1.e8bcp-3, -0x1.6618p-1}};
  quad.triangles = {{0, 1, 2}, {0, 2, 3}};
  Polyhedron speck;
  speck.vertices = {{-0x1.44bf800000041p-2, -0x1.99ae800000086p-1, -0x1.6617fffffffe1p-1},
                    {-0x1.44bf8000000a6p-2, -0x1.99ae80000007dp-1, -0x1.6618000000039p-1},
                    {-0x1.44bf8000000c1p-2, -0x1.99ae80000002fp-1, -0x1.6617fffffffccp-1}};
  speck.triangles = {{0, 1, 2}};
  const RigidMotion half = RigidMotion::rotate({-0x1.44bf80000009cp-2, -0x1.99ae800000043p-1, -0x1.661800000001cp-1},
                                               {-0x1.e02acp-1, 0x1.b7b68p-2, -0x1.5d074p-1}, INFINITY);
  const double e = 0.01;
  const Brute b = brute_force(speck, {quad}, half, e);
  REQUIRE(b.hit);
  CHECK(b.hi == 0);
  PolyhedraScene world;
  world.add(quad);
  for (const Mode mode : {Mode::conservative, Mode::exact}) {
    TraceOptions options;
    options.narrow.mode = mode;
    options.narrow.expel = e;
    const Trace t = world.trace(speck, half, options);
    CHECK(t.hit);
    CHECK(t.fraction == 0);
    CHECK(t.culled == 0);
  }
}

TEST_CASE("rigid.polyhedra.the expel zone keeps every vertex out of the other bodies") {
  // A stack of boxes on a floor, and a box moved by random translations and
  // rotations, each stopped at its first contact (placed by apply(), in
  // doubles: rounding is what e must absorb). After every move, exactly: no
  // vertex of the moving box strictly inside a still body, and no still
  // vertex strictly inside the moving box.
  std::vector<Polyhedron> still{box({-6, -6, -1}, {6, 6, 0}), box({-1, -1, 0}, {1, 1, 1}),
                                moved(box({-0.7, -0.7, 1}, {0.7, 0.7, 2}), RigidMotion::rotate({0, 0, 0}, {0, 0, 1}, tan_half(20)), 1),
                                box({2, -2, 0}, {2.5, 2, 1.5})};
  PolyhedraScene world;
  for (const Polyhedron& s : still) world.add(s);
  const std::size_t moves = test::scaled(150, 30);
  for (const Mode mode : {Mode::exact, Mode::conservative}) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> unit(-1, 1), angle(-90, 90);
    Polyhedron body = box({-0.4, -0.3, 3}, {0.4, 0.3, 3.5});
    TraceOptions options;
    options.narrow = {.mode = mode, .expel = 1e-3};
    int stopped = 0;
    for (std::size_t m = 0; m < moves; ++m) {
      Vec3 c{};
      for (const Vec3& v : body.vertices) c = {c.x + v.x / 8, c.y + v.y / 8, c.z + v.z / 8};
      // Mostly towards the stack's top and down, sometimes a turn about a
      // random axis through a point near the body.
      RigidMotion motion;
      if (m % 3 == 2) {
        motion = RigidMotion::rotate({c.x + 0.5 * unit(rng), c.y + 0.5 * unit(rng), c.z + 0.5 * unit(rng)},
                                     {unit(rng), unit(rng), unit(rng)}, tan_half(angle(rng)));
      } else {
        motion = RigidMotion::translate({-0.4 * c.x + unit(rng), -0.4 * c.y + unit(rng), -1.5 + unit(rng)});
      }
      const Trace t = world.trace(body, motion, options);
      stopped += t.hit;
      body = moved(body, motion, t.fraction);
      std::size_t inside = 0;
      for (const Polyhedron& s : still) {
        for (const Vec3& v : body.vertices) inside += strictly_inside(s, v);
        for (const Vec3& v : s.vertices) inside += strictly_inside(body, v);
      }
      CAPTURE(m);
      REQUIRE(inside == 0);
    }
    MESSAGE(to_string(mode), ": ", stopped, " of ", moves, " moves stopped by a contact");
    CHECK(stopped > int(moves) / 4);
  }
}

TEST_CASE("rigid.polyhedra.the same trace on every implementation and thread count") {
  RestoreAuto restore;
  PolyhedraScene world;
  world.add(prism(gear_outline(0, 0, 1.0, 1.25, 12, 0), 0, 0.5));
  const Polyhedron gear = prism(gear_outline(2.3, 0, 1.0, 1.25, 12, std::numbers::pi), 0, 0.5);
  const RigidMotion turn = RigidMotion::rotate({2.3, 0, 0}, {0, 0, 1}, tan_half(40));
  for (const double expel : {0.0, 0.01}) {
    std::vector<Trace> traces;
    for (const std::string& name : runnable_implementations()) {
      REQUIRE(set_implementation(name));
      for (const int threads : {1, 2}) {
        TraceOptions options;
        options.narrow.expel = expel;
        options.threads = threads;
        options.contact_points = true;
        traces.push_back(world.trace(gear, turn, options));
      }
    }
    REQUIRE(traces.front().hit);
    for (const Trace& t : traces) {
      CHECK(test::same_bits(t.fraction, traces.front().fraction));
      CHECK(t.first.kind == traces.front().first.kind);
      CHECK(t.first.moving_feature == traces.front().first.moving_feature);
      CHECK(t.first.still_feature == traces.front().first.still_feature);
      CHECK(t.first.normal == traces.front().first.normal);
      CHECK(t.contacts.size() == traces.front().contacts.size());
    }
  }
}

}  // namespace
}  // namespace simdccd
