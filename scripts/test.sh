#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs the whole test suite: lit +
# FileCheck tests, GoogleTest unit tests, the install/embedding test, the
# format check, ONNX's backend node tests and the workloads against PyTorch,
# all through ctest.
#
# scripts/test.sh --sanitize runs the sanitizer pass, its own command since
# 2026-12-04 (a clean CI run with it took 51 minutes, over CI's 35): it
# builds into build-sanitize with clang's ASan (LeakSanitizer included) and
# UBSan (CMake's RELAY_MLIR_SANITIZE) and runs the fast part of the suite
# there: the lit tests, the GoogleTest unit tests, the fuzz targets'
# replays and the Python package's tests. scripts/fuzz.sh runs the
# libFuzzer targets.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitized_tests() {
  # An older build-sanitize made with g++ (before 2026-12-01) is remade.
  if [ -f build-sanitize/CMakeCache.txt ] &&
    ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++-22$' \
      build-sanitize/CMakeCache.txt; then
    rm -rf build-sanitize
  fi
  cmake -G Ninja -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DRELAY_MLIR_SANITIZE=ON -DRELAY_MLIR_BUILD_BENCHMARKS=OFF \
    -DRELAY_MLIR_FUZZERS=OFF
  cmake --build build-sanitize
  # As lit.cfg.py sets them for the lit tests.
  export ASAN_OPTIONS=allow_user_poisoning=0
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" \
    -R '^(lit|python-package|replay-.*|c-runtime-under-asan|[A-Za-z]+\.[A-Za-z]+)$'
}

if [ "${1:-}" = "--sanitize" ]; then
  bash scripts/setup.sh --packages-only
  sanitized_tests
  exit
fi
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
