// CA, C2A and HCA on one model pair (pair_advance.hpp; docs/advance.md).
//
// Every step advances time by a lower bound on the time to the first contact
// (a closing time of the kernels), rounded down, so the ToC is never late;
// a contact is reported only where some triangle pair is certified within
// the threshold.
#include "advance/pair_advance.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>
#include "common/vec3_math.hpp"

namespace simdccd::advancement {
namespace {

// t + dt, one step down from the rounded sum so that it is never past the
// certified time (and never before t).
double step(double t, double dt) { return std::max(t, round_down(t + dt)); }

class PairAdvance {
 public:
  PairAdvance(const RigidModel& a, const RigidModel& b, const StateAt& state, double t_stop, const AdvanceOptions& o)
      : a_(a), b_(b), state_(state), t_stop_(t_stop), o_(o), sweeper_(a, b) {}

  AdvanceResult run() {
    AdvanceResult r = o_.method == AdvanceMethod::hca  ? hierarchical()
                      : o_.method == AdvanceMethod::ca ? outer(Cull::by_distance)
                                                       : outer(Cull::by_time);
    r.threshold = o_.threshold;
    return r;
  }

 private:
  Frame frame(const PairState& s) const { return make_frame(s, a_.reach, b_.reach); }

  // The whole-model motion bound (plain CA): no direction, root reaches.
  double whole_bound(const Frame& f) const {
    const auto len = [](const double* w) { return std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]); };
    const double mu = len(f.v) + f.lin + (len(f.wa) + f.spin_a) * a_.reach + (len(f.wb) + f.spin_b) * b_.reach;
    return mu * (1 + 0x1p-40);
  }

  // CA and C2A: one sweep per iteration at the current time.
  AdvanceResult outer(Cull cull) {
    AdvanceResult out;
    double t = 0;
    bool has_seed = false, far = true;
    std::uint32_t seed_a = 0, seed_b = 0;
    for (out.iterations = 1; out.iterations <= static_cast<std::uint32_t>(o_.max_iterations); ++out.iterations) {
      const PairState s = state_(t);
      const Frame f = frame(s);
      // Damped (the paper's w) while far from the threshold, exact near it.
      const double control = far ? o_.control : 1;
      // Node pairs that cannot close before the step ends are culled too.
      const double horizon = (t_stop_ - t) * (cull == Cull::by_time ? 1 : whole_bound(f));
      // C2A's sweeps after the first start from the last one's cut.
      const SweepResult r = sweeper_.sweep(f, {.cull = cull,
                                               .stop_below = o_.threshold,
                                               .control = control,
                                               .horizon = horizon,
                                               .has_seed = has_seed,
                                               .seed_a = seed_a,
                                               .seed_b = seed_b,
                                               .time = t,
                                               .resume = has_seed});
      far = r.upper > 8 * o_.threshold;
      out.node_pairs += r.node_pairs;
      out.triangle_pairs += r.triangle_pairs;
      has_seed = true;
      seed_a = r.leaf_a;
      seed_b = r.leaf_b;
      double dt = r.dt;
      if (cull == Cull::by_distance) {
        const double mu = whole_bound(f);
        dt = r.lower > 0 ? r.lower / mu : 0;
      }
      // Within the threshold: the contact is here (touching or crossing
      // pairs have an upper bound of about E, below it).
      if (r.upper <= o_.threshold) {
        out.status = AdvanceStatus::contact;
        out.toc = t;
        out.closest = closest_pair(r, s.a);
        return out;
      }
      // No positive bound, yet not within the threshold (a pair closer than
      // about 2^-26 of its size, where the slab's direction is too rough to
      // separate it): no further step can be certified.
      if (!(dt > 0)) {
        out.status = AdvanceStatus::iteration_limit;
        out.toc = t;
        return out;
      }
      const double next = step(t, dt);
      if (next >= t_stop_) {
        out.status = AdvanceStatus::separate;
        out.toc = 1;
        return out;
      }
      t = next;
    }
    out.iterations = static_cast<std::uint32_t>(o_.max_iterations);
    out.status = AdvanceStatus::iteration_limit;
    out.toc = t;
    return out;
  }

