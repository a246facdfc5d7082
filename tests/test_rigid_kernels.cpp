// Every implementation of the rigid kernels (rigid_ccd.hpp; each runnable
// Highway target and "double"; the rigid family has no xsimd entry) in both
// floating-point modes, against the exact rigid oracle (rigid_exact_ccd) on
// every query:
// - exact mode: every hit equals the oracle's; certified hits have
//   oracle toi_lo - time_tolerance <= toi <= oracle toi_hi; oracle fallbacks
//   (status exact) carry the oracle's toi_lo;
// - conservative mode: no false negative, toi <= oracle toi_hi on hits, false
//   positives only with status uncertain, the same certified answers as exact
//   mode (follows_exact_mode);
// - all implementations bit-identical (hit, toi, status), and so are one and
//   two threads (rigid_ccd_parallel, several grains), a range split in two
//   calls, the structure of arrays aligned or not and with or without the
//   mover array, and the indexed form (two small bodies, pairs with mover
//   flags, mover second included);
// - BatchStats count what the answers say;
// - invalid input (NaN, infinities, |x| > 2^60 in a point or a motion
//   parameter, tan_half NaN or +-inf about a zero axis, indices out of range,
//   a mover byte other than 0 and 1, an expel outside [0, 2^60]) is
//   invalid_input, hit 0, toi +inf, counted.
// Workloads, for both query types and both motions, with plain contact
// (expel 0) and with the expel zone: random queries in the unit cube, hard
// small-integer grid queries (coordinate axes, tan_half in {0, +-1/2, +-1, 2,
// +-inf}, contacts placed at u = 0, 1/2 and 1), the grid queries moved and
// scaled by powers of two, and hand-derived cases whose answers the comments
// derive.
// SIMDCCD_TEST_SCALE (a factor, default 1) scales the workloads: the aarch64
// runs under QEMU (.ci/aarch64) use a small one.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hard_queries.hpp"
#include "implementations.hpp"
#include "rigid_kernel_support.hpp"
#include "simdccd/rigid_ccd.hpp"
#include "simdccd/rigid_oracle.hpp"
#include "simdccd/targets.hpp"
#include "test_scale.hpp"

namespace simdccd {
namespace {

using test::report_first;
using test::RestoreAuto;
using test::scaled;
using Answers = test::BatchAnswers;

constexpr double kTolerance = 1e-9;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr QueryType VF = QueryType::vertex_face;
constexpr QueryType EE = QueryType::edge_edge;
constexpr RigidMotionType kTranslation = RigidMotionType::translation;
constexpr RigidMotionType kRotation = RigidMotionType::rotation;

struct Workload {
  std::string name;
  QueryType type;
  RigidMotionType motion;
  double expel = 0;
  std::vector<RigidQuery> queries;

  std::string label() const {
    return name + " " + std::string(to_string(type)) + " " + std::string(to_string(motion)) +
           test::format(" expel %g", expel);
  }
};

RigidOptions options(Mode mode, double expel) { return {mode, kTolerance, expel}; }

/// One run's answers and statistics.
struct Run {
  Answers answers;
  BatchStats stats;
  explicit Run(std::size_t n) : answers(n) {}
};

/// rigid_ccd on this thread over [0, split) and [split, count).
Run serial(const RigidSoaQueries& q, const RigidOptions& o, std::size_t split = 0) {
  Run r(q.count);
  r.stats = rigid_ccd(q, o, r.answers.view(), 0, split);
  r.stats += rigid_ccd(q, o, r.answers.view(), split, q.count);
  return r;
}

Run parallel(const RigidSoaQueries& q, const RigidOptions& o, const ParallelOptions& p) {
  Run r(q.count);
  r.stats = rigid_ccd_parallel(q, o, r.answers.view(), p);
  return r;
}

Run indexed(const test::RigidBodies& bodies, const RigidOptions& o) {
  Run r(bodies.pairs.size());
  r.stats = bodies.decide(o, r.answers.view());
  return r;
}

/// The oracle on every query, on two threads (the machines running this are small).
std::vector<Result> oracle_answers(const Workload& w) {
  std::vector<Result> results(w.queries.size());
  const auto every_other = [&](std::size_t first) {
    for (std::size_t i = first; i < results.size(); i += 2) {
      results[i] = rigid_exact_ccd(w.type, w.queries[i], w.expel);
    }
  };
  std::thread other(every_other, 1);
  every_other(0);
  other.join();
  return results;
}

struct Findings {
  std::uint64_t broken = 0, not_identical = 0, bad_stats = 0;
  std::uint64_t hits = 0, undecided = 0, false_positives = 0;
};

/// One run in `mode` against the oracle (the rules of the file comment),
/// against `reference` (bit for bit; null: none) and, in conservative mode,
/// against exact mode on the same implementation (null: none).
Findings judge(const Workload& w, const std::vector<Result>& oracle, Mode mode, const Run& run,
               const Answers* reference, const Answers* exact_of_same) {
  const Answers& a = run.answers;
  const Status undecided = mode == Mode::exact ? Status::exact : Status::uncertain;
  Findings f;
  std::uint64_t invalid = 0, valid_misses = 0;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const test::Answer x = a.at(i);
    const Result& o = oracle[i];
    const bool valid = test::rigid_in_domain(w.queries[i], w.expel);
    std::string broken = test::check_answer(mode, valid, o, x, kTolerance);
    if (broken.empty() && valid && x.hit && x.status == Status::certified && !(o.toi_lo - kTolerance <= x.toi)) {
      broken = "certified toi more than time_tolerance before the oracle's";
    }
    if (broken.empty() && exact_of_same != nullptr && !test::follows_exact_mode(a, *exact_of_same, i)) {
      broken = "conservative mode does not follow exact mode";
    }
    if (!broken.empty()) {
      report_first(f.broken,
                   broken + "\n" + test::describe(w.queries[i]) + "  answer: " + test::describe(x) +
                       "\n  oracle: " + test::describe(o),
                   i);
    }
    if (reference != nullptr && !test::same_answer(*reference, a, i)) {
      report_first(f.not_identical,
                   "differs from the reference: " + test::describe(x) + " vs " + test::describe(reference->at(i)), i);
    }
    f.hits += x.hit;
    f.undecided += x.status == undecided;
    f.false_positives += valid && x.hit && !o.hit;
    invalid += x.status == Status::invalid_input;
    valid_misses += valid && !o.hit;
  }
  const BatchStats& s = run.stats;
  if (s.queries != oracle.size() || s.hits != f.hits || s.invalid != invalid || s.uncertain != f.undecided ||
      s.screened_out > valid_misses || s.screened_out + s.root_stage + s.invalid > s.queries) {
    report_first(f.bad_stats, "BatchStats disagree with the answers", 0);
  }
  return f;
}

/// Bit-identical answers to `reference` on every query.
std::uint64_t differences(const Answers& reference, const Run& run) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < reference.hit.size(); ++i) n += !test::same_answer(reference, run.answers, i);
  return n;
}

