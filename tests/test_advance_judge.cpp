// Conservative advancement on random trials, every answer judged by the
// references (advance_judge.hpp): the exact oracle for pure translations and
// rotations, the certified interval reference for the paper's general
// motion, reference distances for articulated models. No trial may be late,
// missed, above the threshold or undecided.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "simdccd/advance.hpp"
#include "simdccd/advance_judge.hpp"
#include "simdccd/advance_scenes.hpp"

namespace simdccd {
namespace {

constexpr AdvanceMethod kMethods[] = {AdvanceMethod::ca, AdvanceMethod::c2a, AdvanceMethod::hca};

struct Count {
  int trials = 0, contacts = 0, exact = 0, failed = 0, unverified = 0;
  void add(const AdvanceResult& r, const TrialVerdict& v) {
    ++trials;
    contacts += r.status == AdvanceStatus::contact;
    exact += v.exact;
    failed += v.failed();
    unverified += v.unverified;
  }
};

void check_rigid(const RigidScene& scene, Count& count, double threshold = 0) {
  const RigidJudge judge(*scene.a, *scene.b);
  for (AdvanceMethod m : kMethods) {
    AdvanceOptions o;
    o.method = m;
    o.threshold = threshold;
    for (const RigidTrial& t : scene.trials) {
      const AdvanceResult r = advance(*scene.a, t.path_a, *scene.b, t.path_b, o);
      REQUIRE(r.status != AdvanceStatus::invalid_input);
      const TrialVerdict v = judge(t.path_a, t.path_b, r);
      count.add(r, v);
      if (v.failed() || v.unverified) {
        MESSAGE(scene.name, " ", to_string(m), ": toc ", r.toc, " status ", to_string(r.status), " late ", v.late,
                " missed ", v.missed, " above ", v.above_threshold, " unverified ", v.unverified);
      }
    }
  }
}

}  // namespace

TEST_CASE("advance judge: random flybys of cubes and a small torus knot, every method") {
  // General motion (translation and rotation at once): the certified reference.
  Count count;
  check_rigid(rigid_scene("cubes", 30, 5), count);
  check_rigid(rigid_scene_from_mesh("knot", torus_knot(2, 3, 96, 8, 0.6, 0.25, 0.1), 15, 9), count);
  // Meshing gears: C2A's later sweeps there resume from the last sweep's cut
  // (traversal.hpp), so a cut that lost a pair would show as a late contact.
  check_rigid(rigid_scene("gear", 6, 3), count);
  CHECK(count.failed == 0);
  CHECK(count.unverified == 0);
  // The trials must exercise both answers.
  CHECK(count.contacts > count.trials / 5);
  CHECK(count.contacts < count.trials * 4 / 5);
}

TEST_CASE("advance judge: pure translations and rotations against the exact oracle") {
  Count count;
  const RigidScene cubes = rigid_scene("cubes", 20, 21);
  const RigidScene knot = rigid_scene_from_mesh("knot", torus_knot(2, 3, 64, 6, 0.6, 0.25, 0.1), 6, 4);
  for (PureMotion motion : {PureMotion::translation, PureMotion::rotation}) {
    check_rigid(pure_motion_scene(cubes, motion), count);
    check_rigid(pure_motion_scene(knot, motion), count);
  }
  CHECK(count.exact == count.trials);
  CHECK(count.failed == 0);
  CHECK(count.contacts > count.trials / 5);
}

TEST_CASE("advance judge: a threshold of 10^-10 is met at every contact (pure translations, exact oracle)") {
  // 10^-10 is above 8 distance_error() of the unit cubes (about 5e-11) and far
  // below the default 10^-3: contacts must still be certified within it. The
  // slab along q - p alone cannot separate a pair closer than about 2^-26 of
  // its size (its direction's error tilts it by more than the gap), which once
  // made "contact" answers 10^-8 apart; the features' normal can.
  Count count;
  check_rigid(pure_motion_scene(rigid_scene("cubes", 40, 23), PureMotion::translation), count, 1e-10);
  CHECK(count.exact == count.trials);
  CHECK(count.failed == 0);
  CHECK(count.contacts > count.trials / 5);
}

TEST_CASE("advance judge: the articulated chain and hand") {
  for (const char* name : {"chain", "hand"}) {
    const ArticulatedScene scene = articulated_scene(name, 6, 3);
    Count count;
    const ArticulatedJudge judge(scene.a, scene.b);
    for (AdvanceMethod m : kMethods) {
      AdvanceOptions o;
      o.method = m;
      for (const ArticulatedTrial& t : scene.trials) {
        const AdvanceResult r = advance(scene.a, t.path_a, scene.b, t.path_b, o);
        REQUIRE(r.status != AdvanceStatus::invalid_input);
        count.add(r, judge(t.path_a, t.path_b, r));
      }
    }
    CAPTURE(name);
    CHECK(count.failed == 0);
    CHECK(count.unverified == 0);
    CHECK(count.contacts > 0);
  }
}

TEST_CASE("advance judge: models crossing at the start, answered at 0, are not late (certified judge)") {
  // Two cubes of half-size 1/2, b centered at (0.5, 0.3, 0.2): they overlap at
  // t = 0 (b's corner region lies inside a). a translates by (0.1, 0, 0) while
  // turning 0.2 rad about z, so the certified judge decides; every method
  // answers contact at 0, and nothing can come before it.
  const RigidModel a = build_model(box({0.5, 0.5, 0.5})), b = build_model(box({0.5, 0.5, 0.5}));
  RigidPath pa, pb;
  pb.start.x = {0.5, 0.3, 0.2};
  pa.velocity = {0.1, 0, 0};
  pa.axis = {0, 0, 1};
  pa.angle = 0.2;
  const RigidJudge judge(a, b);
  for (const AdvanceMethod m : {AdvanceMethod::ca, AdvanceMethod::c2a, AdvanceMethod::hca}) {
    AdvanceOptions o;
    o.method = m;
    const AdvanceResult r = advance(a, pa, b, pb, o);
    CAPTURE(to_string(m));
    REQUIRE(r.status == AdvanceStatus::contact);
    CHECK(r.toc == 0);
    const TrialVerdict v = judge(pa, pb, r);
    CHECK_FALSE(v.exact);
    CHECK_FALSE(v.failed());
  }
}

TEST_CASE("advance judge: an invalid_input answer claims nothing, so nothing is missed or late") {
  // Two cubes of half-size 1/2, a from x = -3 moving by (6, 0, 0) into b,
  // which turns by 0.1 about z (the certified reference: both move): they
  // meet near t = 1/3. A threshold of 10^-30 cannot be certified, so every
  // method answers invalid_input; the judge had counted that as a miss (and
  // with b still, the exact judge's path, it did not).
  const RigidModel a = build_model(box({0.5, 0.5, 0.5})), b = build_model(box({0.5, 0.5, 0.5}));
  RigidPath pa, pb;
  pa.start.x = {-3, 0, 0};
  pa.velocity = {6, 0, 0};
  pb.axis = {0, 0, 1};
  pb.angle = 0.1;
  const RigidJudge judge(a, b);
  AdvanceOptions o;
  o.threshold = 1e-30;
  const AdvanceResult r = advance(a, pa, b, pb, o);
  REQUIRE(r.status == AdvanceStatus::invalid_input);
  const TrialVerdict v = judge(pa, pb, r);
  CHECK_FALSE(v.missed);
  CHECK_FALSE(v.failed());
  // The same trial answered "separate" is a miss: the reference sees the contact.
  AdvanceResult wrong = r;
  wrong.status = AdvanceStatus::separate;
  wrong.toc = 1;
  CHECK(judge(pa, pb, wrong).missed);
}

}  // namespace simdccd
