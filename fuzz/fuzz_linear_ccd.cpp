// The linear-CCD batch kernels against the exact oracle, on queries decoded
// from the fuzzer's bytes and biased to the hard classes (tests/hard_queries.hpp).
// Built once per kernel and mode: SIMDCCD_FUZZ_TYPE (0 = VF, 1 = EE) and
// SIMDCCD_FUZZ_MODE (0 = conservative, 1 = exact).
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
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "hard_queries.hpp"
#include "simdccd/linear_ccd.hpp"
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

struct Batch {
  std::vector<HardQuery> queries;  ///< n queries
  std::size_t decoded = 0;         ///< the first `decoded` are distinct draws; the rest repeat them
  Options options;
  bool misaligned = false;
  std::size_t split = 0;
  std::uint8_t exact_implementation = 0;
};

Batch decode(const std::uint8_t* data, std::size_t size) {
  test::Entropy e(data, size);
  Batch b;
  const std::size_t n = 1 + e.byte() % kMaxBatch;
  const std::uint8_t flags = e.byte();
  b.options.mode = kMode;
  b.options.time_tolerance = kTolerances[flags & 7];
  b.misaligned = (flags & 8) != 0;
  b.exact_implementation = e.byte();
  while (b.queries.size() < n && (b.queries.empty() || !e.exhausted())) {
    b.queries.push_back(test::decode_query(e, kType));
  }
  b.decoded = b.queries.size();
  for (std::size_t i = b.decoded; i < n; ++i) b.queries.push_back(b.queries[i % b.decoded]);
  b.split = n * (flags >> 4) / 15;
  return b;
}

/// The queries as structure of arrays, optionally one double off alignment.
struct Soa {
  std::vector<double> storage;
  SoaQueries view;
  Soa(const Batch& b) {
    const std::size_t n = b.queries.size(), stride = n + 1, offset = b.misaligned ? 1 : 0;
    storage.assign(24 * stride + 1, 0.0);
    view.type = kType;
    view.count = n;
    for (int k = 0; k < 24; ++k) {
      double* column = storage.data() + k * stride + offset;
      for (std::size_t i = 0; i < n; ++i) {
        const Vec3& p = b.queries[i].query.points[k / 3];
        column[i] = k % 3 == 0 ? p.x : k % 3 == 1 ? p.y : p.z;
      }
      view.coord[k] = column;
    }
  }
};

struct Outputs {
  std::vector<std::uint8_t> hit;
  std::vector<double> toi;
  std::vector<Status> status;
  explicit Outputs(std::size_t n) : hit(n, 7), toi(n, -1.0), status(n, static_cast<Status>(99)) {}
  BatchResults view() { return {hit.data(), toi.data(), status.data()}; }
  Answer at(std::size_t i) const { return {hit[i] != 0, toi[i], status[i]}; }
};

[[noreturn]] void fail(const Batch& b, std::size_t i, const std::string& impl, const std::string& what,
                       const std::string& detail) {
  const HardQuery& h = b.queries[i];
  std::fprintf(stderr,
               "\n=== linear CCD violation: %s\n  kernel %s, mode %s, implementation %s, time_tolerance %a (%g)\n"
               "  query %zu of %zu (class %s%s)\n%s%s\n",
               what.c_str(), std::string(to_string(kType)).c_str(), std::string(to_string(kMode)).c_str(),
               impl.c_str(), b.options.time_tolerance, b.options.time_tolerance, i, b.queries.size(),
               std::string(test::to_string(h.cls)).c_str(), h.exact ? ", exact construction" : "",
               test::describe(h.query).c_str(), detail.c_str());
  std::abort();
}

void check_stats(const Batch& b, Mode mode, const Outputs& out, const BatchStats& s, const std::string& impl) {
  std::uint64_t hits = 0, invalid = 0, undecided = 0;
  for (std::size_t i = 0; i < b.queries.size(); ++i) {
    hits += out.hit[i];
    invalid += out.status[i] == Status::invalid_input;
    undecided += out.status[i] == (mode == Mode::exact ? Status::exact : Status::uncertain);
  }
  if (s.queries != b.queries.size() || s.hits != hits || s.invalid != invalid || s.uncertain != undecided ||
      s.screened_out + s.root_stage + invalid > s.queries) {
    fail(b, 0, impl, "batch statistics disagree with the answers",
         test::format("  stats: queries %llu hits %llu invalid %llu uncertain %llu screened_out %llu root_stage %llu\n"
                      "  answers: hits %llu invalid %llu undecided %llu",
                      (unsigned long long)s.queries, (unsigned long long)s.hits, (unsigned long long)s.invalid,
                      (unsigned long long)s.uncertain, (unsigned long long)s.screened_out,
                      (unsigned long long)s.root_stage, (unsigned long long)hits, (unsigned long long)invalid,
                      (unsigned long long)undecided));
  }
}

