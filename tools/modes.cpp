#include "modes.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "args.hpp"
#include "simdccd/exact_oracle.hpp"

namespace simdccd::cli {
namespace {

void decide_oracle(QueryType type, std::span<const RationalQuery> queries,
                   std::span<Result> results) {
  for (std::size_t i = 0; i < queries.size(); ++i) results[i] = exact_ccd(type, queries[i]);
}

constexpr std::array kModes{
    ModeEntry{Mode::oracle, &decide_oracle, "every query decided by the exact rational oracle"},
};

}  // namespace

std::span<const ModeEntry> available_modes() { return kModes; }

const ModeEntry& mode_entry(std::optional<std::string_view> name) {
  if (!name) return kModes.front();
  const auto it =
      std::ranges::find_if(kModes, [&](const ModeEntry& e) { return to_string(e.mode) == *name; });
  if (it != kModes.end()) return *it;
  std::string names;
  for (const ModeEntry& e : kModes)
    names += (names.empty() ? "" : ", ") + std::string(to_string(e.mode));
  const std::string why = parse_mode(*name) ? "is not available yet" : "is unknown";
  throw UsageError("mode '" + std::string(*name) + "' " + why + " (available: " + names + ")");
}

}  // namespace simdccd::cli
