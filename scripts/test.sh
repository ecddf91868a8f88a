#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs the whole test suite: lit +
# FileCheck tests, GoogleTest unit tests, the install/embedding test, the
# format check, ONNX's backend node tests and the workloads against PyTorch,
# all through ctest.
#
# scripts/test.sh --sanitize instead builds into build-sanitize with ASan
# and UBSan (CMake's RELAY_MLIR_SANITIZE) and runs the fast part of the
# suite there: the lit tests, the GoogleTest unit tests and the fuzz
# targets' replays (the Python package is not built). scripts/fuzz.sh runs
# the libFuzzer targets.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--sanitize" ]; then
  bash scripts/setup.sh --packages-only
  cmake -G Ninja -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Release \
    -DRELAY_MLIR_SANITIZE=ON -DRELAY_MLIR_BUILD_BENCHMARKS=OFF
  cmake --build build-sanitize
  # As lit.cfg.py sets them for the lit tests.
  export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" \
    -R '^(lit|replay-.*|[A-Za-z]+\.[A-Za-z]+)$'
  exit
fi
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
