#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs the main job: relay-mlir-opt
# parses and verifies each example program under examples/, infers the types
# it leaves out (--relay-infer-types), and prints it after upstream inlining
# and CSE, as a new user's first run; the Relay text examples go through
# --import-relay, --relay-infer-types and --export-relay.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
for f in examples/*.mlir; do
  echo "=== $f"
  build/bin/relay-mlir-opt "$f" --relay-infer-types --inline --cse
done
# Relay text programs: imported, type-inferred, and printed back as Relay.
for f in examples/*.rly; do
  echo "=== $f"
  build/bin/relay-mlir-translate --import-relay "$f" |
    build/bin/relay-mlir-opt --relay-infer-types -mlir-print-debuginfo |
    build/bin/relay-mlir-translate --export-relay
done
# And run on the reference interpreter.
for f in examples/ackermann.mlir examples/factorial.mlir examples/prelude_lists.rly; do
  echo "=== relay-run --interp $f"
  build/bin/relay-run --interp "$f" --random-inputs 0
done
