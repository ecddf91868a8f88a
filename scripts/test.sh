#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs the whole test suite: lit +
# FileCheck tests, GoogleTest unit tests, the install/embedding test, the
# format check, ONNX's backend node tests and the workloads against PyTorch,
# all through ctest. Then the sanitizer pass below, without its six slowest
# lit tests (about 11 minutes of building and 4 of testing on two cores).
#
# scripts/test.sh --sanitize runs only the sanitizer pass, in full: it
# builds into build-sanitize with clang's ASan (LeakSanitizer included) and
# UBSan (CMake's RELAY_MLIR_SANITIZE) and runs the fast part of the suite
# there: the lit tests, the GoogleTest unit tests, the fuzz targets'
# replays and the Python package's tests. scripts/fuzz.sh runs the
# libFuzzer targets.
set -euo pipefail
cd "$(dirname "$0")/.."

# sanitized_tests full|quick
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
  if [ "$1" = quick ]; then
    # Each of these takes 40-75 s under the sanitizers (the operators
    # compiled one by one, every -O level, gradients checked by finite
    # differences), and four more of 23-101 s (the interpreter's recursion
    # limits, bf16 precision, layouts, packed operands: a clean clone's run
    # on a Xeon took 38 minutes with them); the normal build above has run
    # them all, and --sanitize runs them too. Since 2026-12-03 also eight
    # of 30-102 s that repeat numeric checks on code the rest covers
    # (dynamic-shape operators, forward-mode rules, Hessians, pooling ties,
    # the gradient language, random programs, -mcpu variants, training):
    # a clean clone's run on a 2-core Zen 5 took 47 minutes with them,
    # 10 of them the sanitized lit tests (1,174 s of CPU; 714 s without).
    export LIT_FILTER_OUT='(operators-gpu-lowering|operators-compiled|opt-levels|gradient-rules|relay-run/gradient|partial-eval-gradient-torch|interpreter-recursion|relay-run/precision|convert-layout|packed-operands|relay-run/operators-dynamic|forward-ad-rules|relay-run/differential|hessian-vector|pool-ties|gradient-language|cpu-option|train-digits)\.test$'
  fi
  ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" \
    -R '^(lit|python-package|replay-.*|[A-Za-z]+\.[A-Za-z]+)$'
}

if [ "${1:-}" = "--sanitize" ]; then
  bash scripts/setup.sh --packages-only
  sanitized_tests full
  exit
fi
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
sanitized_tests quick
