#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs the main job: ResNet-18 from
# torchvision (random weights, no download) exported to ONNX, compiled by
# relay-run through --relay-to-llvm and run on a generated image; prints the
# output's summary, whether it matches PyTorch, and the median latency.
# Then a Relay text program (an LSTM written as recursion over the sequence)
# compiled and run the same way, and the digits CNN of examples/training
# trained by one compiled Relay function per SGD step (checked against
# PyTorch).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
models=build/models
if [ ! -f "$models/resnet18.onnx" ]; then
  echo "=== exporting torchvision's ResNet-18 to $models/resnet18.onnx"
  /usr/bin/python3 examples/models/export_torchvision.py "$models" resnet18
fi
echo "=== relay-run $models/resnet18.onnx (compiled, 1x3x224x224 image)"
build/bin/relay-run "$models/resnet18.onnx" --input "$models/resnet18.input.npy" \
  --output "$models/resnet18.relay.npy" --summary --bench 10
/usr/bin/python3 test/frontends/ONNX/Inputs/compare.py \
  "$models/resnet18.relay.npy" "$models/resnet18.torch.npy" 1e-4
echo "=== relay-run examples/workloads/lstm.rly (compiled, random inputs)"
build/bin/relay-run examples/workloads/lstm.rly --random-inputs 0 --summary --bench 10
echo "=== examples/training: the digits CNN trained by its compiled SGD step"
bash examples/training/train_digits.sh
