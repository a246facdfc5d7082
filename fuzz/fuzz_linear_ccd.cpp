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
#include "linear_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return simdccd::fuzz::Harness<simdccd::fuzz::LinearModel<false>>::test_one_input(data, size);
}
