// simdccd: runs CCD queries from data files or the random workload and
// counts the answers. Dispatches the subcommands and turns errors into exit codes.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "modes.hpp"
#include "query_files.hpp"
#include "simdccd/io/parse_error.hpp"

namespace simdccd::cli {

void print_usage() {
  std::printf(R"(simdccd: continuous collision detection (CCD) checks and workloads

Usage:
  simdccd                         the default job: the random workload, 100000
                                  vf and 100000 ee queries, seed 1, mode oracle
  simdccd check [--type vf|ee] [--mode M] [--json] PATH...
  simdccd random [--type vf|ee] [--count N] [--seed S] [--mode M] [--json]
  simdccd help | --help | -h

check   Decides the queries of CSV files (a directory: its *.csv files,
        recursively, in sorted order) and compares them with their truth.
        Query type: --type; else a vertex-face or edge-edge folder in the
        file's path; else a simulation name <n>vf.csv or <n>ee.csv.
        Truth: the file's truth column; else, for <scene>/queries/<n>vf.csv,
        <scene>/mma_bool/<n>vf_mma_bool.json (likewise ee). A file without
        truth is decided and counted, but not checked: no FN/FP for it.
        Prints per file and in total: queries, truth positives, positives
        (hits), false negatives (FN), false positives (FP), invalid, seconds.
        --json: only one object of the totals: mode, queries, truth_positives,
        positives, false_negatives, false_positives, invalid, seconds.

random  Decides the random workload of the fastCCD paper: each query is 24
        draws of uniform_real_distribution(0,1) from std::mt19937_64(seed),
        in row order (8 points, each x, y, z); each type starts from the seed.
        --type vf|ee  only this type (default: vf, then ee)
        --count N     queries per type (default 100000)
        --seed S      (default 1)
        Prints per type: queries, positives (hits), odd and even hits (by the
        parity of the contact roots; always-coplanar hits count as even),
        invalid, seconds.
        --json: one object per type, each on its own line: type, mode,
        queries, positives, odd, even, invalid, seconds.

--mode M  how queries are decided (default: the first):
)");
  for (const ModeEntry& e : available_modes()) {
    std::printf("          %-13s %.*s\n", std::string(to_string(e.mode)).c_str(),
                int(e.summary.size()), e.summary.data());
  }
  std::printf(R"(
Invalid queries (not decided, e.g. non-finite coordinates) are counted as
invalid, never as hits or misses. Seconds count only the time inside the CCD
calls, not reading or generating queries. Runs over 2 s show progress on stderr.

Exit status: 0 done; 1 check found a false negative or an invalid query;
2 usage error, or unreadable or malformed input; 3 internal error.
)");
}

namespace {

int dispatch(std::span<const std::string_view> args) {
  if (args.empty()) return run_default_job();
  const std::string_view command = args[0];
  const auto rest = args.subspan(1);
  if (command == "check") return run_check(rest);
  if (command == "random") return run_random(rest);
  if (command == "help" || command == "--help" || command == "-h") {
    print_usage();
    return kOk;
  }
  throw UsageError("unknown command '" + std::string(command) + "'");
}

}  // namespace
}  // namespace simdccd::cli

int main(int argc, char** argv) {
  using namespace simdccd::cli;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  try {
    return dispatch(args);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "simdccd: %s\nTry 'simdccd --help'.\n", e.what());
    return kBadInput;
  } catch (const simdccd::ParseError& e) {
    std::fprintf(stderr, "simdccd: %s\n", e.what());
    return kBadInput;
  } catch (const InputError& e) {
    std::fprintf(stderr, "simdccd: %s\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simdccd: internal error: %s\n", e.what());
    return kInternalError;
  }
}
