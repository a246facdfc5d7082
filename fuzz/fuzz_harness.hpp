// The model-independent part of the CCD batch-kernel fuzz targets
// (fuzz_linear_ccd.cpp, fuzz_spacetime_ccd.cpp, fuzz_rigid_ccd.cpp): decoding
// the batch header, running every implementation over a range split in two
// calls, checking the statistics, the answers against the oracle,
// bit-identity across implementations, exact mode against conservative mode
// and the indexed form against the SoA form, and printing a failing query
// before aborting.
//
// Built once per kernel and mode: SIMDCCD_FUZZ_TYPE (0 = VF, 1 = EE) and
// SIMDCCD_FUZZ_MODE (0 = conservative, 1 = exact).
//
// Input: byte 0 -> batch size n = 1 + b % 70 (tiles of 64 and their tails);
// byte 1 -> flags (bits 0-2 the time tolerance, bit 3 a misaligned copy of the
// arrays, bits 4-7 where the range [0, n) is split in two calls); byte 2 ->
// which implementation runs exact mode; then the model's batch header
// (Model::decode_header; none for the linear and space-time models), then
// queries (Model::decode_item), until n are decoded or the bytes run out (the
// rest repeat the decoded ones, which must then get identical answers in any
// lane or tile).
//
// A Model (see the targets) gives:
//   Item, Options (the kernel's options: `mode`, `time_tolerance` and the
//   model's own), Header (the model's choices for the whole batch), Soa (the
//   batch as structure of arrays, built from the Batch), OracleResult, kName,
//   kXsimd (whether the kernel has an xsimd entry);
//   decode_header(Entropy&, Batch&), decode_item(Entropy&, Header, Item&),
//   valid(Options, Item) (in the kernels' domain), describe_item(Options,
//   Item) (fail's text on the query), batch(Soa, xsimd, Options,
//   BatchResults, begin, end), indexed_batch(Batch, Options, BatchResults)
//   (the whole batch in the indexed form), stats_consistent(BatchStats,
//   invalid), oracle(Options, Item), oracle_decided(r), as_result(r) (the
//   linear Result that check_answer reads), describe(r).
// HardQueryModel gives the linear and space-time models what they share.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hard_queries.hpp"
#include "soa_columns.hpp"
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

namespace simdccd::fuzz {

using test::Answer;
using Answers = test::BatchAnswers;
using test::HardQuery;

constexpr QueryType kType = SIMDCCD_FUZZ_TYPE == 0 ? QueryType::vertex_face : QueryType::edge_edge;
constexpr Mode kMode = SIMDCCD_FUZZ_MODE == 0 ? Mode::conservative : Mode::exact;
constexpr std::size_t kMaxBatch = 70;
constexpr double kTolerances[8] = {1e-9, 1e-9, 1e-9, 1e-6, 1e-3, 0.25, 0x1p-40, 1e-15};

template <class Model>
struct Batch {
  std::vector<typename Model::Item> items;  ///< n queries
  std::size_t decoded = 0;                  ///< the first `decoded` are distinct draws; the rest repeat them
  typename Model::Options options;
  typename Model::Header header;
  bool misaligned = false;
  std::size_t split = 0;
  std::uint8_t exact_implementation = 0;

  std::size_t stride() const { return items.size() + 1; }      ///< of the SoA columns
  std::size_t offset() const { return misaligned ? 1 : 0; }  ///< of the SoA columns
};

/// The coordinates of a batch of HardQuery items as structure of arrays,
/// optionally one double off alignment.
struct SoaCoords {
  std::vector<double> storage;
  SoaQueries view;
  template <class B>
  explicit SoaCoords(const B& b) {
    view.type = kType;
    view.count = b.items.size();
    test::fill_columns(storage, view.coord, b.items.size(), b.stride(), b.offset(), [&](std::size_t k, std::size_t i) {
      return test::coordinate(b.items[i].h.query.points[k / 3], k % 3);
    });
  }
  SoaCoords(const SoaCoords&) = delete;
};

/// One implementation: a name for set_implementation() ("xsimd" for the xsimd entry).
struct Implementation {
  std::string name;
  bool dispatch;  ///< through set_implementation() and the dispatched entry; else the xsimd entry
};

/// The runnable implementations, then the xsimd entry where the kernel has one and it is built.
inline std::vector<Implementation> implementations(bool xsimd) {
  std::vector<Implementation> v;
  for (const std::string& name : runnable_implementations()) v.push_back({name, true});
#ifdef SIMDCCD_FUZZ_HAVE_XSIMD
  if (xsimd) v.push_back({"xsimd", false});
#else
  (void)xsimd;
#endif
  return v;
}

/// What the linear and space-time models share (Derived: the model): items
/// holding a test::HardQuery h, the linear Options, no batch header, the
/// xsimd entry, and the indexed form as a mesh of four vertices a query,
/// numbered in Derived::vertex_order(item), decided by Derived::indexed_ccd.
/// Derived gives note(item) and lines(item) for describe_item.
template <class Derived>
struct HardQueryModel {
  using Options = simdccd::Options;
  struct Header {};
  static constexpr bool kXsimd = true;

