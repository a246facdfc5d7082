// The CSV query format of the rigid-body model (rigid_ccd.hpp,
// rigid_motion.hpp): reader and writer, in exact rationals.
//
// Layout. Text, one record a line; lines end in "\n" or "\r\n" (the last one
// may lack it). The first line that is not a comment is the header; every
// later one that is not a comment is one query. One motion type a file, named
// by the header, which is exactly one of (no spaces, lower case):
//   type,mover,p0x,p0y,p0z,p1x,p1y,p1z,p2x,p2y,p2z,p3x,p3y,p3z,tx,ty,tz
//   type,mover,p0x,p0y,p0z,p1x,p1y,p1z,p2x,p2y,p2z,p3x,p3y,p3z,cx,cy,cz,ax,ay,az,tan_half
// for a translation (17 fields) or a rotation (21 fields), either followed by
// `,truth` (18 or 22 fields). Every query line has the header's field count.
// - `type`: `vf` (vertex-face) or `ee` (edge-edge); a file may mix them.
// - `mover`: `0` (the first primitive moves: VF the vertex, EE edge a) or
//   `1` (the second: the face, edge b).
// - p0..p3: the query's four points at u = 0 in RigidQuery order (VF v, f0,
//   f1, f2; EE a0, a1, b0, b1).
// - translation: t = (tx, ty, tz). Rotation: the center c, the axis a and
//   tan_half (rigid_motion.hpp).
// - `truth`: `0` or `1` (derived elsewhere; this reader only carries it).
// Lines whose first character is `#` are comments, allowed anywhere (also
// before the header) and ignored. Empty lines (nothing, or a lone "\r") may
// only end the file, as in query_csv.hpp: an empty line followed by any other
// line, comment or not, is an error. A file without a header line (empty,
// or only comments) is an error too: it names no motion. A header without
// query lines is a file of no queries.
//
// Numbers are exact rationals, in one of three forms, without spaces:
// - integer:  [+-]?[0-9]+ of any size, e.g. `-12`;
// - fraction: integer/integer, e.g. `-3/4`, `1/-2`, `6/4` (any sizes; the
//   denominator nonzero; read as the rational, so 6/4 is 3/2);
// - decimal:  [+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?, e.g. `0.1`,
//   `-2.5e-3`, `1E10`, `1e+20`, read exactly: `0.1` is 1/10 (not the double
//   nearest to it), `-2.5e-3` is -1/400. The exponent (leading zeros
//   allowed) is at most 9999 in magnitude, so that a short field cannot
//   denote a number of gigabytes.
// `tan_half` may also be `inf`, `+inf` or `-inf`: a half turn one way or the
// other (RationalRigidMotion::tan_half_infinity = +1 or -1, tan_half 0).
// Nothing else is a number: no `.5`, `5.`, hexadecimal, `nan`, `infinity`
// or upper-case `INF`.
//
// Errors: `ParseError` with the file and the 1-based line, and for a field
// its 1-based number and column name, for
// - no header: "no header line: the file is empty or holds only comments", at
//   line 1;
// - an unknown header: "unknown header 'LINE'; expected ..." (the two
//   headers; LINE cut after 40 characters);
// - a wrong field count: "expected N fields (as the header on line H), found M";
// - a bad type, mover or truth: "type (field 1) must be vf or ee, found 'X'",
//   "mover (field 2) must be 0 or 1, found 'X'", "truth (field N) must be 0
//   or 1, found 'X'";
// - a malformed number: "field N (NAME) is not a number: 'X'";
// - a zero denominator: "field N (NAME): zero denominator";
// - an exponent out of range: "field N (NAME): exponent beyond 9999";
// - `inf` elsewhere than tan_half: "field N (NAME): inf is allowed only in
//   tan_half";
// - an empty line before more lines: "empty line before more data", at the
//   (first) empty line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "simdccd/query.hpp"
#include "simdccd/rigid_motion.hpp"
#include "simdccd/rigid_oracle.hpp"

namespace simdccd {

struct RigidQueryFile {
  RigidMotionType motion = RigidMotionType::translation;
  /// One a query.
  std::vector<QueryType> types;
  /// Each query's motion has type `motion`; the parameters of the other type
  /// are zero (and tan_half is 0 for a half turn).
  std::vector<RationalRigidQuery> queries;
  /// Empty when the file has no truth column, else one 0/1 per query.
  std::vector<std::uint8_t> truth;
};

/// Equal when every member is: the motion type, the types, the truth and
/// every number of every query (also the parameters `motion` does not use).
bool operator==(const RigidQueryFile& a, const RigidQueryFile& b);

/// Throws `ParseError` (see the top). The numbers are canonical (mpq_class).
RigidQueryFile parse_rigid_csv(std::string_view text, const std::string& file_name);
/// Reads the file and parses it; an unreadable file is a `ParseError` at line 0.
RigidQueryFile read_rigid_csv(const std::filesystem::path& path);

/// The file in the format above: the header of `file.motion` (with `,truth`
/// when `file.truth` is not empty), then one line a query, each ending in
/// "\n", no comments; numbers as mpq_get_str writes them, `n` or `n/d` (for
/// canonical values d > 1, in lowest terms), a half turn as `inf` or `-inf`.
/// Writes only the parameters of `file.motion`, so
/// parse_rigid_csv(format_rigid_csv(f)) == f for every f that parse_rigid_csv
/// returns. Throws std::invalid_argument unless `types` (and a non-empty
/// `truth`) have one entry a query, every type is vf or ee, every mover first
/// or second, every truth 0 or 1, every query's motion of type
/// `file.motion`, and every tan_half_infinity -1, 0 or 1.
std::string format_rigid_csv(const RigidQueryFile& file);

}  // namespace simdccd
