// A hand-written SVG of grouped bars on a log scale: no plotting dependency.
#pragma once

#include <string>
#include <vector>

namespace simdccd::bench {

struct BarChart {
  std::string title;
  std::string unit;                 ///< the y axis, e.g. "queries per second"
  std::vector<std::string> series;  ///< one colour each, in the legend
  std::vector<std::string> groups;  ///< x labels; "\n" splits a label in lines
  struct Panel {
    std::string name;
    /// values[group][series]; 0 or less: no bar (e.g. a target not runnable).
    std::vector<std::vector<double>> values;
  };
  std::vector<Panel> panels;  ///< stacked, sharing series, groups and scale
};

/// The chart as a standalone SVG document.
std::string to_svg(const BarChart& chart);

}  // namespace simdccd::bench