  template <class B>
  static void decode_header(test::Entropy&, B&) {}
  template <class Item>
  static bool valid(const Options&, const Item& item) {
    return test::in_domain(item.h.query);
  }
  template <class Item>
  static std::string describe_item(const Options&, const Item& item) {
    return test::format("  (class %s%s%s)\n", std::string(test::to_string(item.h.cls)).c_str(),
                        item.h.exact ? ", exact construction" : "", Derived::note(item).c_str()) +
           Derived::lines(item) + test::describe(item.h.query);
  }

  template <class B>
  static void indexed_batch(const B& b, const Options& options, const BatchResults& out) {
    std::vector<Vec3> x0, x1;
    std::vector<std::array<std::int32_t, 3>> faces;
    std::vector<std::array<std::int32_t, 2>> edges, pairs;
    for (const auto& item : b.items) {
      const Query& q = item.h.query;
      const auto base = static_cast<std::int32_t>(x0.size());
      const std::array<int, 4> order = Derived::vertex_order(item);
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
    Derived::indexed_ccd(iq, options, out, 0, b.items.size());
  }
};

template <class Model>
struct Harness {
  using Item = typename Model::Item;
  using B = Batch<Model>;
  using Soa = typename Model::Soa;
  using OracleResult = typename Model::OracleResult;

  static B decode(const std::uint8_t* data, std::size_t size) {
    test::Entropy e(data, size);
    B b;
    const std::size_t n = 1 + e.byte() % kMaxBatch;
    const std::uint8_t flags = e.byte();
    b.options.mode = kMode;
    b.options.time_tolerance = kTolerances[flags & 7];
    b.misaligned = (flags & 8) != 0;
    b.exact_implementation = e.byte();
    Model::decode_header(e, b);
    while (b.items.size() < n && (b.items.empty() || !e.exhausted())) {
      Item item;
      Model::decode_item(e, b.header, item);
      b.items.push_back(item);
    }
    b.decoded = b.items.size();
    for (std::size_t i = b.decoded; i < n; ++i) b.items.push_back(b.items[i % b.decoded]);
    b.split = n * (flags >> 4) / 15;
    return b;
  }

  [[noreturn]] static void fail(const B& b, std::size_t i, const std::string& impl, const std::string& what,
                                const std::string& detail) {
    const Item& item = b.items[i];
    std::fprintf(stderr,
                 "\n=== %s violation: %s\n  kernel %s, mode %s, implementation %s, time_tolerance %a (%g)\n"
                 "  query %zu of %zu\n%s%s\n",
                 Model::kName, what.c_str(), std::string(to_string(kType)).c_str(),
                 std::string(to_string(kMode)).c_str(), impl.c_str(), b.options.time_tolerance,
                 b.options.time_tolerance, i, b.items.size(), Model::describe_item(b.options, item).c_str(),
                 detail.c_str());
    std::abort();
  }

