// Judging advancement answers (advance_judge.hpp) with the references of
// advance_reference.hpp.
#include "simdccd/advance_judge.hpp"

#include <cmath>
#include <optional>

#include "simdccd/advance_reference.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {

// The exact oracle's time and the path's agree to rounding (about 1e-15,
// advance_reference.hpp); a ToC later than the exact one by more is late.
constexpr double kExactSlack = 1e-12;
// Time pieces narrower than this are not split further: undecided. (A ToC
// can be reported within 1e-11 of the contact: pure translations converge
// in a step or two.)
constexpr double kMinWidth = 1e-15;


bool has_toc(const AdvanceResult& r) {
  return r.status == AdvanceStatus::contact || r.status == AdvanceStatus::iteration_limit;
}

// a's soup turned by its start rotation: the exact judge's a starts with
// the identity rotation at start.x.
TriangleSoup turned(const TriangleSoup& soup, const Pose& start) {
  TriangleSoup out = soup;
  Pose turn = start;
  turn.x = {};
  for (Vec3& v : out.vertices) v = apply(turn, v);
  return out;
}

void judge_exact(const RigidModel& a, const RigidPath& pa, const RigidModel& b, const RigidPath& pb,
                 const AdvanceResult& r, TrialVerdict& v) {
  v.exact = true;
  const bool rotation = pa.angle != 0;
  const Vec3 velocity = rotation ? Vec3{} : Vec3{pa.velocity.x - pb.velocity.x, pa.velocity.y - pb.velocity.y,
                                                  pa.velocity.z - pb.velocity.z};
  const ExactContact e = exact_first_contact(turned(a.soup, pa.start), pa.start.x, velocity, pa.axis,
                                             rotation ? pa.angle : 0, b.soup, pb.start);
  v.reference_contact = e.contact;
  if (has_toc(r) && e.contact) {
    v.late = r.toc > e.toc + kExactSlack;
    v.toc_gap = e.toc - r.toc;
  }
  if (r.status == AdvanceStatus::separate) v.missed = e.contact;
}

void judge_certified(const ReferenceTree& a, const RigidPath& pa, const ReferenceTree& b, const RigidPath& pb,
                     const AdvanceResult& r, TrialVerdict& v) {
  // No contact comes before a ToC of 0 (models crossing at the start), while
  // the closed interval [0, 0] would find the crossing and call it late.
  if (has_toc(r) && r.toc == 0) return;
  const double end = has_toc(r) ? r.toc : 1;
  const std::optional<bool> apart = certify_separation(a, pa, b, pb, 0, end, kMinWidth);
  if (!apart) {
    v.unverified = true;
  } else if (!*apart) {
    v.reference_contact = true;
    (has_toc(r) ? v.late : v.missed) = true;  // separate (an invalid answer is never judged)
  }
}

// A bound on the speed of every point of link k, independent of the
// advancement's: each joint on the chain from the base to k (and the base's
// turn) moves the link's points at its rate times a lever arm, the offsets
// and prismatic extents from that joint down to k plus k's reach.
double link_speed(const ArticulatedModel& m, const ArticulatedPath& p, std::size_t k) {
  double lever = m.links[k].model->reach, speed = 0;
  for (auto j = static_cast<std::int32_t>(k); j >= 0; j = m.links[j].parent) {
    const Link& l = m.links[j];
    const double dq = std::abs(p.q1[j] - p.q0[j]);
    if (l.joint == JointType::revolute) speed += dq * lever;
    if (l.joint == JointType::prismatic) {
      speed += dq;
      lever += std::max(std::abs(p.q0[j]), std::abs(p.q1[j]));
    }
    lever += norm(l.offset.x);
  }
  speed += norm(p.base.velocity) + std::abs(p.base.angle) * lever;
  return speed * (1 + 1e-9);
}

// Link pair (ka, kb) apart on [t0, t1]: the reference distance at the middle
// exceeds what the motion can close in half the piece, or both halves are.
// Never false: a Lipschitz bound certifies separation, not contact.
struct LinkPair {
  const ArticulatedModel& a;
  const ArticulatedPath& pa;
  const ReferenceTree& tree_a;
  std::size_t ka;
  const ArticulatedModel& b;
  const ArticulatedPath& pb;
  const ReferenceTree& tree_b;
  std::size_t kb;
  double speed;
};

