// Reader of binary PLY triangle meshes (the simulation frames).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "simdccd/query.hpp"

namespace simdccd {

struct PlyMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::int32_t, 3>> faces;  ///< vertex indices in file order
};

/// Accepts `binary_little_endian` and `binary_big_endian` 1.0; `comment` and
/// `obj_info` lines; `element vertex` whose properties include x, y, z of type
/// float or double (any other scalar properties are skipped); `element face`
/// with one list property `vertex_indices` (or `vertex_index`) whose count
/// type is an unsigned or signed char/short/int and whose item type is an
/// integer type; every face must be a triangle with indices in range. Other
/// elements are rejected. Coordinates must be finite.
/// Throws `ParseError`: header problems name the header line, body problems
/// the byte offset (a body shorter or longer than the header declares, a face
/// that is not a triangle, an index out of range, a non-finite coordinate).
PlyMesh parse_ply(std::string_view bytes, const std::string& file_name);
/// Reads the file and parses it; an unreadable file is a `ParseError` at byte 0.
PlyMesh read_ply(const std::filesystem::path& path);

}  // namespace simdccd
