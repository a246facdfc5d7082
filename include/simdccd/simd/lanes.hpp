// The lane interface that the kernel math is written against, and its scalar
// instantiation.
//
// The kernel math (include/simdccd/linear/, include/simdccd/spacetime/ and the
// shared -inl.h headers of this folder) is written once, as templates over a
// lane type `L`, and instantiated for plain `double` (ScalarLanes, here), for
// Highway vectors (dispatch/hwy_lanes-inl.h) and for xsimd batches
// (xsimd_lanes.hpp). `L` provides, as static functions:
//
//   using V (a vector of doubles), M (a mask of the same lanes);
//   std::size_t lanes();                 lanes per vector (a runtime value on SVE)
//   V load(const double*); void store(V, double*);    unaligned, lanes() values
//   V set(double);
//   V add(V, V), sub, mul, div, min, max; V abs(V), sqrt(V);
//   M lt(V, V), le, gt, ge, eq;
//   V select(M, V yes, V no);
//   M both(M, M), either(M, M), but_not(M a, M b) (a and not b);
//   bool any(M), all(M);
//   std::size_t compress_store(V v, M m, double* p): the lanes of v where m
//     holds, in order, to p[0..count); returns count; may write p[count..lanes()).
//
// Every operation rounds once, as IEEE-754 double arithmetic does; the math
// never fuses a multiply and an add, so all instantiations compute bit-identical
// results and the error bounds need not cover two kinds of rounding. Vectors are
// only ever named locals, arguments, results and references: SVE vectors are
// sizeless, so they cannot live in arrays, structs or lambda captures by value.
#pragma once

#include <cmath>
#include <cstddef>

/// The namespace, inside simdccd::simd and each kernel family's namespace
/// (simdccd::linear, simdccd::spacetime), in which the -inl.h headers define
/// the kernels: `portable` unless an includer (the Highway dispatch, once per
/// target) defines another before including them.
#ifndef SIMDCCD_TARGET_NAMESPACE
#define SIMDCCD_TARGET_NAMESPACE portable
#endif

namespace simdccd::simd {

struct ScalarLanes {
  using V = double;
  using M = bool;
  static std::size_t lanes() { return 1; }
  static V load(const double* p) { return *p; }
  static void store(V v, double* p) { *p = v; }
  static V set(double x) { return x; }
  static V add(V a, V b) { return a + b; }
  static V sub(V a, V b) { return a - b; }
  static V mul(V a, V b) { return a * b; }
  static V div(V a, V b) { return a / b; }
  static V min(V a, V b) { return b < a ? b : a; }
  static V max(V a, V b) { return a < b ? b : a; }
  static V abs(V a) { return std::fabs(a); }
  static V sqrt(V a) { return std::sqrt(a); }
  static M lt(V a, V b) { return a < b; }
  static M le(V a, V b) { return a <= b; }
  static M gt(V a, V b) { return a > b; }
  static M ge(V a, V b) { return a >= b; }
  static M eq(V a, V b) { return a == b; }
  static V select(M m, V yes, V no) { return m ? yes : no; }
  static M both(M a, M b) { return a && b; }
  static M either(M a, M b) { return a || b; }
  static M but_not(M a, M b) { return a && !b; }
  static bool any(M m) { return m; }
  static bool all(M m) { return m; }
  static std::size_t compress_store(V v, M m, double* p) {
    *p = v;
    return m ? 1 : 0;
  }
};

}  // namespace simdccd::simd
