// How a batch of queries is decided.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace simdccd {

enum class Mode : std::uint8_t {
  conservative,  ///< uncertain queries count as hits: no false negative
  exact,         ///< uncertain queries go to the exact fallback: answers equal the oracle's
  oracle,        ///< every query decided by the exact rational oracle
};

std::string_view to_string(Mode mode);
/// "conservative", "exact" or "oracle"; nullopt for anything else.
std::optional<Mode> parse_mode(std::string_view name);

struct Options {
  /// A value cast from outside the enum makes every query of the batch
  /// invalid_input (valid_options).
  Mode mode = Mode::exact;
  /// Width of the bracket to which floating-point kernels refine a root
  /// (E_tol). A negative or NaN value makes every query of the batch
  /// invalid_input (a refinement to it would stop past the root, or never
  /// start). +infinity is valid: a hit is then certified with any toi <= t*,
  /// and the kernels stop refining at once.
  double time_tolerance = 1e-9;
  /// Minimum separation d (linear model): a query hits when its primitives
  /// come within Euclidean distance d of each other (exact_oracle.hpp). 0:
  /// contact. The space-time model takes 0 only. Any value that is not a
  /// valid_min_distance makes every query of the batch invalid_input.
  double min_distance = 0;
};

/// The largest minimum separation, as large as the coordinates (query.hpp).
inline constexpr double kMaxMinDistance = 0x1p60;

/// 0 <= d <= kMaxMinDistance (so no NaN).
inline bool valid_min_distance(double d) { return d >= 0 && d <= kMaxMinDistance; }

/// The Options every batch entry (linear, space-time, rigid) decides with:
/// a named mode, time_tolerance >= 0 (so no NaN) and a valid_min_distance.
/// Other options make every query of the batch invalid_input, never a
/// silent fallback to some mode; ccd_step throws instead (step.hpp).
inline bool valid_options(const Options& options) {
  return options.mode <= Mode::oracle && options.time_tolerance >= 0 && valid_min_distance(options.min_distance);
}

}  // namespace simdccd
