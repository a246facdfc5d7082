// The kernel benchmark's measurements and their outputs: the printed table,
// the TSV file and the bar chart.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bar_chart.hpp"
#include "engine.hpp"
#include "modes.hpp"
#include "simdccd/linear_ccd.hpp"

namespace simdccd::bench {

/// The target every ratio is taken against, on one thread.
inline constexpr std::string_view kBaseline = "double";

struct Measurement {
  std::string workload;  ///< "random vf", "simulation ee"
  cli::Model model;
  Mode mode;
  std::string target;
  int threads;
  std::size_t queries;  ///< in one pass
  double rate;          ///< queries per second
  double ratio;         ///< to the baseline (same model and mode) on one thread (0: none measured)
  BatchStats stats;     ///< of one pass
};

void print_header();
/// `hits_differ`: flags an implementation whose answers differ from the baseline's.
void print_row(const Measurement& m, bool hits_differ);
/// The rows as TSV, after `header` (comment lines).
std::string tsv_of(const std::vector<Measurement>& rows, const std::string& header);
/// The baseline first, then the targets of the comma-separated `list` (by
/// default the runnable Highway targets but SCALAR, EMU128 and SSSE3, worst
/// first, then xsimd when `xsimd`) that run here.
std::vector<std::string> bench_targets(std::optional<std::string_view> list, bool xsimd);

/// "--min-time" and the like: non-negative seconds; UsageError otherwise.
double parse_seconds(std::string_view option, std::string_view text);

/// Queries per second of `engine` on `batch`: one warm-up pass (its stage
/// counts are reported), then passes until `min_time` seconds.
Measurement measure(const std::string& workload, const cli::Batch& batch, const cli::Engine& engine,
                    double min_time);

/// One panel per model and mode, a group per workload and thread count, a bar per target.
BarChart chart_of(const std::vector<Measurement>& rows, const std::vector<std::string>& targets,
                  const std::string& cpu);

}  // namespace simdccd::bench
