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

#include "convex_decode.hpp"
#include "hard_queries.hpp"
#include "simdccd/convex/exact_gjk.hpp"
#include "simdccd/convex/gjk_batch.hpp"
#include "simdccd/convex/gjk_judge.hpp"
#include "simdccd/targets.hpp"

namespace {

using namespace simdccd;
using namespace simdccd::convex;
using test::Entropy;
using fuzz::decode_points;
using fuzz::decode_pose;
using fuzz::decode_shape;

[[noreturn]] void fail(const char* what, const ConvexShape& a, const Pose& pa, const ConvexShape& b,
                       const Pose& pb) {
  std::fprintf(stderr, "fuzz_gjk: %s\n", what);
  fuzz::print_pair(a, pa, b, pb);
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
