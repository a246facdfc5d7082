#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

namespace simdccd::cli {
namespace {

using ull = unsigned long long;

std::string plural(std::uint64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

struct Cell {
  const char* header;
  int width;
  std::string text;
};

/// The counting columns of a table row, in order. `has_truth` false: "-" in
/// the truth columns. With a default Tally, the headers alone are what count.
std::vector<Cell> tally_cells(const RunInfo& run, const Tally& t, bool has_truth) {
  const auto num = [](std::uint64_t n) { return std::to_string(n); };
  const auto truth = [&](std::uint64_t n) { return has_truth ? num(n) : "-"; };
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f", t.seconds);
  const bool lin = run.truth_informational();
  std::vector<Cell> cells{{"queries", 9, num(t.queries)}};
  if (run.truth) cells.push_back({lin ? "lin_truth" : "truth_pos", 9, truth(t.truth_positives)});
  cells.push_back({"positives", 9, num(t.positives)});
  if (run.parity()) {
    cells.push_back({"odd", 8, num(t.odd)});
    cells.push_back({"even", 8, num(t.even)});
  }
  if (run.truth) {
    cells.push_back({lin ? "lin_FN" : "FN", 6, truth(t.false_negatives)});
    cells.push_back({lin ? "lin_FP" : "FP", 6, truth(t.false_positives)});
  }
  cells.push_back({"invalid", 7, num(t.invalid)});
  cells.push_back({"uncertain", 9, num(t.stats.uncertain)});
  if (run.verify) {
    cells.push_back({"oracle_FN", 9, num(t.oracle_false_negatives)});
    cells.push_back({"oracle_FP", 9, num(t.oracle_false_positives)});
    cells.push_back({"late_toi", 8, num(t.oracle_late_toi)});
    char gap[16];
    std::snprintf(gap, sizeof gap, "%.2g", t.oracle_max_toi_gap);
    cells.push_back({"toi_gap", 8, gap});
  }
  cells.push_back({"seconds", 9, seconds});
  cells.push_back({"queries/s", 9, format_rate(t.queries_per_second())});
  return cells;
}

void print_cells(const std::vector<Cell>& cells, bool headers) {
  for (const Cell& c : cells) std::printf(" %*s", c.width, headers ? c.header : c.text.c_str());
}

/// The table's first column, its counting columns, and optionally a label after them.
void print_row(const RunInfo& run, std::string_view first, const Tally* t, bool has_truth,
               std::string_view last) {
  std::printf("%-5.*s", int(first.size()), first.data());
  print_cells(tally_cells(run, t ? *t : Tally{}, has_truth), t == nullptr);
  std::printf("%s%.*s\n", last.empty() ? "" : "  ", int(last.size()), last.data());
}

JsonObject json_of(const RunInfo& run, const Tally& t, JsonObject j = {}) {
  // With the space-time model the files' (linear) truth only informs: other keys.
  const std::string truth_prefix = run.truth_informational() ? "linear_truth_" : "";
  j.add("mode", to_string(run.engine.mode()))
      .add("model", to_string(run.engine.model()));
  if (is_rigid(run.engine.model())) j.add_precise("expel", run.engine.expel());
  if (run.engine.model() == Model::linear) j.add_precise("min_distance", run.engine.min_distance());
  j.add("target", run.engine.target())
      .add("threads", std::uint64_t(run.engine.threads()))
      .add("queries", t.queries);
  if (run.truth) {
    j.add(run.truth_informational() ? "linear_truth_positives" : "truth_positives",
          t.truth_positives);
  }
  j.add("positives", t.positives);
  if (run.parity()) j.add("odd", t.odd).add("even", t.even);
  if (run.truth) {
    j.add(truth_prefix + "false_negatives", t.false_negatives)
        .add(truth_prefix + "false_positives", t.false_positives);
  }
  j.add("invalid", t.invalid).add("uncertain", t.stats.uncertain);
  if (run.verify) {
    j.add("oracle_false_negatives", t.oracle_false_negatives)
        .add("oracle_false_positives", t.oracle_false_positives)
        .add("oracle_late_toi", t.oracle_late_toi)
        .add_precise("oracle_max_toi_gap", t.oracle_max_toi_gap);
  }
  if (run.truth) j.add("rounded", t.rounded);
  return j.add("seconds", t.seconds).add("queries_per_second", t.queries_per_second());
}

// What the totals add after the counts: the oracle check and throughput.
std::string verify_and_rate(const RunInfo& run, const Tally& t) {
  std::string s;
  if (run.verify) {
    s += ", oracle disagreements: " + std::to_string(t.oracle_false_negatives) +
         " false negatives, " + std::to_string(t.oracle_false_positives) + " false positives";
    char toi[96];
    std::snprintf(toi, sizeof toi, "; tois: %llu later than the oracle's, at most %.2g below it",
                  static_cast<unsigned long long>(t.oracle_late_toi), t.oracle_max_toi_gap);
    s += toi;
  }
  char rate[96];
  std::snprintf(rate, sizeof rate, "; %.3f s in CCD calls, %s queries/s", t.seconds,
                format_rate(t.queries_per_second()).c_str());
  return s + rate;
}

}  // namespace

JsonObject& JsonObject::add(std::string_view k, std::string_view value) {
  // Only fixed names (modes, types, targets) are printed, so no escaping is needed.
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

JsonObject& JsonObject::add_precise(std::string_view k, double value) {
  key(k);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  text_ += std::isfinite(value) ? buf : "null";
  return *this;
}

void JsonObject::key(std::string_view k) {
  text_ += text_.empty() ? "{\"" : ", \"";
  text_ += k;
  text_ += "\": ";
}

void JsonObject::print() const { std::printf("%s}\n", text_.c_str()); }

std::string RunInfo::describe() const {
  const Model model = engine.model();
  const bool linear = model == Model::linear;
  const std::string verified = linear                     ? ", verified by the oracle"
                               : model == Model::spacetime ? ", verified by the space-time oracle"
                                                           : ", verified by the rigid oracle";
  char extra[64] = "";
  if (engine.expel() != 0) std::snprintf(extra, sizeof extra, ", expel %g", engine.expel());
  if (engine.min_distance() != 0) std::snprintf(extra, sizeof extra, ", min_distance %g", engine.min_distance());
  return "mode " + std::string(to_string(engine.mode())) +
         (linear ? "" : ", model " + std::string(to_string(model))) + extra + ", target " +
         engine.target() + ", " + plural(engine.threads(), "thread") + (verify ? verified : "");
}

std::string format_rate(double r) {
  char buf[32];
  if (r >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.1fM", r / 1e6);
  } else if (r >= 1e3) {
    std::snprintf(buf, sizeof buf, "%.1fk", r / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", r);
  }
  return buf;
}

void print_check_header(const RunInfo& run, std::size_t files) {
  std::printf("simdccd check: %s, %s\n", plural(files, "file").c_str(), run.describe().c_str());
  print_row(run, "type", nullptr, true, "file");
}

void print_check_row(const RunInfo& run, std::string_view label, QueryType type, const Tally& tally,
                     bool has_truth) {
  print_row(run, to_string(type), &tally, has_truth,
            has_truth ? label : std::string(label) + "  (no truth: not checked)");
}

void print_check_total(const RunInfo& run, const Tally& t, std::size_t files,
                       std::size_t files_without_truth) {
  if (run.truth_informational()) {
    std::printf(
        "total: %s, %llu queries, %llu positives, %llu invalid, %llu uncertain%s\n"
        "linear truth (information only, not judged): %llu truth positives; the %s model's "
        "answers differ on %llu linear hits (lin_FN) and %llu linear misses (lin_FP)\n",
        plural(files, "file").c_str(), ull(t.queries), ull(t.positives), ull(t.invalid),
        ull(t.stats.uncertain), verify_and_rate(run, t).c_str(), ull(t.truth_positives),
        std::string(to_string(run.engine.model())).c_str(), ull(t.false_negatives),
        ull(t.false_positives));
    if (!run.verify) {
      std::printf(
          "note: the files' truth is of the linear model, so it judges nothing here; --verify "
          "checks the answers against the space-time oracle\n");
    }
  } else {
    std::printf(
        "total: %s, %llu queries, %llu truth positives, %llu positives, %llu false negatives, "
        "%llu false positives, %llu invalid, %llu uncertain%s\n",
        plural(files, "file").c_str(), ull(t.queries), ull(t.truth_positives), ull(t.positives),
        ull(t.false_negatives), ull(t.false_positives), ull(t.invalid), ull(t.stats.uncertain),
        verify_and_rate(run, t).c_str());
  }
  if (files_without_truth != 0) {
    std::printf(
        "note: %s without truth (marked -): their queries count in all but truth positives, "
        "false negatives and false positives\n",
        plural(files_without_truth, "file").c_str());
  }
  if (t.rounded != 0 && run.engine.mode() != Mode::oracle) {
    std::printf(
        "note: %llu queries are not exact in doubles: the kernel decided their rounding, whose "
        "answer may differ from the file's truth (--verify judges the rounded query)\n",
        ull(t.rounded));
  }
}

void print_check_json(const RunInfo& run, const Tally& total) { json_of(run, total).print(); }

void print_random_header(const RunInfo& run, std::span<const QueryType> types, std::uint64_t count,
                         std::uint64_t seed) {
  std::string queries;
  for (const QueryType type : types) {
    queries += (queries.empty() ? "" : " and ") + std::to_string(count) + " " +
               std::string(to_string(type));
  }
  std::printf("random workload: %s queries, seed %llu, %s\n", queries.c_str(), ull(seed),
              run.describe().c_str());
  print_row(run, "type", nullptr, true, "");
}

void print_random_row(const RunInfo& run, QueryType type, const Tally& tally) {
  print_row(run, to_string(type), &tally, true, "");
}

void print_random_total(const RunInfo& run, const Tally& t) {
  std::printf("total: %llu queries, %llu positives, %llu invalid, %llu uncertain%s\n",
              ull(t.queries), ull(t.positives), ull(t.invalid), ull(t.stats.uncertain),
              verify_and_rate(run, t).c_str());
}

void print_random_json(const RunInfo& run, QueryType type, const Tally& tally) {
  json_of(run, tally, JsonObject().add("type", to_string(type))).print();
}

}  // namespace simdccd::cli
