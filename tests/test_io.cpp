// The file readers: real data, generated files and malformed input.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "simdccd/io/pair_json.hpp"
#include "simdccd/io/parse_error.hpp"
#include "simdccd/io/ply.hpp"
#include "simdccd/io/query_csv.hpp"
#include "simdccd/io/rigid_csv.hpp"

namespace {

using namespace simdccd;
namespace fs = std::filesystem;

const fs::path data_dir = SIMDCCD_TEST_DATA;

// Runs `parse` and checks that it throws a ParseError naming `file` at
// `position` in `unit` whose message contains `words`.
template <class Parse>
void check_error(Parse parse, const std::string& file, ParseError::Unit unit, std::uint64_t position,
                 const std::string& words) {
  try {
    parse();
  } catch (const ParseError& e) {
    INFO(e.what());
    CHECK(e.file() == file);
    CHECK(e.unit() == unit);
    CHECK(e.position() == position);
    const std::string where = unit == ParseError::Unit::line ? file + ":" + std::to_string(position) + ": "
                                                             : file + ": byte " + std::to_string(position) + ": ";
    CHECK(std::string(e.what()).starts_with(where));
    CHECK(std::string(e.what()).find(words) != std::string::npos);
    return;
  }
  FAIL_CHECK("no ParseError for: " << words);
}

std::string with_crlf(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// ---------------------------------------------------------------- CSV

void csv_error(const std::string& text, std::uint64_t line, const std::string& words) {
  INFO(text);
  check_error([&] { parse_query_csv(text, "bad.csv"); }, "bad.csv", ParseError::Unit::line, line, words);
}

// `n` copies of a valid 7-column row with truth `t`.
std::string rows(int n, int t = 0) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "1,2,3,4,5,6," + std::to_string(t) + "\n";
  return s;
}

TEST_CASE("io.csv: every sample query file parses with the counts awk reports") {
  // queries, positives: awk -F, 'NR%8==1{n++; p+=$7} END{print n, p}' FILE
  struct Expected {
    const char* scene;
    const char* kind;
    std::size_t queries, positives;
  };
  const Expected expected[] = {
      {"erleben-cube-cliff-edges", "edge-edge", 125, 18},    {"erleben-cube-cliff-edges", "vertex-face", 125, 15},
      {"erleben-cube-internal-edges", "edge-edge", 125, 17}, {"erleben-cube-internal-edges", "vertex-face", 125, 16},
      {"erleben-sliding-spike", "edge-edge", 125, 0},        {"erleben-sliding-spike", "vertex-face", 125, 4},
      {"erleben-sliding-wedge", "edge-edge", 125, 0},        {"erleben-sliding-wedge", "vertex-face", 125, 1},
      {"erleben-spike-crack", "edge-edge", 125, 0},          {"erleben-spike-crack", "vertex-face", 125, 6},
      {"erleben-spike-hole", "edge-edge", 1870, 0},          {"erleben-spike-hole", "vertex-face", 585, 9},
      {"erleben-spike-wedge", "edge-edge", 125, 14},         {"erleben-spike-wedge", "vertex-face", 125, 7},
      {"erleben-spikes", "edge-edge", 125, 12},              {"erleben-spikes", "vertex-face", 125, 11},
      {"erleben-wedge-crack", "edge-edge", 125, 6},          {"erleben-wedge-crack", "vertex-face", 125, 9},
      {"erleben-wedges", "edge-edge", 125, 16},              {"erleben-wedges", "vertex-face", 125, 8},
      {"unit-tests", "edge-edge", 54, 21},                   {"unit-tests", "vertex-face", 125, 35},
  };
  std::size_t files_on_disk = 0;
  for (const auto& entry : fs::recursive_directory_iterator(data_dir / "sample-queries")) {
    files_on_disk += entry.path().extension() == ".csv";
  }
  CHECK(files_on_disk == std::size(expected));
  for (const Expected& e : expected) {
    const fs::path path = data_dir / "sample-queries" / e.scene / e.kind / "data_0_0.csv";
    INFO(path.string());
    const QueryFile f = read_query_csv(path);
    CHECK(f.queries.size() == e.queries);
    REQUIRE(f.truth.size() == e.queries);
    CHECK(static_cast<std::size_t>(std::count(f.truth.begin(), f.truth.end(), 1)) == e.positives);
  }
}

TEST_CASE("io.csv: values and row order of unit-tests/vertex-face") {
  // The file's first two rows: "0,1,1,1,0,1,0" and "-1,1,0,1,1,1,0".
  const QueryFile f = read_query_csv(data_dir / "sample-queries/unit-tests/vertex-face/data_0_0.csv");
  REQUIRE(!f.queries.empty());
  const RationalVec3& v = f.queries[0].points[0];
  const RationalVec3& f0 = f.queries[0].points[1];
  CHECK((v.x == 0 && v.y == 1 && v.z == 0));
  CHECK((f0.x == -1 && f0.y == 0 && f0.z == 1));
}

TEST_CASE("io.csv: simulation queries have no truth and one query per listed pair") {
  struct Expected {
    const char* file;
    std::size_t queries;  // lengths of the matching boxes/*.json (python3 json.load)
  };
  const Expected expected[] = {
      {"cloth-funnel/queries/227vf.csv", 92},        {"cloth-funnel/queries/227ee.csv", 263},
      {"rod-twist/queries/3036vf.csv", 801},         {"rod-twist/queries/3036ee.csv", 4370},
      {"n-body-simulation/queries/18vf.csv", 9460},
  };
  for (const Expected& e : expected) {
    INFO(e.file);
    const QueryFile f = read_query_csv(data_dir / "simulation" / e.file);
    CHECK(f.queries.size() == e.queries);
    CHECK(f.truth.empty());
  }
}

TEST_CASE("io.csv: integers beyond 64 bits, signs and canonical form") {
  // 2^100 = 1267650600228229401496703205376 and 3^50 = 717897987691852588770249 (python3).
  const std::string big = "1267650600228229401496703205376";
  std::string text = big + ",717897987691852588770249,-" + big + ",-2,6,-4\n";
  text += "+5,10,-0,7,0,-3\n";
  for (int i = 0; i < 6; ++i) text += "-1,1,1,1,1,1\n";
  const QueryFile f = parse_query_csv(text, "big.csv");
  REQUIRE(f.queries.size() == 1);
  CHECK(f.truth.empty());
  const RationalVec3& p = f.queries[0].points[0];
  CHECK(p.x == mpq_class(mpz_class(big), mpz_class("717897987691852588770249")));
  CHECK(p.y == mpq_class(mpz_class("633825300114114700748351602688")));  // 2^99
  CHECK(p.z == mpq_class(-3, 2));
  // Canonical: positive denominators, lowest terms.
  for (const mpq_class* q : {&p.x, &p.y, &p.z}) CHECK(mpz_sgn(q->get_den_mpz_t()) > 0);
  CHECK(p.z.get_num() == -3);
  CHECK(p.z.get_den() == 2);
  const RationalVec3& r = f.queries[0].points[1];
  CHECK(r.x == mpq_class(1, 2));
  CHECK(r.y == 0);
  CHECK(r.z == 0);
  CHECK(r.z.get_den() == 1);
  CHECK(f.queries[0].points[7].x == -1);
}

TEST_CASE("io.csv: line endings, trailing empty lines, empty file") {
  const QueryFile a = parse_query_csv(with_crlf(rows(8, 1)), "crlf.csv");
  CHECK(a.queries.size() == 1);
  CHECK(a.truth == std::vector<std::uint8_t>{1});

  std::string no_final_newline = rows(16);
  no_final_newline.pop_back();
  CHECK(parse_query_csv(no_final_newline, "x.csv").queries.size() == 2);
  CHECK(parse_query_csv(rows(8) + "\n\n\r\n", "x.csv").queries.size() == 1);

  const QueryFile empty = parse_query_csv("", "empty.csv");
  CHECK(empty.queries.empty());
  CHECK(empty.truth.empty());
}

TEST_CASE("io.csv: malformed rows name the file and line") {
  SUBCASE("column count") {
    csv_error("1,2,3,4,5\n", 1, "expected 6 or 7 fields, found 5");
    csv_error("1,2,3,4,5,6,0,1\n", 1, "expected 6 or 7 fields, found 8");
    csv_error(rows(2) + "1,2,3,4,5,6\n", 3, "expected 7 fields (as on line 1), found 6");
    csv_error("1,2,3,4,5,6\n1,2,3,4,5,6,0\n", 2, "expected 6 fields (as on line 1), found 7");
    csv_error(rows(1) + "1,2,3,4,5,6,0,\n", 2, "found 8");
  }
  SUBCASE("non-integer fields") {
    csv_error(rows(2) + "1,2,abc,4,5,6,0\n", 3, "field 3 is not an integer: 'abc'");
    csv_error("1.5,2,3,4,5,6,0\n", 1, "field 1 is not an integer: '1.5'");
    csv_error("1,2,3,4,5, 6,0\n", 1, "field 6 is not an integer: ' 6'");
    csv_error("1,,3,4,5,6,0\n", 1, "field 2 is not an integer: ''");
    csv_error("1,2,3,4,1e3,6,0\n", 1, "field 5");
    csv_error("--1,2,3,4,5,6,0\n", 1, "field 1");
    csv_error("+,2,3,4,5,6,0\n", 1, "field 1");
    csv_error("1,2,3,0x1F,5,6,0\n", 1, "field 4");
    csv_error(std::string("1,2,3,4,5,6", 11) + std::string("\0", 1) + ",0\n", 1, "field 6 is not an integer: '6\\x00'");
  }
  SUBCASE("zero denominator") {
    csv_error(rows(4) + "1,0,3,4,5,6,0\n", 5, "field 2: zero denominator");
    csv_error("1,1,3,-0,5,6,0\n", 1, "field 4: zero denominator");
    csv_error("1,1,3,1,5,000,0\n", 1, "field 6: zero denominator");
  }
  SUBCASE("truth") {
    csv_error(rows(1) + "1,2,3,4,5,6,2\n", 2, "truth (field 7) must be 0 or 1, found '2'");
    csv_error("1,2,3,4,5,6,01\n", 1, "found '01'");
    csv_error("1,2,3,4,5,6,\n", 1, "found ''");
    csv_error(rows(8, 1) + rows(3, 1) + rows(1, 0), 12, "truth 0 differs from 1 on line 9");
  }
  SUBCASE("row count not a multiple of 8") {
    csv_error(rows(11), 11, "file ends after 3 of the 8 rows of the query that starts on line 9");
    csv_error(rows(7) + "\n\n", 7, "file ends after 7 of the 8 rows");
    csv_error(rows(12), 12, "file ends after 4 of the 8 rows of the query that starts on line 9");
  }
  SUBCASE("empty lines inside the data") {
    csv_error(rows(3) + "\n" + rows(5), 4, "empty line");
    csv_error("\n" + rows(8), 1, "empty line");
    csv_error(rows(8) + "\n\n" + rows(8), 9, "empty line");
    csv_error(rows(8) + " \n", 9, "expected 7 fields (as on line 1), found 1");  // blank is not empty
  }
}

TEST_CASE("io.csv: an unreadable file is an error at line 0") {
  const fs::path missing = data_dir / "does-not-exist.csv";
  check_error([&] { read_query_csv(missing); }, missing.string(), ParseError::Unit::line, 0, "cannot read file");
  const fs::path dir = data_dir / "sample-queries";
  check_error([&] { read_query_csv(dir); }, dir.string(), ParseError::Unit::line, 0, "cannot read file");
}

// ---------------------------------------------------------------- PLY

enum class T { i8, u8, i16, u16, i32, u32, f32, f64 };

// Appends `value` as a `type` in the given byte order, by memcpy and reversal
// (the reader assembles bytes by shifting instead).
void put(std::string& out, T type, double value, bool big_endian) {
  unsigned char raw[8];
  std::size_t size = 0;
  const auto store = [&](auto v) {
    size = sizeof v;
    std::memcpy(raw, &v, size);
  };
  switch (type) {
    case T::i8: store(static_cast<std::int8_t>(value)); break;
    case T::u8: store(static_cast<std::uint8_t>(value)); break;
    case T::i16: store(static_cast<std::int16_t>(value)); break;
    case T::u16: store(static_cast<std::uint16_t>(value)); break;
    case T::i32: store(static_cast<std::int32_t>(value)); break;
    case T::u32: store(static_cast<std::uint32_t>(value)); break;
    case T::f32: store(static_cast<float>(value)); break;
    case T::f64: store(value); break;
  }
  if (big_endian != (std::endian::native == std::endian::big)) std::reverse(raw, raw + size);
  out.append(reinterpret_cast<const char*>(raw), size);
}

std::size_t size_of(T type) {
  switch (type) {
    case T::i8: case T::u8: return 1;
    case T::i16: case T::u16: return 2;
    case T::i32: case T::u32: case T::f32: return 4;
    case T::f64: return 8;
  }
  return 0;
}

// A tetrahedron; all coordinates are floats, so float and double files hold
// the same values.
const std::vector<Vec3> tetra_vertices = {
    {0.5, -1.25, 3.0}, {double{0.1f}, double{0.2f}, double{-0.3f}}, {-7.0, double{1e-20f}, 6.5e7}, {0.0, -0.0, 1.5}};
const std::vector<std::array<std::int32_t, 3>> tetra_faces = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};

