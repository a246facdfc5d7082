// GJK (convex/gjk.hpp) against the exact judge (gjk_judge.hpp) on shape
// pairs decoded from the fuzzer's bytes: polytopes, and spheres, capsules and
// boxes (every kind with an exact judge).
//
// Input: a byte each for the two polytopes' vertex counts (1 to 16) and a
// flavour byte: the coordinate kind (small integers on a grid scaled by 2^k,
// k in [-60, 60], but -37 stands for -900: tiny pairs; the grid makes exact
// contacts, flat, collinear and repeated points common; raw doubles from 8
// bytes each; or the grid with one entry NaN, infinite or beyond 2^60, which
// must be answered invalid), then the
// vertices, then each pose: identity, a signed axis permutation (exact), or a
// rotation from a quaternion of four bytes, and a translation on the grid,
// in a quarter of the poses scaled up by 2^1 to 2^50 more (far from the origin);
// last, each shape's kind (when the bytes run out: polytope), a sphere,
// capsule or box taking its sizes from the magnitudes of its first decoded
// point plus scale/8.
// Checked: invalid input exactly outside the domain; valid input: the
// distance query, the intersection-only query and a warm restart from the
// distance query's own answer all judged against the exact distance (the
// guarantee of gjk.hpp), the two queries' intersecting flags equal, and the
// warm answer's as the cold one's outside the tolerance band; and gjk_batch()
// on every runnable implementation answers as gjk() does, bit for bit, cold
// and warm, in and out of the domain, and gjk_intersect_batch() flags as it.
// The exact distance of the cores by exact GJK equals the hull method's.
// Any violation prints the pair and aborts.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "hard_queries.hpp"
#include "simdccd/convex/exact_gjk.hpp"
#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/gjk_judge.hpp"
#include "simdccd/targets.hpp"

namespace {

using namespace simdccd;
using namespace simdccd::convex;
using test::Entropy;

double grid_value(Entropy& e, double scale) { return e.range(-8, 8) * scale; }

std::vector<Vec3> decode_points(Entropy& e, int count, int flavour, double scale) {
  std::vector<Vec3> points(static_cast<std::size_t>(count));
  for (Vec3& p : points) {
    if (flavour == 1) {
      double c[3];
      for (double& x : c) {
        const std::uint64_t bits = e.bits(64);
        std::memcpy(&x, &bits, sizeof x);
      }
      p = {c[0], c[1], c[2]};
    } else {
      p = {grid_value(e, scale), grid_value(e, scale), grid_value(e, scale)};
    }
  }
  return points;
}

Pose decode_pose(Entropy& e, double scale) {
  Pose pose;
  switch (e.range(0, 2)) {
    case 0: break;
    case 1: {  // a signed permutation of the axes with determinant +1: exact
      static constexpr int kPermutations[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}};
      const int k = e.range(0, 5);
      const double s0 = e.chance(1, 2) ? -1 : 1, s1 = e.chance(1, 2) ? -1 : 1;
      const double s2 = (k < 3 ? 1 : -1) * s0 * s1;  // the odd permutations flip the sign
      pose.R = {};
      pose.R[kPermutations[k][0]] = s0;
      pose.R[3 + kPermutations[k][1]] = s1;
      pose.R[6 + kPermutations[k][2]] = s2;
      break;
    }
    default: {
      double q[4];
      for (double& c : q) c = e.range(-127, 127);
      const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
      if (n == 0) break;
      pose.R = quaternion_rotation(q[0] / n, q[1] / n, q[2] / n, q[3] / n);
    }
  }
  // Sometimes far from the origin against the shapes' size: posing then rounds
  // the vertices by more than a tolerance relative to the size alone.
  const double offset = scale * std::ldexp(1.0, e.chance(1, 4) ? e.range(1, 50) : 0);
  pose.x = {grid_value(e, offset), grid_value(e, offset), grid_value(e, offset)};
  return pose;
}

/// The shape of `kind` (0 polytope, 1 sphere, 2 capsule, 3 box) from the decoded points.
ConvexShape decode_shape(int kind, const std::vector<Vec3>& points, double scale) {
  const Vec3 size{std::abs(points[0].x) + scale / 8, std::abs(points[0].y) + scale / 8,
                  std::abs(points[0].z) + scale / 8};
  switch (kind) {
    case 1: return sphere(size.x);
    case 2: return capsule(size.x, size.y);
    case 3: return box(size);
    default: return polytope(points);
  }
}

