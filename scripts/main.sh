#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs the main job: relay-mlir-opt
# parses and verifies each example program under examples/, infers the types
# it leaves out (--relay-infer-types), and prints it after upstream inlining
# and CSE, as a new user's first run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
for f in examples/*.mlir; do
  echo "=== $f"
  build/bin/relay-mlir-opt "$f" --relay-infer-types --inline --cse
done