std::optional<bool> links_apart(const LinkPair& p, double t0, double t1) {
  const double mid = t0 + (t1 - t0) / 2;
  const ReferenceDistance d = reference_distance(p.tree_a, link_poses(p.a, p.pa, mid)[p.ka], p.tree_b,
                                                 link_poses(p.b, p.pb, mid)[p.kb]);
  if (d.distance - d.error > p.speed * (t1 - t0) / 2 * (1 + 1e-9)) return true;
  if (t1 - t0 < kMinWidth) return std::nullopt;
  const std::optional<bool> left = links_apart(p, t0, mid);
  if (!left || !*left) return left;
  return links_apart(p, mid, t1);
}

std::vector<std::optional<ReferenceTree>> link_trees(const ArticulatedModel& m) {
  std::vector<std::optional<ReferenceTree>> trees(m.links.size());
  for (std::size_t k = 0; k < m.links.size(); ++k) {
    if (m.links[k].model) trees[k].emplace(m.links[k].model->soup);
  }
  return trees;
}

}  // namespace

RigidJudge::RigidJudge(const RigidModel& a, const RigidModel& b)
    : a_(a), b_(b), tree_a_(a.soup), tree_b_(b.soup) {}

TrialVerdict RigidJudge::operator()(const RigidPath& pa, const RigidPath& pb, const AdvanceResult& answer) const {
  TrialVerdict v;
  if (answer.status == AdvanceStatus::invalid_input) return v;  // it claims nothing
  const bool b_turns = pb.angle != 0;
  const bool translation = pa.angle == 0 && !b_turns;
  const bool rotation = pa.angle != 0 && pa.angle < 3.14 && is_zero(pa.velocity) && !b_turns &&
                        is_zero(pb.velocity);
  if (translation || rotation) {
    judge_exact(a_, pa, b_, pb, answer, v);
  } else {
    judge_certified(tree_a_, pa, tree_b_, pb, answer, v);
  }
  if (answer.status == AdvanceStatus::contact) {
    const ReferenceDistance d = reference_distance(tree_a_, pose_at(pa, answer.toc), tree_b_, pose_at(pb, answer.toc));
    v.above_threshold = d.distance - d.error > answer.threshold;
  }
  return v;
}

ArticulatedJudge::ArticulatedJudge(const ArticulatedModel& a, const ArticulatedModel& b)
    : a_(a), b_(b), trees_a_(link_trees(a)), trees_b_(link_trees(b)) {}

TrialVerdict ArticulatedJudge::operator()(const ArticulatedPath& pa, const ArticulatedPath& pb,
                                          const AdvanceResult& answer) const {
  TrialVerdict v;
  if (answer.status == AdvanceStatus::invalid_input) return v;  // it claims nothing
  const double end = has_toc(answer) ? answer.toc : 1;
  for (std::size_t ka = 0; ka < a_.links.size() && !v.failed(); ++ka) {
    if (!trees_a_[ka]) continue;
    const double speed_a = link_speed(a_, pa, ka);
    for (std::size_t kb = 0; kb < b_.links.size(); ++kb) {
      if (!trees_b_[kb]) continue;
      const LinkPair pair{a_, pa, *trees_a_[ka], ka, b_, pb, *trees_b_[kb], kb, speed_a + link_speed(b_, pb, kb)};
      const std::optional<bool> apart = links_apart(pair, 0, end);
      if (!apart) {
        v.unverified = true;
      } else if (!*apart) {
        v.reference_contact = true;
        (has_toc(answer) ? v.late : v.missed) = true;
        break;
      }
    }
  }
  if (answer.status == AdvanceStatus::contact) {
    const std::vector<Pose> qa = link_poses(a_, pa, answer.toc), qb = link_poses(b_, pb, answer.toc);
    const ReferenceDistance d = reference_distance(*trees_a_[answer.link_a], qa[answer.link_a],
                                                   *trees_b_[answer.link_b], qb[answer.link_b]);
    v.above_threshold = d.distance - d.error > answer.threshold;
  }
  return v;
}

}  // namespace simdccd
