#include "simdccd/io/ply.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "io/read_file.hpp"
#include "simdccd/io/parse_error.hpp"

namespace simdccd {

namespace {

using io_detail::quoted;

constexpr std::string_view axis_names[3] = {"x", "y", "z"};

enum class Kind : std::uint8_t { signed_int, unsigned_int, floating };

struct ScalarType {
  int size;
  Kind kind;
};

std::optional<ScalarType> scalar_type(std::string_view name) {
  struct Entry {
    std::string_view name, alias;
    ScalarType type;
  };
  static constexpr Entry table[] = {
      {"char", "int8", {1, Kind::signed_int}},     {"uchar", "uint8", {1, Kind::unsigned_int}},
      {"short", "int16", {2, Kind::signed_int}},   {"ushort", "uint16", {2, Kind::unsigned_int}},
      {"int", "int32", {4, Kind::signed_int}},     {"uint", "uint32", {4, Kind::unsigned_int}},
      {"float", "float32", {4, Kind::floating}},   {"double", "float64", {8, Kind::floating}},
  };
  for (const Entry& e : table) {
    if (name == e.name || name == e.alias) return e.type;
  }
  return std::nullopt;
}

// Byte order is handled by assembling values byte by byte, so the host's
// endianness never matters.
std::uint64_t load_bits(const unsigned char* p, int size, bool big_endian) {
  std::uint64_t v = 0;
  for (int i = 0; i < size; ++i) v |= std::uint64_t{p[i]} << (8 * (big_endian ? size - 1 - i : i));
  return v;
}

std::int64_t load_int(const unsigned char* p, ScalarType t, bool big_endian) {
  const std::uint64_t v = load_bits(p, t.size, big_endian);
  if (t.kind == Kind::unsigned_int) return static_cast<std::int64_t>(v);
  const int shift = 64 - 8 * t.size;  // sign-extends (well defined since C++20)
  return static_cast<std::int64_t>(v << shift) >> shift;
}

double load_float(const unsigned char* p, ScalarType t, bool big_endian) {
  const std::uint64_t v = load_bits(p, t.size, big_endian);
  return t.size == 4 ? double{std::bit_cast<float>(static_cast<std::uint32_t>(v))} : std::bit_cast<double>(v);
}

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
      continue;
    }
    const std::size_t end = line.find_first_of(" \t", i);
    words.push_back(line.substr(i, end - i));
    i = end == std::string_view::npos ? line.size() : end;
  }
  return words;
}

struct Property {
  std::string_view name;
  ScalarType type;  // the item type of a list
  std::optional<ScalarType> list_count;
};

struct Element {
  bool is_vertex;
  std::uint64_t count;
  std::uint64_t line;
  std::vector<Property> properties;
};

class PlyParser {
 public:
  PlyParser(std::string_view bytes, const std::string& file_name)
      : bytes_(reinterpret_cast<const unsigned char*>(bytes.data())), text_(bytes), file_name_(file_name) {}

  PlyMesh parse() {
    parse_header();
    check_body_size();
    // The size check keeps every read below inside the bytes.
    PlyMesh mesh;
    std::size_t pos = body_offset_;
    for (const Element& e : elements_) pos = e.is_vertex ? read_vertices(e, pos, mesh) : read_faces(e, pos, mesh);
    return mesh;
  }

 private:
  [[noreturn]] void fail_line(std::uint64_t line, const std::string& message) const {
    throw ParseError(file_name_, ParseError::Unit::line, line, message);
  }
  [[noreturn]] void fail_byte(std::uint64_t offset, const std::string& message) const {
    throw ParseError(file_name_, ParseError::Unit::byte, offset, message);
  }