  struct Item {
    double t;
    std::uint32_t ia, ib;
    bool operator>(const Item& o) const {
      return t != o.t ? t > o.t : ia != o.ia ? ia > o.ia : ib > o.ib;
    }
  };

  // HCA: node pairs in order of their ToC lower bound; each pair's bound is
  // advanced from its parent's by a few CA steps on its own swept spheres;
  // leaf pairs run CA to the threshold. The ToC is the least leaf ToC.
  AdvanceResult hierarchical() {
    AdvanceResult out;
    double best = t_stop_;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    heap.push({0, 0, 0});
    while (!heap.empty()) {
      const Item item = heap.top();
      heap.pop();
      if (item.t >= best) break;
      const SsvNode& na = a_.nodes[item.ia];
      const SsvNode& nb = b_.nodes[item.ib];
      if (na.count == 1 && nb.count == 1) {
        leaf(item, best, out);
        continue;
      }
      const bool split_a = nb.count == 1 || (na.count > 1 && na.size >= nb.size);
      const Frame f = frame(state_(item.t));  // the children's first step shares it
      for (int c = 0; c < 2; ++c) {
        const std::uint32_t ia = split_a ? (c == 0 ? na.first : na.second) : item.ia;
        const std::uint32_t ib = split_a ? item.ib : (c == 0 ? nb.first : nb.second);
        const double t = node_bound(f, item.t, ia, ib, best, out);
        if (t < best) heap.push({t, ia, ib});
      }
    }
    if (out.status != AdvanceStatus::contact && out.status != AdvanceStatus::iteration_limit) {
      out.status = AdvanceStatus::separate;
      out.toc = 1;
    }
    return out;
  }

  // A few CA steps of a node pair from t, the first in frame f (the paper
  // iterates node CA a bounded number of times: the bound only needs to be
  // a lower bound).
  double node_bound(const Frame& f, double t, std::uint32_t ia, std::uint32_t ib, double best, AdvanceResult& out) {
    constexpr int kNodeSteps = 3;
    for (int k = 0; k < kNodeSteps && t < best; ++k) {
      double lower = 0, dt = 0;
      sweeper_.node_pair(k == 0 ? f : frame(state_(t)), ia, ib, lower, dt);
      ++out.node_pairs;
      if (!(dt > 0)) break;
      t = step(t, dt);
    }
    return t;
  }

  void leaf(const Item& item, double& best, AdvanceResult& out) {
    double t = item.t;
    for (int k = 0; k < o_.max_iterations; ++k) {
      const PairState s = state_(t);
      const SweepResult r = sweeper_.leaf_pair(frame(s), item.ia, item.ib);
      ++out.triangle_pairs;
      ++out.iterations;
      if (r.upper <= o_.threshold) {
        best = t;
        out.status = AdvanceStatus::contact;
        out.toc = t;
        out.closest = closest_pair(r, s.a);
        return;
      }
      if (!(r.dt > 0)) break;  // no step certified (as in outer())
      t = step(t, r.dt);
      if (t >= best) return;
    }
    // Out of steps, or none certified: a conservative ToC without the
    // threshold certified.
    best = t;
    out.status = AdvanceStatus::iteration_limit;
    out.toc = t;
  }

  const RigidModel& a_;
  const RigidModel& b_;
  const StateAt& state_;
  double t_stop_;
  const AdvanceOptions& o_;
  Sweeper sweeper_;
};

}  // namespace

AdvanceResult advance_pair(const RigidModel& a, const RigidModel& b, const StateAt& state, double t_stop,
                           const AdvanceOptions& options) {
  return PairAdvance(a, b, state, t_stop, options).run();
}

}  // namespace simdccd::advancement
