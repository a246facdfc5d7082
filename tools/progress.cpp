#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace simdccd::cli {

Progress::Progress(std::uint64_t total) : total_(total), terminal_(isatty(STDERR_FILENO) != 0) {}

void Progress::add(std::uint64_t queries) {
  done_ += queries;
  const Clock::time_point now = Clock::now();
  if (now < next_) return;
  next_ = now + (terminal_ ? std::chrono::milliseconds(500) : std::chrono::seconds(5));
  print(false);
}

void Progress::clear() {
  if (!on_line_) return;
  std::fputs("\r\033[K", stderr);
  on_line_ = false;
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (shown_) print(true);
}

void Progress::print(bool final) {
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(done_) / seconds : 0;
  std::string line = stage_.empty() ? std::string() : stage_ + ": ";
  line += std::to_string(done_);
  if (total_ != 0) line += "/", line += std::to_string(total_);  // not "/" + s: GCC 12 -Wrestrict
  char tail[96];
  std::snprintf(tail, sizeof tail, " queries, %.0f queries/s, %.1f s%s", rate, seconds,
                final ? ", done" : "");
  line += tail;
  clear();
  // A terminal keeps one line and rewrites it; a log gets whole lines.
  const bool keep_line = terminal_ && !final;
  std::fprintf(stderr, "%s%s", line.c_str(), keep_line ? "" : "\n");
  std::fflush(stderr);
  on_line_ = keep_line;
  shown_ = true;
}

}  // namespace simdccd::cli
