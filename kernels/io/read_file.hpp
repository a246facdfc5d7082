// Helpers shared by the readers in this directory.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "simdccd/io/parse_error.hpp"

namespace simdccd::io_detail {

/// The whole file as bytes. Failure to open or read throws `ParseError` at
/// position 0 in `unit`, with the system's reason.
std::string read_file(const std::filesystem::path& path, ParseError::Unit unit);

/// `text` in single quotes for an error message: at most 40 characters; quotes,
/// backslashes and bytes outside printable ASCII written as \xHH, so that a
/// message stays one unambiguous line.
std::string quoted(std::string_view text);

}  // namespace simdccd::io_detail
