#include "bar_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace simdccd::bench {
namespace {

// Colour-blind-safe palette (Okabe and Ito).
constexpr const char* kColors[] = {"#999999", "#E69F00", "#56B4E9", "#009E73",
                                   "#0072B2", "#D55E00", "#CC79A7", "#F0E442"};

constexpr double kLeft = 70, kRight = 20, kTop = 60, kPanelHeight = 260, kPanelGap = 70,
                 kMinGroupWidth = 110,  // room for a label line such as "simulation vf"
    kGroupGap = 0.25;                   // of a group's width

std::string escaped(const std::string& text) {
  std::string s;
  for (const char c : text) {
    if (c == '<')
      s += "&lt;";
    else if (c == '>')
      s += "&gt;";
    else if (c == '&')
      s += "&amp;";
    else
      s += c;
  }
  return s;
}

std::string short_number(double v) {
  char buf[32];
  if (v >= 1e9)
    std::snprintf(buf, sizeof buf, "%gG", v / 1e9);
  else if (v >= 1e6)
    std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
  else if (v >= 1e3)
    std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// Decades that enclose every positive value, at least one, with room for
/// the smallest bar to show (a bar starts at the bottom decade).
std::pair<int, int> decades(const BarChart& chart) {
  double lo = INFINITY, hi = 0;
  for (const auto& panel : chart.panels)
    for (const auto& group : panel.values)
      for (const double v : group)
        if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi == 0) return {0, 1};
  const int a = static_cast<int>(std::floor(std::log10(lo / 2)));
  return {a, std::max(a + 1, static_cast<int>(std::ceil(std::log10(hi))))};
}

}  // namespace

std::string to_svg(const BarChart& chart) {
  const auto [lo, hi] = decades(chart);
  const double plot_width = std::max(890.0, kMinGroupWidth * chart.groups.size());
  const double width = kLeft + plot_width + kRight;
  const double height = kTop + chart.panels.size() * (kPanelHeight + kPanelGap);
  std::ostringstream svg;
  svg << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << width << R"(" height=")" << height
      << R"(" font-family="sans-serif" font-size="12">)" << '\n'
      << R"(<rect width="100%" height="100%" fill="white"/>)" << '\n'
      << R"(<text x=")" << kLeft << R"(" y="20" font-size="15" font-weight="bold">)"
      << escaped(chart.title) << "</text>\n";
  // Legend: one swatch per series, in a row under the title.
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const double x = kLeft + 110.0 * s;
    svg << R"(<rect x=")" << x << R"(" y="32" width="12" height="12" fill=")"
        << kColors[s % std::size(kColors)] << R"("/><text x=")" << x + 16 << R"(" y="43">)"
        << escaped(chart.series[s]) << "</text>\n";
  }
  const double group_width = plot_width / std::max<std::size_t>(1, chart.groups.size());
  const double bar_width =
      group_width * (1 - kGroupGap) / std::max<std::size_t>(1, chart.series.size());
  for (std::size_t p = 0; p < chart.panels.size(); ++p) {
    const BarChart::Panel& panel = chart.panels[p];
    const double top = kTop + p * (kPanelHeight + kPanelGap) + 20;
    const double bottom = top + kPanelHeight - 20;
    const auto y_of = [&](double v) {
      return bottom - (std::log10(v) - lo) / (hi - lo) * (bottom - top);
    };
    svg << R"(<text x=")" << kLeft << R"(" y=")" << top - 8 << R"(" font-weight="bold">)"
        << escaped(panel.name) << " (" << escaped(chart.unit) << ", log scale)</text>\n";
    // Grid: a line and a label per power of ten.
    for (int d = lo; d <= hi; ++d) {
      const double y = y_of(std::pow(10.0, d));
      svg << R"(<line x1=")" << kLeft << R"(" x2=")" << kLeft + plot_width << R"(" y1=")" << y
          << R"(" y2=")" << y << R"(" stroke="#dddddd"/><text x=")" << kLeft - 6 << R"(" y=")"
          << y + 4 << R"(" text-anchor="end">)" << short_number(std::pow(10.0, d)) << "</text>\n";
    }
    for (std::size_t g = 0; g < chart.groups.size(); ++g) {
      const double x0 = kLeft + g * group_width + group_width * kGroupGap / 2;
      for (std::size_t s = 0; s < chart.series.size() && s < panel.values[g].size(); ++s) {
        const double v = panel.values[g][s];
        if (v <= 0) continue;
        const double y = y_of(v);
        svg << R"(<rect x=")" << x0 + s * bar_width << R"(" y=")" << y << R"(" width=")"
            << bar_width * 0.9 << R"(" height=")" << bottom - y << R"(" fill=")"
            << kColors[s % std::size(kColors)] << R"("><title>)" << escaped(chart.series[s]) << ": "
            << short_number(std::round(v / 1e3) * 1e3) << "</title></rect>\n";
      }
      // The group's label under the axis, one text line per "\n".
      std::istringstream lines(chart.groups[g]);
      double y = bottom + 15;
      for (std::string line; std::getline(lines, line); y += 14) {
        svg << R"(<text x=")" << x0 + group_width * (1 - kGroupGap) / 2 << R"(" y=")" << y
            << R"(" text-anchor="middle">)" << escaped(line) << "</text>\n";
      }
    }
    svg << R"(<line x1=")" << kLeft << R"(" x2=")" << kLeft + plot_width << R"(" y1=")" << bottom
        << R"(" y2=")" << bottom << R"(" stroke="black"/>)" << '\n';
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace simdccd::bench
