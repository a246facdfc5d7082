// A vertex falling straight through the middle of a still triangle hits it at t = 1/2.
#include <simdccd/exact_oracle.hpp>

#include <cstdio>

int main() {
  simdccd::Query q;
  q.points = {{{0.25, 0.25, 1}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0},
               {0.25, 0.25, -1}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
  const simdccd::Result r = simdccd::exact_ccd(simdccd::QueryType::vertex_face, q);
  std::printf("hit=%d toi=[%g, %g]\n", r.hit, r.toi_lo, r.toi_hi);
  return r.hit && r.toi_lo == 0.5 && r.toi_hi == 0.5 ? 0 : 1;
}
