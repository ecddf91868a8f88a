#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs the whole test suite: lit +
# FileCheck tests, GoogleTest unit tests, the install/embedding test, the
# format check, ONNX's backend node tests and the workloads against PyTorch,
# all through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
