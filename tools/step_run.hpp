// A whole step as the tool runs it (`step`, `compare-models --step`).
#pragma once

#include <filesystem>

#include "simdccd/step.hpp"

namespace simdccd::cli {

/// The mesh of two PLY frames; InputError when they are frames of different meshes.
Mesh read_frames(const std::filesystem::path& frame0, const std::filesystem::path& frame1);

/// ccd_step, its candidates counted on stderr as they stream (Progress; the
/// total is not known in advance). `options.on_batch` is replaced.
StepResult run_step_with_progress(const Mesh& mesh, StepOptions options);

}  // namespace simdccd::cli
