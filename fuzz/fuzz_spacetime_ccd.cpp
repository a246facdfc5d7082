// The space-time CCD batch kernels (spacetime_ccd.hpp) against the exact
// space-time oracle (spacetime_exact_ccd), on queries decoded from the
// fuzzer's bytes and biased to the hard classes (tests/hard_queries.hpp), each
// with global vertex ids that choose the prisms' diagonals. Built once per
// kernel and mode: SIMDCCD_FUZZ_TYPE (0 = VF, 1 = EE) and SIMDCCD_FUZZ_MODE
// (0 = conservative, 1 = exact). The harness (decoding, running, checking,
// reporting) is fuzz_harness.hpp; this file the model.
//
// Input: byte 0 -> batch size n = 1 + b % 70 (tiles of 64 and their tails);
// byte 1 -> flags (bits 0-2 the time tolerance, bit 3 a misaligned copy of the
// arrays, bits 4-7 where the range [0, n) is split in two calls); byte 2 ->
// which implementation runs exact mode; then queries, each a class byte and
// that class's choices (the linear fuzz targets' classes), then an id byte
// and its choices (below), until n are decoded or the bytes run out (the rest
// repeat the decoded ones, which must then get identical answers in any lane
// or tile).
//
// The id byte: bits 0-2 the id scheme (all zero; small ids 0..2 with ties;
// a permutation of 0..3; large ids of either sign; int64 extremes; ids equal
// in pairs), bits 3-6 a mask of query vertices held at rest (x' = x: static
// primitives, flat prisms, zero-length space-time segments), only applied
// when bit 7 is set.
//
// Every runnable implementation (targets.hpp) and the xsimd entry run
// conservative mode; exact targets also run exact mode on one of them (byte
// 2). Checked (check_answer of hard_queries.hpp against the oracle's answer):
// invalid_input exactly for input out of the domain (non-finite or
// |x| > 2^60); exact mode: hit equal to the oracle's, a hit's toi in
// [toi_lo - tolerance, toi_hi], toi_lo itself when the oracle decided;
// conservative: no false negative, toi <= toi_hi, certified hits true hits.
// Answers must be bit-identical across implementations, for the split ranges
// and for the indexed form (mesh vertex indices ordered like the ids); exact
// mode must repeat every certified conservative answer. The statistics must
// count what the answers say. Any violation prints the query and aborts.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "fuzz_harness.hpp"
#include "simdccd/spacetime_ccd.hpp"
#include "simdccd/spacetime_oracle.hpp"

namespace {

using namespace simdccd;
using fuzz::kType;

struct Item {
  test::HardQuery h;
  SpacetimeIds ids;
  std::uint8_t id_byte = 0;
};

std::int64_t large_id(test::Entropy& e) {
  return static_cast<std::int64_t>(e.bits(64));
}

/// The ids of one query and the vertices held at rest.
void decode_ids(test::Entropy& e, Item& item) {
  const std::uint8_t b = e.byte();
  item.id_byte = b;
  std::array<std::int64_t, 4>& id = item.ids.id;
  switch (b & 7) {
    case 0:
    case 1:  // all zero: the query's own order
      break;
    case 2:  // small, with ties
      for (auto& x : id) x = e.range(0, 2);
      break;
    case 3:
    case 4: {  // a permutation of 0..3
      std::array<std::int64_t, 4> p{0, 1, 2, 3};
      for (int i = 3; i > 0; --i) std::swap(p[i], p[e.range(0, i)]);
      id = p;
      break;
    }
    case 5:  // large, either sign
      for (auto& x : id) x = large_id(e);
      break;
    case 6:  // the int64 extremes and their neighbours
      for (auto& x : id) {
        constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        const std::int64_t choices[6] = {kMin, kMin + 1, -1, 0, kMax - 1, kMax};
        x = choices[e.range(0, 5)];
      }
      break;
    case 7: {  // equal in pairs (a tie within each primitive, or across)
      const std::int64_t a = e.range(0, 3), c = e.range(0, 3);
      id = {a, a, c, c};
      if (e.chance(1, 2)) std::swap(id[1], id[2]);
      break;
    }
  }
  if (b & 0x80) {
    Query& q = item.h.query;
    for (int p = 0; p < 4; ++p) {
      if (b >> (3 + p) & 1) {
        if (q.points[p + 4] != q.points[p]) item.h.exact = false;  // the construction no longer holds
        q.points[p + 4] = q.points[p];
      }
    }
    item.h.contact_by.reset();
  }
}

std::string describe(const SpacetimeResult& r) {
  return test::format("hit=%d toi=[%a, %a] (%.17g) piece=%d status=%s", r.hit, r.toi_lo, r.toi_hi, r.toi_lo,
                      r.piece, std::string(to_string(r.status)).c_str());
}

/// The queries' coordinates and their id arrays, with the same stride and alignment.
struct Soa {
  fuzz::SoaCoords coords;
  std::vector<std::int64_t> id_storage;
  SpacetimeIdArrays ids;
  template <class B>
  explicit Soa(const B& b) : coords(b) {
    test::fill_columns(id_storage, ids.id, b.items.size(), b.stride(), b.offset(),
                       [&](std::size_t p, std::size_t i) { return b.items[i].ids.id[p]; });
  }
  Soa(const Soa&) = delete;
};

struct SpacetimeModel : fuzz::HardQueryModel<SpacetimeModel> {
  static constexpr const char* kName = "space-time CCD";
  using Item = ::Item;
  using Soa = ::Soa;
  using OracleResult = SpacetimeResult;

