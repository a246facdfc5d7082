// parse_rigid_csv on arbitrary bytes. A ParseError is the only accepted
// failure; anything else escapes and crashes. A parsed file must be
// consistent (one type a query, each motion of the file's type, the unused
// parameters zero, canonical numbers) and read back the same once written out
// by format_rigid_csv, which must then write the same text again.
#include <cstdint>
#include <string>
#include <string_view>

#include "rational_checks.hpp"
#include "simdccd/io/parse_error.hpp"
#include "simdccd/io/rigid_csv.hpp"

namespace {

using fuzz_checks::canonical;
using fuzz_checks::require;

bool zero(const simdccd::RationalVec3& p) { return p.x == 0 && p.y == 0 && p.z == 0; }

void check_query(const simdccd::RationalRigidQuery& q, simdccd::RigidMotionType motion) {
  for (const simdccd::RationalVec3& p : q.points) require(canonical(p));
  require(q.mover == simdccd::Mover::first || q.mover == simdccd::Mover::second);
  const simdccd::RationalRigidMotion& m = q.motion;
  require(m.type == motion);
  require(canonical(m.translation) && canonical(m.center) && canonical(m.axis) && canonical(m.tan_half));
  if (motion == simdccd::RigidMotionType::translation) {
    require(zero(m.center) && zero(m.axis) && m.tan_half == 0 && m.tan_half_infinity == 0);
  } else {
    require(zero(m.translation));
    require(m.tan_half_infinity == 0 || ((m.tan_half_infinity == 1 || m.tan_half_infinity == -1) && m.tan_half == 0));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  simdccd::RigidQueryFile f;
  try {
    f = simdccd::parse_rigid_csv(text, "fuzz.csv");
  } catch (const simdccd::ParseError&) {
    return 0;
  }
  require(f.types.size() == f.queries.size());
  require(f.truth.empty() || f.truth.size() == f.queries.size());
  for (const std::uint8_t t : f.truth) require(t <= 1);
  for (const simdccd::RationalRigidQuery& q : f.queries) check_query(q, f.motion);
  const std::string written = simdccd::format_rigid_csv(f);
  const simdccd::RigidQueryFile again = simdccd::parse_rigid_csv(written, "written.csv");
  require(again == f);
  require(simdccd::format_rigid_csv(again) == written);
  return 0;
}