  static void check_stats(const B& b, Mode mode, const Answers& out, const BatchStats& s, const std::string& impl) {
    std::uint64_t hits = 0, invalid = 0, undecided = 0;
    for (std::size_t i = 0; i < b.items.size(); ++i) {
      hits += out.hit[i];
      invalid += out.status[i] == Status::invalid_input;
      undecided += out.status[i] == (mode == Mode::exact ? Status::exact : Status::uncertain);
    }
    if (s.queries != b.items.size() || s.hits != hits || s.invalid != invalid || s.uncertain != undecided ||
        !Model::stats_consistent(s, invalid)) {
      fail(b, 0, impl, "batch statistics disagree with the answers",
           test::format("  stats: queries %llu hits %llu invalid %llu uncertain %llu screened_out %llu root_stage %llu\n"
                        "  answers: hits %llu invalid %llu undecided %llu",
                        (unsigned long long)s.queries, (unsigned long long)s.hits, (unsigned long long)s.invalid,
                        (unsigned long long)s.uncertain, (unsigned long long)s.screened_out,
                        (unsigned long long)s.root_stage, (unsigned long long)hits, (unsigned long long)invalid,
                        (unsigned long long)undecided));
    }
  }

  /// Runs `impl` in `mode` over the batch, split in two calls, and checks the statistics.
  static Answers run(const B& b, const Soa& soa, const Implementation& impl, Mode mode) {
    if (impl.dispatch && !set_implementation(impl.name)) {
      fail(b, 0, impl.name, "set_implementation refused a runnable implementation", "");
    }
    typename Model::Options options = b.options;
    options.mode = mode;
    Answers out(b.items.size());
    BatchStats stats = Model::batch(soa, !impl.dispatch, options, out.view(), 0, b.split);
    stats += Model::batch(soa, !impl.dispatch, options, out.view(), b.split, b.items.size());
    check_stats(b, mode, out, stats, impl.name);
    return out;
  }

  static void check(const B& b, Mode mode, const std::vector<OracleResult>& oracle, const std::string& impl,
                    const Answers& out) {
    for (std::size_t i = 0; i < b.items.size(); ++i) {
      const std::size_t d = i % b.decoded;
      const Answer a = out.at(i);
      const std::string broken = test::check_answer(mode, Model::valid(b.options, b.items[i]),
                                                    Model::as_result(oracle[d]), a, b.options.time_tolerance);
      if (!broken.empty()) {
        fail(b, i, impl + " (" + std::string(to_string(mode)) + ")", broken,
             "  answer: " + test::describe(a) + "\n  oracle: " + Model::describe(oracle[d]));
      }
      if (i != d && !(a == out.at(d))) {
        fail(b, i, impl, test::format("a repeated query (of %zu) answered differently", d),
             "  first: " + test::describe(out.at(d)) + "\n  again: " + test::describe(a));
      }
    }
  }

  static int test_one_input(const std::uint8_t* data, std::size_t size) {
    const B b = decode(data, size);
    const std::size_t n = b.items.size();
    const Soa soa(b);

    // The oracle, once per distinct query, and only for input in the domain.
    std::vector<OracleResult> oracle(b.decoded);
    for (std::size_t i = 0; i < b.decoded; ++i) {
      if (Model::valid(b.options, b.items[i])) {
        oracle[i] = Model::oracle(b.options, b.items[i]);
        if (!Model::oracle_decided(oracle[i])) fail(b, i, "oracle", "the oracle did not decide a valid input", "");
      }
    }

    const std::string restore = active_implementation();
    static const std::vector<Implementation> all = implementations(Model::kXsimd);
    // Conservative mode everywhere: checked, and bit-identical across implementations.
    const Answers first = run(b, soa, all.front(), Mode::conservative);
    check(b, Mode::conservative, oracle, all.front().name, first);
    for (std::size_t k = 1; k < all.size(); ++k) {
      const Answers out = run(b, soa, all[k], Mode::conservative);
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
      const Answers out = run(b, soa, impl, Mode::exact);
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
      Answers out(n);
      typename Model::Options options = b.options;
      options.mode = Mode::conservative;
      Model::indexed_batch(b, options, out.view());
      for (std::size_t i = 0; i < n; ++i) {
        if (!(out.at(i) == first.at(i))) {
          fail(b, i, restore + " (indexed)", "the indexed form answers differently from the SoA form",
               "  soa: " + test::describe(first.at(i)) + "\n  indexed: " + test::describe(out.at(i)));
        }
      }
    }
    return 0;
  }
};

}  // namespace simdccd::fuzz
