// The two benchmarks of simdccd_bench; each takes the arguments after its name.
#pragma once

#include <span>
#include <string_view>

namespace simdccd::bench {

/// Queries per second of every implementation, thread count and mode.
int run_kernel_bench(std::span<const std::string_view> args);
/// Whole simulation steps: seconds and candidates/s of each phase.
int run_step_bench(std::span<const std::string_view> args);
/// The rigid kernels' queries per second, and translations against the linear kernels.
int run_rigid_bench(std::span<const std::string_view> args);
/// Conservative advancement on the paper's scenes, next to FCL.
int run_advance_bench(std::span<const std::string_view> args);
/// The convex pipeline: GJK next to libccd and Bullet, persistent sweep and prune.
int run_convex_bench(std::span<const std::string_view> args);
/// Milliseconds a pair of the two exact polytope distances, one thread.
int run_exact_distance_bench(std::span<const std::string_view> args);
/// Microseconds per query of the exact oracle on one thread.
int run_oracle_bench(std::span<const std::string_view> args);

}  // namespace simdccd::bench
