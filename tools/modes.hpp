// Which function decides a batch of queries in each --mode.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "simdccd/options.hpp"
#include "simdccd/query.hpp"
#include "simdccd/rational_query.hpp"
#include "simdccd/result.hpp"

namespace simdccd::cli {

/// Decides queries[i] into results[i] (same sizes), all of one type.
using DecideBatch = void (*)(QueryType type, std::span<const RationalQuery> queries,
                             std::span<Result> results);

struct ModeEntry {
  Mode mode;
  DecideBatch decide;
  std::string_view summary;  ///< one line for --help
};

/// The modes the tool runs, default first. New kernels add a row here and
/// every command and the benchmark pick them up.
std::span<const ModeEntry> available_modes();

/// The entry for `--mode NAME`, the default (first) one for nullopt;
/// UsageError when NAME is unknown or not available yet.
const ModeEntry& mode_entry(std::optional<std::string_view> name);

}  // namespace simdccd::cli
