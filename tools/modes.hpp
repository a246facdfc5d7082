// The --mode values the tool offers, with their one-line summaries, and the
// --model values (the motion model: linear trajectories or space-time).
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "simdccd/options.hpp"
#include "simdccd/rigid_motion.hpp"

namespace simdccd::cli {

struct ModeEntry {
  Mode mode;
  std::string_view summary;  ///< one line for --help
};

/// Every mode, the default (exact) first.
std::span<const ModeEntry> available_modes();

/// `--mode NAME`, the default for nullopt; UsageError for an unknown name.
Mode parse_mode_option(std::optional<std::string_view> name);

/// The motion model the queries are decided in.
enum class Model {
  linear,       ///< vertices on straight lines at constant speed (linear_ccd.hpp, exact_oracle.hpp)
  spacetime,    ///< Brochu & Bridson's space-time simplices (spacetime_ccd.hpp, spacetime_oracle.hpp)
  translation,  ///< one primitive translates, the other is still (rigid_ccd.hpp, rigid_oracle.hpp)
  rotation,     ///< one primitive rotates about an axis, the other is still (rigid_ccd.hpp)
};

/// "linear", "spacetime", "translation", "rotation".
std::string_view to_string(Model model);

/// The rigid models: their queries are RigidQuery, their files the rigid CSV format.
inline bool is_rigid(Model model) { return model == Model::translation || model == Model::rotation; }
/// The rigid motion of a rigid model.
RigidMotionType motion_of(Model model);

/// `--model NAME`, linear for nullopt; UsageError for an unknown name.
Model parse_model_option(std::optional<std::string_view> name);

}  // namespace simdccd::cli
