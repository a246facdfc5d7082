#include "step_run.hpp"

#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "progress.hpp"
#include "query_files.hpp"

namespace simdccd::cli {

Mesh read_frames(const std::filesystem::path& frame0, const std::filesystem::path& frame1) {
  for (const std::filesystem::path& frame : {frame0, frame1}) {  // a pipe or a device could block or never end
    std::error_code error;
    if (std::filesystem::exists(frame, error) && !std::filesystem::is_regular_file(frame, error)) {
      throw InputError(frame.string() + ": not a regular file");
    }
  }
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
