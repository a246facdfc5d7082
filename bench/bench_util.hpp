// What both benchmarks need besides the tool's core: the CPU and file output.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"

namespace simdccd::bench {

/// /proc/cpuinfo's model name (x86) or CPU part (aarch64), else "unknown".
std::string cpu_model();

/// True (after printing `usage`) when the arguments ask for help; a
/// UsageError for any positional argument.
bool help_requested(const cli::Args& args, const char* usage);

/// The items of a comma-separated list (empty items dropped).
std::vector<std::string> split(std::string_view list);
/// "1,2": thread counts; UsageError outside 1..4096.
std::vector<int> parse_thread_list(std::string_view list);
/// "0,0.001": minimum separations; UsageError outside [0, 2^60].
std::vector<double> parse_distance_list(std::string_view list);
/// "" for 0, else " d=D" (D as %g): names the rows of a minimum separation.
std::string distance_suffix(double d);

/// Seconds from `start` to now.
double seconds_since(std::chrono::steady_clock::time_point start);

/// Writes `text` to `path`, creating its folder; InputError when it cannot.
void write_text(const std::filesystem::path& path, std::string_view text);

}  // namespace simdccd::bench
