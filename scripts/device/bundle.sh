#!/bin/bash
# Packs build/bin/relay-run with the shared libraries it needs (LLVM and
# MLIR 22, glibc, libstdc++, ...) and the CUDA runtime's static libraries
# into DIR (default .devrun, which .git/info/exclude should list), small
# enough (about 55 MB, xz) to carry to a GPU machine whose image has no
# LLVM 22 (the `device` tool's: it copies the working tree). On that
# machine, scripts/device/gpu-checks.sh unpacks and runs it.
#
# libz3 and libicudata are replaced by empty stubs of the same soname: LLVM
# links them but relay-run never calls into them (symbols bind lazily).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUTDIR=${1:-$ROOT/.devrun}
BUILD=${BUILD:-$ROOT/build}
BIN=$BUILD/bin/relay-run
rm -rf "$OUTDIR" && mkdir -p "$OUTDIR/bin" "$OUTDIR/lib" "$OUTDIR/static"
strip -o "$OUTDIR/bin/relay-run.real" "$BIN"
xz -T2 -6 "$OUTDIR/bin/relay-run.real"
tmp=$(mktemp -d)
for lib in $(ldd "$BIN" | awk '/=>/ {print $3}') /lib64/ld-linux-x86-64.so.2; do
  name=$(basename "$lib")
  case $name in
    libLLVM*|libMLIR*) xz -T2 -6 -c "$(readlink -f "$lib")" > "$OUTDIR/lib/$name.xz" ;;
    libz3*|libicudata*)
      # (libicuuc binds ICU's data table, icudt<version>_dat, at load.)
      version=${name##*.so.}
      echo "char relay_bundle_stub; char icudt${version%%.*}_dat[64];" > "$tmp/stub.c"
      gcc -shared -o "$tmp/$name" "$tmp/stub.c" -Wl,-soname,"$name" ;;
    *) cp -L "$lib" "$tmp/$name" ;;
  esac
done
(cd "$tmp" && tar cf - lib*.so* ld-linux*) | xz -T2 -9 > "$OUTDIR/small-libs.tar.xz"
rm -rf "$tmp"
cp "$BUILD"/lib/libRelayMLIRCudaRuntime.a "$BUILD"/lib/libRelayMLIRCRuntime.a "$OUTDIR/static/"
cp /usr/local/cuda/nvvm/libdevice/libdevice.10.bc "$OUTDIR/" 2>/dev/null || true
du -sh "$OUTDIR"
