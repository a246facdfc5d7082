#include "kernel_report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "engine.hpp"
#include "report.hpp"
#include "xsimd_entry.hpp"

namespace simdccd::bench {
using cli::format_rate;
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

}  // namespace simdccd::bench
