#include "io/csv_fields.hpp"

#include "simdccd/io/parse_error.hpp"

namespace simdccd::io_detail {

std::optional<std::string_view> CsvLines::next() {
  std::optional<std::uint64_t> empty_line;  // first empty line not yet followed by data
  while (!text_.empty()) {
    const std::size_t end = text_.find('\n');
    std::string_view line = text_.substr(0, end);
    text_.remove_prefix(end == std::string_view::npos ? text_.size() : end + 1);
    ++line_no_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      if (!empty_line) empty_line = line_no_;
      continue;
    }
    if (empty_line) throw ParseError(file_name_, ParseError::Unit::line, *empty_line, "empty line before more data");
    returned_ = line_no_;
    return line;
  }
  return std::nullopt;
}

bool is_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Validating first matters: mpz_set_str would also accept inner spaces, and
// rejects a leading '+'.
bool parse_integer(std::string_view field, mpz_ptr z, std::string& scratch) {
  const bool sign = !field.empty() && (field[0] == '+' || field[0] == '-');
  const std::string_view digits = field.substr(sign ? 1 : 0);
  if (!is_digits(digits)) return false;
  scratch.clear();
  if (field[0] == '-') scratch += '-';
  scratch += digits;
  mpz_set_str(z, scratch.c_str(), 10);
  return true;
}

std::size_t split_fields(std::string_view line, std::span<std::string_view> fields) {
  std::size_t count = 0;
  for (;;) {
    const std::size_t comma = line.find(',');
    if (count < fields.size()) fields[count] = line.substr(0, comma);
    ++count;
    if (comma == std::string_view::npos) return count;
    line.remove_prefix(comma + 1);
  }
}

}  // namespace simdccd::io_detail
