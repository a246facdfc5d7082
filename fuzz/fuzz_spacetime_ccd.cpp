// The space-time CCD batch kernels (spacetime_ccd.hpp) against the exact
// space-time oracle (spacetime_exact_ccd), on queries decoded from the
// fuzzer's bytes and biased to the hard classes (tests/hard_queries.hpp), each
// with global vertex ids that choose the prisms' diagonals. Built once per
// kernel and mode: SIMDCCD_FUZZ_TYPE (0 = VF, 1 = EE) and SIMDCCD_FUZZ_MODE
// (0 = conservative, 1 = exact).
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
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "hard_queries.hpp"
#include "simdccd/spacetime_ccd.hpp"
#include "simdccd/spacetime_oracle.hpp"
#include "simdccd/targets.hpp"
#if __has_include("simdccd/xsimd.hpp")
#include "simdccd/xsimd.hpp"
#define SIMDCCD_FUZZ_HAVE_XSIMD 1
#endif

#ifndef SIMDCCD_FUZZ_TYPE
#define SIMDCCD_FUZZ_TYPE 0
#endif
#ifndef SIMDCCD_FUZZ_MODE
#define SIMDCCD_FUZZ_MODE 1
#endif

namespace {

using namespace simdccd;
using test::Answer;
using test::HardQuery;

constexpr QueryType kType = SIMDCCD_FUZZ_TYPE == 0 ? QueryType::vertex_face : QueryType::edge_edge;
constexpr Mode kMode = SIMDCCD_FUZZ_MODE == 0 ? Mode::conservative : Mode::exact;
constexpr std::size_t kMaxBatch = 70;
constexpr double kTolerances[8] = {1e-9, 1e-9, 1e-9, 1e-6, 1e-3, 0.25, 0x1p-40, 1e-15};

struct Item {
  HardQuery h;
  SpacetimeIds ids;
  std::uint8_t id_byte = 0;
};

struct Batch {
  std::vector<Item> items;  ///< n queries
  std::size_t decoded = 0;  ///< the first `decoded` are distinct draws; the rest repeat them
  Options options;
  bool misaligned = false;
  std::size_t split = 0;
  std::uint8_t exact_implementation = 0;
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

Batch decode(const std::uint8_t* data, std::size_t size) {
  test::Entropy e(data, size);
  Batch b;
  const std::size_t n = 1 + e.byte() % kMaxBatch;
  const std::uint8_t flags = e.byte();
  b.options.mode = kMode;
  b.options.time_tolerance = kTolerances[flags & 7];
  b.misaligned = (flags & 8) != 0;
  b.exact_implementation = e.byte();
  while (b.items.size() < n && (b.items.empty() || !e.exhausted())) {
    Item item;
    item.h = test::decode_query(e, kType);
    decode_ids(e, item);
    b.items.push_back(item);
  }
  b.decoded = b.items.size();
  for (std::size_t i = b.decoded; i < n; ++i) b.items.push_back(b.items[i % b.decoded]);
  b.split = n * (flags >> 4) / 15;
  return b;
}

/// The queries as structure of arrays, optionally one double off alignment, with id arrays.
struct Soa {
  std::vector<double> storage;
  std::vector<std::int64_t> id_storage;
  SoaQueries view;
  SpacetimeIdArrays ids;
  explicit Soa(const Batch& b) {
    const std::size_t n = b.items.size(), stride = n + 1, offset = b.misaligned ? 1 : 0;
    storage.assign(24 * stride + 1, 0.0);
    id_storage.assign(4 * stride + 1, 0);
    view.type = kType;
    view.count = n;
    for (int k = 0; k < 24; ++k) {
      double* column = storage.data() + k * stride + offset;
      for (std::size_t i = 0; i < n; ++i) {
        const Vec3& p = b.items[i].h.query.points[k / 3];
        column[i] = k % 3 == 0 ? p.x : k % 3 == 1 ? p.y : p.z;
      }
      view.coord[k] = column;
    }
    for (int p = 0; p < 4; ++p) {
      std::int64_t* column = id_storage.data() + p * stride + offset;
      for (std::size_t i = 0; i < n; ++i) column[i] = b.items[i].ids.id[p];
      ids.id[p] = column;
    }
  }
  Soa(const Soa&) = delete;
};

struct Outputs {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  explicit Outputs(std::size_t n) : hit(n, 7), toi(n, -1.0), status(n, static_cast<Status>(99)) {}
  BatchResults view() { return {hit.data(), toi.data(), status.data()}; }
  Answer at(std::size_t i) const { return {hit[i] != 0, toi[i], status[i]}; }
};

/// The oracle's answer in the linear Result form that check_answer reads.
Result as_result(const SpacetimeResult& s) {
  Result r;
  r.hit = s.hit;
  r.toi_lo = s.toi_lo;
  r.toi_hi = s.toi_hi;
  r.status = s.status;
  return r;
}

std::string describe(const SpacetimeResult& r) {
  return test::format("hit=%d toi=[%a, %a] (%.17g) piece=%d status=%s", r.hit, r.toi_lo, r.toi_hi, r.toi_lo,
                      r.piece, std::string(to_string(r.status)).c_str());
}

[[noreturn]] void fail(const Batch& b, std::size_t i, const std::string& impl, const std::string& what,
                       const std::string& detail) {
  const Item& item = b.items[i];
  const auto& id = item.ids.id;
  std::fprintf(stderr,
               "\n=== space-time CCD violation: %s\n  kernel %s, mode %s, implementation %s, time_tolerance %a (%g)\n"
               "  query %zu of %zu (class %s%s, id byte 0x%02x)\n  ids = {%lld, %lld, %lld, %lld}\n%s%s\n",
               what.c_str(), std::string(to_string(kType)).c_str(), std::string(to_string(kMode)).c_str(),
               impl.c_str(), b.options.time_tolerance, b.options.time_tolerance, i, b.items.size(),
               std::string(test::to_string(item.h.cls)).c_str(), item.h.exact ? ", exact construction" : "",
               item.id_byte, (long long)id[0], (long long)id[1], (long long)id[2], (long long)id[3],
               test::describe(item.h.query).c_str(), detail.c_str());
  std::abort();
}

void check_stats(const Batch& b, Mode mode, const Outputs& out, const BatchStats& s, const std::string& impl) {
  std::uint64_t hits = 0, invalid = 0, undecided = 0;
  for (std::size_t i = 0; i < b.items.size(); ++i) {
    hits += out.hit[i];
    invalid += out.status[i] == Status::invalid_input;
    undecided += out.status[i] == (mode == Mode::exact ? Status::exact : Status::uncertain);
  }
  // screened_out and root_stage stay 0 in the space-time kernels (spacetime_ccd.hpp).
  if (s.queries != b.items.size() || s.hits != hits || s.invalid != invalid || s.uncertain != undecided ||
      s.screened_out != 0 || s.root_stage != 0) {
    fail(b, 0, impl, "batch statistics disagree with the answers",
         test::format("  stats: queries %llu hits %llu invalid %llu uncertain %llu screened_out %llu root_stage %llu\n"
                      "  answers: hits %llu invalid %llu undecided %llu",
                      (unsigned long long)s.queries, (unsigned long long)s.hits, (unsigned long long)s.invalid,
                      (unsigned long long)s.uncertain, (unsigned long long)s.screened_out,
                      (unsigned long long)s.root_stage, (unsigned long long)hits, (unsigned long long)invalid,
                      (unsigned long long)undecided));
  }
}

/// The batch as a mesh: four vertices a query, numbered so that their index
/// order is the order of (id, position in the query), which is how the
/// kernel orders a primitive's vertices; so the indexed form must answer
/// as the SoA form with ids.
IndexedQueries indexed(const Batch& b, std::vector<Vec3>& x0, std::vector<Vec3>& x1,
                       std::vector<std::array<std::int32_t, 3>>& faces,
                       std::vector<std::array<std::int32_t, 2>>& edges,
                       std::vector<std::array<std::int32_t, 2>>& pairs) {
  for (const Item& item : b.items) {
    const Query& q = item.h.query;
    const auto base = static_cast<std::int32_t>(x0.size());
    std::array<int, 4> order{0, 1, 2, 3};  // query points sorted by (id, position)
    std::stable_sort(order.begin(), order.end(),
                     [&](int l, int r) { return item.ids.id[l] < item.ids.id[r]; });
    std::array<std::int32_t, 4> index{};
    for (int rank = 0; rank < 4; ++rank) {
      index[order[rank]] = base + rank;
      x0.push_back(q.points[order[rank]]);
      x1.push_back(q.points[order[rank] + 4]);
    }
    if (kType == QueryType::vertex_face) {
      faces.push_back({index[1], index[2], index[3]});
      pairs.push_back({index[0], static_cast<std::int32_t>(faces.size() - 1)});
    } else {
      edges.push_back({index[0], index[1]});
      edges.push_back({index[2], index[3]});
      pairs.push_back({static_cast<std::int32_t>(edges.size() - 2), static_cast<std::int32_t>(edges.size() - 1)});
    }
  }
  IndexedQueries iq;
  iq.type = kType;
  iq.x0 = x0, iq.x1 = x1, iq.faces = faces, iq.edges = edges, iq.pairs = pairs;
  return iq;
}

using Entry = BatchStats (*)(const SoaQueries&, const SpacetimeIdArrays&, const Options&, const BatchResults&,
                             std::size_t, std::size_t);

BatchStats dispatched(const SoaQueries& q, const SpacetimeIdArrays& ids, const Options& o, const BatchResults& r,
                      std::size_t begin, std::size_t end) {
  return spacetime_ccd(q, ids, o, r, begin, end);
}
#ifdef SIMDCCD_FUZZ_HAVE_XSIMD
BatchStats with_xsimd(const SoaQueries& q, const SpacetimeIdArrays& ids, const Options& o, const BatchResults& r,
                      std::size_t begin, std::size_t end) {
  return spacetime_ccd_xsimd(q, ids, o, r, begin, end);
}
#endif

/// One implementation: a name for set_implementation() and its entry.
struct Implementation {
  std::string name;
  Entry entry;
  bool dispatch;
};

const std::vector<Implementation>& implementations() {
  static const std::vector<Implementation> all = [] {
    std::vector<Implementation> v;
    for (const std::string& name : runnable_implementations()) v.push_back({name, &dispatched, true});
#ifdef SIMDCCD_FUZZ_HAVE_XSIMD
    v.push_back({"xsimd", &with_xsimd, false});
#endif
    return v;
  }();
  return all;
}

/// Runs `impl` in `mode` over the batch, split in two calls, and checks the statistics.
Outputs run(const Batch& b, const Soa& soa, const Implementation& impl, Mode mode) {
  if (impl.dispatch && !set_implementation(impl.name)) {
    fail(b, 0, impl.name, "set_implementation refused a runnable implementation", "");
  }
  Options options = b.options;
  options.mode = mode;
  Outputs out(b.items.size());
  BatchStats stats = impl.entry(soa.view, soa.ids, options, out.view(), 0, b.split);
  stats += impl.entry(soa.view, soa.ids, options, out.view(), b.split, b.items.size());
  check_stats(b, mode, out, stats, impl.name);
  return out;
}

void check(const Batch& b, Mode mode, const std::vector<SpacetimeResult>& oracle, const std::string& impl,
           const Outputs& out) {
  for (std::size_t i = 0; i < b.items.size(); ++i) {
    const std::size_t d = i % b.decoded;
    const Answer a = out.at(i);
    const std::string broken = test::check_answer(mode, test::in_domain(b.items[i].h.query), as_result(oracle[d]),
                                                  a, b.options.time_tolerance);
    if (!broken.empty()) {
      fail(b, i, impl + " (" + std::string(to_string(mode)) + ")", broken,
           "  answer: " + test::describe(a) + "\n  oracle: " + describe(oracle[d]));
    }
    if (i != d && !(a == out.at(d))) {
      fail(b, i, impl, test::format("a repeated query (of %zu) answered differently", d),
           "  first: " + test::describe(out.at(d)) + "\n  again: " + test::describe(a));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Batch b = decode(data, size);
  const std::size_t n = b.items.size();
  const Soa soa(b);

  // The oracle, once per distinct query, and only for input in the domain.
  std::vector<SpacetimeResult> oracle(b.decoded);
  for (std::size_t i = 0; i < b.decoded; ++i) {
    if (test::in_domain(b.items[i].h.query)) {
      oracle[i] = spacetime_exact_ccd(kType, b.items[i].h.query, b.items[i].ids);
      if (oracle[i].status != Status::exact) fail(b, i, "oracle", "the oracle did not decide a valid input", "");
    }
  }

  const std::string restore = active_implementation();
  const std::vector<Implementation>& all = implementations();
  // Conservative mode everywhere: checked, and bit-identical across implementations.
  const Outputs first = run(b, soa, all.front(), Mode::conservative);
  check(b, Mode::conservative, oracle, all.front().name, first);
  for (std::size_t k = 1; k < all.size(); ++k) {
    const Outputs out = run(b, soa, all[k], Mode::conservative);
    for (std::size_t i = 0; i < n; ++i) {
      if (!(out.at(i) == first.at(i))) {
        fail(b, i, all[k].name, "implementations disagree",
             "  " + all.front().name + ": " + test::describe(first.at(i)) + "\n  " + all[k].name + ": " +
                 test::describe(out.at(i)));
      }
    }
  }
  // Exact mode on one implementation: checked, and the same as conservative where that was certified.
  if (kMode == Mode::exact) {
    const Implementation& impl = all[b.exact_implementation % all.size()];
    const Outputs out = run(b, soa, impl, Mode::exact);
    check(b, Mode::exact, oracle, impl.name, out);
    for (std::size_t i = 0; i < n; ++i) {
      const Answer c = first.at(i), x = out.at(i);
      const bool consistent = c.status == Status::uncertain ? x.status == Status::exact : x == c;
      if (!consistent) {
        fail(b, i, impl.name, "exact mode does not follow conservative mode's certified answer",
             "  conservative: " + test::describe(c) + "\n  exact: " + test::describe(x));
      }
    }
  }
  set_implementation(restore);

  // The indexed form (ids = the vertex indices, numbered in id order): the same answers.
  {
    std::vector<Vec3> x0, x1;
    std::vector<std::array<std::int32_t, 3>> faces;
    std::vector<std::array<std::int32_t, 2>> edges, pairs;
    const IndexedQueries iq = indexed(b, x0, x1, faces, edges, pairs);
    Outputs out(n);
    Options options = b.options;
    options.mode = Mode::conservative;
    spacetime_ccd(iq, options, out.view(), 0, n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!(out.at(i) == first.at(i))) {
        fail(b, i, restore + " (indexed)", "the indexed form answers differently from the SoA form",
             "  soa: " + test::describe(first.at(i)) + "\n  indexed: " + test::describe(out.at(i)));
      }
    }
  }
  return 0;
}
