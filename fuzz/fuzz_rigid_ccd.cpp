// The rigid-motion batch kernels (rigid_ccd.hpp) against the exact rigid
// oracle (rigid_exact_ccd), on queries decoded from the fuzzer's bytes. Built
// once per kernel and mode: SIMDCCD_FUZZ_TYPE (0 = VF, 1 = EE) and
// SIMDCCD_FUZZ_MODE (0 = conservative, 1 = exact). The harness (decoding,
// running, checking, reporting) is fuzz_harness.hpp; this file the model.
//
// Input: bytes 0-2 as for the linear targets (batch size 1..70, so tiles of
// 64 and their tails; flags: time tolerance, a misaligned copy of the
// arrays, where the range is split in two calls; the implementation that runs
// exact mode); then the batch header:
// - a byte: bit 0 the motion type (translation, rotation); bits 1-2 both set:
//   no mover array (each query given in the frame where its first primitive
//   moves, rigid_kernel_support.hpp); bit 3: one motion for the whole batch,
//   decoded right after the header, else one a query;
// - a byte: the expel zone's thickness (kExpels: 0 most often, 2^-1074 to
//   2^60, and values out of its domain, which make every query invalid);
// then queries, each a class byte and that class's choices (Class below), a
// mover byte and, without a batch motion, the query's motion (a flavour byte:
// grid, palette or uniform), until the batch is full or the bytes run out
// (the rest repeat the decoded ones, which must then get identical answers in
// any lane or tile).
//
// Every runnable implementation (targets.hpp; the rigid family has no xsimd
// entry) runs conservative mode; the exact targets also run exact mode on one
// of them. Checked (check_answer of tests/hard_queries.hpp against the
// oracle's answer): invalid_input exactly out of the domain
// (test::rigid_in_domain: a number non-finite or beyond 2^60, tan_half +-inf
// about a zero axis, an invalid expel); exact mode: hit equal to the
// oracle's, a hit's toi in [toi_lo - tolerance, toi_hi], toi_lo itself when
// the oracle decided; conservative: no false negative, toi <= toi_hi,
// certified hits true hits. Answers must be bit-identical across
// implementations, for the split ranges and for the indexed form (two bodies,
// pairs with mover flags, one call a run of equal motions); exact mode must
// repeat every certified conservative answer. The statistics must count what
// the answers say. Any violation prints the query and aborts.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_harness.hpp"
#include "rigid_kernel_support.hpp"
#include "simdccd/rigid_ccd.hpp"
#include "simdccd/rigid_oracle.hpp"

