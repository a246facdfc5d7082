// Readers of the simulation data set's JSON lists: candidate pairs
// (`boxes/*.json`, `[[id, id], ...]`) and their exact truth
// (`mma_bool/*.json`, `[true, false, ...]`).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace simdccd {

using IdPair = std::array<std::int64_t, 2>;

/// A JSON array of two-element arrays of non-negative integers. Whitespace is
/// allowed anywhere JSON allows it. Throws `ParseError` (file and line; the
/// message adds the column, as the data files are one long line). The read_*
/// functions report an unreadable file as a `ParseError` at line 0.
std::vector<IdPair> parse_pair_list_json(std::string_view text, const std::string& file_name);
std::vector<IdPair> read_pair_list_json(const std::filesystem::path& path);

/// A JSON array of `true`/`false`. Throws `ParseError` (file and line).
std::vector<std::uint8_t> parse_bool_list_json(std::string_view text, const std::string& file_name);
std::vector<std::uint8_t> read_bool_list_json(const std::filesystem::path& path);

}  // namespace simdccd