  static void decode_item(test::Entropy& e, const Header&, Item& item) {
    item.h = test::decode_query(e, kType);
    decode_ids(e, item);
  }
  static std::string note(const Item& item) { return test::format(", id byte 0x%02x", item.id_byte); }
  static std::string lines(const Item& item) {
    const auto& id = item.ids.id;
    return test::format("  ids = {%lld, %lld, %lld, %lld}\n", (long long)id[0], (long long)id[1], (long long)id[2],
                        (long long)id[3]);
  }

  static BatchStats batch(const Soa& soa, bool xsimd, const Options& o, const BatchResults& r, std::size_t begin,
                          std::size_t end) {
#ifdef SIMDCCD_FUZZ_HAVE_XSIMD
    if (xsimd) return spacetime_ccd_xsimd(soa.coords.view, soa.ids, o, r, begin, end);
#else
    (void)xsimd;
#endif
    return spacetime_ccd(soa.coords.view, soa.ids, o, r, begin, end);
  }
  static void indexed_ccd(const IndexedQueries& q, const Options& o, const BatchResults& r, std::size_t begin,
                          std::size_t end) {
    spacetime_ccd(q, o, r, begin, end);
  }
  /// The mesh numbers a query's vertices so that their index order is the
  /// order of (id, position in the query), which is how the kernel orders a
  /// primitive's vertices; so the indexed form must answer as the SoA form
  /// with ids.
  static std::array<int, 4> vertex_order(const Item& item) {
    std::array<int, 4> order{0, 1, 2, 3};
    std::stable_sort(order.begin(), order.end(), [&](int l, int r) { return item.ids.id[l] < item.ids.id[r]; });
    return order;
  }

  /// screened_out and root_stage stay 0 in the space-time kernels (spacetime_ccd.hpp).
  /// Screened queries are misses (the answers' check proves them right).
  static bool stats_consistent(const BatchStats& s, std::uint64_t invalid) {
    return s.screened_out + s.hits + invalid <= s.queries && s.root_stage == 0;
  }

  static SpacetimeResult oracle(const Options&, const Item& item) {
    return spacetime_exact_ccd(kType, item.h.query, item.ids);
  }
  static bool oracle_decided(const SpacetimeResult& r) { return r.status == Status::exact; }
  /// The oracle's answer in the linear Result form that check_answer reads.
  static Result as_result(const SpacetimeResult& s) {
    Result r;
    r.hit = s.hit;
    r.toi_lo = s.toi_lo;
    r.toi_hi = s.toi_hi;
    r.status = s.status;
    return r;
  }
  static std::string describe(const SpacetimeResult& r) { return ::describe(r); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return simdccd::fuzz::Harness<SpacetimeModel>::test_one_input(data, size);
}
