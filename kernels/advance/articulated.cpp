// Conservative advancement of articulated models (advance.hpp; section 5 of
// Tang, Manocha and Kim): forward kinematics, a motion bound per link that
// accumulates its ancestors' joint motions, link pairs culled by swept
// spheres and taken in order of a ToC lower bound, each advanced like a rigid
// pair and stopped at the best ToC so far.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "advance/pair_advance.hpp"
#include "advance/certifiable.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {


Pose joint(const Link& link, double q) {
  switch (link.joint) {
    case JointType::revolute:
      return pose_from_axis_angle(link.axis, q);
    case JointType::prismatic:
      return Pose{{1, 0, 0, 0, 1, 0, 0, 0, 1}, {link.axis.x * q, link.axis.y * q, link.axis.z * q}};
    case JointType::fixed:
      break;
  }
  return {};
}

bool valid(const ArticulatedModel& m, const ArticulatedPath& p) {
  const std::size_t n = m.links.size();
  if (n == 0 || p.q0.size() != n || p.q1.size() != n) return false;
  for (std::size_t k = 0; k < n; ++k) {
    const Link& l = m.links[k];
    if (l.parent >= static_cast<std::int32_t>(k) || l.parent < -1) return false;
    if ((k == 0) != (l.parent == -1)) return false;  // one root, first
    if (!std::isfinite(p.q0[k]) || !std::isfinite(p.q1[k])) return false;
    if (!finite(l.axis) || (l.joint != JointType::fixed && !(std::abs(norm(l.axis) - 1) <= 0x1p-46))) return false;
    if (!advancement::valid_pose(l.offset)) return false;
  }
  // The rigid API's rules: a negative angle or a non-unit axis would break the motion bound.
  return advancement::valid_path(p.base);
}

// Per link: its point speeds are at most lin + spin |p - origin| (docs/advance.md).
struct LinkBound {
  double lin = 0, spin = 0;
};

std::vector<LinkBound> link_bounds(const ArticulatedModel& m, const ArticulatedPath& p) {
  const std::size_t n = m.links.size();
  // hop[k]: a bound on |origin_k - origin_parent(k)| over the step.
  std::vector<double> hop(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Link& l = m.links[k];
    hop[k] = norm(l.offset.x) + (l.joint == JointType::prismatic ? std::max(std::abs(p.q0[k]), std::abs(p.q1[k])) : 0);
  }
  std::vector<LinkBound> out(n);
  const double base_speed = norm(p.base.velocity), base_turn = p.base.angle;
  for (std::size_t k = 0; k < n; ++k) {
    double lin = base_speed, spin = base_turn, along = 0;  // along: |origin_k - origin_j|
    // Walk from k up to the root: joint j moves every link below it.
    for (std::int32_t j = static_cast<std::int32_t>(k); j >= 0; j = m.links[j].parent) {
      const Link& l = m.links[j];
      const double dq = std::abs(p.q1[j] - p.q0[j]);
      if (l.joint == JointType::revolute) {
        lin += dq * along;
        spin += dq;
      } else if (l.joint == JointType::prismatic) {
        lin += dq;
      }
      along += hop[j];
    }
    lin += base_turn * along;
    out[k] = {lin * (1 + 0x1p-40), spin * (1 + 0x1p-40)};
  }
  return out;
}

}  // namespace

std::vector<Pose> link_poses(const ArticulatedModel& model, const ArticulatedPath& path, double t) {
  std::vector<Pose> poses(model.links.size());
  const Pose base = pose_at(path.base, t);
  for (std::size_t k = 0; k < model.links.size(); ++k) {
    const Link& l = model.links[k];
    const double q = path.q0[k] + t * (path.q1[k] - path.q0[k]);
    const Pose& parent = l.parent < 0 ? base : poses[l.parent];
    poses[k] = compose(compose(parent, l.offset), joint(l, q));
  }
  return poses;
}

