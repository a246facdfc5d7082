#include "io/read_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace simdccd::io_detail {

std::string read_file(const std::filesystem::path& path, ParseError::Unit unit) {
  const auto fail = [&](int err) {
    throw ParseError(path.string(), unit, 0, std::string("cannot read file: ") + std::strerror(err));
  };
  // fopen() would stop at a NUL and open another file (a path from Python can hold one).
  if (path.native().find('\0') != std::string::npos) {
    throw ParseError(io_detail::quoted(path.native()), unit, 0, "cannot read file: the path holds a NUL byte");
  }
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) fail(errno);
  std::string bytes;
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f.get())) > 0) bytes.append(buffer, n);
  // A directory opens fine on Linux and fails here, with EISDIR.
  if (std::ferror(f.get())) fail(errno);
  return bytes;
}

std::string quoted(std::string_view text) {
  constexpr std::size_t max_chars = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < max_chars; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  out += text.size() > max_chars ? "'..." : "'";
  return out;
}

}  // namespace simdccd::io_detail
