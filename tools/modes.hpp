// The --mode values the tool offers, with their one-line summaries.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "simdccd/options.hpp"

namespace simdccd::cli {

struct ModeEntry {
  Mode mode;
  std::string_view summary;  ///< one line for --help
};

/// Every mode, the default (exact) first.
std::span<const ModeEntry> available_modes();

/// `--mode NAME`, the default for nullopt; UsageError for an unknown name.
Mode parse_mode_option(std::optional<std::string_view> name);

}  // namespace simdccd::cli
