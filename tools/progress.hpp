// Progress of a long run, on stderr so that stdout stays clean for results.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace simdccd::cli {

/// Silent for the first 2 s, so short runs print nothing. Then, on a
/// terminal, one line rewritten in place every 0.5 s; elsewhere (logs) a new
/// line every 5 s. `finish` (or the destructor) ends it with a final line.
class Progress {
 public:
  /// `total`: queries expected, 0 when not known in advance.
  explicit Progress(std::uint64_t total = 0);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { finish(); }

  /// What is being worked on, e.g. "vf" or "file 3/22".
  void set_stage(std::string stage) { stage_ = std::move(stage); }
  /// Counts `queries` more as done; prints when due.
  void add(std::uint64_t queries);
  /// Erases the line on a terminal, so that a result can be printed to stdout.
  void clear();
  /// Prints the final state if anything was printed before.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  void print(bool final);

  std::uint64_t total_;
  std::uint64_t done_ = 0;
  std::string stage_;
  bool terminal_;
  bool shown_ = false;    // a line was printed at some point
  bool on_line_ = false;  // the terminal cursor sits after a progress line
  bool finished_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point next_ = start_ + std::chrono::seconds(2);
};

}  // namespace simdccd::cli