namespace {

using namespace simdccd;
using fuzz::kType;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kBeyond = std::nextafter(0x1p60, kInf);

/// The expel zone's thickness: 0 in 10 of 32, the last four out of the domain.
const double kExpels[32] = {0,         0,      0,       0,    0,      0,      0,     0,    0,       0,    -0.0,
                            0x1p-1074, 1e-300, 0x1p-30, 1e-8, 0.01,   0.05,   0.125, 0.25, 0.5,     0.75, 1,
                            2,         3,      1.0 / 3, 10,   0x1p30, 0x1p60, -0.25, kNaN, kBeyond, -kInf};

/// Hard coordinates: signed zeros, small integers and fractions, neighbours
/// of 1; the last eight tiny and huge magnitudes within the domain, which
/// make the oracle slow (rationals of a thousand bits), drawn less often.
const double kPalette[32] = {0,         -0.0,       1,      -1,          0.5,         -0.5,        2,          -2,
                             0.25,      1.0 / 3,    0.1,    1 - 0x1p-53, 1 + 0x1p-52, 0x1p-30,     0x1p30 + 1, 3,
                             -3,        4,          0.75,   -0.125,      0x1p-52,     1 - 0x1p-30, 7,          1024,
                             0x1p-1074, -0x1p-1022, 1e-300, 0x1p60,      -0x1p60,     0x1p52 + 1,  1e15,       -1e-8};

/// Hard tan_half values: no turn, quarter turns, half turns, tiny and huge.
const double kTaus[16] = {0,       0.5,        -0.5,   1,       -1, 2,       kInf,   -kInf,
                          0x1p-30, -0x1p-1074, 0x1p60, -0x1p60, 3,  1.0 / 3, 1e-300, 1e8};

/// Numbers out of the domain, then valid extremes.
const double kSpecial[12] = {kNaN,   -kNaN,    kInf,  -kInf,
                             0x1p61, -kBeyond, 1e300, std::numeric_limits<double>::max(),
                             0x1p60, -0x1p60,  -0.0,  std::numeric_limits<double>::denorm_min()};

enum class Class : std::uint8_t {
  grid,             ///< coordinates in -2..2
  contact,          ///< grid, the still primitive through the moving one's position at u = 0, 1/2 or 1
  repeated_points,  ///< grid, points copied onto others (shared vertices, zero-length edges, flat faces)
  palette,          ///< every coordinate from kPalette
  uniform,          ///< coordinates uniform in [0, 1)
  random_exponent,  ///< signs, mantissas and exponents 2^-1074..2^59 (RandomExponent), points and motion
  moved_scaled,     ///< grid or contact, moved and scaled by a power of two (test::moved_scaled)
  out_of_domain,    ///< grid, one or two numbers from kSpecial, or a half turn about a zero axis
};
constexpr int kClassCount = 8;
constexpr const char* kClassNames[kClassCount] = {"grid",    "contact",         "repeated_points", "palette",
                                                  "uniform", "random_exponent", "moved_scaled",    "out_of_domain"};

struct Header {
  RigidMotionType motion = RigidMotionType::translation;
  bool movers = true;                 ///< the SoA form has the mover array
  std::optional<RigidMotion> shared;  ///< one motion for the whole batch
};

struct Item {
  RigidQuery q;
  Class cls = Class::grid;
};

double uniform(test::Entropy& e) { return static_cast<double>(e.bits(53)) * 0x1p-53; }
double signed_uniform(test::Entropy& e) { return 2 * uniform(e) - 1; }

double palette(test::Entropy& e) {
  const std::uint8_t b = e.byte();
  return kPalette[b % ((b & 0xc0) != 0 ? 24 : 32)];
}

/// Random signs, mantissas and exponents from `base` down to base - spread
/// (at least 2^-1074).
struct RandomExponent {
  int base, spread;
  double operator()(test::Entropy& e) const {
    const double mantissa = 1 + static_cast<double>(e.bits(52)) * 0x1p-52;
    const double x = std::ldexp(mantissa, std::max(-1074, base - e.range(0, spread)));
    return e.chance(1, 2) ? -x : x;
  }
  /// Exponents alike (spread 0) or spread over up to 1200 binades, below a
  /// base of 2^-60..2^59 or, a quarter of the time, 2^-1074..2^59 (where the
  /// oracle takes up to seconds).
  static RandomExponent decode(test::Entropy& e) {
    static constexpr int kSpreads[5] = {0, 4, 30, 200, 1200};
    const int spread = kSpreads[e.range(0, 4)];
    return {e.chance(3, 4) ? e.range(-60, 59) : e.range(-1074, 59), spread};
  }
};

template <class Draw>
Vec3 vec(test::Entropy& e, const Draw& draw) {
  const double x = draw(e), y = draw(e);
  return {x, y, draw(e)};
}

/// A motion of the batch's type: grid (test::grid_motion), palette (numbers
/// from kPalette and kTaus), or uniform (translation in [-1, 1]^3; center in
/// [0, 1]^3, axis in [-1, 1]^3, tan_half in [-2, 2]).
RigidMotion decode_motion(test::Entropy& e, RigidMotionType type) {
  const auto choose = [&e](int lo, int hi) { return e.range(lo, hi); };
  const bool translation = type == RigidMotionType::translation;
  switch (e.byte() % 4) {
    case 0:
    case 1: return test::grid_motion(type, choose);
    case 2: {
      if (translation) return RigidMotion::translate(vec(e, palette));
      const Vec3 center = vec(e, palette);
      Vec3 axis = vec(e, palette);
      const double tau = kTaus[e.byte() % 16];
      if (std::isinf(tau) && axis.x == 0 && axis.y == 0 && axis.z == 0) axis.z = -1;  // a half turn needs an axis
      return RigidMotion::rotate(center, axis, tau);
    }
    default: {
      if (translation) return RigidMotion::translate(vec(e, signed_uniform));
      const Vec3 center = vec(e, uniform), axis = vec(e, signed_uniform);
      return RigidMotion::rotate(center, axis, 4 * uniform(e) - 2);
    }
  }
}

struct RigidModel {
  static constexpr const char* kName = "rigid CCD";
  static constexpr bool kXsimd = false;
  using Options = RigidOptions;
  using Header = ::Header;
  using Item = ::Item;
  using OracleResult = Result;

