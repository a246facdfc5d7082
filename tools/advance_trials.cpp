// Trials of the advancement scenes (advance_trials.hpp).
#include "advance_trials.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include "args.hpp"

namespace simdccd::cli {
namespace {

using Clock = std::chrono::steady_clock;

double mean(double sum, std::uint64_t n) { return n == 0 ? 0.0 : sum / double(n); }

/// The tick, serialized across threads.
class SerialTick {
 public:
  explicit SerialTick(const TrialTick& tick) : tick_(tick) {}
  void operator()() {
    if (!tick_) return;
    const std::lock_guard<std::mutex> hold(mutex_);
    tick_();
  }

 private:
  const TrialTick& tick_;
  std::mutex mutex_;
};

}  // namespace

void Totals::add(const Outcome& o) {
  ++trials;
  const bool contact = o.answer.status == AdvanceStatus::contact;
  collisions += contact;
  limit += o.answer.status == AdvanceStatus::iteration_limit;
  // The judges find nothing wrong with an answer that decided nothing: counted here.
  invalid += o.answer.status == AdvanceStatus::invalid_input;
  missed += o.verdict.missed;
  late += o.verdict.late;
  above += o.verdict.above_threshold;
  unverified += o.verdict.unverified;
  sum_ms += o.ms;
  max_ms = std::max(max_ms, o.ms);
  (contact ? sum_colliding_ms : sum_free_ms) += o.ms;
  if (std::isfinite(o.verdict.toc_gap)) max_gap = std::max(max_gap, o.verdict.toc_gap);
}

double Totals::mean_ms() const { return mean(sum_ms, trials); }
double Totals::mean_colliding_ms() const { return mean(sum_colliding_ms, collisions); }
double Totals::mean_free_ms() const { return mean(sum_free_ms, trials - collisions); }

void print_totals(const std::string& who, const Totals& t) {
  std::printf("  %-20s mean %9.4f ms (colliding %9.4f, free %9.4f; %3llu collisions), max %9.3f ms, %llu wrong "
              "(%llu missed, %llu late, %llu above the threshold), %llu unverified, %llu invalid\n",
              who.c_str(), t.mean_ms(), t.mean_colliding_ms(), t.mean_free_ms(), (unsigned long long)t.collisions,
              t.max_ms, (unsigned long long)t.wrong(), (unsigned long long)t.missed, (unsigned long long)t.late,
              (unsigned long long)t.above, (unsigned long long)t.unverified, (unsigned long long)t.invalid);
  std::fflush(stdout);
}

std::vector<std::string> scene_names() {
  std::vector<std::string> names = advance_scene_names();
  names.push_back("funnel");
  return names;
}

int trials_option(std::optional<std::string_view> value) {
  const std::uint64_t trials = value ? parse_uint("--trials", *value) : 200;
  if (trials == 0 || trials > 100000) throw UsageError("--trials must be 1 to 100000");
  return int(trials);
}

LoadedScene load_scene(std::string_view name, int trials, std::uint64_t seed, std::string_view motion) {
  if (motion != "general" && motion != "translation" && motion != "rotation") {
    throw UsageError("--motion must be general, translation or rotation");
  }
  const std::vector<std::string> names = scene_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    throw UsageError("unknown scene '" + std::string(name) + "' (simdccd advance --list)");
  }
  LoadedScene s;
  s.name = name;
  s.articulated = is_articulated_scene(name);
  if (s.articulated) {
    if (motion != "general") throw UsageError("--motion " + std::string(motion) + " needs a rigid scene");
    s.joints = articulated_scene(name, trials, seed);
    for (const Link& l : s.joints.a.links) s.triangles_a += l.model ? l.model->soup.triangles.size() : 0;
    for (const Link& l : s.joints.b.links) s.triangles_b += l.model ? l.model->soup.triangles.size() : 0;
    return s;
  }
  if (name == "funnel") {
    s.rigid = funnel_scene(std::filesystem::path(SIMDCCD_SIMULATION) / kFunnelFrame, trials, seed);
  } else {
    s.rigid = rigid_scene(name, trials, seed);
  }
  if (motion != "general") {
    s.rigid = pure_motion_scene(s.rigid, motion == "translation" ? PureMotion::translation : PureMotion::rotation);
  }
  s.triangles_a = s.rigid.a->soup.triangles.size();
  s.triangles_b = s.rigid.b->soup.triangles.size();
  return s;
}

std::vector<Outcome> advance_trials(const LoadedScene& scene, const AdvanceOptions& options, int threads,
                                    const TrialTick& tick) {
  std::vector<Outcome> out(scene.trials());
  SerialTick done(tick);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  tbb::parallel_for(std::size_t{0}, out.size(), [&](std::size_t i) {
    const auto start = Clock::now();
    if (scene.articulated) {
      const ArticulatedTrial& t = scene.joints.trials[i];
      out[i].answer = advance(scene.joints.a, t.path_a, scene.joints.b, t.path_b, options);
    } else {
      const RigidTrial& t = scene.rigid.trials[i];
      out[i].answer = advance(*scene.rigid.a, t.path_a, *scene.rigid.b, t.path_b, options);
    }
    out[i].ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    done();
  });
  return out;
}

void judge_trials(const LoadedScene& scene, std::vector<Outcome>& outcomes, const TrialTick& tick) {
  SerialTick done(tick);
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, tbb::info::default_concurrency());
  if (scene.articulated) {
    const ArticulatedJudge judge(scene.joints.a, scene.joints.b);
    tbb::parallel_for(std::size_t{0}, outcomes.size(), [&](std::size_t i) {
      const ArticulatedTrial& t = scene.joints.trials[i];
      outcomes[i].verdict = judge(t.path_a, t.path_b, outcomes[i].answer);
      done();
    });
  } else {
    const RigidJudge judge(*scene.rigid.a, *scene.rigid.b);
    tbb::parallel_for(std::size_t{0}, outcomes.size(), [&](std::size_t i) {
      const RigidTrial& t = scene.rigid.trials[i];
      outcomes[i].verdict = judge(t.path_a, t.path_b, outcomes[i].answer);
      done();
    });
  }
}

#ifdef SIMDCCD_HAVE_FCL
std::vector<Outcome> fcl_trials(const LoadedScene& scene, const FclConfig& config, double threshold,
                                const TrialTick& tick) {
  const FclPeer fcl(scene.rigid.a->soup, scene.rigid.b->soup);
  std::vector<Outcome> out(scene.trials());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const FclAnswer f = fcl.query(scene.rigid.trials[i].path_a, scene.rigid.trials[i].path_b, config);
    out[i].answer.status = f.collides ? AdvanceStatus::contact : AdvanceStatus::separate;
    out[i].answer.toc = f.collides ? f.toc : 1;
    out[i].answer.threshold = threshold;
    out[i].ms = f.ms;
    if (tick) tick();
  }
  return out;
}
#endif

}  // namespace simdccd::cli
