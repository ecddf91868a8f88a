#!/usr/bin/env bash
# Installs relay-mlir from BUILD into a scratch prefix, builds the external
# tool in this folder against find_package(RelayMLIR), and runs it.
#   run.sh BUILD_DIR THIS_DIR LLVM_TOOLS_DIR
set -euo pipefail
build=$1 here=$2 tools=$3
work=$(cd "$build" && pwd)/test/install-check
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
# The installed pass declarations (transforms/Passes.td and the per-family
# files it includes) generate the installed Passes.h.inc.
inc=$work/prefix/include/relay-mlir
"$tools/mlir-tblgen" -gen-pass-decls -name Relay -I "$inc" \
  -I "$("$tools/llvm-config" --includedir)" "$inc/transforms/Passes.td" |
  cmp - "$inc/transforms/Passes.h.inc"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -G Ninja -S "$here" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" "${launcher[@]}" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/relay-embed" "$here/input.mlir" | tee "$work/out.mlir" |
  "$tools/FileCheck" "$here/input.mlir.check"
"$work/build/relay-embed-c" | tee "$work/out-c.txt"
grep -qx "C API: 1 4 9 16" "$work/out-c.txt"
echo "install-and-embed: OK"
