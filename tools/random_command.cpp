// simdccd random, and the default job: decide the random workload.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "random_workload.hpp"
#include "report.hpp"

namespace simdccd::cli {
namespace {

struct RandomJob {
  std::vector<QueryType> types{QueryType::vertex_face, QueryType::edge_edge};
  std::uint64_t count = 1000000;  ///< per type; the oracle's default is 100000 (it is slow)
  std::uint64_t seed = 1;
  bool json = false;
};

int run_random_job(const Engine& engine, const Engine* verifier, const RandomJob& job) {
  const RunInfo run{engine, false, verifier != nullptr};
  if (!job.json) print_random_header(run, job.types, job.count, job.seed);
  Progress progress(job.count * job.types.size());
  Tally total;
  for (const QueryType type : job.types) {
    progress.set_stage(std::string(to_string(type)));
    // Each type restarts from the seed: `--type ee` repeats the ee half of a run of both.
    const Tally tally = decide_random(engine, type, job.count, job.seed, verifier, progress);
    total += tally;
    progress.clear();
    if (job.json) {
      print_random_json(run, type, tally);
    } else {
      print_random_row(run, type, tally);
    }
  }
  progress.finish();
  if (!job.json && job.types.size() > 1) print_random_total(run, total);
  return total.guarantee_violations(engine.mode()) != 0 ? kCheckFailed : kOk;
}

}  // namespace

int run_random(std::span<const std::string_view> argv) {
  static constexpr OptionSpec kOptions[] = {{"--type", true},  {"--count", true}, {"--seed", true},
                                            {"--json", false}, {"--help", false}, {"-h", false}};
  const Args args(argv, kOptions, kEngineOptions);
  if (args.flag("--help") || args.flag("-h")) {
    print_usage();
    return kOk;
  }
  if (!args.positionals().empty()) throw UsageError("random takes no PATH arguments");
  const Engine engine = Engine::from_args(args);
  const std::optional<Engine> verifier =
      args.flag("--verify") ? std::optional(engine.verifier()) : std::nullopt;
  RandomJob job;
  if (const auto t = args.value("--type")) job.types = {parse_query_type(*t)};
  if (engine.mode() == Mode::oracle) job.count = 100000;
  if (const auto c = args.value("--count")) job.count = parse_uint("--count", *c);
  if (job.count == 0 || job.count > kMaxRandomCount) throw UsageError("--count must be 1 to 10^10");
  if (const auto s = args.value("--seed")) job.seed = parse_uint("--seed", *s);
  job.json = args.flag("--json");
  return run_random_job(engine, verifier ? &*verifier : nullptr, job);
}

int run_default_job() {
  const Engine engine(Mode::exact, std::nullopt, 0);
  std::printf("simdccd: no command given, so the default job (see simdccd --help)\n\n");
  const int step_status = run_bundled_step();
  std::printf("\n");
  const int status = std::max(step_status, run_random_job(engine, nullptr, RandomJob{}));
  std::printf(
      "note: the split of hits into odd and even contact-root counts needs the oracle's\n"
      "      root counts: simdccd random --mode oracle (about 10^4 times slower).\n");
  return status;
}

}  // namespace simdccd::cli
