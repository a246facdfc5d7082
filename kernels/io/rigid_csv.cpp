#include "simdccd/io/rigid_csv.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

#include "io/csv_fields.hpp"
#include "io/read_file.hpp"
#include "simdccd/io/parse_error.hpp"

namespace simdccd {

namespace {

constexpr std::size_t max_fields = 22;  // a rotation with truth
constexpr std::string_view truth_column = ",truth";
constexpr int max_exponent_digits = 4;

// The columns of each motion, without truth.
std::string_view header(RigidMotionType motion) {
  return motion == RigidMotionType::translation
             ? "type,mover,p0x,p0y,p0z,p1x,p1y,p1z,p2x,p2y,p2z,p3x,p3y,p3z,tx,ty,tz"
             : "type,mover,p0x,p0y,p0z,p1x,p1y,p1z,p2x,p2y,p2z,p3x,p3y,p3z,cx,cy,cz,ax,ay,az,tan_half";
}

// Calls f on each number of a query line (the fields after type and mover),
// in column order. Query: RationalRigidQuery, const or not.
template <class Query, class F>
void for_each_number(Query& q, RigidMotionType motion, F f) {
  const auto vec = [&](auto& v) {
    f(v.x);
    f(v.y);
    f(v.z);
  };
  for (auto& p : q.points) vec(p);
  if (motion == RigidMotionType::translation) {
    vec(q.motion.translation);
  } else {
    vec(q.motion.center);
    vec(q.motion.axis);
    f(q.motion.tan_half);
  }
}

bool is_infinity(std::string_view field) { return field == "inf" || field == "+inf" || field == "-inf"; }

enum class NumberError : std::uint8_t { none, malformed, zero_denominator, exponent_range };

// Reads an integer, fraction or decimal (rigid_csv.hpp) into `q`, canonical.
NumberError parse_rational(std::string_view field, mpq_ptr q, std::string& scratch) {
  const mpz_ptr num = mpq_numref(q), den = mpq_denref(q);
  if (const std::size_t slash = field.find('/'); slash != std::string_view::npos) {
    if (!io_detail::parse_integer(field.substr(0, slash), num, scratch) ||
        !io_detail::parse_integer(field.substr(slash + 1), den, scratch)) {
      return NumberError::malformed;
    }
    if (mpz_sgn(den) == 0) return NumberError::zero_denominator;
    mpq_canonicalize(q);
    return NumberError::none;
  }
  const bool negative = field.starts_with('-');
  if (negative || field.starts_with('+')) field.remove_prefix(1);
  const std::size_t e = field.find_first_of("eE");
  const std::string_view mantissa = field.substr(0, e);
  const std::size_t dot = mantissa.find('.');
  const std::string_view whole = mantissa.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1);
  if (!io_detail::is_digits(whole) || (dot != std::string_view::npos && !io_detail::is_digits(fraction))) {
    return NumberError::malformed;
  }
  std::int64_t exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view digits = field.substr(e + 1);
    const bool exponent_negative = digits.starts_with('-');
    if (exponent_negative || digits.starts_with('+')) digits.remove_prefix(1);
    if (!io_detail::is_digits(digits)) return NumberError::malformed;
    digits.remove_prefix(std::min(digits.find_first_not_of('0'), digits.size() - 1));
    if (digits.size() > max_exponent_digits) return NumberError::exponent_range;
    for (const char c : digits) exponent = 10 * exponent + (c - '0');
    if (exponent_negative) exponent = -exponent;
  }
  scratch.clear();
  if (negative) scratch += '-';
  scratch += whole;
  scratch += fraction;
  mpz_set_str(num, scratch.c_str(), 10);
  // q = num * 10^shift
  const std::int64_t shift = exponent - static_cast<std::int64_t>(fraction.size());
  mpz_ui_pow_ui(den, 10, static_cast<unsigned long>(shift < 0 ? -shift : shift));
  if (shift >= 0) {
    mpz_mul(num, num, den);
    mpz_set_ui(den, 1);
  }
  mpq_canonicalize(q);
  return NumberError::none;
}

class Parser {
 public:
  explicit Parser(const std::string& file_name) : file_name_(file_name) {}

  void line(std::string_view line, std::uint64_t line_no) {
    if (line.starts_with('#')) return;
    if (header_line_ == 0) {
      header_line(line, line_no);
    } else {
      row(line, line_no);
    }
  }

  RigidQueryFile finish() {
    if (header_line_ == 0) fail(1, "no header line: the file is empty or holds only comments");
    return std::move(out_);
  }

 private:
  void header_line(std::string_view line, std::uint64_t line_no) {
    for (const RigidMotionType motion : {RigidMotionType::translation, RigidMotionType::rotation}) {
      const std::string_view columns = header(motion);
      if (line.starts_with(columns) && (line.size() == columns.size() || line.substr(columns.size()) == truth_column)) {
        out_.motion = motion;
        columns_ = io_detail::split_fields(line, names_);
        header_line_ = line_no;
        return;
      }
    }
    fail(line_no, "unknown header " + io_detail::quoted(line) + "; expected " +
                      std::string(header(RigidMotionType::translation)) + " or " +
                      std::string(header(RigidMotionType::rotation)) + ", either followed by " +
                      std::string(truth_column));
  }

