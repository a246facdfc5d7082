// Both JSON list readers on arbitrary bytes. A ParseError is the only accepted
// failure; anything else escapes and crashes. A parsed list must read back the
// same once written out again.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "simdccd/io/pair_json.hpp"
#include "simdccd/io/parse_error.hpp"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

void pairs(std::string_view text) {
  std::vector<simdccd::IdPair> list;
  try {
    list = simdccd::parse_pair_list_json(text, "fuzz.json");
  } catch (const simdccd::ParseError&) {
    return;
  }
  std::string written = "[";
  for (const simdccd::IdPair& p : list) {
    require(p[0] >= 0 && p[1] >= 0);
    written += '[';
    written += std::to_string(p[0]);
    written += ',';
    written += std::to_string(p[1]);
    written += "],";
  }
  if (!list.empty()) written.pop_back();
  require(simdccd::parse_pair_list_json(written + "]", "written.json") == list);
}

void bools(std::string_view text) {
  std::vector<std::uint8_t> list;
  try {
    list = simdccd::parse_bool_list_json(text, "fuzz.json");
  } catch (const simdccd::ParseError&) {
    return;
  }
  std::string written = "[";
  for (const std::uint8_t b : list) {
    require(b <= 1);
    written += b ? "true," : "false,";
  }
  if (!list.empty()) written.pop_back();
  require(simdccd::parse_bool_list_json(written + "]", "written.json") == list);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  pairs(text);
  bools(text);
  return 0;
}
