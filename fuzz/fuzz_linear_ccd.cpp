// The linear-CCD batch kernels against the exact oracle, on queries decoded
// from the fuzzer's bytes and biased to the hard classes (tests/hard_queries.hpp).
// Built once per kernel and mode: SIMDCCD_FUZZ_TYPE (0 = VF, 1 = EE) and
// SIMDCCD_FUZZ_MODE (0 = conservative, 1 = exact). The harness (decoding,
// running, checking, reporting) is fuzz_harness.hpp; this file the model.
//
// Input: byte 0 -> batch size n = 1 + b % 70 (so tiles of 64 and their tails
// both occur); byte 1 -> flags (bits 0-2 the time tolerance, bit 3 a
// misaligned copy of the arrays, bits 4-7 where the range [0, n) is split in
// two calls); byte 2 -> which implementation runs exact mode; then queries,
// each a class byte and that class's choices, until n are decoded or the
// bytes run out (the rest repeat the decoded ones, which must then get
// identical answers in any lane or tile).
//
// Every runnable implementation (targets.hpp) and the xsimd entry run
// conservative mode; the exact targets also run exact mode on one of them
// (exact mode differs from conservative only in sending the uncertain queries
// to the oracle, so identical conservative answers everywhere make the exact
// answers identical too, at one oracle call per uncertain query instead of
// one per implementation). The answers must keep the promises of the mode
// (check_answer in hard_queries.hpp: invalid_input exactly for out-of-domain
// input; exact: hit equal to the oracle's, toi in [toi_lo - tolerance,
// toi_hi]; conservative: no false negative, toi <= toi_hi, certified hits
// true), be bit-identical across implementations, for the split ranges and
// for the indexed form; exact mode must repeat every certified conservative
// answer and decide the uncertain ones exactly. The statistics must count
// what the answers say. Any violation prints the query and aborts.
#include <array>
#include <cstdint>
#include <string>

#include "fuzz_harness.hpp"
#include "simdccd/linear_ccd.hpp"

namespace {

using namespace simdccd;
using fuzz::kType;

struct LinearModel : fuzz::HardQueryModel<LinearModel> {
  static constexpr const char* kName = "linear CCD";
  struct Item {
    test::HardQuery h;
  };
  using OracleResult = Result;

  static void decode_item(test::Entropy& e, const Header&, Item& item) { item.h = test::decode_query(e, kType); }
  static std::string note(const Item&) { return ""; }
  static std::string lines(const Item&) { return ""; }

  using Soa = fuzz::SoaCoords;
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

  static Result oracle(const Options&, const Item& item) { return exact_ccd(kType, item.h.query); }
  static bool oracle_decided(const Result&) { return true; }
  static const Result& as_result(const Result& r) { return r; }
  static std::string describe(const Result& r) { return test::describe(r); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return simdccd::fuzz::Harness<LinearModel>::test_one_input(data, size);
}