  void row(std::string_view line, std::uint64_t line_no) {
    std::array<std::string_view, max_fields> fields;
    const std::size_t count = io_detail::split_fields(line, fields);
    if (count != columns_) {
      fail(line_no, "expected " + std::to_string(columns_) + " fields (as the header on line " +
                        std::to_string(header_line_) + "), found " + std::to_string(count));
    }
    if (fields[0] == "vf") {
      out_.types.push_back(QueryType::vertex_face);
    } else if (fields[0] == "ee") {
      out_.types.push_back(QueryType::edge_edge);
    } else {
      fail(line_no, "type (field 1) must be vf or ee, found " + io_detail::quoted(fields[0]));
    }
    if (fields[1] != "0" && fields[1] != "1") {
      fail(line_no, "mover (field 2) must be 0 or 1, found " + io_detail::quoted(fields[1]));
    }
    RationalRigidQuery& q = out_.queries.emplace_back();
    q.mover = fields[1] == "1" ? Mover::second : Mover::first;
    q.motion.type = out_.motion;
    std::size_t index = 2;
    for_each_number(q, out_.motion, [&](mpq_class& x) {
      number(fields[index], index, x, q.motion, line_no);
      ++index;
    });
    if (index < count) {
      if (fields[index] != "0" && fields[index] != "1") {
        fail(line_no, "truth (field " + std::to_string(index + 1) + ") must be 0 or 1, found " +
                          io_detail::quoted(fields[index]));
      }
      out_.truth.push_back(fields[index] == "1");
    }
  }

  void number(std::string_view field, std::size_t index, mpq_class& x, RationalRigidMotion& motion,
              std::uint64_t line_no) {
    const auto where = [&] { return "field " + std::to_string(index + 1) + " (" + std::string(names_[index]) + ")"; };
    if (is_infinity(field)) {
      if (&x != &motion.tan_half) fail(line_no, where() + ": inf is allowed only in tan_half");
      motion.tan_half_infinity = field.starts_with('-') ? -1 : 1;
      return;
    }
    switch (parse_rational(field, x.get_mpq_t(), scratch_)) {
      case NumberError::none: return;
      case NumberError::malformed: fail(line_no, where() + " is not a number: " + io_detail::quoted(field));
      case NumberError::zero_denominator: fail(line_no, where() + ": zero denominator");
      case NumberError::exponent_range:
        fail(line_no, where() + ": exponent beyond " + std::string(max_exponent_digits, '9'));
    }
  }

  [[noreturn]] void fail(std::uint64_t line_no, const std::string& message) const {
    throw ParseError(file_name_, ParseError::Unit::line, line_no, message);
  }

  const std::string& file_name_;
  RigidQueryFile out_;
  std::string scratch_;
  std::array<std::string_view, max_fields> names_;
  std::size_t columns_ = 0;
  std::uint64_t header_line_ = 0;
};

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("format_rigid_csv: ") + what);
}

}  // namespace

bool operator==(const RigidQueryFile& a, const RigidQueryFile& b) {
  return a.motion == b.motion && a.types == b.types && a.truth == b.truth && a.queries == b.queries;
}

RigidQueryFile parse_rigid_csv(std::string_view text, const std::string& file_name) {
  Parser parser(file_name);
  io_detail::CsvLines lines(text, file_name);
  while (const std::optional<std::string_view> line = lines.next()) parser.line(*line, lines.number());
  return parser.finish();
}

RigidQueryFile read_rigid_csv(const std::filesystem::path& path) {
  return parse_rigid_csv(io_detail::read_file(path, ParseError::Unit::line), path.string());
}

std::string format_rigid_csv(const RigidQueryFile& file) {
  require(file.types.size() == file.queries.size(), "one type a query");
  require(file.truth.empty() || file.truth.size() == file.queries.size(), "no truth or one a query");
  std::string out(header(file.motion));
  if (!file.truth.empty()) out += truth_column;
  out += '\n';
  for (std::size_t i = 0; i < file.queries.size(); ++i) {
    const RationalRigidQuery& q = file.queries[i];
    require(file.types[i] == QueryType::vertex_face || file.types[i] == QueryType::edge_edge, "type vf or ee");
    require(q.mover == Mover::first || q.mover == Mover::second, "mover first or second");
    require(q.motion.type == file.motion, "every motion of the file's type");
    require(q.motion.tan_half_infinity >= -1 && q.motion.tan_half_infinity <= 1, "tan_half_infinity -1, 0 or 1");
    out += to_string(file.types[i]);
    out += q.mover == Mover::first ? ",0" : ",1";
    for_each_number(q, file.motion, [&](const mpq_class& x) {
      out += ',';
      if (&x == &q.motion.tan_half && q.motion.tan_half_infinity != 0) {
        out += q.motion.tan_half_infinity > 0 ? "inf" : "-inf";
      } else {
        out += x.get_str();
      }
    });
    if (!file.truth.empty()) {
      require(file.truth[i] <= 1, "truth 0 or 1");
      out += file.truth[i] ? ",1" : ",0";
    }
    out += '\n';
  }
  return out;
}

}  // namespace simdccd