struct VertexProperty {
  std::string header;  // e.g. "float x" or "uchar red"
  T type;
  int axis;  // 0, 1, 2 for x, y, z; -1 for others, written as 200
};

struct PlyLayout {
  bool big_endian = false;
  std::vector<VertexProperty> vertex = {{"double x", T::f64, 0}, {"double y", T::f64, 1}, {"double z", T::f64, 2}};
  std::string list = "uchar int vertex_indices";
  T count_type = T::u8, index_type = T::i32;
  std::string extra_header;  // lines inserted after the format line
};

struct PlyFile {
  std::string bytes;
  std::size_t body;    // offset of the first vertex
  std::size_t stride;  // bytes per vertex
  std::size_t faces;   // offset of the first face
  std::size_t face_size;
};

PlyFile make_ply(const PlyLayout& layout, const std::vector<Vec3>& vertices = tetra_vertices,
                 const std::vector<std::array<std::int32_t, 3>>& faces = tetra_faces) {
  PlyFile f;
  f.bytes = "ply\nformat ";
  f.bytes += layout.big_endian ? "binary_big_endian" : "binary_little_endian";
  f.bytes += " 1.0\n" + layout.extra_header + "element vertex " + std::to_string(vertices.size()) + "\n";
  for (const VertexProperty& p : layout.vertex) f.bytes += "property " + p.header + "\n";
  f.bytes += "element face " + std::to_string(faces.size()) + "\nproperty list " + layout.list + "\nend_header\n";
  f.body = f.bytes.size();
  for (const Vec3& v : vertices) {
    const double xyz[3] = {v.x, v.y, v.z};
    for (const VertexProperty& p : layout.vertex) {
      put(f.bytes, p.type, p.axis < 0 ? 200 : xyz[p.axis], layout.big_endian);
    }
  }
  f.stride = vertices.empty() ? 0 : (f.bytes.size() - f.body) / vertices.size();
  f.faces = f.bytes.size();
  for (const auto& face : faces) {
    put(f.bytes, layout.count_type, 3, layout.big_endian);
    for (std::int32_t i : face) put(f.bytes, layout.index_type, i, layout.big_endian);
  }
  f.face_size = size_of(layout.count_type) + 3 * size_of(layout.index_type);
  return f;
}

