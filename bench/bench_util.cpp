#include "bench_util.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "query_files.hpp"
#include "simdccd/options.hpp"

namespace simdccd::bench {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string part;
  for (std::string line; std::getline(cpuinfo, line);) {
    const bool model = line.starts_with("model name");
    if (!model && !line.starts_with("CPU part")) continue;
    const std::size_t value = line.find_first_not_of(" \t", line.find(':') + 1);
    if (value == std::string::npos) continue;
    if (model) return line.substr(value);
    if (part.empty()) part = "CPU part " + line.substr(value);
  }
  return part.empty() ? "unknown" : part;
}

std::vector<std::string> split(std::string_view list) {
  std::vector<std::string> items;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) items.emplace_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

std::vector<int> parse_thread_list(std::string_view list) {
  std::vector<int> counts;
  for (const std::string& t : split(list)) {
    const std::uint64_t n = cli::parse_uint("--threads", t);
    if (n == 0 || n > 4096) throw cli::UsageError("--threads counts must be 1 to 4096");
    counts.push_back(static_cast<int>(n));
  }
  return counts;
}

std::vector<double> parse_distance_list(std::string_view list) {
  std::vector<double> distances;
  for (const std::string& t : split(list)) {
    const double d = cli::parse_double("--min-distance", t);
    if (!valid_min_distance(d)) throw cli::UsageError("--min-distance values must be in [0, 2^60]");
    distances.push_back(d);
  }
  if (distances.empty()) throw cli::UsageError("--min-distance: no distance");
  return distances;
}

std::string distance_suffix(double d) {
  if (d == 0) return "";
  char s[40];
  std::snprintf(s, sizeof s, " d=%g", d);
  return s;
}

void write_text(const std::filesystem::path& path, std::string_view text) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) throw cli::InputError(path.string() + ": cannot write");
}

bool help_requested(const cli::Args& args, const char* usage) {
  if (args.flag("--help") || args.flag("-h")) {
    std::fputs(usage, stdout);
    return true;
  }
  if (!args.positionals().empty()) {
    throw cli::UsageError("unexpected argument '" + std::string(args.positionals()[0]) + "'");
  }
  return false;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace simdccd::bench