  void parse_header() {
    if (text_.empty()) fail_line(1, "the file is empty (a PLY file starts with a 'ply' line)");
    std::size_t pos = 0;
    for (std::uint64_t line_no = 1;; ++line_no) {
      const std::size_t end = text_.find('\n', pos);
      if (end == std::string_view::npos) fail_line(line_no, "header has no end_header line");
      std::string_view line = text_.substr(pos, end - pos);
      pos = end + 1;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line_no == 1) {
        if (line != "ply") fail_line(1, "not a PLY file: the first line must be 'ply'");
        continue;
      }
      if (header_line(split_words(line), line_no)) break;
    }
    body_offset_ = pos;
    finish_element();
    if (!format_seen_) fail_line(end_header_line_, "header has no format line");
    if (!vertex_) fail_line(end_header_line_, "header has no vertex element");
    if (!face_) fail_line(end_header_line_, "header has no face element");
  }

  // One header line after the first; true at end_header.
  bool header_line(const std::vector<std::string_view>& words, std::uint64_t line_no) {
    const std::string_view keyword = words.empty() ? std::string_view() : words[0];
    if (keyword == "comment" || keyword == "obj_info") return false;
    if (keyword == "format") {
      format_line(words, line_no);
    } else if (keyword == "element") {
      element_line(words, line_no);
    } else if (keyword == "property") {
      property_line(words, line_no);
    } else if (keyword == "end_header" && words.size() == 1) {
      end_header_line_ = line_no;
      return true;
    } else {
      fail_line(line_no, "unexpected header line starting with " + quoted(keyword));
    }
    return false;
  }

  void format_line(const std::vector<std::string_view>& words, std::uint64_t line_no) {
    if (format_seen_) fail_line(line_no, "second format line");
    if (words.size() != 3) fail_line(line_no, "format line needs a format and a version");
    if (words[1] == "binary_little_endian") {
      big_endian_ = false;
    } else if (words[1] == "binary_big_endian") {
      big_endian_ = true;
    } else if (words[1] == "ascii") {
      fail_line(line_no, "ASCII PLY is not supported, only binary");
    } else {
      fail_line(line_no, "unknown format " + quoted(words[1]));
    }
    if (words[2] != "1.0") fail_line(line_no, "unsupported PLY version " + quoted(words[2]));
    format_seen_ = true;
  }

  void element_line(const std::vector<std::string_view>& words, std::uint64_t line_no) {
    if (words.size() != 3) fail_line(line_no, "element line needs a name and a count");
    finish_element();
    const bool is_vertex = words[1] == "vertex";
    if (!is_vertex && words[1] != "face") fail_line(line_no, "unsupported element " + quoted(words[1]));
    const std::optional<std::size_t>& seen = is_vertex ? vertex_ : face_;
    if (seen) fail_line(line_no, "second " + std::string(words[1]) + " element");
    std::uint64_t count = 0;
    const char* first = words[2].data();
    const char* last = first + words[2].size();
    const auto [ptr, ec] = std::from_chars(first, last, count);
    if (ec != std::errc() || ptr != last) {
      fail_line(line_no, "element count " + quoted(words[2]) + " is not an integer in 0..2^64-1");
    }
    // Face indices are int32, so vertex ids must fit.
    if (is_vertex && count > std::uint64_t{std::numeric_limits<std::int32_t>::max()}) {
      fail_line(line_no, "more than 2^31-1 vertices");
    }
    (is_vertex ? vertex_ : face_) = elements_.size();
    elements_.push_back({is_vertex, count, line_no, {}});
  }

  void property_line(const std::vector<std::string_view>& words, std::uint64_t line_no) {
    if (elements_.empty()) fail_line(line_no, "property before any element");
    Element& e = elements_.back();
    const bool is_list = words.size() >= 2 && words[1] == "list";
    if (words.size() != (is_list ? 5u : 3u)) fail_line(line_no, "malformed property line");
    Property p{words.back(), {}, std::nullopt};
    const auto type = [&](std::string_view name) {
      const std::optional<ScalarType> t = scalar_type(name);
      if (!t) fail_line(line_no, "unknown property type " + quoted(name));
      return *t;
    };
    if (is_list) p.list_count = type(words[2]);
    p.type = type(words[is_list ? 3 : 1]);

    if (e.is_vertex) {
      if (is_list) fail_line(line_no, "list properties of vertices are not supported");
      for (const Property& q : e.properties) {
        if (q.name == p.name) fail_line(line_no, "second vertex property " + quoted(p.name));
      }
      const bool coordinate = p.name == axis_names[0] || p.name == axis_names[1] || p.name == axis_names[2];
      if (coordinate && p.type.kind != Kind::floating) fail_line(line_no, "vertex coordinates must be float or double");
    } else {
      if (!e.properties.empty()) fail_line(line_no, "the face element takes exactly one property");
      if (!is_list || (p.name != "vertex_indices" && p.name != "vertex_index")) {
        fail_line(line_no, "the face property must be a list named vertex_indices or vertex_index");
      }
      if (p.list_count->kind == Kind::floating || p.type.kind == Kind::floating) {
        fail_line(line_no, "face list types must be integer types");
      }
    }
    e.properties.push_back(p);
  }

  // Checks the element whose properties are complete: x, y, z for vertices,
  // the index list for faces; also computes the vertex layout.
  void finish_element() {
    if (elements_.empty()) return;
    const Element& e = elements_.back();
    if (!e.is_vertex) {
      if (e.properties.empty()) fail_line(e.line, "the face element has no vertex_indices property");
      return;
    }
    vertex_stride_ = 0;
    for (const Property& p : e.properties) {
      for (int c = 0; c < 3; ++c) {
        if (p.name == axis_names[c]) coordinate_[c] = {vertex_stride_, p.type};
      }
      vertex_stride_ += static_cast<std::size_t>(p.type.size);
    }
    for (int c = 0; c < 3; ++c) {
      if (!coordinate_[c]) fail_line(e.line, "vertex element has no " + std::string(axis_names[c]) + " property");
    }
  }

  std::size_t face_size() const {
    const Property& list = elements_[*face_].properties[0];
    return static_cast<std::size_t>(list.list_count->size + 3 * list.type.size);
  }

  // Every face must be a triangle, so the header fixes the body size. Checking
  // it up front rejects huge counts before any allocation, and turns a short or
  // overlong file into one clear error.
  void check_body_size() const {
    const std::uint64_t have = text_.size() - body_offset_;
    const std::uint64_t nv = elements_[*vertex_].count, nf = elements_[*face_].count;
    std::uint64_t vertex_bytes = 0, face_bytes = 0, need = 0;
    const bool overflow = __builtin_mul_overflow(nv, vertex_stride_, &vertex_bytes) ||
                          __builtin_mul_overflow(nf, face_size(), &face_bytes) ||
                          __builtin_add_overflow(vertex_bytes, face_bytes, &need);
    const std::string declared = "the header's " + std::to_string(nv) + " vertices and " + std::to_string(nf) +
                                 " triangles need ";
    if (overflow) fail_byte(text_.size(), "file too short: " + declared + "more than 2^64 bytes");
    if (need != have) check_face_counts(*vertex_ < *face_ ? vertex_bytes : 0);
    if (need > have) {
      fail_byte(text_.size(), "file too short: " + declared + std::to_string(need) + " bytes after the header, found " +
                                  std::to_string(have));
    }
    if (need < have) {
      fail_byte(body_offset_ + need, std::to_string(have - need) + " unexpected bytes after the last element");
    }
  }

  // A body of the wrong size: a face that is no triangle (a quad, a point)
  // shifts everything after it, so name the first one the bytes reach
  // rather than the size.
  void check_face_counts(std::uint64_t faces_start) const {
    const Property& list = elements_[*face_].properties[0];
    const std::uint64_t count_size = static_cast<std::uint64_t>(list.list_count->size);
    const std::uint64_t nf = elements_[*face_].count, end = text_.size();
    std::uint64_t pos = body_offset_ + faces_start;
    for (std::uint64_t i = 0; i < nf && pos + count_size <= end; ++i, pos += face_size()) {
      const std::int64_t n = load_int(bytes_ + pos, *list.list_count, big_endian_);
      if (n != 3) {
        fail_byte(pos, "face " + std::to_string(i) + " has " + std::to_string(n) + " vertices; only triangles are supported");
      }
    }
  }

  std::size_t read_vertices(const Element& e, std::size_t pos, PlyMesh& mesh) const {
    mesh.vertices.resize(e.count);
    for (Vec3& v : mesh.vertices) {
      double* out[3] = {&v.x, &v.y, &v.z};
      for (int c = 0; c < 3; ++c) {
        const std::size_t at = pos + coordinate_[c]->offset;
        *out[c] = load_float(bytes_ + at, coordinate_[c]->type, big_endian_);
        if (!std::isfinite(*out[c])) {
          fail_byte(at, "vertex " + std::to_string(&v - mesh.vertices.data()) + ": coordinate " +
                            std::string(axis_names[c]) + " is not finite");
        }
      }
      pos += vertex_stride_;
    }
    return pos;
  }

  std::size_t read_faces(const Element& e, std::size_t pos, PlyMesh& mesh) const {
    const Property& list = e.properties[0];
    const std::int64_t nv = static_cast<std::int64_t>(elements_[*vertex_].count);
    mesh.faces.resize(e.count);
    for (std::array<std::int32_t, 3>& f : mesh.faces) {
      const std::size_t index = static_cast<std::size_t>(&f - mesh.faces.data());
      const std::int64_t n = load_int(bytes_ + pos, *list.list_count, big_endian_);
      if (n != 3) {
        fail_byte(pos, "face " + std::to_string(index) + " has " + std::to_string(n) +
                           " vertices; only triangles are supported");
      }
      pos += static_cast<std::size_t>(list.list_count->size);
      for (std::int32_t& id : f) {
        const std::int64_t v = load_int(bytes_ + pos, list.type, big_endian_);
        if (v < 0 || v >= nv) {
          fail_byte(pos, "face " + std::to_string(index) + ": vertex index " + std::to_string(v) +
                             " out of range (" + std::to_string(nv) + " vertices)");
        }
        id = static_cast<std::int32_t>(v);
        pos += static_cast<std::size_t>(list.type.size);
      }
    }
    return pos;
  }

  struct Coordinate {
    std::size_t offset;
    ScalarType type;
  };

  const unsigned char* bytes_;
  std::string_view text_;
  const std::string& file_name_;
  bool format_seen_ = false;
  bool big_endian_ = false;
  std::uint64_t end_header_line_ = 0;
  std::size_t body_offset_ = 0;
  std::vector<Element> elements_;
  std::optional<std::size_t> vertex_, face_;  // indices into elements_
  std::size_t vertex_stride_ = 0;
  std::optional<Coordinate> coordinate_[3];
};

}  // namespace

PlyMesh parse_ply(std::string_view bytes, const std::string& file_name) {
  return PlyParser(bytes, file_name).parse();
}

PlyMesh read_ply(const std::filesystem::path& path) {
  return parse_ply(io_detail::read_file(path, ParseError::Unit::byte), path.string());
}

}  // namespace simdccd