void check_tetra(const PlyMesh& mesh) {
  REQUIRE(mesh.vertices.size() == tetra_vertices.size());
  for (std::size_t i = 0; i < tetra_vertices.size(); ++i) {
    CHECK(mesh.vertices[i] == tetra_vertices[i]);
    CHECK(std::signbit(mesh.vertices[i].y) == std::signbit(tetra_vertices[i].y));
  }
  CHECK(mesh.faces == tetra_faces);
}

void ply_error(const std::string& bytes, ParseError::Unit unit, std::uint64_t position, const std::string& words) {
  check_error([&] { parse_ply(bytes, "bad.ply"); }, "bad.ply", unit, position, words);
}
void ply_line_error(const std::string& bytes, std::uint64_t line, const std::string& words) {
  ply_error(bytes, ParseError::Unit::line, line, words);
}

// `bytes` with the first occurrence of `from` replaced by `to`.
std::string replaced(std::string bytes, const std::string& from, const std::string& to) {
  const std::size_t at = bytes.find(from);
  REQUIRE(at != std::string::npos);
  return bytes.replace(at, from.size(), to);
}

TEST_CASE("io.ply: generated files in both byte orders, float and double, extra properties") {
  for (const bool big : {false, true}) {
    CAPTURE(big);
    PlyLayout layout;
    layout.big_endian = big;
    SUBCASE("double") { check_tetra(parse_ply(make_ply(layout).bytes, "t.ply")); }
    SUBCASE("float with colours, as the n-body frames") {
      layout.vertex = {{"float x", T::f32, 0},  {"float y", T::f32, 1},    {"float z", T::f32, 2},
                       {"uchar red", T::u8, -1}, {"uchar green", T::u8, -1}, {"uchar blue", T::u8, -1}};
      check_tetra(parse_ply(make_ply(layout).bytes, "t.ply"));
    }
    SUBCASE("meshio's type names and a comment") {
      layout.vertex = {{"float64 x", T::f64, 0}, {"float64 y", T::f64, 1}, {"float64 z", T::f64, 2}};
      layout.list = "uint8 int32 vertex_indices";
      layout.extra_header = "comment Created by meshio v5.3.5\nobj_info anything\n";
      check_tetra(parse_ply(make_ply(layout).bytes, "t.ply"));
    }
    SUBCASE("other properties around the coordinates, in any order") {
      layout.vertex = {{"uchar red", T::u8, -1}, {"float z", T::f32, 2},  {"int16 id", T::i16, -1},
                       {"double x", T::f64, 0},  {"uint flags", T::u32, -1}, {"float32 y", T::f32, 1},
                       {"float64 nx", T::f64, -1}};
      check_tetra(parse_ply(make_ply(layout).bytes, "t.ply"));
    }
    SUBCASE("other list types") {
      struct ListTypes {
        std::string header;
        T count, index;
      };
      for (const ListTypes& l : {ListTypes{"char uchar vertex_index", T::i8, T::u8},
                                 ListTypes{"ushort short vertex_indices", T::u16, T::i16},
                                 ListTypes{"int uint vertex_indices", T::i32, T::u32},
                                 ListTypes{"uint16 uint16 vertex_indices", T::u16, T::u16}}) {
        CAPTURE(l.header);
        layout.list = l.header;
        layout.count_type = l.count;
        layout.index_type = l.index;
        check_tetra(parse_ply(make_ply(layout).bytes, "t.ply"));
      }
    }
  }
}

TEST_CASE("io.ply: empty elements, CRLF header and extra spaces") {
  const PlyMesh empty = parse_ply(make_ply({}, {}, {}).bytes, "t.ply");
  CHECK(empty.vertices.empty());
  CHECK(empty.faces.empty());
  const PlyFile f = make_ply({});
  check_tetra(parse_ply(with_crlf(f.bytes.substr(0, f.body)) + f.bytes.substr(f.body), "t.ply"));
  check_tetra(parse_ply(replaced(make_ply({}).bytes, "element face 4", "element  face\t4 "), "t.ply"));
}

TEST_CASE("io.ply: a real frame (cloth-funnel 227)") {
  const PlyMesh mesh = read_ply(data_dir / "simulation/cloth-funnel/frames/227.ply");
  // Counts from the table in simulation/README.md.
  REQUIRE(mesh.vertices.size() == 9450);
  REQUIRE(mesh.faces.size() == 18484);
  // Values read with python3: struct.unpack_from('<3d', b, 179 + 24 * i) for
  // vertices (179 header bytes) and '<3i' at 179 + 24 * 9450 + 13 * j + 1 for
  // faces; printed with float.hex().
  CHECK(mesh.vertices[0] == Vec3{-0x1.873ca0p-9, 0x1.8f0c42p-5, -0x1.b66a56p-2});
  CHECK(mesh.vertices[1] == Vec3{0x1.0d20e6p-5, 0x1.b021d2p-5, -0x1.976d54p-2});
  CHECK(mesh.vertices[9449] == Vec3{1.25, -1.25, -2.0});
  CHECK(mesh.faces[0] == std::array<std::int32_t, 3>{7333, 7335, 24});
  CHECK(mesh.faces[1] == std::array<std::int32_t, 3>{7330, 7332, 25});
  CHECK(mesh.faces[18483] == std::array<std::int32_t, 3>{9448, 9438, 9437});
}

