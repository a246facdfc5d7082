#include "arguments.hpp"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "simdccd/targets.hpp"

namespace simdccd::python {

QueryType parse_type(const std::string& name) {
  if (name == "vf") return QueryType::vertex_face;
  if (name == "ee") return QueryType::edge_edge;
  throw std::invalid_argument("type must be 'vf' or 'ee', not '" + name + "'");
}

Model parse_model(const std::string& name) {
  if (name == "linear") return Model::linear;
  if (name == "spacetime") return Model::spacetime;
  throw std::invalid_argument("model must be 'linear' or 'spacetime', not '" + name + "'");
}

Mode parse_mode_name(const std::string& name) {
  if (const std::optional<Mode> mode = parse_mode(name)) return *mode;
  throw std::invalid_argument("mode must be 'exact', 'conservative' or 'oracle', not '" + name +
                              "'");
}

namespace {
constexpr const char* kThreadsRule = "threads must be >= 0 (0: all cores)";
}  // namespace

int thread_count(std::int64_t threads) {
  if (threads < 0 || threads > std::numeric_limits<int>::max()) {
    throw std::invalid_argument(std::string(kThreadsRule) + " and below 2^31, not " + std::to_string(threads));
  }
  return static_cast<int>(threads);
}

double check_min_distance(double d, Model model) {
  if (!valid_min_distance(d)) {
    char shown[32];  // %.17g: -1e-300 reads so, not as -0.000000
    std::snprintf(shown, sizeof shown, "%.17g", d);
    throw std::invalid_argument(std::string("min_distance must be a number in [0, 2^60], not ") + shown);
  }
  if (d != 0 && model != Model::linear) throw std::invalid_argument("min_distance > 0 needs model='linear'");
  return d;
}

void check_target(const std::optional<std::string>& target, Mode mode) {
  if (target && mode == Mode::oracle) {
    throw std::invalid_argument("target picks a kernel, and mode='oracle' runs none");
  }
}

std::shared_mutex& kernel_mutex() {
  static std::shared_mutex mutex;
  return mutex;
}

ForcedImplementation::ForcedImplementation(const std::string& target)
    : previous_(active_implementation()) {
  if (set_implementation(target)) return;
  std::string runnable;
  for (const std::string& name : runnable_implementations()) {
    runnable += (runnable.empty() ? "" : ", ") + name;
  }
  throw std::invalid_argument("target '" + target +
                              "' is unknown or cannot run on this CPU (runnable: " + runnable + ")");
}

ForcedImplementation::~ForcedImplementation() { set_implementation(previous_); }

}  // namespace simdccd::python
