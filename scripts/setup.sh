#!/usr/bin/env bash
# Installs what relay-mlir needs from Debian's packages (only what is
# missing) and builds everything into build/ with ninja and ccache.
# Used by scripts/main.sh and scripts/test.sh; run as root on a fresh
# Debian 12 machine. `--packages-only` installs without building.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build ccache g++ python3 clang-format
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libgtest-dev libbenchmark-dev libopenblas-dev libdnnl-dev
  clang-22 libclang-rt-22-dev lld-22 python3-numpy
  libonnx-dev libprotobuf-dev libonnx-testdata python3-onnx
  python3-torch python3-torchvision python3-sklearn python3-scipy
  pybind11-dev python3-dev python3-pytest python3-pip python3-setuptools
  python3-wheel
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# --packages-only: the packages alone (scripts/test.sh --sanitize builds
# elsewhere).
if [ "${1:-}" = "--packages-only" ]; then
  exit 0
fi

# -O2 without debug info (CMakeLists.txt), Debian's shared libMLIR/libLLVM,
# compiled by Debian's clang-22 with a precompiled header of LLVM's and
# MLIR's headers (a clean build in about half g++'s time). A build/ that
# g++ configured is reconfigured from scratch. The libFuzzer targets are
# scripts/fuzz.sh's (it turns them on in the same build/).
cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DRELAY_MLIR_FUZZERS=OFF
cmake --build build