IndexedQueries indexed(const Batch& b, std::vector<Vec3>& x0, std::vector<Vec3>& x1,
                       std::vector<std::array<std::int32_t, 3>>& faces,
                       std::vector<std::array<std::int32_t, 2>>& edges,
                       std::vector<std::array<std::int32_t, 2>>& pairs) {
  for (std::size_t i = 0; i < b.queries.size(); ++i) {
    const Query& q = b.queries[i].query;
    const auto v = static_cast<std::int32_t>(x0.size());
    for (int p = 0; p < 4; ++p) x0.push_back(q.points[p]), x1.push_back(q.points[p + 4]);
    if (kType == QueryType::vertex_face) {
      faces.push_back({v + 1, v + 2, v + 3});
      pairs.push_back({v, static_cast<std::int32_t>(faces.size() - 1)});
    } else {
      edges.push_back({v, v + 1});
      edges.push_back({v + 2, v + 3});
      pairs.push_back({static_cast<std::int32_t>(edges.size() - 2), static_cast<std::int32_t>(edges.size() - 1)});
    }
  }
  IndexedQueries iq;
  iq.type = kType;
  iq.x0 = x0, iq.x1 = x1, iq.faces = faces, iq.edges = edges, iq.pairs = pairs;
  return iq;
}

using Entry = BatchStats (*)(const SoaQueries&, const Options&, const BatchResults&, std::size_t, std::size_t);

BatchStats dispatched(const SoaQueries& q, const Options& o, const BatchResults& r, std::size_t begin, std::size_t end) {
  return linear_ccd(q, o, r, begin, end);
}
#ifdef SIMDCCD_FUZZ_HAVE_XSIMD
BatchStats with_xsimd(const SoaQueries& q, const Options& o, const BatchResults& r, std::size_t begin, std::size_t end) {
  return linear_ccd_xsimd(q, o, r, begin, end);
}
#endif

/// One implementation: a name for set_implementation() (empty for the xsimd entry) and its entry.
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
Outputs run(const Batch& b, const SoaQueries& soa, const Implementation& impl, Mode mode) {
  if (impl.dispatch && !set_implementation(impl.name)) fail(b, 0, impl.name, "set_implementation refused a runnable implementation", "");
  Options options = b.options;
  options.mode = mode;
  Outputs out(b.queries.size());
  BatchStats stats = impl.entry(soa, options, out.view(), 0, b.split);
  stats += impl.entry(soa, options, out.view(), b.split, b.queries.size());
  check_stats(b, mode, out, stats, impl.name);
  return out;
}

void check(const Batch& b, Mode mode, const std::vector<Result>& oracle, const std::string& impl, const Outputs& out) {
  for (std::size_t i = 0; i < b.queries.size(); ++i) {
    const std::size_t d = i % b.decoded;
    const Answer a = out.at(i);
    const std::string broken =
        test::check_answer(mode, test::in_domain(b.queries[i].query), oracle[d], a, b.options.time_tolerance);
    if (!broken.empty()) {
      fail(b, i, impl + " (" + std::string(to_string(mode)) + ")", broken,
           "  answer: " + test::describe(a) + "\n  oracle: " + test::describe(oracle[d]));
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
  const std::size_t n = b.queries.size();
  const Soa soa(b);

  // The oracle, once per distinct query, and only for input in the domain.
  std::vector<Result> oracle(b.decoded);
  for (std::size_t i = 0; i < b.decoded; ++i) {
    if (test::in_domain(b.queries[i].query)) oracle[i] = exact_ccd(kType, b.queries[i].query);
  }

  const std::string restore = active_implementation();
  const std::vector<Implementation>& all = implementations();
  // Conservative mode everywhere: checked, and bit-identical across implementations.
  const Outputs first = run(b, soa.view, all.front(), Mode::conservative);
  check(b, Mode::conservative, oracle, all.front().name, first);
  for (std::size_t k = 1; k < all.size(); ++k) {
    const Outputs out = run(b, soa.view, all[k], Mode::conservative);
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
    const Outputs out = run(b, soa.view, impl, Mode::exact);
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

  // The indexed form gathers the same queries: the same answers.
  {
    std::vector<Vec3> x0, x1;
    std::vector<std::array<std::int32_t, 3>> faces;
    std::vector<std::array<std::int32_t, 2>> edges, pairs;
    const IndexedQueries iq = indexed(b, x0, x1, faces, edges, pairs);
    Outputs out(n);
    Options options = b.options;
    options.mode = Mode::conservative;
    linear_ccd(iq, options, out.view(), 0, n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!(out.at(i) == first.at(i))) {
        fail(b, i, restore + " (indexed)", "the indexed form answers differently from the SoA form",
             "  soa: " + test::describe(first.at(i)) + "\n  indexed: " + test::describe(out.at(i)));
      }
    }
  }
  return 0;
}
