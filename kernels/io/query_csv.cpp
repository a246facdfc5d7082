#include "simdccd/io/query_csv.hpp"

#include <array>
#include <optional>

#include "io/csv_fields.hpp"
#include "io/read_file.hpp"
#include "simdccd/io/parse_error.hpp"

namespace simdccd {

namespace {

constexpr std::size_t max_fields = 7;

class Parser {
 public:
  explicit Parser(const std::string& file_name) : file_name_(file_name) {}

  void row(std::string_view line, std::uint64_t line_no) {
    std::array<std::string_view, max_fields> fields;
    const std::size_t count = io_detail::split_fields(line, fields);
    if (columns_ == 0) {
      if (count != 6 && count != 7) fail(line_no, "expected 6 or 7 fields, found " + std::to_string(count));
      columns_ = count;
      first_line_ = line_no;
    } else if (count != columns_) {
      fail(line_no, "expected " + std::to_string(columns_) + " fields (as on line " +
                        std::to_string(first_line_) + "), found " + std::to_string(count));
    }

    const int point = static_cast<int>(rows_ % 8);
    if (point == 0) {
      out_.queries.emplace_back();
      query_line_ = line_no;
    }
    RationalVec3& p = out_.queries.back().points[point];
    mpq_class* coords[3] = {&p.x, &p.y, &p.z};
    for (int c = 0; c < 3; ++c) {
      mpq_ptr q = coords[c]->get_mpq_t();
      integer(fields[2 * c], 2 * c, mpq_numref(q), line_no);
      integer(fields[2 * c + 1], 2 * c + 1, mpq_denref(q), line_no);
      if (mpz_sgn(mpq_denref(q)) == 0) fail(line_no, "field " + std::to_string(2 * c + 2) + ": zero denominator");
      mpq_canonicalize(q);
    }
    if (columns_ == 7) truth(fields[6], point, line_no);
    ++rows_;
    last_line_ = line_no;
  }

  QueryFile finish() {
    if (rows_ % 8 != 0) {
      fail(last_line_, "file ends after " + std::to_string(rows_ % 8) +
                           " of the 8 rows of the query that starts on line " + std::to_string(query_line_));
    }
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(std::uint64_t line_no, const std::string& message) const {
    throw ParseError(file_name_, ParseError::Unit::line, line_no, message);
  }

  void integer(std::string_view field, int index, mpz_ptr z, std::uint64_t line_no) {
    if (!io_detail::parse_integer(field, z, scratch_)) {
      fail(line_no, "field " + std::to_string(index + 1) + " is not an integer: " + io_detail::quoted(field));
    }
  }

  void truth(std::string_view field, int point, std::uint64_t line_no) {
    if (field != "0" && field != "1") {
      fail(line_no, "truth (field 7) must be 0 or 1, found " + io_detail::quoted(field));
    }
    const std::uint8_t value = field == "1";
    if (point == 0) {
      out_.truth.push_back(value);
    } else if (value != out_.truth.back()) {
      fail(line_no, "truth " + std::string(field) + " differs from " + std::to_string(out_.truth.back()) +
                        " on line " + std::to_string(query_line_) + ", the first row of this query");
    }
  }

  const std::string& file_name_;
  QueryFile out_;
  std::string scratch_;
  std::size_t columns_ = 0;
  std::uint64_t rows_ = 0;
  std::uint64_t first_line_ = 0, query_line_ = 0, last_line_ = 0;
};

}  // namespace

QueryFile parse_query_csv(std::string_view text, const std::string& file_name) {
  Parser parser(file_name);
  io_detail::CsvLines lines(text, file_name);
  while (const std::optional<std::string_view> line = lines.next()) parser.row(*line, lines.number());
  return parser.finish();
}

QueryFile read_query_csv(const std::filesystem::path& path) {
  return parse_query_csv(io_detail::read_file(path, ParseError::Unit::line), path.string());
}

}  // namespace simdccd
