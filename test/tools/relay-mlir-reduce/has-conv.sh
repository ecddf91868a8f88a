#!/bin/sh
# relay-mlir-reduce's interestingness test for reduce.mlir: called with
# relay-mlir-opt's path and the candidate program; interesting (exit 1,
# mlir-reduce's convention) while the program still holds a convolution
# and relay-mlir-opt still accepts it.
grep -q "relay.nn.conv2d" "$2" && "$1" "$2" > /dev/null 2>&1 && exit 1
exit 0
