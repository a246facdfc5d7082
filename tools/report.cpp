#include "report.hpp"

#include <cstdio>

namespace simdccd::cli {
namespace {

using ull = unsigned long long;

// A count, or "-" where the file has no truth to count against.
std::string count_or_dash(std::uint64_t n, bool known) { return known ? std::to_string(n) : "-"; }

std::string plural(std::uint64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

JsonObject& JsonObject::add(std::string_view k, std::string_view value) {
  // Only fixed names (modes, types) are printed, so no escaping is needed.
  key(k);
  text_ += '"';
  text_ += value;
  text_ += '"';
  return *this;
}

JsonObject& JsonObject::add(std::string_view k, std::uint64_t value) {
  key(k);
  text_ += std::to_string(value);
  return *this;
}

JsonObject& JsonObject::add(std::string_view k, double value) {
  key(k);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", value);
  text_ += buf;
  return *this;
}

void JsonObject::key(std::string_view k) {
  text_ += text_.empty() ? "{\"" : ", \"";
  text_ += k;
  text_ += "\": ";
}

void JsonObject::print() const { std::printf("%s}\n", text_.c_str()); }

void print_check_header(Mode mode, std::size_t files) {
  std::printf("simdccd check: mode %s, %s\n", std::string(to_string(mode)).c_str(),
              plural(files, "file").c_str());
  std::printf("%-5s %9s %9s %9s %7s %7s %7s %9s  %s\n", "type", "queries", "truth_pos", "positives",
              "FN", "FP", "invalid", "seconds", "file");
}

void print_check_row(std::string_view label, QueryType type, const Tally& t, bool has_truth) {
  std::printf("%-5s %9llu %9s %9llu %7s %7s %7llu %9.3f  %.*s%s\n",
              std::string(to_string(type)).c_str(), ull(t.queries),
              count_or_dash(t.truth_positives, has_truth).c_str(), ull(t.positives),
              count_or_dash(t.false_negatives, has_truth).c_str(),
              count_or_dash(t.false_positives, has_truth).c_str(), ull(t.invalid), t.seconds,
              int(label.size()), label.data(), has_truth ? "" : "  (no truth: not checked)");
}

void print_check_total(const Tally& t, std::size_t files, std::size_t files_without_truth) {
  std::printf(
      "total: %s, %llu queries, %llu truth positives, %llu positives, %llu false negatives, "
      "%llu false positives, %llu invalid, %.3f s in CCD calls (%.2f us/query)\n",
      plural(files, "file").c_str(), ull(t.queries), ull(t.truth_positives), ull(t.positives),
      ull(t.false_negatives), ull(t.false_positives), ull(t.invalid), t.seconds,
      t.micros_per_query());
  if (files_without_truth != 0) {
    std::printf(
        "note: %s without truth (marked -): their queries count in all but truth positives, "
        "false negatives and false positives\n",
        plural(files_without_truth, "file").c_str());
  }
}

void print_check_json(const Tally& t, Mode mode) {
  JsonObject()
      .add("mode", to_string(mode))
      .add("queries", t.queries)
      .add("truth_positives", t.truth_positives)
      .add("positives", t.positives)
      .add("false_negatives", t.false_negatives)
      .add("false_positives", t.false_positives)
      .add("invalid", t.invalid)
      .add("seconds", t.seconds)
      .print();
}

void print_random_header(Mode mode, std::span<const QueryType> types, std::uint64_t count,
                         std::uint64_t seed) {
  std::string queries;
  for (const QueryType type : types) {
    queries += (queries.empty() ? "" : " and ") + std::to_string(count) + " " +
               std::string(to_string(type));
  }
  std::printf("random workload: %s queries, seed %llu, mode %s\n", queries.c_str(), ull(seed),
              std::string(to_string(mode)).c_str());
  std::printf("%-5s %9s %9s %9s %9s %7s %9s %9s\n", "type", "queries", "positives", "odd", "even",
              "invalid", "seconds", "us/query");
}

void print_random_row(QueryType type, const Tally& t) {
  std::printf("%-5s %9llu %9llu %9llu %9llu %7llu %9.3f %9.2f\n",
              std::string(to_string(type)).c_str(), ull(t.queries), ull(t.positives), ull(t.odd),
              ull(t.even), ull(t.invalid), t.seconds, t.micros_per_query());
}

void print_random_json(QueryType type, const Tally& t, Mode mode) {
  JsonObject()
      .add("type", to_string(type))
      .add("mode", to_string(mode))
      .add("queries", t.queries)
      .add("positives", t.positives)
      .add("odd", t.odd)
      .add("even", t.even)
      .add("invalid", t.invalid)
      .add("seconds", t.seconds)
      .print();
}

}  // namespace simdccd::cli