/// Every implementation in both modes on the workload, in every form.
void check_workload(const Workload& w) {
  RestoreAuto restore;
  const std::size_t n = w.queries.size();
  const std::vector<Result> oracle = oracle_answers(w);
  std::size_t oracle_hits = 0;
  for (std::size_t i = 0; i < n; ++i) oracle_hits += oracle[i].hit && test::rigid_in_domain(w.queries[i], w.expel);
  // The main form: misaligned columns with the mover array; the other: aligned, no mover array.
  const test::RigidSoa soa(w.type, w.motion, w.queries, n + 3, 1, true);
  const test::RigidSoa other(w.type, w.motion, w.queries, n, 0, false);
  const test::RigidBodies bodies(w.type, w.queries);
  const RigidOptions exact = options(Mode::exact, w.expel), conservative = options(Mode::conservative, w.expel);
  REQUIRE(set_implementation("double"));
  const Run ref_exact = serial(soa.view, exact), ref_conservative = serial(soa.view, conservative);
  const std::vector<std::string> impls = runnable_implementations();
  for (std::size_t k = 0; k < impls.size(); ++k) {
    const std::string& impl = impls[k];
    REQUIRE(set_implementation(impl));
    INFO(w.label(), " on ", impl);
    const Run e = serial(soa.view, exact), c = serial(soa.view, conservative);
    const Findings fe = judge(w, oracle, Mode::exact, e, &ref_exact.answers, nullptr);
    const Findings fc = judge(w, oracle, Mode::conservative, c, &ref_conservative.answers, &e.answers);
    MESSAGE(w.label(), " ", impl, ": ", n, " queries, ", oracle_hits, " oracle hits, ", fc.undecided, " uncertain, ",
            fc.false_positives, " conservative false positives");
    for (const Findings& f : {fe, fc}) {
      CHECK(f.broken == 0);
      CHECK(f.not_identical == 0);
      CHECK(f.bad_stats == 0);
    }
    // The same conservative answers in every other form.
    const std::size_t third = n / 3;
    CHECK(differences(c.answers, serial(other.view, conservative, third)) == 0);
    CHECK(differences(c.answers, indexed(bodies, conservative)) == 0);
    for (const ParallelOptions p : {ParallelOptions{1, 64}, ParallelOptions{2, 1}, ParallelOptions{2, 13},
                                    ParallelOptions{2, 64}, ParallelOptions{2, 1000}}) {
      const Run r = parallel(soa.view, conservative, p);
      CHECK(differences(c.answers, r) == 0);
      CHECK(judge(w, oracle, Mode::conservative, r, nullptr, nullptr).bad_stats == 0);
    }
    // Exact mode calls the oracle for every uncertain query: one other form
    // per implementation, in turn.
    switch (k % 3) {
      case 0: CHECK(differences(e.answers, parallel(other.view, exact, ParallelOptions{2, 16})) == 0); break;
      case 1: CHECK(differences(e.answers, indexed(bodies, exact)) == 0); break;
      default: CHECK(differences(e.answers, serial(other.view, exact, n - third)) == 0); break;
    }
  }
}