TEST_CASE("io: frame, pair list and query file of cloth-funnel agree") {
  const fs::path scene = data_dir / "simulation/cloth-funnel";
  const PlyMesh mesh = read_ply(scene / "frames/227.ply");
  const std::vector<IdPair> pairs = read_pair_list_json(scene / "boxes/227vf.json");
  const QueryFile queries = read_query_csv(scene / "queries/227vf.csv");
  REQUIRE(!pairs.empty());
  REQUIRE(!queries.queries.empty());
  // Face ids follow vertex and edge ids (simulation/README.md: 9450 vertices, 27930 edges).
  REQUIRE(pairs[0][0] < 9450);  // a vertex id
  const std::int64_t face = pairs[0][1] - 9450 - 27930;
  REQUIRE(face >= 0);
  REQUIRE(face < static_cast<std::int64_t>(mesh.faces.size()));
  const std::int32_t ids[4] = {static_cast<std::int32_t>(pairs[0][0]), mesh.faces[face][0], mesh.faces[face][1],
                               mesh.faces[face][2]};
  for (int k = 0; k < 4; ++k) {
    const Vec3& v = mesh.vertices[ids[k]];
    const RationalVec3& q = queries.queries[0].points[k];  // t = 0 points
    CHECK(q.x == mpq_class(v.x));
    CHECK(q.y == mpq_class(v.y));
    CHECK(q.z == mpq_class(v.z));
  }
}

TEST_CASE("io.ply: malformed headers name the line") {
  const std::string good = make_ply({}).bytes;
  // Header lines: 1 ply, 2 format, 3 element vertex, 4-6 x y z, 7 element face,
  // 8 property list, 9 end_header.
  ply_line_error("plx\n" + good.substr(4), 1, "not a PLY file");
  ply_line_error("", 1, "the file is empty");
  ply_line_error("ply", 1, "no end_header");
  ply_line_error(good.substr(0, good.find("end_header")), 9, "no end_header");
  ply_line_error(replaced(good, "binary_little_endian", "ascii"), 2, "ASCII PLY is not supported");
  ply_line_error(replaced(good, "binary_little_endian", "binary_middle_endian"), 2,
                 "unknown format 'binary_middle_endian'");
  ply_line_error(replaced(good, " 1.0\n", " 2.0\n"), 2, "unsupported PLY version '2.0'");
  ply_line_error(replaced(good, " 1.0\n", "\n"), 2, "format line");
  ply_line_error(replaced(good, "element vertex", "format binary_big_endian 1.0\nelement vertex"), 3,
                 "second format line");
  ply_line_error(replaced(good, "format binary_little_endian 1.0\n", ""), 8, "no format line");
  ply_line_error(replaced(good, "element face 4", "element edge 4"), 7, "unsupported element 'edge'");
  ply_line_error(replaced(good, "end_header", "element vertex 1\nproperty double x\nend_header"), 9,
                 "second vertex element");
  ply_line_error(replaced(good, "element face 4\nproperty list uchar int vertex_indices\n", ""), 7,
                 "no face element");
  ply_line_error(replaced(good, "end_header", "bogus line\nend_header"), 9, "unexpected header line");
  ply_line_error(replaced(good, "end_header", "end_header now"), 9, "unexpected header line");
  ply_line_error(replaced(good, "element vertex 4\n", "property double w\nelement vertex 4\n"), 3,
                 "property before any element");
}

TEST_CASE("io.ply: malformed element counts and properties name the line") {
  const std::string good = make_ply({}).bytes;
  ply_line_error(replaced(good, "vertex 4", "vertex four"), 3, "element count 'four'");
  ply_line_error(replaced(good, "vertex 4", "vertex -4"), 3, "element count '-4'");
  ply_line_error(replaced(good, "vertex 4", "vertex 4x"), 3, "element count '4x'");
  ply_line_error(replaced(good, "vertex 4", "vertex 18446744073709551616"), 3, "is not an integer in 0..2^64-1");
  ply_line_error(replaced(good, "vertex 4", "vertex 2147483648"), 3, "more than 2^31-1 vertices");
  ply_line_error(replaced(good, "double x", "int x"), 4, "vertex coordinates must be float or double");
  ply_line_error(replaced(good, "double y", "quad y"), 5, "unknown property type 'quad'");
  ply_line_error(replaced(good, "double y", "double"), 5, "malformed property line");
  ply_line_error(replaced(good, "double y", "double x"), 5, "second vertex property 'x'");
  ply_line_error(replaced(good, "double y", "list uchar int y"), 5, "list properties of vertices");
  ply_line_error(replaced(good, "property double z\n", ""), 3, "vertex element has no z property");
  ply_line_error(replaced(good, "uchar int vertex_indices", "float int vertex_indices"), 8, "integer types");
  ply_line_error(replaced(good, "uchar int vertex_indices", "uchar double vertex_indices"), 8, "integer types");
  ply_line_error(replaced(good, "list uchar int vertex_indices", "list uchar int corners"), 8,
                 "named vertex_indices or vertex_index");
  ply_line_error(replaced(good, "list uchar int vertex_indices", "int vertex_indices"), 8,
                 "named vertex_indices or vertex_index");
  ply_line_error(replaced(good, "vertex_indices\n", "vertex_indices\nproperty uchar red\n"), 9, "exactly one property");
  ply_line_error(replaced(good, "property list uchar int vertex_indices\n", ""), 7, "no vertex_indices property");
}

