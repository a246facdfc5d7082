// The public entries of conservative advancement for rigid models
// (advance.hpp): validation, distance queries, single and batched queries.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "advance/pair_advance.hpp"
#include "advance/certifiable.hpp"
#include "common/vec3_math.hpp"

namespace simdccd {
namespace {

advancement::PairState rigid_state(const RigidPath& pa, const RigidPath& pb, double t) {
  advancement::PairState s;
  s.a = pose_at(pa, t);
  s.b = pose_at(pb, t);
  s.v = {pa.velocity.x - pb.velocity.x, pa.velocity.y - pb.velocity.y, pa.velocity.z - pb.velocity.z};
  s.wa = {pa.axis.x * pa.angle, pa.axis.y * pa.angle, pa.axis.z * pa.angle};
  s.wb = {pb.axis.x * pb.angle, pb.axis.y * pb.angle, pb.axis.z * pb.angle};
  return s;
}

}  // namespace

double default_threshold(const RigidModel& a, const RigidModel& b) { return 1e-3 * std::min(a.reach, b.reach); }

double distance_error(double reach_a, double reach_b, double offset) {
  return 0x1p-40 * (reach_a + reach_b + offset);
}

std::string_view to_string(AdvanceMethod method) {
  switch (method) {
    case AdvanceMethod::ca:
      return "ca";
    case AdvanceMethod::c2a:
      return "c2a";
    case AdvanceMethod::hca:
      return "hca";
  }
  return "?";
}

bool parse_advance_method(std::string_view name, AdvanceMethod& method) {
  for (AdvanceMethod m : {AdvanceMethod::ca, AdvanceMethod::c2a, AdvanceMethod::hca}) {
    if (name == to_string(m)) {
      method = m;
      return true;
    }
  }
  return false;
}

std::string_view to_string(AdvanceStatus status) {
  switch (status) {
    case AdvanceStatus::contact:
      return "contact";
    case AdvanceStatus::separate:
      return "separate";
    case AdvanceStatus::iteration_limit:
      return "iteration_limit";
    case AdvanceStatus::invalid_input:
      return "invalid_input";
  }
  return "?";
}

DistanceResult distance(const RigidModel& a, const Pose& pa, const RigidModel& b, const Pose& pb) {
  if (!advancement::valid_pose(pa) || !advancement::valid_pose(pb) ||
      !advancement::certified_scale(a.reach, b.reach, norm(pa.x) + norm(pb.x))) {
    throw std::invalid_argument("distance: a pose that is not finite, not a rotation or above 2^60, or a scale below 2^-400");
  }
  advancement::PairState s;
  s.a = pa;
  s.b = pb;
  const advancement::Frame f = advancement::make_frame(s, a.reach, b.reach);
  advancement::Sweeper sweeper(a, b);
  return advancement::closest_pair(sweeper.sweep(f, {.cull = advancement::Cull::by_distance}), pa);
}

namespace advancement {

bool valid_pose(const Pose& p) { return is_rotation(p.R) && finite(p.x) && norm(p.x) <= 0x1p60; }

bool valid_path(const RigidPath& p) {
  // A finite axis even where the angle is 0 (its product with the angle
  // enters the motion bound: a NaN axis made it NaN, and "separate" came out).
  return valid_pose(p.start) && finite(p.velocity) && finite(p.axis) && std::isfinite(p.angle) &&
         p.angle >= 0 && p.angle <= 4 * M_PI && (p.angle == 0 || std::abs(norm(p.axis) - 1) <= 0x1p-46) &&
         norm(p.start.x) + norm(p.velocity) <= 0x1p60;
}

bool valid_options(const AdvanceOptions& o) {
  return std::isfinite(o.threshold) && o.threshold >= 0 && o.max_iterations > 0 && o.control > 0 &&
         o.control <= 1 && o.method <= AdvanceMethod::hca;
}

bool certifiable(const AdvanceOptions& o, double reach_a, double reach_b, double offset) {
  return valid_options(o) && certified_scale(reach_a, reach_b, offset) &&
         o.threshold > 8 * distance_error(reach_a, reach_b, offset);
}

}  // namespace advancement

AdvanceResult advance(const RigidModel& a, const RigidPath& pa, const RigidModel& b, const RigidPath& pb,
                      const AdvanceOptions& options) {
  AdvanceOptions o = options;
  if (o.threshold == 0) o.threshold = default_threshold(a, b);
  const double offset = norm(pa.start.x) + norm(pa.velocity) + norm(pb.start.x) + norm(pb.velocity);
  if (!advancement::valid_path(pa) || !advancement::valid_path(pb) ||
      !advancement::certifiable(o, a.reach, b.reach, offset)) {
    AdvanceResult r;
    r.status = AdvanceStatus::invalid_input;
    return r;
  }
  const advancement::StateAt state = [&](double t) { return rigid_state(pa, pb, t); };
  return advancement::advance_pair(a, b, state, 1, o);
}

std::vector<AdvanceResult> advance_batch(std::span<const AdvanceQuery> queries, const AdvanceOptions& options) {
  std::vector<AdvanceResult> out(queries.size());
  tbb::parallel_for(std::size_t{0}, queries.size(), [&](std::size_t i) {
    const AdvanceQuery& q = queries[i];
    if (q.a == nullptr || q.b == nullptr) {
      out[i].status = AdvanceStatus::invalid_input;
      return;
    }
    out[i] = advance(*q.a, q.path_a, *q.b, q.path_b, options);
  });
  return out;
}

}  // namespace simdccd
