#!/usr/bin/env bash
# Installs the relay_mlir package from the build tree with pip (into a
# scratch folder: Debian's Python is externally managed) and builds a wheel
# of it, then runs a program through each outside the build tree.
#   pip_install.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$build/test/pip-install-check
rm -rf "$work"
mkdir -p "$work"
pip=(/usr/bin/python3 -m pip -q --disable-pip-version-check)
export PIP_ROOT_USER_ACTION=ignore
"${pip[@]}" install --no-index --no-build-isolation --no-deps \
  --target "$work/site" "$build/python"
"${pip[@]}" wheel --no-index --no-build-isolation --no-deps \
  -w "$work/wheels" "$build/python"
wheel=$(ls "$work"/wheels/relay_mlir-*.whl)
case $wheel in
  *-linux_x86_64.whl) ;;
  *) echo "the wheel is not tagged for this platform: $wheel"; exit 1 ;;
esac
"${pip[@]}" install --no-index --no-deps --target "$work/from-wheel" "$wheel"
program='
import sys, numpy as np, relay_mlir
assert relay_mlir.__file__.startswith(sys.argv[1]), relay_mlir.__file__
f = relay_mlir.compile("def @main(%x: Tensor[(3), float32]) { negative(%x) }")
print(relay_mlir.__file__.split("/")[-3], f(np.arange(3, dtype=np.float32)))
'
cd "$work"
for site in site from-wheel; do
  PYTHONPATH=$work/$site /usr/bin/python3 -c "$program" "$work/$site"
done
