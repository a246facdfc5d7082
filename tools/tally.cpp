#include "tally.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>

namespace simdccd::cli {
namespace {

void count(Tally& tally, const Answers& answers, std::span<const std::uint8_t> truth,
           const Answers* oracle) {
  const bool has_truth = !truth.empty();
  const bool parity = !answers.contact_roots.empty();
  for (std::size_t i = 0; i < answers.hit.size(); ++i) {
    const bool truth_hit = has_truth && truth[i] != 0;
    ++tally.queries;
    tally.truth_positives += truth_hit;
    if (answers.status[i] == Status::invalid_input) {
      ++tally.invalid;
      continue;
    }
    const bool hit = answers.hit[i] != 0;
    tally.positives += hit;
    if (hit && parity) ++(answers.contact_roots[i] % 2 == 1 ? tally.odd : tally.even);
    tally.false_negatives += truth_hit && !hit;
    tally.false_positives += has_truth && !truth_hit && hit;
    if (oracle) {
      const bool oracle_hit = oracle->hit[i] != 0;
      tally.oracle_false_negatives += oracle_hit && !hit;
      tally.oracle_false_positives += !oracle_hit && hit;
      if (oracle_hit && hit) {
        const double gap = oracle->toi[i] - answers.toi[i];
        tally.oracle_late_toi += gap < 0;
        tally.oracle_max_toi_gap = std::max(tally.oracle_max_toi_gap, gap);
      }
    }
  }
}

}  // namespace

Tally& Tally::operator+=(const Tally& o) {
  queries += o.queries;
  positives += o.positives;
  odd += o.odd;
  even += o.even;
  invalid += o.invalid;
  truth_positives += o.truth_positives;
  false_negatives += o.false_negatives;
  false_positives += o.false_positives;
  oracle_false_negatives += o.oracle_false_negatives;
  oracle_false_positives += o.oracle_false_positives;
  oracle_late_toi += o.oracle_late_toi;
  oracle_max_toi_gap = std::max(oracle_max_toi_gap, o.oracle_max_toi_gap);
  rounded += o.rounded;
  stats += o.stats;
  seconds += o.seconds;
  return *this;
}

std::uint64_t Tally::guarantee_violations(Mode mode) const {
  switch (mode) {
    case Mode::exact:
      return oracle_false_negatives + oracle_false_positives + oracle_late_toi;
    case Mode::conservative:
      return oracle_false_negatives + oracle_late_toi;
    case Mode::oracle:
      return 0;
  }
  return 0;
}

Tally decide_and_count(const Engine& engine, const Batch& batch,
                       std::span<const std::uint8_t> truth, const Engine* verifier,
                       Progress& progress) {
  const std::size_t size = batch.size();
  assert(truth.empty() || truth.size() == size);
  assert(batch.rational.empty() || batch.rational.size() == size);
  assert(batch.rigid_rational.empty() || batch.rigid_rational.size() == size);
  // Kernels: big enough for the threads to share (256 tasks of the default
  // grain) and small enough for progress; the oracle is ~10^4 times slower.
  const bool oracle_runs = verifier || engine.mode() == Mode::oracle;
  const std::size_t chunk = oracle_runs ? 1024 : 1 << 18;
  using Clock = std::chrono::steady_clock;
  Tally tally;
  Answers answers, oracle;
  for (std::size_t begin = 0; begin < size; begin += chunk) {
    const std::size_t end = std::min(size, begin + chunk);
    const Clock::time_point start = Clock::now();
    tally.stats += engine.decide(batch, begin, end, answers);
    tally.seconds += std::chrono::duration<double>(Clock::now() - start).count();
    if (verifier) verifier->decide(batch.doubles_only(), begin, end, oracle);
    count(tally, answers, truth.empty() ? truth : truth.subspan(begin, end - begin),
          verifier ? &oracle : nullptr);
    progress.add(end - begin);
  }
  return tally;
}

}  // namespace simdccd::cli
