#include "step_run.hpp"

#include <mutex>
#include <stdexcept>

#include "progress.hpp"
#include "query_files.hpp"

namespace simdccd::cli {

Mesh read_frames(const std::filesystem::path& frame0, const std::filesystem::path& frame1) {
  try {
    return read_mesh(frame0, frame1);
  } catch (const std::invalid_argument& e) {  // frames of different meshes
    throw InputError(e.what());
  }
}

StepResult run_step_with_progress(const Mesh& mesh, StepOptions options) {
  Progress progress;
  progress.set_stage(std::string(to_string(options.model)) + " candidates");
  std::mutex progress_lock;
  options.on_batch = [&](std::size_t n) {
    const std::lock_guard<std::mutex> lock(progress_lock);
    progress.add(n);
  };
  StepResult r = ccd_step(mesh, options);
  progress.clear();
  progress.finish();
  return r;
}

}  // namespace simdccd::cli
