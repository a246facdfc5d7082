// What both benchmarks need besides the tool's core: the CPU and file output.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "args.hpp"

namespace simdccd::bench {

/// /proc/cpuinfo's model name (x86) or CPU part (aarch64), else "unknown".
std::string cpu_model();

/// True (after printing `usage`) when the arguments ask for help; a
/// UsageError for any positional argument.
bool help_requested(const cli::Args& args, const char* usage);

/// Writes `text` to `path`, creating its folder; InputError when it cannot.
void write_text(const std::filesystem::path& path, std::string_view text);

}  // namespace simdccd::bench
