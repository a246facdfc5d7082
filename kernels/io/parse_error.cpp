#include "simdccd/io/parse_error.hpp"

#include <sstream>
#include <utility>

namespace simdccd {

namespace {
// A stream, not `+`: string concatenation here trips a false -Wrestrict in g++ 12 at -O3.
std::string format(const std::string& file, ParseError::Unit unit, std::uint64_t position,
                   const std::string& message) {
  std::ostringstream what;
  what << file << (unit == ParseError::Unit::line ? ":" : ": byte ") << position << ": " << message;
  return what.str();
}
}  // namespace

// The base is built first, so `file` is still intact when format() reads it.
ParseError::ParseError(std::string file, Unit unit, std::uint64_t position, const std::string& message)
    : std::runtime_error(format(file, unit, position, message)),
      file_(std::move(file)),
      unit_(unit),
      position_(position) {}

}  // namespace simdccd
