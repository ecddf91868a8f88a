#!/usr/bin/env bash
# A long differential run on random programs (test/differential): MODULES
# modules of 20 programs each (default 500: 10,000 programs), seeds from
# FIRST (default 1000, past the ctest's 0-9), every configuration
# (interpreter, -O0..-O3, two threads, ahead of time). Failing programs are
# kept in build/differential-failures. Needs the build (scripts/test.sh or
# scripts/setup.sh).
# With --nn the programs also use products, convolutions, pools, slices,
# gathers and pads (relay_program_generator.py --nn).
# With --gradient, MODULES programs of one float32 result each are
# differentiated every way relay-mlir can (gradient_differential.py:
# higher order, with the partial evaluator, first order, compiled at -O0
# and -O3, forward mode, finite differences); --nn applies there too.
#   scripts/differential.sh [MODULES] [FIRST] [--nn] [--gradient]
set -euo pipefail
cd "$(dirname "$0")/.."
positional=() options=() gradient=0
for arg in "$@"; do
  case "$arg" in
  --gradient) gradient=1 ;;
  --*) options+=("$arg") ;;
  *) positional+=("$arg") ;;
  esac
done
modules=${positional[0]:-500}
first=${positional[1]:-1000}
if [ "$gradient" = 1 ]; then
  exec /usr/bin/python3 test/differential/gradient_differential.py \
    --python build/python --seeds "$first:$((first + modules))" \
    ${options[@]+"${options[@]}"}
fi
exec /usr/bin/python3 test/differential/run_differential.py --bin build/bin \
  --seeds "$first:$((first + modules))" --programs 20 \
  --keep build/differential-failures ${options[@]+"${options[@]}"}
