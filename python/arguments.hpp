// Arguments shared by the module's functions: the names of query types,
// models and modes, thread counts, and the implementation a call forces.
#pragma once

#include <cstdint>
#include <optional>
#include <mutex>
#include <shared_mutex>
#include <string>

#include "simdccd/options.hpp"
#include "simdccd/query.hpp"

namespace simdccd::python {

enum class Model { linear, spacetime };

/// "vf" or "ee"; ValueError otherwise.
QueryType parse_type(const std::string& name);
/// "linear" or "spacetime"; ValueError otherwise.
Model parse_model(const std::string& name);
/// "exact", "conservative" or "oracle"; ValueError otherwise.
Mode parse_mode_name(const std::string& name);
/// A thread count (0: all cores); ValueError unless 0 <= threads < 2^31.
int thread_count(std::int64_t threads);
/// `d` when it is a valid Options::min_distance for `model` (0, or in
/// (0, 2^60] with the linear model); ValueError otherwise.
double check_min_distance(double d, Model model);
/// ValueError for a target with Mode::oracle, which runs no kernel.
void check_target(const std::optional<std::string>& target, Mode mode);

/// set_implementation is process-global and must not change while kernels
/// run: every kernel call of the module holds this lock, shared, or exclusive
/// when it forces an implementation.
std::shared_mutex& kernel_mutex();

/// Makes `target` the active implementation for its lifetime (ValueError,
/// listing the runnable ones, when it is unknown or cannot run here), then
/// restores the one that was active. Hold kernel_mutex() exclusively.
class ForcedImplementation {
 public:
  explicit ForcedImplementation(const std::string& target);
  ~ForcedImplementation();
  ForcedImplementation(const ForcedImplementation&) = delete;
  ForcedImplementation& operator=(const ForcedImplementation&) = delete;

 private:
  std::string previous_;
};

/// Runs `kernels()` on `target` (nullopt: the active implementation) under
/// kernel_mutex(). Call it without the GIL: it may wait for other calls.
template <class Kernels>
auto on_target(const std::optional<std::string>& target, Kernels&& kernels) {
  if (!target) {
    std::shared_lock lock(kernel_mutex());
    return kernels();
  }
  std::unique_lock lock(kernel_mutex());
  const ForcedImplementation forced(*target);
  return kernels();
}

}  // namespace simdccd::python
