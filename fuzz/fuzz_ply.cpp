// parse_ply on arbitrary bytes. A ParseError is the only accepted failure;
// anything else escapes and crashes. A parsed mesh must keep the reader's
// promises: finite coordinates, face indices in range.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "simdccd/io/parse_error.hpp"
#include "simdccd/io/ply.hpp"

namespace {
void require(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  simdccd::PlyMesh mesh;
  try {
    mesh = simdccd::parse_ply(bytes, "fuzz.ply");
  } catch (const simdccd::ParseError&) {
    return 0;
  }
  for (const simdccd::Vec3& v : mesh.vertices) require(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z));
  for (const auto& face : mesh.faces) {
    for (const std::int32_t i : face) require(i >= 0 && static_cast<std::size_t>(i) < mesh.vertices.size());
  }
  return 0;
}