  template <class B>
  static std::vector<RigidQuery> queries(const B& b) {
    std::vector<RigidQuery> q;
    for (const Item& item : b.items) q.push_back(item.q);
    return q;
  }

  struct Soa {
    test::RigidSoa soa;
    template <class B>
    explicit Soa(const B& b) : soa(kType, b.header.motion, queries(b), b.stride(), b.offset(), b.header.movers) {}
  };

  template <class B>
  static void decode_header(test::Entropy& e, B& b) {
    const std::uint8_t h = e.byte();
    b.header.motion = (h & 1) != 0 ? RigidMotionType::rotation : RigidMotionType::translation;
    b.header.movers = (h & 6) != 6;
    b.options.expel = kExpels[e.byte() % 32];
    if ((h & 8) != 0) b.header.shared = decode_motion(e, b.header.motion);
  }

  static void decode_item(test::Entropy& e, const Header& header, Item& item) {
    const auto choose = [&e](int lo, int hi) { return e.range(lo, hi); };
    item.cls = static_cast<Class>(e.byte() % kClassCount);
    const RandomExponent random_exponent =
        item.cls == Class::random_exponent ? RandomExponent::decode(e) : RandomExponent{0, 0};
    RigidQuery& q = item.q;
    for (Vec3& p : q.points) {
      switch (item.cls) {
        case Class::palette: p = vec(e, palette); break;
        case Class::uniform: p = vec(e, uniform); break;
        case Class::random_exponent: p = vec(e, random_exponent); break;
        default: p = test::grid_point(choose, 2);
      }
    }
    q.mover = e.chance(1, 2) ? Mover::second : Mover::first;
    q.motion = header.shared ? *header.shared : decode_motion(e, header.motion);
    switch (item.cls) {
      case Class::contact: test::place_contact(kType, q, choose); break;
      case Class::repeated_points:
        for (int copies = e.range(1, 2); copies > 0; --copies) q.points[e.range(0, 3)] = q.points[e.range(0, 3)];
        break;
      case Class::random_exponent:
        if (!header.shared) {
          for (int k = 12; k < (header.motion == RigidMotionType::translation ? 15 : 18); ++k) {
            test::number(q, k) = random_exponent(e);
          }
        }
        break;
      case Class::moved_scaled: {
        if (e.chance(1, 2)) test::place_contact(kType, q, choose);
        const double s = std::ldexp(1.0, e.range(-60, 50));
        const std::optional<RigidQuery> m =
            test::moved_scaled(q, s, e.chance(1, 2) ? test::exact_shift(s, choose) : Vec3{});
        if (m) q = *m;
        break;
      }
      case Class::out_of_domain:
        if (header.motion == RigidMotionType::rotation && e.chance(1, 4)) {
          q.motion.axis = {0, -0.0, 0};
          q.motion.tan_half = e.chance(1, 2) ? kInf : -kInf;
          break;
        }
        for (int count = e.range(1, 2); count > 0; --count) {
          const int numbers = header.motion == RigidMotionType::translation ? 15 : 19;
          test::number(q, e.range(0, numbers - 1)) = kSpecial[e.byte() % 12];
        }
        break;
      default: break;
    }
  }

  static bool valid(const Options& o, const Item& item) { return test::rigid_in_domain(item.q, o.expel); }
  static std::string describe_item(const Options& o, const Item& item) {
    return test::format("  class %s, expel %a (%.17g)\n", kClassNames[static_cast<int>(item.cls)], o.expel, o.expel) +
           test::describe(item.q);
  }

  static BatchStats batch(const Soa& s, bool, const Options& o, const BatchResults& r, std::size_t begin,
                          std::size_t end) {
    return rigid_ccd(s.soa.view, o, r, begin, end);
  }
  template <class B>
  static void indexed_batch(const B& b, const Options& o, const BatchResults& r) {
    const std::vector<RigidQuery> q = queries(b);
    test::RigidBodies(kType, q).decide(o, r);
  }

  static bool stats_consistent(const BatchStats& s, std::uint64_t invalid) {
    return s.screened_out + s.root_stage + invalid <= s.queries;
  }

  static Result oracle(const Options& o, const Item& item) { return rigid_exact_ccd(kType, item.q, o.expel); }
  static bool oracle_decided(const Result& r) { return r.status == Status::exact; }
  static const Result& as_result(const Result& r) { return r; }
  static std::string describe(const Result& r) { return test::describe(r); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return simdccd::fuzz::Harness<RigidModel>::test_one_input(data, size);
}