AdvanceResult advance(const ArticulatedModel& a, const ArticulatedPath& pa, const ArticulatedModel& b,
                      const ArticulatedPath& pb, const AdvanceOptions& options) {
  AdvanceResult out;
  // The options before any link pair: where every pair is culled, options
  // out of range would otherwise pass unseen ("separate").
  if (!valid(a, pa) || !valid(b, pb) || !advancement::valid_options(options)) {
    out.status = AdvanceStatus::invalid_input;
    return out;
  }
  const std::vector<LinkBound> ba = link_bounds(a, pa), bb = link_bounds(b, pb);
  const std::vector<Pose> start_a = link_poses(a, pa, 0), start_b = link_poses(b, pb, 0);
  // Link pairs whose swept spheres meet, with a ToC lower bound each.
  struct Candidate {
    double t;
    std::uint32_t ka, kb;
  };
  std::vector<Candidate> pairs;
  for (std::uint32_t ka = 0; ka < a.links.size(); ++ka) {
    if (!a.links[ka].model) continue;
    for (std::uint32_t kb = 0; kb < b.links.size(); ++kb) {
      if (!b.links[kb].model) continue;
      const double ra = a.links[ka].model->reach, rb = b.links[kb].model->reach;
      const double mu = (ba[ka].lin + ba[ka].spin * ra + bb[kb].lin + bb[kb].spin * rb) * (1 + 0x1p-40);
      const Vec3& ca = start_a[ka].x;
      const Vec3& cb = start_b[kb].x;
      const double gap = norm({cb.x - ca.x, cb.y - ca.y, cb.z - ca.z}) * (1 - 0x1p-40) - ra - rb;
      if (gap >= mu) continue;  // apart over the whole step
      pairs.push_back({gap > 0 ? gap / mu * (1 - 0x1p-40) : 0.0, ka, kb});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const Candidate& x, const Candidate& y) {
    return x.t != y.t ? x.t < y.t : x.ka != y.ka ? x.ka < y.ka : x.kb < y.kb;
  });
  AdvanceOptions resolved = options;
  if (resolved.threshold == 0) {
    double reach = INFINITY;
    for (const ArticulatedModel* m : {&a, &b}) {
      for (const Link& l : m->links) {
        if (l.model) reach = std::min(reach, l.model->reach);
      }
    }
    resolved.threshold = 1e-3 * reach;
  }
  out.threshold = resolved.threshold;
  double best = 1;
  for (const Candidate& c : pairs) {
    if (c.t >= best) break;
    const RigidModel& ma = *a.links[c.ka].model;
    const RigidModel& mb = *b.links[c.kb].model;
    AdvanceOptions o = resolved;
    // The largest world offset of the step bounds the rounding of the poses.
    double offset = 0;
    for (double t : {0.0, 1.0}) {
      offset = std::max(offset, norm(link_poses(a, pa, t)[c.ka].x) + norm(link_poses(b, pb, t)[c.kb].x));
    }
    offset += ba[c.ka].lin + bb[c.kb].lin;
    if (!advancement::certifiable(o, ma.reach, mb.reach, offset)) {
      out = {};
      out.status = AdvanceStatus::invalid_input;
      return out;
    }
    const advancement::StateAt state = [&](double t) {
      advancement::PairState s;
      s.a = link_poses(a, pa, t)[c.ka];
      s.b = link_poses(b, pb, t)[c.kb];
      s.lin = ba[c.ka].lin + bb[c.kb].lin;
      s.spin_a = ba[c.ka].spin;
      s.spin_b = bb[c.kb].spin;
      return s;
    };
    const AdvanceResult r = advancement::advance_pair(ma, mb, state, best, o);
    out.iterations += r.iterations;
    out.node_pairs += r.node_pairs;
    out.triangle_pairs += r.triangle_pairs;
    if (r.status == AdvanceStatus::contact || r.status == AdvanceStatus::iteration_limit) {
      best = r.toc;
      out.status = r.status;
      out.toc = r.toc;
      out.closest = r.closest;
      out.link_a = c.ka;
      out.link_b = c.kb;
    }
  }
  return out;
}

}  // namespace simdccd
