// The oracle against the exact truth of the bundled data sets: zero mismatches.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "simdccd/exact_oracle.hpp"
#include "simdccd/io/pair_json.hpp"
#include "simdccd/io/query_csv.hpp"
#include "test_data.hpp"

namespace simdccd {
namespace {

namespace fs = std::filesystem;

using test::csv_files_under;

struct Tally {
  int queries = 0, positives = 0, mismatches = 0;
};

Tally judge(QueryType type, const QueryFile& file, const std::vector<std::uint8_t>& truth) {
  REQUIRE(truth.size() == file.queries.size());
  Tally t;
  for (std::size_t i = 0; i < file.queries.size(); ++i) {
    const Result r = exact_ccd(type, file.queries[i]);
    ++t.queries;
    t.positives += truth[i];
    if (r.hit != static_cast<bool>(truth[i])) {
      ++t.mismatches;
      MESSAGE("query ", i, ": truth ", int(truth[i]), ", oracle ", r.hit);
    }
  }
  return t;
}

TEST_CASE("oracle.data.sample-queries: every query equals the truth") {
  const auto files = csv_files_under(fs::path(SIMDCCD_TEST_DATA) / "sample-queries");
  REQUIRE(files.size() == 22);
  Tally total;
  for (const fs::path& path : files) {
    CAPTURE(path);
    const QueryType type = path.parent_path().filename() == "vertex-face" ? QueryType::vertex_face
                                                                            : QueryType::edge_edge;
    const QueryFile file = read_query_csv(path);
    const Tally t = judge(type, file, file.truth);
    CHECK(t.mismatches == 0);
    total.queries += t.queries;
    total.positives += t.positives;
  }
  // Counts of the data set (its README's awk command), so no file went unread.
  CHECK(total.queries == 4884);
  CHECK(total.positives == 225);
}

TEST_CASE("oracle.data.simulation: every listed query equals mma_bool") {
  const fs::path root = fs::path(SIMDCCD_TEST_DATA) / "simulation";
  int files = 0;
  for (const fs::path& path : csv_files_under(root)) {
    CAPTURE(path);
    const std::string stem = path.stem().string();  // e.g. 227vf
    const QueryType type = stem.ends_with("vf") ? QueryType::vertex_face : QueryType::edge_edge;
    const fs::path truth = path.parent_path().parent_path() / "mma_bool" / (stem + "_mma_bool.json");
    const Tally t = judge(type, read_query_csv(path), read_bool_list_json(truth));
    CHECK(t.mismatches == 0);
    ++files;
  }
  CHECK(files == 5);
}

}  // namespace
}  // namespace simdccd