// ---------------------------------------------------------------- workloads

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  /// Points uniform in [0, 1]^3; translation in [-1, 1]^3; rotation: center
  /// in [0, 1]^3, axis in [-1, 1]^3, tan_half in [-2, 2] or (1 in 16) +-inf.
  RigidQuery random(RigidMotionType motion) {
    RigidQuery q;
    for (Vec3& p : q.points) p = box(0, 1);
    q.mover = mover();
    if (motion == kTranslation) {
      q.motion = RigidMotion::translate(box(-1, 1));
    } else {
      const Vec3 center = box(0, 1), axis = box(-1, 1);
      const double tau = integer(0, 15) == 0 ? (integer(0, 1) == 0 ? kInf : -kInf) : real(-2, 2);
      q.motion = RigidMotion::rotate(center, axis, tau);
    }
    return q;
  }

  /// A grid query (test::grid_query); a quarter of them get their still
  /// primitive rebuilt through a contact (test::place_contact).
  RigidQuery grid(QueryType type, RigidMotionType motion) {
    const auto choose = [this](int lo, int hi) { return integer(lo, hi); };
    RigidQuery q = test::grid_query(motion, choose);
    if (integer(0, 3) == 0) test::place_contact(type, q, choose);
    return q;
  }

  /// A shift that keeps a grid query exact once scaled by s (test::exact_shift).
  Vec3 shift(double s) {
    return test::exact_shift(s, [this](int lo, int hi) { return integer(lo, hi); });
  }

 private:
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  Vec3 box(double lo, double hi) { return {real(lo, hi), real(lo, hi), real(lo, hi)}; }
  Mover mover() { return integer(0, 1) == 0 ? Mover::first : Mover::second; }

  std::mt19937_64 rng_;
};

Workload random_workload(QueryType type, RigidMotionType motion, double expel, std::size_t n, std::uint64_t seed) {
  Generator g(seed);
  Workload w{"random", type, motion, expel, {}};
  for (std::size_t i = 0; i < n; ++i) w.queries.push_back(g.random(motion));
  return w;
}

Workload grid_workload(QueryType type, RigidMotionType motion, double expel, std::size_t n, std::uint64_t seed) {
  Generator g(seed);
  Workload w{"grid", type, motion, expel, {}};
  for (std::size_t i = 0; i < n; ++i) w.queries.push_back(g.grid(type, motion));
  return w;
}

/// Grid queries moved by exact shifts and scaled by 2^exponent (the expel
/// zone too); a query a shift would round keeps the scaling only.
Workload moved_scaled_workload(QueryType type, RigidMotionType motion, double expel, int exponent, std::size_t n,
                               std::uint64_t seed) {
  const double s = std::ldexp(1.0, exponent);
  Workload w = grid_workload(type, motion, expel * s, n, seed);
  w.name = "grid moved, scaled by 2^" + std::to_string(exponent);
  Generator g(seed + 1000);
  std::size_t kept_scale_only = 0;
  for (RigidQuery& q : w.queries) {
    std::optional<RigidQuery> m = test::moved_scaled(q, s, g.shift(s));
    if (!m) {
      ++kept_scale_only;
      m = test::moved_scaled(q, s, {});
    }
    REQUIRE(m.has_value());
    q = *m;
  }
  CHECK(kept_scale_only < n / 4);
  return w;
}

constexpr RigidMotionType kMotions[2] = {kTranslation, kRotation};
constexpr QueryType kTypes[2] = {VF, EE};

std::uint64_t seed_of(QueryType type, RigidMotionType motion, int k) {
  return 100 * static_cast<std::uint64_t>(k) + 10 * (type == EE) + (motion == kRotation);
}

TEST_CASE("rigid.kernels.random: queries in the unit cube, plain contact and expel 0.05") {
  for (QueryType type : kTypes) {
    for (RigidMotionType motion : kMotions) {
      check_workload(random_workload(type, motion, 0, scaled(1000, 64), seed_of(type, motion, 1)));
      check_workload(random_workload(type, motion, 0.05, scaled(1000, 64), seed_of(type, motion, 2)));
    }
  }
}

TEST_CASE("rigid.kernels.grid: small-integer queries, plain contact and expel 0.5") {
  for (QueryType type : kTypes) {
    for (RigidMotionType motion : kMotions) {
      check_workload(grid_workload(type, motion, 0, scaled(800, 64), seed_of(type, motion, 3)));
      check_workload(grid_workload(type, motion, 0.5, scaled(800, 64), seed_of(type, motion, 4)));
    }
  }
}

// Below 2^-511 the squares of coordinates underflow, below about 2^-150 the
// bounds' absolute terms dominate: every answer must still be right (the
// fuzz targets found the rotation screens certifying misses there).
TEST_CASE("rigid.kernels.tiny: grid queries moved and scaled by 2^-160 and 2^-600") {
  for (QueryType type : kTypes) {
    for (RigidMotionType motion : kMotions) {
      int k = 20;
      for (int exponent : {-160, -600}) {
        for (double expel : {0.0, 0.5}) {
          check_workload(
              moved_scaled_workload(type, motion, expel, exponent, scaled(120, 32), seed_of(type, motion, k++)));
        }
      }
    }
  }
}

