// Depth-first bisection of [from, 1], earliest part first, for the kernel's
// last chances on one query at a time (area_inclusion-inl.h's apart_after,
// axis_plane_contact-inl.h): the stack and its budget in one place. Plain
// doubles, no vectors: the same on every target.
#pragma once

namespace simdccd::linear {

/// What a part [t0, t1] needs: nothing more (dismissed), halving, or the
/// search ends there (the visitor keeps what it found).
enum class PartVerdict { dismiss, split, stop };

/// How the search ended: every part dismissed, a visitor's stop, or not
/// settled (the budget spent, or a part too small to halve).
enum class Bisection { all_dismissed, stopped, unsettled };

/// Visits parts of [from, 1] earliest first, `visit(t0, t1)` at most kBudget
/// times: a split part's earlier half is visited before its later one and
/// before any later part.
template <int kBudget, class Visit>
Bisection bisect_earliest_first(double from, const Visit& visit) {
  // Each visit pops one part and pushes at most two: at most kBudget + 1 open.
  double lo[kBudget + 1], hi[kBudget + 1];
  int open = 1;
  lo[0] = from, hi[0] = 1;
  for (int evaluations = 0; open > 0; ++evaluations) {
    if (evaluations == kBudget) return Bisection::unsettled;
    --open;
    const double a = lo[open], b = hi[open];
    const PartVerdict verdict = visit(a, b);
    if (verdict == PartVerdict::dismiss) continue;
    if (verdict == PartVerdict::stop) return Bisection::stopped;
    const double middle = a + 0.5 * (b - a);
    if (!(a < middle && middle < b)) return Bisection::unsettled;  // no finer part to try
    lo[open] = middle, hi[open] = b;  // the later half waits on the stack
    lo[open + 1] = a, hi[open + 1] = middle;
    open += 2;
  }
  return Bisection::all_dismissed;
}

}  // namespace simdccd::linear
