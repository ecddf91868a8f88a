#!/usr/bin/env bash
# A long differential run on random programs (test/differential): MODULES
# modules of 20 programs each (default 500: 10,000 programs), seeds from
# FIRST (default 1000, past the ctest's 0-9), every configuration
# (interpreter, -O0..-O3, two threads, ahead of time). Failing programs are
# kept in build/differential-failures. Needs the build (scripts/test.sh or
# scripts/setup.sh).
# With --nn the programs also use products, convolutions, pools, slices,
# gathers and pads (relay_program_generator.py --nn).
#   scripts/differential.sh [MODULES] [FIRST] [--nn]
set -euo pipefail
cd "$(dirname "$0")/.."
modules=${1:-500}
first=${2:-1000}
shift $(($# < 2 ? $# : 2))
exec /usr/bin/python3 test/differential/run_differential.py --bin build/bin \
  --seeds "$first:$((first + modules))" --programs 20 \
  --keep build/differential-failures "$@"