[[noreturn]] void fail(const char* what, const ConvexShape& a, const Pose& pa, const ConvexShape& b,
                       const Pose& pb) {
  std::fprintf(stderr, "fuzz_gjk: %s\n", what);
  const auto dump = [](const char* name, const ConvexShape& s, const Pose& p) {
    std::fprintf(stderr, "%s: kind %d radius %a half_height %a half (%a %a %a); R", name, static_cast<int>(s.kind),
                 s.radius, s.half_height, s.half.x, s.half.y, s.half.z);
    for (double r : p.R) std::fprintf(stderr, " %a", r);
    std::fprintf(stderr, " x %a %a %a; vertices", p.x.x, p.x.y, p.x.z);
    for (const Vec3& q : s.vertices) std::fprintf(stderr, " (%a %a %a)", q.x, q.y, q.z);
    std::fprintf(stderr, "\n");
  };
  dump("a", a, pa);
  dump("b", b, pb);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Entropy e(data, size);
  const int na = e.range(1, 16), nb = e.range(1, 16), flavour = e.range(0, 3);
  // Tiny pairs too (they run scaled up: gjk.hpp): k = -37 stands for -900 (an
  // inner value: the ends of a range come up most, and tiny pairs judge slowly).
  const int k = e.range(-60, 60);
  const double scale = std::ldexp(1.0, k == -37 ? -900 : k);
  std::vector<Vec3> a = decode_points(e, na, flavour == 1 ? 1 : 0, scale);
  std::vector<Vec3> b = decode_points(e, nb, flavour == 1 ? 1 : 0, scale);
  if (flavour == 3) {  // one entry out of the domain
    static const double kBad[3] = {NAN, INFINITY, 0x1p61};
    (e.range(0, 1) ? a : b)[0].y = kBad[e.range(0, 2)];
  }
  const Pose pa = decode_pose(e, scale), pb = decode_pose(e, scale);
  const ConvexShape sa = decode_shape(e.range(0, 3), a, scale), sb = decode_shape(e.range(0, 3), b, scale);
  const GjkResult distance = gjk(sa, pa, sb, pb);
  const bool in_domain = is_valid(sa) && is_valid(sb) && is_valid(pa) && is_valid(pb);
  if (distance.valid != in_domain) fail("validity differs from the domain", sa, pa, sb, pb);
  // Every implementation's lanes (gjk_batch) answer as gjk() does, bit for bit, cold and warm.
  static const std::vector<std::string> implementations = runnable_implementations();
  const ConvexShape shapes[2] = {sa, sb};
  const ShapePair pair{0, 1, pa, pb};
  const GjkResult warm_single = gjk(sa, pa, sb, pb, {}, &distance.warm);
  for (const std::string& impl : implementations) {
    set_implementation(impl);
    GjkResult cold, warmed;
    gjk_batch(shapes, {&pair, 1}, {&cold, 1}, {}, 1);
    gjk_batch(shapes, {&pair, 1}, {&warmed, 1}, {}, 1, {&distance.warm, 1});
    if (!identical(cold, distance) || !identical(warmed, warm_single)) fail("a target's lanes differ from gjk()", sa, pa, sb, pb);
    Overlap flag = Overlap::separate;
    gjk_intersect_batch(shapes, {&pair, 1}, {&flag, 1}, {}, 1);
    const Overlap expected = !distance.valid ? Overlap::invalid : distance.intersecting ? Overlap::intersecting : Overlap::separate;
    if (flag != expected) fail("a target's intersection flag differs from gjk()", sa, pa, sb, pb);
  }
  if (!in_domain) return 0;
  const std::optional<ExactPolytopeDistance> exact = exact_core_distance(sa, pa, sb, pb);
  if (!exact) return 0;
  // The other exact method (exact GJK, which settles GJK's stalls) finds the same distance.
  const std::vector<Vec3> core_a = world_core(sa, pa), core_b = world_core(sb, pb);
  if (exact_accepts(core_a) && exact_accepts(core_b) &&
      exact_gjk_distance(core_a, core_b).squared_distance != exact->squared_distance) {
    fail("exact GJK differs from the hull method", sa, pa, sb, pb);
  }
  GjkOptions intersection;
  intersection.intersection_only = true;
  const GjkResult test = gjk(sa, pa, sb, pb, intersection);
  const GjkResult& warm = warm_single;
  const double radii = core_radius(sa) + core_radius(sb);
  if (judge_gjk(distance, *exact, radii).mismatch) fail("distance query breaks the guarantee", sa, pa, sb, pb);
  if (judge_gjk(test, *exact, radii).mismatch) fail("intersection query breaks the guarantee", sa, pa, sb, pb);
  if (judge_gjk(warm, *exact, radii).mismatch) fail("warm restart breaks the guarantee", sa, pa, sb, pb);
  if (test.intersecting != distance.intersecting) fail("the two queries disagree", sa, pa, sb, pb);
  return 0;
}
