// Lines, fields and integers of the CSV readers (query_csv.cpp, rigid_csv.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <gmp.h>

namespace simdccd::io_detail {

/// The lines of a text, without their "\n" or "\r\n", numbered from 1.
/// Empty lines may only end the text: an empty line followed by a non-empty
/// one is a `ParseError` at the empty line, "empty line before more data".
class CsvLines {
 public:
  CsvLines(std::string_view text, const std::string& file_name) : text_(text), file_name_(file_name) {}

  /// The next non-empty line; nullopt at the end of the text.
  std::optional<std::string_view> next();
  /// The number of the line next() returned last; 0 before the first.
  std::uint64_t number() const { return returned_; }

 private:
  std::string_view text_;
  const std::string& file_name_;
  std::uint64_t line_no_ = 0, returned_ = 0;
};

/// True when `text` is one or more decimal digits.
bool is_digits(std::string_view text);

/// Sets `z` to `field` when it reads [+-]?[0-9]+; false (z unchanged) else.
/// `scratch` is working memory, for reuse across calls.
bool parse_integer(std::string_view field, mpz_ptr z, std::string& scratch);

/// Splits `line` at commas into `fields`; returns the field count, which may
/// exceed fields.size() (only the first fields.size() are stored).
std::size_t split_fields(std::string_view line, std::span<std::string_view> fields);

}  // namespace simdccd::io_detail
