// parse_query_csv on arbitrary bytes. A ParseError is the only accepted
// failure; anything else escapes and crashes. A parsed file must be canonical
// and read back the same once written out again.
#include <cstdint>
#include <string>
#include <string_view>

#include "rational_checks.hpp"
#include "simdccd/io/parse_error.hpp"
#include "simdccd/io/query_csv.hpp"

namespace {

using fuzz_checks::canonical;
using fuzz_checks::require;

std::string write_csv(const simdccd::QueryFile& f) {
  std::string out;
  for (std::size_t i = 0; i < f.queries.size(); ++i) {
    for (const simdccd::RationalVec3& p : f.queries[i].points) {
      for (const mpq_class* c : {&p.x, &p.y, &p.z}) {
        out += c->get_num().get_str();
        out += ',';
        out += c->get_den().get_str();
        out += ',';
      }
      if (f.truth.empty()) {
        out.back() = '\n';
      } else {
        out += f.truth[i] ? "1\n" : "0\n";
      }
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  simdccd::QueryFile f;
  try {
    f = simdccd::parse_query_csv(text, "fuzz.csv");
  } catch (const simdccd::ParseError&) {
    return 0;
  }
  require(f.truth.empty() || f.truth.size() == f.queries.size());
  for (const std::uint8_t t : f.truth) require(t <= 1);
  for (const simdccd::RationalQuery& q : f.queries) {
    for (const simdccd::RationalVec3& p : q.points) require(canonical(p));
  }
  const simdccd::QueryFile again = simdccd::parse_query_csv(write_csv(f), "written.csv");
  require(again.truth == f.truth && again.queries.size() == f.queries.size());
  for (std::size_t i = 0; i < f.queries.size(); ++i) {
    for (int k = 0; k < 8; ++k) {
      const simdccd::RationalVec3 &a = f.queries[i].points[k], &b = again.queries[i].points[k];
      require(a.x == b.x && a.y == b.y && a.z == b.z);
    }
  }
  return 0;
}
