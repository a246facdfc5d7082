// The one error type of every reader: says which file and where.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace simdccd {

/// Thrown by the readers. `what()` reads "FILE:LINE: message" for text formats
/// and "FILE: byte OFFSET: message" for binary ones.
class ParseError : public std::runtime_error {
 public:
  enum class Unit : std::uint8_t { line, byte };
  ParseError(std::string file, Unit unit, std::uint64_t position, const std::string& message);

  const std::string& file() const { return file_; }
  Unit unit() const { return unit_; }
  /// 1-based line number, or 0-based byte offset.
  std::uint64_t position() const { return position_; }

 private:
  std::string file_;
  Unit unit_;
  std::uint64_t position_;
};

}  // namespace simdccd