TEST_CASE("io.ply: body problems name the byte offset") {
  for (const bool big : {false, true}) {
    CAPTURE(big);
    PlyLayout layout;
    layout.big_endian = big;
    const PlyFile f = make_ply(layout);

    SUBCASE("truncated or overlong body") {
      ply_error(f.bytes.substr(0, f.bytes.size() - 5), ParseError::Unit::byte, f.bytes.size() - 5,
                "file too short: the header's 4 vertices and 4 triangles need " +
                    std::to_string(4 * 24 + 4 * 13) + " bytes after the header, found " +
                    std::to_string(4 * 24 + 4 * 13 - 5));
      ply_error(f.bytes.substr(0, f.body + 10), ParseError::Unit::byte, f.body + 10, "file too short");
      ply_error(f.bytes.substr(0, f.body), ParseError::Unit::byte, f.body, "file too short");
      ply_error(f.bytes + "xy", ParseError::Unit::byte, f.bytes.size(), "2 unexpected bytes after the last element");
    }
    SUBCASE("counts far beyond the file size") {
      const std::string huge = replaced(f.bytes, "element vertex 4", "element vertex 2147483647");
      ply_error(huge, ParseError::Unit::byte, huge.size(), "file too short");
      const std::string max = replaced(f.bytes, "element face 4", "element face 18446744073709551615");
      ply_error(max, ParseError::Unit::byte, max.size(), "more than 2^64 bytes");
    }
    SUBCASE("non-triangle faces") {
      std::string b = f.bytes;
      b[f.faces + 2 * f.face_size] = 4;
      ply_error(b, ParseError::Unit::byte, f.faces + 2 * f.face_size, "face 2 has 4 vertices; only triangles");
      b[f.faces + 2 * f.face_size] = 0;
      ply_error(b, ParseError::Unit::byte, f.faces + 2 * f.face_size, "face 2 has 0 vertices");
      // A real quad (a fourth index) or segment (one index fewer) changes the
      // body's size: the face is named all the same (the size error was).
      std::string quad = f.bytes;
      quad[f.faces + 2 * f.face_size] = 4;
      quad.insert(f.faces + 3 * f.face_size, 4, '\0');
      ply_error(quad, ParseError::Unit::byte, f.faces + 2 * f.face_size, "face 2 has 4 vertices; only triangles");
      std::string segment = f.bytes;
      segment[f.faces + 2 * f.face_size] = 2;
      segment.erase(f.faces + 3 * f.face_size - 4, 4);
      ply_error(segment, ParseError::Unit::byte, f.faces + 2 * f.face_size, "face 2 has 2 vertices");
    }
    SUBCASE("indices out of range") {
      const std::size_t at = f.faces + 3 * f.face_size + 1 + 4;  // face 3, second index
      for (const int bad : {4, -1, std::numeric_limits<std::int32_t>::max()}) {
        std::string b = f.bytes.substr(0, at);
        put(b, T::i32, bad, big);
        b += f.bytes.substr(at + 4);
        ply_error(b, ParseError::Unit::byte, at,
                  "face 3: vertex index " + std::to_string(bad) + " out of range (4 vertices)");
      }
    }
    SUBCASE("unsigned indices above 2^31 are out of range") {
      layout.list = "uchar uint vertex_indices";
      layout.index_type = T::u32;
      const PlyFile u = make_ply(layout);
      std::string b = u.bytes.substr(0, u.faces + 1);
      put(b, T::u32, 4294967295.0, big);
      b += u.bytes.substr(u.faces + 5);
      ply_error(b, ParseError::Unit::byte, u.faces + 1, "vertex index 4294967295 out of range");
    }
    SUBCASE("non-finite coordinates") {
      for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity()}) {
        const std::size_t at = f.body + 2 * f.stride + 8;  // vertex 2, y
        std::string b = f.bytes.substr(0, at);
        put(b, T::f64, bad, big);
        b += f.bytes.substr(at + 8);
        ply_error(b, ParseError::Unit::byte, at, "vertex 2: coordinate y is not finite");
      }
      layout.vertex = {{"float x", T::f32, 0}, {"float y", T::f32, 1}, {"float z", T::f32, 2}};
      std::vector<Vec3> v = tetra_vertices;
      v[3].z = std::numeric_limits<double>::infinity();
      const PlyFile g = make_ply(layout, v);
      ply_error(g.bytes, ParseError::Unit::byte, g.body + 3 * 12 + 8, "vertex 3: coordinate z is not finite");
    }
  }
}

TEST_CASE("io.ply: an unreadable file") {
  const fs::path missing = data_dir / "missing.ply";
  check_error([&] { read_ply(missing); }, missing.string(), ParseError::Unit::byte, 0, "cannot read file");
}

// ---------------------------------------------------------------- JSON

void pairs_error(const std::string& text, std::uint64_t line, const std::string& words) {
  INFO(text);
  check_error([&] { parse_pair_list_json(text, "p.json"); }, "p.json", ParseError::Unit::line, line, words);
}
void bools_error(const std::string& text, std::uint64_t line, const std::string& words) {
  INFO(text);
  check_error([&] { parse_bool_list_json(text, "b.json"); }, "b.json", ParseError::Unit::line, line, words);
}

TEST_CASE("io.json: simulation pair lists and truth lists") {
  struct Expected {
    const char* boxes;
    const char* truth;
    std::size_t pairs, true_count;  // python3: len(json.load(f)), sum(json.load(f))
  };
  const Expected expected[] = {
      {"cloth-funnel/boxes/227vf.json", "cloth-funnel/mma_bool/227vf_mma_bool.json", 92, 27},
      {"cloth-funnel/boxes/227ee.json", "cloth-funnel/mma_bool/227ee_mma_bool.json", 263, 107},
      {"rod-twist/boxes/3036vf.json", "rod-twist/mma_bool/3036vf_mma_bool.json", 801, 765},
      {"rod-twist/boxes/3036ee.json", "rod-twist/mma_bool/3036ee_mma_bool.json", 4370, 4179},
      {"n-body-simulation/boxes/18vf.json", "n-body-simulation/mma_bool/18vf_mma_bool.json", 9460, 9459},
      {"n-body-simulation/boxes/18ee.json", "n-body-simulation/mma_bool/18ee_mma_bool.json", 41036, 41031},
  };
  for (const Expected& e : expected) {
    INFO(e.boxes);
    const std::vector<IdPair> pairs = read_pair_list_json(data_dir / "simulation" / e.boxes);
    const std::vector<std::uint8_t> truth = read_bool_list_json(data_dir / "simulation" / e.truth);
    CHECK(pairs.size() == e.pairs);
    CHECK(truth.size() == e.pairs);
    CHECK(static_cast<std::size_t>(std::count(truth.begin(), truth.end(), 1)) == e.true_count);
  }
  // First pairs as printed by python3.
  CHECK(read_pair_list_json(data_dir / "simulation/cloth-funnel/boxes/227vf.json").front() == IdPair{8877, 54785});
  CHECK(read_pair_list_json(data_dir / "simulation/n-body-simulation/boxes/18ee.json").front() ==
        IdPair{275090, 291214});
}

TEST_CASE("io.json: values and whitespace") {
  CHECK(parse_pair_list_json("[[1,2],[30,0]]", "p.json") == std::vector<IdPair>{{1, 2}, {30, 0}});
  CHECK(parse_pair_list_json(" \r\n\t[ [ 1 ,\n 2 ] ,\n[9223372036854775807,0]\n]\n\n", "p.json") ==
        std::vector<IdPair>{{1, 2}, {9223372036854775807, 0}});
  CHECK(parse_pair_list_json("[]", "p.json").empty());
  CHECK(parse_pair_list_json(" [ ] ", "p.json").empty());
  CHECK(parse_bool_list_json("[true,false, true\n]", "b.json") == std::vector<std::uint8_t>{1, 0, 1});
  CHECK(parse_bool_list_json("[]", "b.json").empty());
}

