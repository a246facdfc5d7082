// Time of impact (convex/time_of_impact.hpp) against the exact first contact
// (exact_first_contact) on polytope and box pairs decoded from the fuzzer's
// bytes (convex_decode.hpp).
//
// Input: a byte each for the two polytopes' vertex counts (1 to 8), a
// flavour byte (3 in 4: on the grid; 1 in 4: one entry NaN, infinite or
// beyond 2^60, which must be answered invalid_input), the scale 2^k, k in
// [-30, 4] (-29 stands for -540: tiny queries run scaled up), the vertices,
// both poses, each shape's kind (polytope or box), then b's motion: a
// translation on the grid times 1 to 4, or a rotation about a centre on the
// grid, an axis on the grid (the x axis when that is zero) and tan(alpha/2) =
// p/q for small integers, 0 or +-infinity (a half turn); last, the contact
// threshold (the default, 0, 2^-10 or 1/4).
// Checked, for conservative advancement, the bisection and (a translation)
// the RigidPath form of the same motion alike, and a batch of one pair bit
// for bit as the path form: invalid
// input exactly outside the domain (every length here stays below 2^58, so
// no motion of a valid query leaves GJK's range); otherwise toi in [0, 1],
// never later than the exact first contact u* (exact_first_contact is within
// exact_contact_time_tolerance below it), and `separate` only where the
// exact reference finds no contact. Any violation prints the query and aborts.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "convex_decode.hpp"
#include "hard_queries.hpp"
#include "simdccd/convex/time_of_impact.hpp"

namespace {

using namespace simdccd;
using namespace simdccd::convex;
using test::Entropy;

RigidMotion decode_motion(Entropy& e, double scale) {
  const Vec3 g{fuzz::grid_value(e, scale), fuzz::grid_value(e, scale), fuzz::grid_value(e, scale)};
  if (e.chance(1, 2)) {
    const double times = e.range(1, 4);
    return RigidMotion::translate({g.x * times, g.y * times, g.z * times});
  }
  Vec3 axis{static_cast<double>(e.range(-2, 2)), static_cast<double>(e.range(-2, 2)),
            static_cast<double>(e.range(-2, 2))};
  if (axis.x == 0 && axis.y == 0 && axis.z == 0) axis.x = 1;
  double tan_half = 0;
  switch (e.range(0, 3)) {
    case 0: tan_half = (e.chance(1, 2) ? 1 : -1) * std::numeric_limits<double>::infinity(); break;
    case 1: break;
    default: tan_half = static_cast<double>(e.range(-8, 8)) / e.range(1, 4);
  }
  return RigidMotion::rotate(g, axis, tan_half);
}

// u_star: the exact reference's fraction, NaN where it finds no contact.
[[noreturn]] void fail(const char* what, const char* method, const ToiResult& r, double u_star,
                       const ConvexShape& a, const Pose& pa, const ConvexShape& b, const Pose& pb,
                       const RigidMotion& m) {
  std::fprintf(stderr, "fuzz_toi: %s (%s: status %s, toi %a; exact first contact %a)\n", what, method,
               to_string(r.status), r.toi, u_star);
  fuzz::print_pair(a, pa, b, pb);
  std::fprintf(stderr, "motion: %s translation %a %a %a centre %a %a %a axis %a %a %a tan_half %a\n",
               std::string(to_string(m.type)).c_str(), m.translation.x, m.translation.y, m.translation.z, m.center.x,
               m.center.y, m.center.z, m.axis.x, m.axis.y, m.axis.z, m.tan_half);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Entropy e(data, size);
  const int na = e.range(1, 8), nb = e.range(1, 8);
  const bool bad = e.chance(1, 4);
  const int k = e.range(-30, 4);
  const double scale = std::ldexp(1.0, k == -29 ? -540 : k);
  std::vector<Vec3> a = fuzz::decode_points(e, na, 0, scale);
  std::vector<Vec3> b = fuzz::decode_points(e, nb, 0, scale);
  if (bad) {
    static const double kBad[3] = {NAN, INFINITY, 0x1p61};
    (e.range(0, 1) ? a : b)[0].y = kBad[e.range(0, 2)];
  }
  const Pose pa = fuzz::decode_pose(e, scale), pb = fuzz::decode_pose(e, scale);
  const ConvexShape sa = fuzz::decode_shape(e.range(0, 1) * 3, a, scale);
  const ConvexShape sb = fuzz::decode_shape(e.range(0, 1) * 3, b, scale);
  const RigidMotion m = decode_motion(e, scale);
  static constexpr double kThresholds[4] = {ToiOptions{}.threshold, 0, 0x1p-10, 0.25};
  ToiOptions options;
  options.threshold = kThresholds[e.range(0, 3)];
  const bool in_domain = is_valid(sa) && is_valid(sb) && is_valid(pa) && is_valid(pb) && is_valid(m);
  const ToiResult ca = time_of_impact(sa, pa, sb, pb, m, options);
  const ToiResult bi = time_of_impact_bisection(sa, pa, sb, pb, m, options);
  // A translation is also a RigidPath of b (a still): the path form, alone
  // and as a batch of one pair, answers alike.
  std::optional<ToiResult> path;
  if (m.type == RigidMotionType::translation) {
    const RigidPath still{pa}, moving{pb, m.translation};
    path = time_of_impact(sa, still, sb, moving, options);
    const ConvexShape shapes[2] = {sa, sb};
    const MovingPair pair{0, 1, still, moving};
    ToiResult batch;
    time_of_impact_batch(shapes, {&pair, 1}, {&batch, 1}, options, 1);
    if (batch.status != path->status || std::memcmp(&batch.toi, &path->toi, sizeof batch.toi) != 0 ||
        batch.iterations != path->iterations) {
      fail("the batch differs from the path", "path", batch, NAN, sa, pa, sb, pb, m);
    }
  }
  const std::optional<double> exact = in_domain ? exact_first_contact(sa, pa, sb, pb, m) : std::nullopt;
  // The latest toi the exact first contact allows (its fraction is at most
  // exact_contact_time_tolerance below it).
  const double u_star = exact ? *exact : NAN;
  const double latest = exact ? u_star + exact_contact_time_tolerance : 1;
  std::vector<std::pair<const char*, ToiResult>> answers{{"CA", ca}, {"bisection", bi}};
  if (path) answers.emplace_back("path", *path);
  for (const auto& [method, r] : answers) {
    if ((r.status == ToiStatus::invalid_input) != !in_domain) fail("validity differs from the domain", method, r, u_star, sa, pa, sb, pb, m);
    if (!in_domain) continue;
    if (!(r.toi >= 0 && r.toi <= 1)) fail("toi outside [0, 1]", method, r, u_star, sa, pa, sb, pb, m);
    if (r.toi > latest) fail("toi later than the first contact", method, r, u_star, sa, pa, sb, pb, m);
    if (exact && r.status == ToiStatus::separate) fail("separate, but the shapes meet", method, r, u_star, sa, pa, sb, pb, m);
  }
  return 0;
}
