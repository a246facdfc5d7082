# Cross-compiling for aarch64 Linux (Debian multiarch: g++-aarch64-linux-gnu
# and the :arm64 library packages), run through QEMU user mode. Used by
# .ci/aarch64:
#   cmake -S . -B build-aarch64 -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# Programs built here (doctest discovery, ctest) run as
# `qemu-aarch64 -cpu max PROGRAM`: NEON, SVE and SVE2 with 512-bit vectors.
# QEMU_CPU is ignored when -cpu is given, so the CPU is a cache variable:
# -DSIMDCCD_QEMU_CPU=neoverse-n1 (NEON only), max,sve-default-vector-length=16
# (adds SVE2_128), max,sve-default-vector-length=32 (adds SVE_256).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# The :arm64 packages install into the multiarch folders
# (/usr/lib/aarch64-linux-gnu, its cmake/ and pkgconfig/), which
# CMAKE_LIBRARY_ARCHITECTURE puts first on every search path; the host's
# libraries live in /usr/lib/x86_64-linux-gnu, which is never searched.

# pkg-config (GMP) reads the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# Never -L /usr/aarch64-linux-gnu for QEMU: that glibc mixed with the
# multiarch libraries makes TBB programs spin (shared/notes/toolchain.md).
set(SIMDCCD_QEMU_CPU "max" CACHE STRING "CPU model that qemu-aarch64 emulates (-cpu)")
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-cpu;${SIMDCCD_QEMU_CPU}")