TEST_CASE("io.json: malformed lists name the line and column") {
  SUBCASE("syntax") {
    pairs_error("", 1, "expected '[' opening the list, found end of file (column 1)");
    pairs_error("  \n {}", 2, "expected '[' opening the list, found '{' (column 2)");
    pairs_error("[[1,2],]", 1, "expected '[' opening a pair of ids, found ']' (column 8)");
    pairs_error("[[1,2] [3,4]]", 1, "expected ',' or ']' after a list item, found '[' (column 8)");
    pairs_error("[[1,2],,[3,4]]", 1, "column 8");
    pairs_error("[\n[1,2],\n[3,x]\n]", 3, "expected an id (a non-negative integer), found 'x' (column 4)");
    bools_error("[true false]", 1, "expected ',' or ']' after a list item, found 'f' (column 7)");
    bools_error("[truex]", 1, "found 'x' (column 6)");
    bools_error("[tru]", 1, "expected true or false, found 't' (column 2)");
    bools_error("[True]", 1, "expected true or false");
  }
  SUBCASE("unterminated") {
    pairs_error("[[1,2],[3,4]", 1, "expected ',' or ']' after a list item, found end of file");
    pairs_error("[[1,2],\n[3,4", 2, "found end of file (column 5)");
    pairs_error("[[1,2],\n[3,", 2, "expected an id (a non-negative integer), found end of file");
    pairs_error("[", 1, "found end of file");
    bools_error("[true,\nfalse,\n", 3, "expected true or false, found end of file (column 1)");
    bools_error("[true", 1, "found end of file");
  }
  SUBCASE("trailing garbage") {
    pairs_error("[[1,2]] x", 1, "unexpected 'x' after the list (column 9)");
    pairs_error("[[1,2]]\n\n]", 3, "unexpected ']' after the list");
    bools_error("[true][false]", 1, "unexpected '[' after the list (column 7)");
    bools_error(std::string("[true]\0", 7), 1, "unexpected '\\x00' after the list");
  }
  SUBCASE("wrong types and shapes") {
    pairs_error("[[1,2,3]]", 1, "expected ']' after the second id of a pair (a pair has exactly two ids), found ','");
    pairs_error("[[1]]", 1, "expected ',' after the first id of a pair, found ']'");
    pairs_error("[[]]", 1, "expected an id");
    pairs_error("[1,2]", 1, "expected '[' opening a pair of ids, found '1'");
    pairs_error("[true]", 1, "expected '[' opening a pair of ids, found 't'");
    pairs_error("[[\"1\",2]]", 1, "expected an id (a non-negative integer), found '\"'");
    pairs_error("[[-1,2]]", 1, "ids must be non-negative (column 3)");
    pairs_error("[[1.5,2]]", 1, "ids must be integers, found '.' (column 4)");
    pairs_error("[[1e3,2]]", 1, "ids must be integers, found 'e'");
    pairs_error("[[1,01]]", 1, "a number with a leading zero is not JSON (column 5)");
    pairs_error("[[1,9223372036854775808]]", 1, "id does not fit in 64 bits (column 5)");
    bools_error("[[1,2]]", 1, "expected true or false, found '['");
    bools_error("[1]", 1, "expected true or false, found '1'");
    bools_error("[\"true\"]", 1, "expected true or false");
    bools_error("[null]", 1, "expected true or false");
  }
}

TEST_CASE("io.json: an unreadable file is an error at line 0") {
  const fs::path missing = data_dir / "missing.json";
  check_error([&] { read_pair_list_json(missing); }, missing.string(), ParseError::Unit::line, 0, "cannot read file");
  check_error([&] { read_bool_list_json(missing); }, missing.string(), ParseError::Unit::line, 0, "cannot read file");
}

// ---------------------------------------------------------------- Rigid CSV

const std::string translation_header = "type,mover,p0x,p0y,p0z,p1x,p1y,p1z,p2x,p2y,p2z,p3x,p3y,p3z,tx,ty,tz";
const std::string rotation_header =
    "type,mover,p0x,p0y,p0z,p1x,p1y,p1z,p2x,p2y,p2z,p3x,p3y,p3z,cx,cy,cz,ax,ay,az,tan_half";
const std::string twelve_points = "1,2,3,4,5,6,7,8,9,10,11,12";

void rigid_error(const std::string& text, std::uint64_t line, const std::string& words) {
  INFO(text);
  check_error([&] { parse_rigid_csv(text, "bad.csv"); }, "bad.csv", ParseError::Unit::line, line, words);
}

// n / d, canonical.
mpq_class ratio(const mpz_class& n, const mpz_class& d) {
  mpq_class q(n, d);
  q.canonicalize();
  return q;
}

TEST_CASE("io.rigid_csv: a translation file with truth, both types, comments") {
  const std::string text = "# a comment before the header\n" + translation_header + ",truth\n" +
                           "vf,0,1,2,3,4,5,6,7,8,9,10,11,12,-1,0.5,3/4,1\n" +
                           "# a comment between rows\n" +
                           "ee,1,0,0,0,1,0,0,0,1,0,0,0,1,7,8,9,0\n";
  const RigidQueryFile f = parse_rigid_csv(text, "t.csv");
  CHECK(f.motion == RigidMotionType::translation);
  CHECK(f.types == std::vector<QueryType>{QueryType::vertex_face, QueryType::edge_edge});
  CHECK(f.truth == std::vector<std::uint8_t>{1, 0});
  REQUIRE(f.queries.size() == 2);
  const RationalRigidQuery& a = f.queries[0];
  CHECK(a.mover == Mover::first);
  for (int k = 0; k < 4; ++k) {
    CHECK(a.points[k].x == 3 * k + 1);
    CHECK(a.points[k].y == 3 * k + 2);
    CHECK(a.points[k].z == 3 * k + 3);
  }
  CHECK(a.motion.type == RigidMotionType::translation);
  CHECK(a.motion.translation.x == -1);
  CHECK(a.motion.translation.y == mpq_class(1, 2));
  CHECK(a.motion.translation.z == mpq_class(3, 4));
  // The rotation's parameters stay zero.
  CHECK(a.motion.center.x == 0);
  CHECK(a.motion.axis.z == 0);
  CHECK(a.motion.tan_half == 0);
  CHECK(a.motion.tan_half_infinity == 0);
  const RationalRigidQuery& b = f.queries[1];
  CHECK(b.mover == Mover::second);
  CHECK(b.points[1].x == 1);
  CHECK(b.points[3].z == 1);
  CHECK(b.motion.translation.z == 9);
}

TEST_CASE("io.rigid_csv: a rotation file without truth, half turns") {
  const std::string text = rotation_header + "\n" +                        //
                           "ee," + "0," + twelve_points + ",1,2,3,0,0,1,1/3\n" +  //
                           "vf," + "1," + twelve_points + ",0,0,0,1,1,0,inf\n" +  //
                           "vf," + "0," + twelve_points + ",0,0,0,1,1,0,+inf\n" +  //
                           "ee," + "1," + twelve_points + ",0,0,0,-2,0,0,-inf\n";
  const RigidQueryFile f = parse_rigid_csv(text, "r.csv");
  CHECK(f.motion == RigidMotionType::rotation);
  CHECK(f.truth.empty());
  CHECK(f.types == std::vector<QueryType>{QueryType::edge_edge, QueryType::vertex_face, QueryType::vertex_face,
                                          QueryType::edge_edge});
  REQUIRE(f.queries.size() == 4);
  const RationalRigidMotion& m = f.queries[0].motion;
  CHECK(m.type == RigidMotionType::rotation);
  CHECK((m.center.x == 1 && m.center.y == 2 && m.center.z == 3));
  CHECK((m.axis.x == 0 && m.axis.y == 0 && m.axis.z == 1));
  CHECK(m.tan_half == mpq_class(1, 3));
  CHECK(m.tan_half_infinity == 0);
  CHECK(m.translation.x == 0);
  CHECK(f.queries[1].motion.tan_half_infinity == 1);
  CHECK(f.queries[1].motion.tan_half == 0);
  CHECK(f.queries[2].motion.tan_half_infinity == 1);
  CHECK(f.queries[3].motion.tan_half_infinity == -1);
  CHECK(f.queries[3].motion.axis.x == -2);
  CHECK(f.queries[3].mover == Mover::second);
  CHECK(f.queries[3].points[3].z == 12);
}

