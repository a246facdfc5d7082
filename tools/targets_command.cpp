// simdccd targets: which implementations of the kernels this build and CPU offer.
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "simdccd/targets.hpp"
#include "xsimd_entry.hpp"

namespace simdccd::cli {
namespace {

void print_list(const char* label, const std::vector<std::string>& names) {
  std::printf("%-10s", label);
  for (const std::string& n : names) std::printf(" %s", n.c_str());
  std::printf("\n");
}

}  // namespace

int run_targets(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--help", false}, {"-h", false}};
  const Args args(argv, kOptions);
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  if (!args.positionals().empty()) throw UsageError("targets takes no arguments");
  print_list("compiled:", compiled_implementations());
  print_list("runnable:", runnable_implementations());
  std::printf("%-10s %s  (the default of --target; SIMDCCD_TARGET=NAME sets it)\n",
              "active:", active_implementation().c_str());
  const XsimdEntry& x = xsimd_entry();
  std::printf("%-10s %.*s, %s  (--target %.*s: the header-only entry, built for this arch)\n",
              "xsimd:", int(x.arch.size()), x.arch.data(),
              x.runnable ? "runnable" : "not runnable on this CPU", int(kXsimdTarget.size()),
              kXsimdTarget.data());
  return kOk;
}

}  // namespace simdccd::cli