TEST_CASE("rigid.kernels.moved-scaled: grid queries moved and scaled by 2^-20..2^20") {
  for (QueryType type : kTypes) {
    for (RigidMotionType motion : kMotions) {
      int k = 5;
      for (int exponent : {-20, 20}) {
        for (double expel : {0.0, 0.5}) {
          check_workload(
              moved_scaled_workload(type, motion, expel, exponent, scaled(250, 32), seed_of(type, motion, k++)));
        }
      }
    }
  }
}

// ------------------------------------------------------------- hand-derived

/// sign(t - u*) for a hand case's contact parameter u*, by rational
/// comparisons (a square root through squares).
using Side = std::function<int(const mpq_class&)>;

Side at(const mpq_class& u) {
  return [u](const mpq_class& t) { return sgn(t - u); };
}

struct HandCase {
  std::string what;
  QueryType type;
  double expel;
  RigidQuery query;
  std::optional<Side> contact;  ///< sign(t - u*); nullopt: no contact
};

RigidQuery make(const std::array<Vec3, 4>& points, const RigidMotion& motion) {
  RigidQuery q;
  q.points = points;
  q.motion = motion;
  return q;
}

// Conventions: "about z" is the rotation about the z axis through the origin,
// counter-clockwise seen from +z, by theta(u) = 2 atan(u tan_half |a|) for a
// finite tan_half, +-2 atan(u |a| / (1 - u)) for a half turn
// (rigid_motion.hpp); about y, (x, z) goes to (x cos th + z sin th,
// -x sin th + z cos th); about x, (y, z) to (y cos th - z sin th,
// y sin th + z cos th).
std::vector<HandCase> hand_cases() {
  const Vec3 o{0, 0, 0}, ex{1, 0, 0}, ey{0, 1, 0}, ez{0, 0, 1};
  const auto translate = RigidMotion::translate;
  const auto rotate = RigidMotion::rotate;
  std::vector<HandCase> c;
  // The vertex (1, 0, 0) about z with tan_half 1: at angle 2 atan(u), 90
  // degrees at u = 1. The face (0,0,-1), (3,3,0), (0,0,1) lies in the plane
  // x = y and holds its points at z = 0 from the axis out to radius 3 sqrt 2
  // along (1, 1, 0). The vertex's circle (radius 1, z = 0) meets the plane
  // at 45 degrees, inside the face, and at 225 (not reached): u* = tan(pi/8)
  // = sqrt 2 - 1; t < u* iff (t + 1)^2 < 2.
  const Side sqrt2_minus_1 = [](const mpq_class& t) { return sgn((t + 1) * (t + 1) - 2); };
  c.push_back({"vertex about z onto a face in the plane x = y", VF, 0,
               make({ex, {0, 0, -1}, {3, 3, 0}, {0, 0, 1}}, rotate(o, ez, 1)), sqrt2_minus_1});
  // The vertex (1, 0, 1/8) about y with tan_half 1, over the face (-4,-4,0),
  // (4,-4,0), (0,4,0) in z = 0, normal (8,0,0) x (4,8,0) = (0,0,64): front
  // z > 0, h = z = (1/8) cos th - sin th, falling from 1/8 to 0 at
  // tan th = 1/8, where the vertex is at x = cos th + (1/8) sin th =
  // sqrt(65) / 8 < 2, y = 0: inside the face (at y = 0 it spans x in
  // [-2, 2]). u* = tan(th / 2) = sin th / (1 + cos th) = 1 / (sqrt 65 + 8) =
  // sqrt 65 - 8; t < u* iff (t + 8)^2 < 65.
  const std::array<Vec3, 4> over{Vec3{1, 0, 0.125}, Vec3{-4, -4, 0}, Vec3{4, -4, 0}, Vec3{0, 4, 0}};
  const Side sqrt65_minus_8 = [](const mpq_class& t) { return sgn((t + 8) * (t + 8) - 65); };
  c.push_back({"vertex about y down onto a face", VF, 0, make(over, rotate(o, ey, 1)), sqrt65_minus_8});
  // The same in the zone e = 1/4: the vertex starts inside it (h = 1/8)
  // moving deeper, and its arc's tangent, along (z, 0, -x) = (1/8, 0, -1),
  // meets the plane at (1 + 1/64, 0, 0), inside the face: contact at u = 0.
  c.push_back({"vertex inside the zone turning deeper", VF, 0.25, make(over, rotate(o, ey, 1)), at(0)});
  // Turning the other way, tan_half -1/4, by phi = -th up to 2 atan(1/4)
  // (about 28 degrees): h = (1/8) cos phi + sin phi grows while
  // cos phi > (1/8) sin phi (phi < atan 8, about 83 degrees), so the vertex
  // starts inside the zone moving away and never turns back, and it stays in
  // front (h > 0): no contact in the zone or plain.
  c.push_back({"vertex inside the zone turning away", VF, 0.25, make(over, rotate(o, ey, -0.25)), std::nullopt});
  c.push_back({"vertex turning away from a face", VF, 0, make(over, rotate(o, ey, -0.25)), std::nullopt});
  // The vertex (1, 0, 0) about y with tan_half 16/15 is at height
  // z = -sin th, th = 2 atan(16 u / 15): lowest, -1, at th = 90 degrees,
  // u = 15/16, at (0, 0, -1). The face (-4,-4,-d), (4,-4,-d), (0,4,-d),
  // d = 5/4 + 2^-20, normal (0,0,64), front z > -d: the vertex's height over
  // it, d - sin th, stays at least 1/4 + 2^-20, outside the zone e = 1/4: no
  // contact (for the double nearest 16/15 too: any tan_half >= 1 reaches
  // 90 degrees). Near its lowest point, in the move's last eighth, only a fine
  // subdivision rules the zone out.
  const double d = 1.25 + 0x1p-20;
  c.push_back({"vertex passing just outside the zone", VF, 0.25,
               make({ex, Vec3{-4, -4, -d}, Vec3{4, -4, -d}, Vec3{0, 4, -d}}, rotate(o, ey, 16.0 / 15)), std::nullopt});
  // A half turn: the vertex (0, 2, 0) about x, tan_half +inf, is at
  // (0, 2 cos th, 2 sin th), th = 2 atan(u / (1 - u)): 90 degrees at u = 1/2,
  // 180 at u = 1. The face (-1,0,1), (1,0,1), (0,0,3) in the plane y = 0
  // holds (0, 0, 2) (at z = 2 it spans x in [-1/2, 1/2]). The circle meets
  // y = 0 at 90 degrees, there, and at 270 (not reached): u* = 1/2.
  const std::array<Vec3, 4> below{Vec3{0, 2, 0}, Vec3{-1, 0, 1}, Vec3{1, 0, 1}, Vec3{0, 0, 3}};
  c.push_back({"half turn about x onto a face", VF, 0, make(below, rotate(o, ex, kInf)), at(mpq_class(1, 2))});
  // The axis (2, 0, 0): th = 2 atan(2u / (1 - u)) is 90 degrees at 2u = 1 - u: u* = 1/3.
  c.push_back({"half turn about a long axis", VF, 0, make(below, rotate(o, {2, 0, 0}, kInf)), at(mpq_class(1, 3))});
  // tan_half -inf turns the other way: the circle meets y = 0 at -90 degrees
  // only, at (0, 0, -2), below the face (z >= 1): no contact.
  c.push_back({"half turn away from a face", VF, 0, make(below, rotate(o, ex, -kInf)), std::nullopt});
  // A translation: the vertex (1, 1, 3) moves by (1, 0, -4) toward the face
  // (0,0,1), (4,0,1), (0,4,1) in z = 1 (normal (0,0,16): front z > 1):
  // z = 3 - 4u = 1 at u* = 1/2, at (3/2, 1, 1), inside (x, y >= 0,
  // x + y = 5/2 <= 4).
  const std::array<Vec3, 4> high{Vec3{1, 1, 3}, Vec3{0, 0, 1}, Vec3{4, 0, 1}, Vec3{0, 4, 1}};
  c.push_back({"translation through a face", VF, 0, make(high, translate({1, 0, -4})), at(mpq_class(1, 2))});
  // In the zone e = 1: h = 2 - 4u falls to e at u = 1/4, and the line of the
  // move passes through the face (at (3/2, 1, 1)): u* = 1/4.
  c.push_back({"translation into the zone", VF, 1, make(high, translate({1, 0, -4})), at(mpq_class(1, 4))});
  // Zone, vertex (1/4, 1/4, 1/8) over T = (0,0,0), (1,0,0), (0,1,0) (front
  // z > 0), e = 1/4: moving by (0, 0, -1) it starts inside the zone going
  // deeper, along the line x = y = 1/4 through T: u* = 0 exactly; moving by
  // (0, 0, 1) it leaves (h grows): no contact, in the zone or plain.
  const std::array<Vec3, 4> inside{Vec3{0.25, 0.25, 0.125}, o, ex, ey};
  c.push_back({"inside the zone moving toward", VF, 0.25, make(inside, translate({0, 0, -1})), at(0)});
  c.push_back({"inside the zone moving away", VF, 0.25, make(inside, translate({0, 0, 1})), std::nullopt});
  c.push_back({"above a face moving away", VF, 0, make(inside, translate({0, 0, 1})), std::nullopt});
  // No motion (tan_half 0): the vertex (1/4, 1/4, 0) lies in T: contact at
  // u* = 0; (1/4, 1/4, 1/2) never touches it.
  const RigidMotion still = rotate({5, 5, 5}, {1, 2, 3}, 0);
  c.push_back({"vertex in a face, no motion", VF, 0, make({Vec3{0.25, 0.25, 0}, o, ex, ey}, still), at(0)});
  c.push_back({"vertex off a face, no motion", VF, 0, make({Vec3{0.25, 0.25, 0.5}, o, ex, ey}, still), std::nullopt});
  // Edges: a = (-1,0,1)-(1,0,1) along x at z = 1 moves by (1/2, 0, -2); b =
  // (0,-1,0)-(0,1,0) along y at z = 0. The lines are 1 - 2u apart and meet
  // at u = 1/2, where a spans x in [-3/4, 5/4] (holding 0) and b holds y = 0:
  // u* = 1/2.
  const std::array<Vec3, 4> crossing{Vec3{-1, 0, 1}, Vec3{1, 0, 1}, Vec3{0, -1, 0}, Vec3{0, 1, 0}};
  c.push_back({"edges crossing", EE, 0, make(crossing, translate({0.5, 0, -2})), at(mpq_class(1, 2))});
  // In the zone e = 1/2 (the edges' directions are not parallel): the
  // distance 1 - 2u falls to 1/2 at u = 1/4, where the closest points
  // (0, 0, 1/2) on a (x in [-7/8, 9/8]) and (0, 0, 0) on b lie on both
  // segments: u* = 1/4.
  c.push_back({"edges into the zone", EE, 0.5, make(crossing, translate({0.5, 0, -2})), at(mpq_class(1, 4))});
  // a = (2,0,-1)-(2,0,1), vertical at radius 2, about z with tan_half 2: at
  // angle 2 atan(2u). b = (0,0,0)-(0,3,0) along the y axis (90 degrees)
  // covers radius 2; a's line meets b's at 90 degrees only (and 270, not
  // reached), at (0, 2, 0), on both: 2 atan(2u) = 90 at u* = 1/2.
  c.push_back({"edge turning onto an edge", EE, 0,
               make({Vec3{2, 0, -1}, Vec3{2, 0, 1}, o, Vec3{0, 3, 0}}, rotate(o, ez, 2)), at(mpq_class(1, 2))});
  // Edges crossing at u = 0, a = (-1,0,0)-(1,0,0) and b = (0,-1,0)-(0,1,0),
  // a moving up by (0, 0, 1): plain contact at u* = 0; in the zone e = 1/2
  // they cannot move closer (distance 0 at the start): no contact.
  const std::array<Vec3, 4> touching{Vec3{-1, 0, 0}, ex, Vec3{0, -1, 0}, ey};
  c.push_back({"edges touching at the start", EE, 0, make(touching, translate(ez)), at(0)});
  c.push_back({"edges crossing at the start, zone", EE, 0.5, make(touching, translate(ez)), std::nullopt});
  return c;
}

