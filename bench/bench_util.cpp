#include "bench_util.hpp"

#include <cstdio>
#include <fstream>

#include "query_files.hpp"

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

}  // namespace simdccd::bench
