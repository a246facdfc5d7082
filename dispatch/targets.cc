// PLACEHOLDER until Highway dispatch lands: only the "double" implementation.
#include "simdccd/targets.hpp"

#include "linear/scalar_tile.hpp"
#include "linear/tile_dispatch.hpp"

namespace simdccd {

std::vector<std::string> compiled_implementations() { return {"double"}; }
std::vector<std::string> runnable_implementations() { return {"double"}; }
std::string active_implementation() { return "double"; }
bool set_implementation(std::string_view name) { return name == "double" || name == "auto"; }

namespace linear {
TileFunction active_tile_function(QueryType type) { return scalar_tile_function(type); }
}  // namespace linear

}  // namespace simdccd