/// The same contacts with the other primitive moving: the mover flipped and
/// the motion inverted (rigid_motion.hpp).
RigidQuery other_mover(RigidQuery q) {
  q.mover = q.mover == Mover::first ? Mover::second : Mover::first;
  Vec3& v = q.motion.type == kTranslation ? q.motion.translation : q.motion.axis;
  v = {-v.x, -v.y, -v.z};
  return q;
}

/// A hand case's answer: its contact within the mode's promise.
void check_hand(const HandCase& c, Mode mode, const test::Answer& a) {
  INFO(test::describe(a));
  if (a.hit) CHECK((a.toi >= 0 && a.toi <= 1));  // a contact, even uncertain, lies in the step
  if (!c.contact) {
    CHECK((!a.hit || (mode == Mode::conservative && a.status == Status::uncertain)));
    return;
  }
  const Side& side = *c.contact;
  REQUIRE(a.hit);
  CHECK(side(mpq_class(a.toi)) <= 0);  // not after u*
  if (a.status != Status::uncertain) CHECK(side(mpq_class(a.toi) + mpq_class(kTolerance)) >= 0);
}

TEST_CASE("rigid.kernels.hand-derived cases, either mover, moved and scaled") {
  RestoreAuto restore;
  Generator g(7);
  for (const HandCase& c : hand_cases()) {
    // The case, the other mover, and both moved and scaled.
    std::vector<std::pair<RigidQuery, double>> variants = {{c.query, c.expel}, {other_mover(c.query), c.expel}};
    for (const int exponent : {-20, 3, 20}) {
      const double s = std::ldexp(1.0, exponent);
      const std::optional<RigidQuery> m = test::moved_scaled(variants[exponent % 2 != 0].first, s, g.shift(s));
      REQUIRE(m.has_value());
      variants.emplace_back(*m, c.expel * s);
    }
    for (const auto& [q, expel] : variants) {
      INFO(c.what, "\n", test::describe(q), "expel ", expel);
      // The oracle agrees with the derivation.
      const Result o = rigid_exact_ccd(c.type, q, expel);
      REQUIRE(o.hit == c.contact.has_value());
      if (o.hit) {
        CHECK((*c.contact)(mpq_class(o.toi_lo)) <= 0);
        CHECK((*c.contact)(mpq_class(o.toi_hi)) >= 0);
      }
      const RigidQuery one[1] = {q};
      const test::RigidSoa soa(c.type, q.motion.type, one, 1, 0, true);
      for (const std::string& impl : runnable_implementations()) {
        REQUIRE(set_implementation(impl));
        for (Mode mode : {Mode::exact, Mode::conservative}) {
          INFO(impl, " ", to_string(mode));
          check_hand(c, mode, serial(soa.view, options(mode, expel)).answers.at(0));
        }
      }
    }
  }
}

