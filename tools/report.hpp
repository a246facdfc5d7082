// How `check` and `random` print their counts: aligned text tables or JSON.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine.hpp"
#include "simdccd/query.hpp"
#include "tally.hpp"

namespace simdccd::cli {

/// One flat JSON object of numbers and plain strings, printed on one line.
class JsonObject {
 public:
  JsonObject& add(std::string_view key, std::string_view value);
  JsonObject& add(std::string_view key, std::uint64_t value);
  JsonObject& add(std::string_view key, double value);  ///< 6 decimals: seconds, rates
  /// Round-trip precision; null when not finite (JSON has no infinity).
  JsonObject& add_precise(std::string_view key, double value);
  void print() const;

 private:
  void key(std::string_view key);
  std::string text_;
};

/// How a run was made, and so which columns its tables show.
struct RunInfo {
  const Engine& engine;
  bool truth;   ///< check: truth, FN and FP columns
  bool verify;  ///< --verify: oracle disagreement columns
  /// Odd and even columns: the contact-root parity of the linear oracle, or
  /// of the rigid oracle for plain contact.
  bool parity() const {
    return engine.mode() == Mode::oracle &&
           ((engine.model() == Model::linear && engine.min_distance() == 0) ||
            (is_rigid(engine.model()) && engine.expel() == 0));
  }
  /// The deformable files' truth is of contact in the linear model: with the
  /// space-time model or a minimum separation, the truth columns only inform
  /// (labelled lin_*; check still fails on a lin_FN of the linear model,
  /// since a contact is within any distance). The rigid files' truth is of
  /// their own model.
  bool truth_informational() const {
    return engine.model() == Model::spacetime || engine.min_distance() != 0;
  }
  /// "mode exact, target AVX2, 2 threads" (", model spacetime" when not
  /// linear, ", expel E" or ", min_distance D" when not 0)
  std::string describe() const;
};

/// Queries per second, short: "52.3M", "4.1k".
std::string format_rate(double queries_per_second);

// check: a title and one row per file, then the total.
void print_check_header(const RunInfo& run, std::size_t files);
/// `has_truth` false: the truth, false negative and false positive columns show "-".
void print_check_row(const RunInfo& run, std::string_view label, QueryType type, const Tally& tally,
                     bool has_truth);
/// Files without truth are counted in `total` except for truth, FN and FP.
void print_check_total(const RunInfo& run, const Tally& total, std::size_t files,
                       std::size_t files_without_truth);
void print_check_json(const RunInfo& run, const Tally& total);

// random: a title and one row, or one JSON object, per query type; a total for both.
void print_random_header(const RunInfo& run, std::span<const QueryType> types, std::uint64_t count,
                         std::uint64_t seed);
void print_random_row(const RunInfo& run, QueryType type, const Tally& tally);
void print_random_total(const RunInfo& run, const Tally& total);
void print_random_json(const RunInfo& run, QueryType type, const Tally& tally);

}  // namespace simdccd::cli
