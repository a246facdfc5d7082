// How `check` and `random` print their counts: aligned text tables or JSON.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "simdccd/options.hpp"
#include "simdccd/query.hpp"
#include "tally.hpp"

namespace simdccd::cli {

/// One flat JSON object of numbers and plain strings, printed on one line.
class JsonObject {
 public:
  JsonObject& add(std::string_view key, std::string_view value);
  JsonObject& add(std::string_view key, std::uint64_t value);
  JsonObject& add(std::string_view key, double value);
  void print() const;

 private:
  void key(std::string_view key);
  std::string text_;
};

// check: a title and one row per file, then the total.
void print_check_header(Mode mode, std::size_t files);
/// `has_truth` false: the truth, false negative and false positive columns show "-".
void print_check_row(std::string_view label, QueryType type, const Tally& tally, bool has_truth);
/// Files without truth are counted in `total` except for truth, FN and FP.
void print_check_total(const Tally& total, std::size_t files, std::size_t files_without_truth);
void print_check_json(const Tally& total, Mode mode);

// random: a title and one row, or one JSON object, per query type.
void print_random_header(Mode mode, std::span<const QueryType> types, std::uint64_t count,
                         std::uint64_t seed);
void print_random_row(QueryType type, const Tally& tally);
void print_random_json(QueryType type, const Tally& tally, Mode mode);

}  // namespace simdccd::cli