TEST_CASE("rigid.kernels.expel zone, rotation: a contact just after the move is not in it (fuzzer-found)") {
  // fuzz_rigid_vf_exact's query: the whole move is ruled out, the move's last
  // eighth only in finer parts; the kernel once answered an uncertain hit at
  // u = 1 + 2^-8, from parts past the move's end. Judged by the oracle.
  RestoreAuto restore;
  RigidQuery q;
  q.points = {Vec3{0x1.904a7787de2d6p-2, 0x1.57203ee4d2b66p-2, 0x1.7149461458053p-1},
              Vec3{0x1.c88718ec2a0dap-1, 0x1.2ff576473f328p-3, 0x1.9791fd8c69df6p-1},
              Vec3{0x1.a0c3aa98d7cfp-1, 0x1.801d479191256p-1, 0x1.a63826bf83d76p-1},
              Vec3{0x1.ec4422c9ecd52p-1, 0x1.32d139c21439p-4, 0x1.0796a582c7c1dp-1}};
  q.motion = RigidMotion::rotate({0x1.fa00398885334p-2, 0x1.5f652567a16b7p-1, 0x1.88bd0f73ffc7fp-1},
                                 {0x1.48dc9a94460e8p-2, -0x1.47636daf3961p-1, 0x1.5cecf49077ecep-1},
                                 -0x1.3fd5aeb1a96cap+0);
  const double expel = 0.5;
  for (const RigidQuery& v : {q, other_mover(q)}) {
    INFO(test::describe(v));
    const Result o = rigid_exact_ccd(VF, v, expel);
    REQUIRE(!o.hit);
    const HandCase c{"fuzzer-found", VF, expel, v, std::nullopt};
    const RigidQuery one[1] = {v};
    const test::RigidSoa soa(VF, v.motion.type, one, 1, 0, true);
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      for (Mode mode : {Mode::exact, Mode::conservative}) {
        INFO(impl, " ", to_string(mode));
        check_hand(c, mode, serial(soa.view, options(mode, expel)).answers.at(0));
      }
    }
  }
}

