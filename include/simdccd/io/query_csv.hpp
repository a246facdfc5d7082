// Reader of the rational CSV query format of the CCD benchmark data sets.
//
// 8 rows per query, each `x_num,x_den,y_num,y_den,z_num,z_den[,truth]`, integers
// of any size (denominators nonzero; signs allowed on both). Row order as in
// `Query`. With the truth column all 8 rows of a query carry the same 0 or 1.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "simdccd/rational_query.hpp"

namespace simdccd {

struct QueryFile {
  std::vector<RationalQuery> queries;
  /// Empty when the file has no truth column, else one 0/1 per query.
  std::vector<std::uint8_t> truth;
};

/// Throws `ParseError` (file and line) on any malformed row: wrong column
/// count (all rows must agree), non-integer field, zero denominator, truth not
/// 0/1 or differing within a query, or a row count that is not a multiple of 8.
/// Empty lines are errors too, except trailing ones at the end of the file.
QueryFile parse_query_csv(std::string_view text, const std::string& file_name);
/// Reads the file and parses it; an unreadable file is a `ParseError` at line 0.
QueryFile read_query_csv(const std::filesystem::path& path);

}  // namespace simdccd