TEST_CASE("io.rigid_csv: numbers are the rationals they denote, exactly") {
  // 2^100 (python3).
  const std::string big = "1267650600228229401496703205376";
  const std::vector<std::pair<std::string, mpq_class>> cases = {
      {"0.1", mpq_class(1, 10)},
      {"-2.5e-3", mpq_class(-1, 400)},
      {"1E10", mpq_class(10000000000)},
      {"1e+20", mpq_class(mpz_class("100000000000000000000"))},
      {"12.50E-0", mpq_class(25, 2)},
      {"+0.000", 0},
      {"-0", 0},
      {"007", 7},
      {"0e9999", 0},
      {"1.5e0009", mpq_class(1500000000)},
      {"-12", -12},
      {"6/4", mpq_class(3, 2)},
      {"1/-2", mpq_class(-1, 2)},
      {"-3/-9", mpq_class(1, 3)},
      {"+0/-5", 0},
      {big, mpq_class(mpz_class(big))},
      {"-" + big + "/" + big + "0", mpq_class(-1, 10)},
      {big + ".5", ratio(mpz_class(big) * 2 + 1, 2)},
  };
  for (const auto& [field, value] : cases) {
    INFO(field);
    const RigidQueryFile f =
        parse_rigid_csv(translation_header + "\nvf,0," + twelve_points + ",0,0," + field + "\n", "n.csv");
    const mpq_class& z = f.queries.at(0).motion.translation.z;
    CHECK(z == value);
    // Canonical: positive denominator, lowest terms.
    CHECK(mpz_sgn(z.get_den_mpz_t()) > 0);
    CHECK(gcd(z.get_num(), z.get_den()) == 1);
  }
  const RigidQueryFile tiny =
      parse_rigid_csv(translation_header + "\nvf,0," + twelve_points + ",0.1,1e-9999,0\n", "n.csv");
  CHECK(tiny.queries[0].motion.translation.x != mpq_class(0.1));  // not the double
  mpz_class ten_9999;
  mpz_ui_pow_ui(ten_9999.get_mpz_t(), 10, 9999);
  CHECK(tiny.queries[0].motion.translation.y == ratio(1, ten_9999));
}

TEST_CASE("io.rigid_csv: line endings, comments, trailing empty lines") {
  const std::string rows = translation_header + "\nvf,0," + twelve_points + ",1,2,3\nee,1," + twelve_points + ",4,5,6\n";
  const RigidQueryFile plain = parse_rigid_csv(rows, "x.csv");
  CHECK(plain.queries.size() == 2);
  CHECK(parse_rigid_csv(with_crlf(rows), "crlf.csv") == plain);
  CHECK(parse_rigid_csv(rows.substr(0, rows.size() - 1), "x.csv") == plain);  // no final newline
  CHECK(parse_rigid_csv(rows + "\n\r\n\n", "x.csv") == plain);
  CHECK(parse_rigid_csv("#\n# x,y\n" + rows + "#,\n#", "x.csv") == plain);
  const RigidQueryFile header_only = parse_rigid_csv(rotation_header + ",truth", "h.csv");
  CHECK(header_only.motion == RigidMotionType::rotation);
  CHECK(header_only.queries.empty());
  CHECK(header_only.types.empty());
  CHECK(header_only.truth.empty());
}

TEST_CASE("io.rigid_csv: malformed files name the file, line and field") {
  const std::string t = translation_header + "\n";  // line 1
  const std::string r = "# rotation\n" + rotation_header + ",truth\n";  // lines 1-2
  const std::string t_row = "vf,0," + twelve_points + ",1,2,3\n";
  const std::string r_row = "ee,1," + twelve_points + ",0,0,0,0,0,1,2,1\n";
  SUBCASE("no header") {
    // Line 1, where the header belongs (line 0 once: no line of the file).
    rigid_error("", 1, "no header line: the file is empty");
    rigid_error("# only\n# comments\n", 1, "no header line");
  }
  SUBCASE("unknown header") {
    rigid_error("# x\n" + translation_header + ",tan_half\n", 2, "unknown header 'type,mover,p0x");
    rigid_error(rotation_header.substr(0, rotation_header.size() - 1) + "\n", 1, "unknown header");
    rigid_error(translation_header + ",truth,truth\n", 1, "unknown header");
    rigid_error(translation_header + " \n", 1, "unknown header");
    rigid_error(t_row, 1, "unknown header 'vf,0,1,2,");
  }
  SUBCASE("field count") {
    rigid_error(t + t_row + "vf,0," + twelve_points + ",1,2\n", 3,
                "expected 17 fields (as the header on line 1), found 16");
    rigid_error(t + "vf,0," + twelve_points + ",1,2,3,0\n", 2, "expected 17 fields");
    rigid_error(r + r_row + r_row + "ee,1," + twelve_points + ",0,0,0,0,0,1,2\n", 5,
                "expected 22 fields (as the header on line 2), found 21");
    rigid_error(t + "\t\n", 2, "found 1");  // blank is not empty
  }
  SUBCASE("type, mover, truth") {
    rigid_error(t + t_row + "VF,0," + twelve_points + ",1,2,3\n", 3, "type (field 1) must be vf or ee, found 'VF'");
    rigid_error(t + "fv,0," + twelve_points + ",1,2,3\n", 2, "type (field 1)");
    rigid_error(t + "vf,2," + twelve_points + ",1,2,3\n", 2, "mover (field 2) must be 0 or 1, found '2'");
    rigid_error(t + "vf,," + twelve_points + ",1,2,3\n", 2, "mover (field 2) must be 0 or 1, found ''");
    rigid_error(r + "ee,1," + twelve_points + ",0,0,0,0,0,1,2,01\n", 3,
                "truth (field 22) must be 0 or 1, found '01'");
    rigid_error(r + r_row + "ee,1," + twelve_points + ",0,0,0,0,0,1,2,true\n", 4, "truth (field 22)");
  }
  SUBCASE("malformed numbers") {
    rigid_error(t + "vf,0,abc,2,3,4,5,6,7,8,9,10,11,12,1,2,3\n", 2, "field 3 (p0x) is not a number: 'abc'");
    rigid_error(t + t_row + "vf,0," + twelve_points + ",1,2, 3\n", 3, "field 17 (tz) is not a number: ' 3'");
    for (const char* bad : {"", ".5", "5.", "1e", "1e+", "e5", "--1", "+-1", "1.5/2", "1/2.5", "1/2/3", "0x10", "1,5",
                            "nan", "INF", "infinity", "1_000", "1 /2", "1e5.0", "/2", "2/"}) {
      INFO(bad);
      const std::string row = "ee,0," + twelve_points + ",0,0,0,0,0,1," + bad + ",0\n";
      if (std::string(bad) == "1,5") {
        rigid_error(r + row, 3, "expected 22 fields");
      } else {
        rigid_error(r + row, 3, "field 21 (tan_half) is not a number: '" + std::string(bad) + "'");
      }
    }
  }
  SUBCASE("zero denominator") {
    rigid_error(t + "vf,0,1,2,3,4/0,5,6,7,8,9,10,11,12,1,2,3\n", 2, "field 6 (p1x): zero denominator");
    rigid_error(r + "ee,1," + twelve_points + ",0,0,0,0,0,1,-3/-000,1\n", 3, "field 21 (tan_half): zero denominator");
  }
  SUBCASE("exponent out of range") {
    rigid_error(t + "vf,0," + twelve_points + ",1e10000,2,3\n", 2, "field 15 (tx): exponent beyond 9999");
    rigid_error(t + "vf,0," + twelve_points + ",1,-0.5E-00012345,3\n", 2, "field 16 (ty): exponent beyond 9999");
  }
  SUBCASE("inf outside tan_half") {
    rigid_error(t + "vf,0," + twelve_points + ",1,inf,3\n", 2, "field 16 (ty): inf is allowed only in tan_half");
    rigid_error(r + "ee,1,-inf,2,3,4,5,6,7,8,9,10,11,12,0,0,0,0,0,1,2,1\n", 3,
                "field 3 (p0x): inf is allowed only in tan_half");
    rigid_error(r + "ee,1," + twelve_points + ",0,0,0,0,0,+inf,2,1\n", 3, "field 20 (az): inf is allowed");
  }
  SUBCASE("empty lines") {
    rigid_error(t + t_row + "\n" + t_row, 3, "empty line before more data");
    rigid_error("\n" + t + t_row, 1, "empty line before more data");
    rigid_error(t + t_row + "\r\n\n# a comment\n", 3, "empty line before more data");
  }
}

