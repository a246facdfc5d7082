// The linear model of the CCD batch-kernel fuzz targets (fuzz_harness.hpp):
// test::HardQuery items, the linear batch entries and the exact oracle.
// kSeparation: Options::min_distance from a batch header byte (the
// minimum-separation targets, fuzz_separation_ccd.cpp), else 0.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "fuzz_harness.hpp"
#include "simdccd/exact_oracle.hpp"
#include "simdccd/linear_ccd.hpp"

namespace simdccd::fuzz {

/// The distances a separation batch takes (byte % 16): small, query-sized,
/// huge and extreme valid ones, 0 (the plain kernel through the same
/// entry), and the invalid ones (negative, NaN, infinite, above
/// kMaxMinDistance) that must make every query invalid_input.
inline constexpr double kMinDistances[16] = {
    1e-3, 1e-2, 0.1, 0.5, 1.0, 0x1p-30, 0x1p-300, 3.0, 0x1p60, 0, 0x1p-1074, 1e-6,
    -1e-3, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 0x1p61};

template <bool kSeparation>
struct LinearModel : HardQueryModel<LinearModel<kSeparation>> {
  static constexpr const char* kName = kSeparation ? "minimum-separation CCD" : "linear CCD";
  struct Item {
    test::HardQuery h;
  };
  using OracleResult = Result;

  template <class B>
  static void decode_header(test::Entropy& e, B& b) {
    if constexpr (kSeparation) b.options.min_distance = kMinDistances[e.byte() % 16];
  }
  /// With a distance, not the out_of_domain and raw_bits classes: their
  /// exponents span up to 2^2100, where the oracle with a distance takes
  /// seconds to minutes a query (invalid coordinates are flagged before any
  /// distance, as the linear targets check).
  template <class Header>
  static void decode_item(test::Entropy& e, const Header&, Item& item) {
    if constexpr (kSeparation) {
      const auto c = static_cast<test::HardClass>(e.byte() % static_cast<int>(test::HardClass::out_of_domain));
      item.h = test::HardQueryMaker(e, kType).make(c);
    } else {
      item.h = test::decode_query(e, kType);
    }
  }
  static bool valid(const Options& o, const Item& item) {
    return valid_min_distance(o.min_distance) && test::in_domain(item.h.query);
  }
  static std::string note(const Item&) { return ""; }
  static std::string lines(const Item&) { return ""; }
  template <class Opts>
  static std::string describe_item(const Opts& o, const Item& item) {
    return test::format("  min_distance %a (%g)\n", o.min_distance, o.min_distance) +
           HardQueryModel<LinearModel>::describe_item(o, item);
  }

  using Soa = SoaCoords;
  static BatchStats batch(const Soa& soa, bool xsimd, const Options& o, const BatchResults& r, std::size_t begin,
                          std::size_t end) {
#ifdef SIMDCCD_FUZZ_HAVE_XSIMD
    if (xsimd) return linear_ccd_xsimd(soa.view, o, r, begin, end);
#else
    (void)xsimd;
#endif
    return linear_ccd(soa.view, o, r, begin, end);
  }
  static void indexed_ccd(const IndexedQueries& q, const Options& o, const BatchResults& r, std::size_t begin,
                          std::size_t end) {
    linear_ccd(q, o, r, begin, end);
  }
  /// The mesh takes the query's points in their own order.
  static std::array<int, 4> vertex_order(const Item&) { return {0, 1, 2, 3}; }

  static bool stats_consistent(const BatchStats& s, std::uint64_t invalid) {
    return s.screened_out + s.root_stage + invalid <= s.queries;
  }

  static Result oracle(const Options& o, const Item& item) { return exact_ccd(kType, item.h.query, o.min_distance); }
  static bool oracle_decided(const Result&) { return true; }
  static const Result& as_result(const Result& r) { return r; }
  static std::string describe(const Result& r) { return test::describe(r); }
};

}  // namespace simdccd::fuzz
