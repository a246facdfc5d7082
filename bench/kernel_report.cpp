#include "kernel_report.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "bench_util.hpp"
#include "engine.hpp"
#include "simdccd/targets.hpp"
#include "report.hpp"
#include "xsimd_entry.hpp"

namespace simdccd::bench {
using cli::Engine;
using cli::format_rate;
using cli::kXsimdTarget;
using cli::UsageError;
namespace {

double fraction(std::uint64_t part, const Measurement& m) {
  return m.queries == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(m.queries);
}

}  // namespace

void print_header() {
  std::printf("%-15s %-9s %-12s %7s %-8s %10s %8s %8s %9s %9s %10s\n", "workload", "model",
              "mode", "threads",
              "target", "queries/s", "x_double", "hits", "screened", "root", "uncertain");
}

void print_row(const Measurement& m, bool hits_differ) {
  std::printf(
      "%-15s %-9s %-12s %7d %-8s %10s %8.2f %8llu %8.2f%% %8.2f%% %9.4f%%%s\n",
      m.workload.c_str(), std::string(to_string(m.model)).c_str(),
      std::string(to_string(m.mode)).c_str(), m.threads, m.target.c_str(),
      format_rate(m.rate).c_str(), m.ratio, static_cast<unsigned long long>(m.stats.hits),
      100 * fraction(m.stats.screened_out, m), 100 * fraction(m.stats.root_stage, m),
      100 * fraction(m.stats.uncertain, m), hits_differ ? "  <- hits differ from double's!" : "");
}

std::string tsv_of(const std::vector<Measurement>& rows, const std::string& header) {
  std::ostringstream tsv;
  tsv << header
      << "workload\tmodel\tmode\tthreads\ttarget\tqueries\tqueries_per_second"
         "\tratio_to_double_1_thread"
         "\thits\tscreened_out\troot_stage\tuncertain\n";
  for (const Measurement& m : rows) {
    tsv << m.workload << '\t' << to_string(m.model) << '\t' << to_string(m.mode) << '\t'
        << m.threads << '\t' << m.target << '\t'
        << m.queries << '\t' << m.rate << '\t' << m.ratio << '\t' << m.stats.hits << '\t'
        << fraction(m.stats.screened_out, m) << '\t' << fraction(m.stats.root_stage, m) << '\t'
        << fraction(m.stats.uncertain, m) << '\n';
  }
  return tsv.str();
}

BarChart chart_of(const std::vector<Measurement>& rows, const std::vector<std::string>& targets,
                  const std::string& cpu) {
  BarChart chart{"simdccd kernels on " + cpu, "queries per second", targets, {}, {}};
  for (std::string& name : chart.series) {
    if (name == cli::kXsimdTarget) name += " (" + std::string(cli::xsimd_entry().arch) + ")";
  }
  const auto index_of = [](std::vector<std::string>& names, const std::string& name) {
    const auto it = std::ranges::find(names, name);
    if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
    names.push_back(name);
    return names.size() - 1;
  };
  std::vector<std::string> panel_names;
  for (const Measurement& m : rows) {
    const std::size_t p = index_of(panel_names, std::string(to_string(m.model)) + " model, " +
                                                    std::string(to_string(m.mode)) + " mode");
    const std::size_t g = index_of(chart.groups, m.workload + "\n" + std::to_string(m.threads) +
                                                     (m.threads == 1 ? " thread" : " threads"));
    const std::size_t s =
        static_cast<std::size_t>(std::ranges::find(targets, m.target) - targets.begin());
    if (chart.panels.size() <= p) chart.panels.push_back({panel_names[p], {}});
    for (BarChart::Panel& panel : chart.panels) panel.values.resize(chart.groups.size());
    auto& bars = chart.panels[p].values[g];
    bars.resize(std::max(bars.size(), s + 1));
    bars[s] = m.rate;
  }
  return chart;
}

std::vector<std::string> bench_targets(std::optional<std::string_view> list, bool xsimd) {
  std::vector<std::string> wanted;
  if (list) {
    wanted = split(*list);
  } else {
    // Worst to best; Highway's scalar fallbacks and SSSE3 add nothing over double and SSE4.
    const std::vector<std::string> runnable = runnable_implementations();
    for (auto it = runnable.rbegin(); it != runnable.rend(); ++it) {
      if (*it != "SCALAR" && *it != "EMU128" && *it != "SSSE3") wanted.push_back(*it);
    }
    if (xsimd) wanted.emplace_back(kXsimdTarget);
  }
  std::vector<std::string> targets{std::string(kBaseline)};
  for (const std::string& name : wanted) {
    try {
      // The engine knows the names (any case) and what runs here.
      const std::string target = Engine(Mode::exact, name, 1).target();
      if (std::ranges::find(targets, target) == targets.end()) targets.push_back(target);
    } catch (const UsageError&) {
      std::printf("skipped: target %s does not run here\n", name.c_str());
    }
  }
  return targets;
}


double parse_seconds(std::string_view option, std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(v >= 0))
    throw UsageError(std::string(option) + " needs seconds, not '" + std::string(text) + "'");
  return v;
}


Measurement measure(const std::string& workload, const cli::Batch& batch, const cli::Engine& engine,
                    double min_time) {
  using Clock = std::chrono::steady_clock;
  const std::size_t n = batch.size();
  cli::Answers answers;
  // A first pass warms caches and threads, and gives the stage counts.
  const BatchStats stats = engine.decide(batch, 0, n, answers);
  double seconds = 0;
  std::uint64_t passes = 0;
  while (seconds < min_time) {
    const Clock::time_point start = Clock::now();
    engine.decide(batch, 0, n, answers);
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
    ++passes;
  }
  return {.workload = workload,
          .model = engine.model(),
          .mode = engine.mode(),
          .target = engine.target(),
          .threads = engine.threads(),
          .queries = n,
          .rate = static_cast<double>(passes * n) / seconds,
          .ratio = 0,
          .stats = stats};
}

}  // namespace simdccd::bench
