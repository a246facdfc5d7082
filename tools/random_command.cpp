// simdccd random, and the default job: decide the random workload.
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "modes.hpp"
#include "random_workload.hpp"
#include "report.hpp"

namespace simdccd::cli {
namespace {

struct RandomJob {
  const ModeEntry* mode = &mode_entry(std::nullopt);
  std::vector<QueryType> types{QueryType::vertex_face, QueryType::edge_edge};
  std::uint64_t count = 100000;  ///< per type
  std::uint64_t seed = 1;
  bool json = false;
};

int run_random_job(const RandomJob& job) {
  if (!job.json) print_random_header(job.mode->mode, job.types, job.count, job.seed);
  Progress progress(job.count * job.types.size());
  for (const QueryType type : job.types) {
    progress.set_stage(std::string(to_string(type)));
    // Each type restarts from the seed: `--type ee` repeats the ee half of a run of both.
    const Tally tally = decide_random(job.mode->decide, type, job.count, job.seed, progress);
    progress.clear();
    if (job.json) {
      print_random_json(type, tally, job.mode->mode);
    } else {
      print_random_row(type, tally);
    }
  }
  progress.finish();
  return kOk;
}

}  // namespace

int run_random(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--type", true}, {"--count", true}, {"--seed", true},
                                            {"--mode", true}, {"--json", false}, {"--help", false},
                                            {"-h", false}};
  const Args args(argv, kOptions);
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  if (!args.positionals().empty()) throw UsageError("random takes no PATH arguments");
  RandomJob job;
  job.mode = &mode_entry(args.value("--mode"));
  if (const auto t = args.value("--type")) job.types = {parse_query_type(*t)};
  if (const auto c = args.value("--count")) job.count = parse_uint("--count", *c);
  if (job.count == 0) throw UsageError("--count must be at least 1");
  if (const auto s = args.value("--seed")) job.seed = parse_uint("--seed", *s);
  job.json = args.flag("--json");
  return run_random_job(job);
}

int run_default_job() {
  RandomJob job;
  job.mode = &mode_entry("oracle");
  std::printf(
      "simdccd: no command given, so the default job: the random workload decided by the oracle "
      "(see simdccd --help)\n");
  return run_random_job(job);
}

}  // namespace simdccd::cli
