#include "modes.hpp"

#include <array>
#include <string>

#include "args.hpp"

namespace simdccd::cli {
namespace {

constexpr std::array kModes{
    ModeEntry{Mode::exact, "SIMD kernel; the oracle decides what it cannot certify"},
    ModeEntry{Mode::conservative, "SIMD kernel; what it cannot certify counts as a hit"},
    ModeEntry{Mode::oracle, "the exact rational oracle decides every query (slow)"},
};

}  // namespace

std::span<const ModeEntry> available_modes() { return kModes; }

Mode parse_mode_option(std::optional<std::string_view> name) {
  if (!name) return kModes.front().mode;
  if (const std::optional<Mode> mode = parse_mode(*name)) return *mode;
  throw UsageError("--mode must be exact, conservative or oracle, not '" + std::string(*name) +
                   "'");
}

constexpr std::array kModels{Model::linear, Model::spacetime, Model::translation, Model::rotation};

std::string_view to_string(Model model) {
  switch (model) {
    case Model::linear: return "linear";
    case Model::spacetime: return "spacetime";
    case Model::translation: return "translation";
    case Model::rotation: return "rotation";
  }
  return "?";
}

RigidMotionType motion_of(Model model) {
  return model == Model::rotation ? RigidMotionType::rotation : RigidMotionType::translation;
}

Model parse_model_option(std::optional<std::string_view> name) {
  if (!name) return Model::linear;
  for (const Model m : kModels) {
    if (*name == to_string(m)) return m;
  }
  throw UsageError("--model must be linear, spacetime, translation or rotation, not '" + std::string(*name) + "'");
}

}  // namespace simdccd::cli
