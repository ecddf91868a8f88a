#!/usr/bin/env bash
# Builds the libFuzzer targets (test/fuzz: Relay text, .npy, ONNX, the pass
# pipelines; clang-22 with ASan and UBSan) into build/ and fuzzes each for
# SECONDS (default 300), one after another, from its seeds. A crash, a
# sanitizer report, a hang or a wrong answer fails the run and libFuzzer
# leaves the input as crash-*/timeout-* in the current folder.
#   scripts/fuzz.sh [SECONDS] [TARGET...]   (TARGET: text, npy, onnx, pipeline)
# The test suite (scripts/test.sh) replays the same targets' seeds and
# regressions without libFuzzer; the next scripts/test.sh turns the
# fuzzers off again.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
shift || true
bash scripts/setup.sh --packages-only
cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DRELAY_MLIR_FUZZERS=ON -DRELAY_FUZZ_SECONDS="$seconds"
cmake --build build
targets=${*:-text npy onnx pipeline}
for t in $targets; do
  ctest --test-dir build --output-on-failure -R "^fuzz-relay-$t\$"
done