// ------------------------------------------------------------ invalid input

TEST_CASE("rigid.kernels.invalid input: numbers out of the domain, half turns about a zero axis") {
  const double big = std::nextafter(0x1p60, kInf);
  // (number, value) assignments: out of the domain, then valid extremes.
  using Edit = std::vector<std::pair<int, double>>;
  const std::vector<Edit> common = {{{0, kNaN}}, {{4, kInf}}, {{8, -kInf}}, {{9, 0x1p61}}, {{10, -big}}, {{2, 1e300}}};
  const std::vector<Edit> translation = {{{12, kNaN}}, {{13, -kInf}}, {{14, big}}, {{12, -0x1p61}}};
  const std::vector<Edit> rotation = {{{13, kNaN}},
                                      {{14, big}},
                                      {{15, kInf}},
                                      {{17, -0x1p61}},
                                      {{18, kNaN}},
                                      {{18, big}},
                                      {{18, -1e300}},
                                      {{15, 0}, {16, 0}, {17, 0}, {18, kInf}},
                                      {{15, -0.0}, {16, 0}, {17, 0}, {18, -kInf}}};
  const std::vector<Edit> keepers = {{{3, 0x1p60}}, {{7, -0x1p60}}, {{14, 0x1p60}}, {{12, -0x1p60}}};
  for (QueryType type : kTypes) {
    for (RigidMotionType motion : kMotions) {
      Workload w = grid_workload(type, motion, 0.5, scaled(300, 45), seed_of(type, motion, 20));
      w.name = "invalid input";
      std::vector<Edit> breakers = common;
      for (const Edit& e : motion == kTranslation ? translation : rotation) breakers.push_back(e);
      // Every third query gets numbers out of the domain (cycling through
      // the edits), the next one a valid extreme, the next garbage in the
      // parameters its motion does not read.
      std::size_t broken = 0;
      for (std::size_t i = 0; i < w.queries.size(); ++i) {
        RigidQuery& q = w.queries[i];
        const std::vector<Edit>& edits = i % 3 == 0 ? breakers : keepers;
        if (i % 3 < 2) {
          for (const auto& [k, value] : edits[(i / 3) % edits.size()]) test::number(q, k) = value;
        } else if (motion == kTranslation) {
          q.motion.center = {kNaN, kInf, 0x1p61}, q.motion.axis = {}, q.motion.tan_half = kInf;
        } else {
          q.motion.translation = {kNaN, -kInf, 0x1p100};
        }
        broken += i % 3 == 0;
        CHECK(test::rigid_in_domain(q, w.expel) == (i % 3 != 0));
      }
      check_workload(w);  // invalid_input exactly out of the domain, counted
      CHECK(broken == (w.queries.size() + 2) / 3);
    }
  }
}

