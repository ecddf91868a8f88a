#!/usr/bin/env bash
# Trains the digits CNN (digits_cnn.rly) with one compiled Relay function
# per SGD step, and checks its first 100 losses against PyTorch's.
#
#   bash examples/training/train_digits.sh [OUTDIR] [EPOCHS] [LEARNING_RATE]
#
# Uses the tools in build/bin and the C runtime in build/lib (RELAY_BUILD
# overrides build/, RELAY_C_RUNTIME the runtime library). The steps:
#  1. prepare_digits.py: sklearn's digits data, a shuffle per epoch and the
#     initial weights, as raw files;
#  2. sgd_step.py: @loss's gradient (--relay-gradient, first order),
#     exported as Relay text with an @step added that moves each weight
#     against its gradient, inlined and dead code removed: one function
#     that runs forward, backward and update;
#  3. relay-run --emit-object compiles @step and @predict ahead of time and
#     train_digits.c links them with the C runtime;
#  4. train_digits runs the epochs (mean loss and test accuracy of each);
#  5. check_torch.py trains PyTorch from the same weights on the same
#     batches and compares the first 100 losses (1e-3 relative).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${RELAY_BUILD:-$root/build}"
bin="$build/bin"
out="${1:-$build/examples/training}"
epochs="${2:-20}"
rate="${3:-0.05}"
mkdir -p "$out"

/usr/bin/python3 "$here/prepare_digits.py" "$out/data" --epochs "$epochs"

/usr/bin/python3 "$here/sgd_step.py" "$bin" "$here/digits_cnn.rly" \
  "$out/train.mlir" --data x,y --keep predict

"$bin/relay-run" "$out/train.mlir" --entry step --emit-object "$out/step.o"
"$bin/relay-run" "$out/train.mlir" --entry predict \
  --emit-object "$out/predict.o"
"${CC:-cc}" -O2 -std=c99 -I "$out" "$here/train_digits.c" "$out/step.o" \
  "$out/predict.o" "${RELAY_C_RUNTIME:-$build/lib/libRelayMLIRCRuntime.a}" \
  -lm -lpthread \
  -o "$out/train_digits"

"$out/train_digits" "$out/data" "$rate" "$out/losses.txt"
/usr/bin/python3 "$here/check_torch.py" "$out/data" "$out/losses.txt" "$rate"