TEST_CASE("io.rigid_csv: an unreadable file is an error at line 0, a readable one parses") {
  const fs::path missing = data_dir / "does-not-exist.csv";
  check_error([&] { read_rigid_csv(missing); }, missing.string(), ParseError::Unit::line, 0, "cannot read file");
  const fs::path path = fs::temp_directory_path() / "simdccd_test_io_rigid_csv.csv";
  const std::string text = translation_header + "\nvf,0," + twelve_points + ",1,2,3\n";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  CHECK(read_rigid_csv(path) == parse_rigid_csv(text, path.string()));
  fs::remove(path);
}

// A file of `motion` with both types, huge and negative numbers, and (for a
// rotation) half turns both ways.
RigidQueryFile sample_file(RigidMotionType motion, bool truth) {
  const mpz_class big("-123456789012345678901234567890123456789");  // python3: beyond 2^126
  RigidQueryFile f;
  f.motion = motion;
  for (int i = 0; i < 6; ++i) {
    f.types.push_back(i % 2 ? QueryType::edge_edge : QueryType::vertex_face);
    if (truth) f.truth.push_back(static_cast<std::uint8_t>(i % 3 == 1));
    RationalRigidQuery& q = f.queries.emplace_back();
    q.mover = i % 3 ? Mover::second : Mover::first;
    for (int k = 0; k < 4; ++k) {
      q.points[k] = {ratio(big, 3 + 2 * k + i), ratio(-k, 7), ratio(big * big + k, 1)};
    }
    q.motion.type = motion;
    if (motion == RigidMotionType::translation) {
      q.motion.translation = {mpq_class(1, 10), ratio(-big, 1024), mpq_class(i)};
    } else {
      q.motion.center = {mpq_class(-1, 3), 0, ratio(big, 1)};
      q.motion.axis = {0, mpq_class(2, 5), mpq_class(-1)};
      q.motion.tan_half_infinity = i % 3 - 1;
      if (q.motion.tan_half_infinity == 0) q.motion.tan_half = ratio(big, 7);
    }
  }
  return f;
}

TEST_CASE("io.rigid_csv: format_rigid_csv and parse_rigid_csv round trip exactly") {
  for (const RigidMotionType motion : {RigidMotionType::translation, RigidMotionType::rotation}) {
    for (const bool truth : {false, true}) {
      const RigidQueryFile f = sample_file(motion, truth);
      const std::string text = format_rigid_csv(f);
      INFO(text);
      const RigidQueryFile again = parse_rigid_csv(text, "written.csv");
      CHECK(again == f);
      CHECK(format_rigid_csv(again) == text);
    }
  }
  // The writer's form: n or n/d with d > 0 in lowest terms, inf and -inf.
  const std::string text = "# comment\r\n" + rotation_header + ",truth\r\n" + "vf,1," + twelve_points +
                           ",0.5,-2/4,1/-3,+7,-0,1e3,+inf,1\r\n" + "ee,0," + twelve_points + ",0,0,0,1,1,1,-inf,0\r\n" +
                           "ee,0," + twelve_points + ",0,0,0,1,1,1,-1.25e-1,0\r\n";
  CHECK(format_rigid_csv(parse_rigid_csv(text, "x.csv")) ==
        rotation_header + ",truth\n" + "vf,1," + twelve_points + ",1/2,-1/2,-1/3,7,0,1000,inf,1\n" + "ee,0," +
            twelve_points + ",0,0,0,1,1,1,-inf,0\n" + "ee,0," + twelve_points + ",0,0,0,1,1,1,-1/8,0\n");
  CHECK(format_rigid_csv(RigidQueryFile{}) == translation_header + "\n");
  CHECK(parse_rigid_csv(format_rigid_csv(RigidQueryFile{}), "empty.csv") == RigidQueryFile{});
}

TEST_CASE("io.rigid_csv: equality and the writer's preconditions") {
  const RigidQueryFile f = sample_file(RigidMotionType::rotation, true);
  CHECK(f == f);
  RigidQueryFile g = f;
  g.queries[2].motion.tan_half_infinity = -g.queries[2].motion.tan_half_infinity;
  CHECK_FALSE(g == f);
  g = f;
  g.queries[5].motion.translation.x = 1;  // a parameter the rotation does not use
  CHECK_FALSE(g == f);
  g = f;
  g.queries.pop_back();
  CHECK_FALSE(g == f);

  const auto rejects = [](const RigidQueryFile& bad) { CHECK_THROWS_AS(format_rigid_csv(bad), std::invalid_argument); };
  g = f;
  g.types.pop_back();
  rejects(g);
  g = f;
  g.truth.pop_back();
  rejects(g);
  g = f;
  g.truth[0] = 2;
  rejects(g);
  g = f;
  g.motion = RigidMotionType::translation;
  rejects(g);
  g = f;
  g.queries[1].motion.tan_half_infinity = 2;
  rejects(g);
  g = f;
  g.queries[1].mover = static_cast<Mover>(2);
  rejects(g);
  g = f;
  g.types[1] = static_cast<QueryType>(2);
  rejects(g);
}

}  // namespace
