// The subcommands of the `simdccd` tool. Each returns the exit status and
// throws UsageError, InputError or ParseError, which main() reports.
#pragma once

#include <span>
#include <string_view>

namespace simdccd::cli {

enum ExitCode : int {
  kOk = 0,
  kCheckFailed = 1,  ///< a false negative, an invalid query, or (--verify) a broken guarantee
  kBadInput = 2,     ///< usage error, unreadable or malformed input
  kInternalError = 3,
};

int run_check(std::span<const std::string_view> args);
int run_random(std::span<const std::string_view> args);
int run_compare_models(std::span<const std::string_view> args);
int run_targets(std::span<const std::string_view> args);
int run_step(std::span<const std::string_view> args);
int run_polyhedra(std::span<const std::string_view> args);
int run_advance(std::span<const std::string_view> args);
int run_gjk(std::span<const std::string_view> args);
int run_pile(std::span<const std::string_view> args);
/// `step` on the bundled cloth-funnel scene with its truth (the default job's first part).
int run_bundled_step();
/// What `simdccd` without arguments runs.
int run_default_job();

void print_usage();

}  // namespace simdccd::cli