TEST_CASE("rigid.kernels.invalid input: an expel outside [0, 2^60] makes every query invalid") {
  for (QueryType type : kTypes) {
    for (RigidMotionType motion : kMotions) {
      Workload w = random_workload(type, motion, 0, scaled(40, 8), seed_of(type, motion, 21));
      for (const double expel : {-0.25, -std::numeric_limits<double>::denorm_min(), kNaN, kInf, -kInf, 0x1p61,
                                 std::nextafter(0x1p60, kInf), 0x1p60, -0.0}) {
        w.expel = expel;
        w.name = "expel " + test::format("%a", expel);
        check_workload(w);
      }
    }
  }
}

TEST_CASE("rigid.kernels.invalid input: a mover byte other than 0 and 1, in both forms") {
  // is_valid(RigidQuery) and the oracle reject such a byte; the kernels once
  // read any nonzero byte as `second`.
  RestoreAuto restore;
  for (QueryType type : kTypes) {
    for (RigidMotionType motion : kMotions) {
      const Workload w = grid_workload(type, motion, 0, scaled(60, 12), seed_of(type, motion, 23));
      const test::RigidSoa reference(type, motion, w.queries, w.queries.size(), 0, true);
      test::RigidSoa soa(type, motion, w.queries, w.queries.size(), 0, true);
      test::RigidBodies bodies(type, w.queries);
      // Every third query: byte 2 or 255.
      std::vector<bool> bad(w.queries.size());
      for (std::size_t i = 0; i < bad.size(); i += 3) {
        bad[i] = true;
        soa.mover_storage[i] = bodies.movers[i] = i % 2 == 0 ? 2 : 255;
      }
      const auto invalid = static_cast<std::uint64_t>(std::count(bad.begin(), bad.end(), true));
      for (const std::string& impl : runnable_implementations()) {
        REQUIRE(set_implementation(impl));
        for (Mode mode : {Mode::exact, Mode::conservative, Mode::oracle}) {
          INFO(to_string(type), " ", to_string(motion), " on ", impl, " in ", to_string(mode));
          const Run ref = serial(reference.view, options(mode, 0));
          const Run s = serial(soa.view, options(mode, 0)), x = indexed(bodies, options(mode, 0));
          for (const Run* r : {&s, &x}) {
            std::size_t wrong = 0;
            for (std::size_t i = 0; i < bad.size(); ++i) {
              wrong += bad[i] ? !(r->answers.at(i) == test::Answer{false, kInf, Status::invalid_input})
                              : !test::same_answer(ref.answers, r->answers, i);
            }
            CHECK(wrong == 0);
            CHECK(r->stats.invalid == invalid);
          }
        }
      }
    }
  }
}

TEST_CASE("rigid.kernels.invalid input: indices out of range in the indexed form") {
  RestoreAuto restore;
  for (QueryType type : kTypes) {
    const Workload w = grid_workload(type, kRotation, 0.5, scaled(100, 20), seed_of(type, kRotation, 22));
    test::RigidBodies bodies(type, w.queries);
    const test::RigidSoa soa(type, kRotation, w.queries, w.queries.size(), 0, true);
    // Every fourth pair: an index past the end, a negative one, or a face or
    // edge naming a vertex past the end of its body.
    std::vector<bool> bad(w.queries.size());
    for (std::size_t i = 0; i < w.queries.size(); i += 4) {
      bad[i] = true;
      auto& [first, second] = bodies.pairs[i];
      const bool mover_second = bodies.movers[i] != 0;
      const auto beyond = [](const auto& v) { return static_cast<std::int32_t>(v.size()); };
      switch (i / 4 % 5) {
        case 0:
          first = type == VF ? beyond(mover_second ? bodies.still_vertices : bodies.moving_vertices)
                             : beyond(mover_second ? bodies.still_edges : bodies.moving_edges);
          break;
        case 1: first = -1; break;
        case 2:
          second = type == VF ? beyond(mover_second ? bodies.moving_faces : bodies.still_faces)
                              : beyond(mover_second ? bodies.moving_edges : bodies.still_edges);
          break;
        case 3: second = std::numeric_limits<std::int32_t>::min(); break;
        default:
          if (type == VF) {
            (mover_second ? bodies.moving_faces : bodies.still_faces)[second][2] =
                beyond(mover_second ? bodies.moving_vertices : bodies.still_vertices);
          } else {
            (mover_second ? bodies.moving_edges : bodies.still_edges)[second][1] = -7;
          }
      }
    }
    for (const std::string& impl : runnable_implementations()) {
      REQUIRE(set_implementation(impl));
      for (Mode mode : {Mode::exact, Mode::conservative}) {
        INFO(to_string(type), " on ", impl, " in ", to_string(mode));
        const Run r = indexed(bodies, options(mode, w.expel)), s = serial(soa.view, options(mode, w.expel));
        std::size_t wrong = 0, invalid = 0;
        for (std::size_t i = 0; i < bad.size(); ++i) {
          invalid += bad[i];
          const test::Answer a = r.answers.at(i);
          wrong += bad[i] ? !(a == test::Answer{false, kInf, Status::invalid_input})
                          : !test::same_answer(s.answers, r.answers, i);
        }
        CHECK(wrong == 0);
        CHECK(r.stats.invalid == invalid);
        CHECK(r.stats.queries == bad.size());
      }
    }
  }
}

}  // namespace
}  // namespace simdccd
