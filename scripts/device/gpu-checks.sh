#!/bin/bash
# On a GPU machine, from the repository root: unpacks the bundle
# scripts/device/bundle.sh made (default .devrun) and runs the GPU checks
# and benchmarks, writing a log (and the tables) into $OUT (default
# /tmp/gpu-out). STEPS picks them (default ahkbcdegp):
#   a  model.rly on the GPU, JIT against the CPU and as a linked object
#   h  products and convolutions on shared-memory tiles against the CPU
#      (cuda-contractions.test's checks)
#   k  products against cuBLAS, both timed on the device (CUDA events;
#      VARIANTS: ";"-separated relay-run flag sets, each timed too)
#   b  export the vision models (needs PyTorch) into /tmp/models
#   c  every workload on the GPU against the CPU (gpu_vs_cpu.py)
#   d  benchmark/gpu_workloads.py (workloads, products against cuBLAS)
#   e  the same with one result per thread (--gpu-thread-tile=1)
#   g  ResNet-18 and VGG-16 at batch 64
#   t  the vision models with --precision tf32: against the CPU, timed
#      (batch 1 and 64)
#   f  ncu's kernel times of ResNet-18
#   p  relay-run --profile: each kernel's device time, ResNet-18 and
#      VGG-16 at batch 1
# ONLY=name,... restricts c and d; GEMM=--no-gemm skips the products in d
# (GEMM="--gemm-sizes 1024,4096" picks them); RUNS sets d's runs (20).
set -u
R=$(pwd); D=${BUNDLE:-$R/.devrun}; STEPS=${1:-ahkbcdegp}; OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
echo "== machine"; date
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
grep -m1 'model name' /proc/cpuinfo; nproc
if [ ! -f /usr/local/cuda/nvvm/libdevice/libdevice.10.bc ] && [ -f "$D/libdevice.10.bc" ]; then
  mkdir -p /usr/local/cuda/nvvm/libdevice && cp "$D/libdevice.10.bc" /usr/local/cuda/nvvm/libdevice/
fi
if [ ! -f "$D/bin/relay-run.real" ]; then
  (cd "$D/lib" && xz -d -T16 ./*.xz && tar xJf ../small-libs.tar.xz) &&
    (cd "$D/bin" && xz -d relay-run.real.xz)
fi
NVLIB=$(ldconfig -p | awk '/libcuda.so.1 /{print $NF; exit}')
[ -n "$NVLIB" ] || NVLIB=$(find /usr /lib /opt -name libcuda.so.1 2>/dev/null | head -1)
NVDIR=$(dirname "${NVLIB:-/nonexistent/x}"); echo "libcuda: $NVLIB"
# The bundle's own loader and glibc, so that the host's glibc does not
# matter; the driver's libcuda comes from the host.
printf '#!/bin/sh\nexec %s/lib/ld-linux-x86-64.so.2 --library-path %s/lib:%s %s/bin/relay-run.real "$@"\n' \
  "$D" "$D" "$NVDIR" "$D" > "$D/bin/relay-run"; chmod +x "$D/bin/relay-run"
RUN=$D/bin/relay-run; A=test/tools/relay-run/Inputs/aot
export PYTHONUNBUFFERED=1
if [[ $STEPS == *a* ]]; then
  echo "== a: model.rly JIT cuda vs cpu, AOT object"
  timeout 60 "$RUN" $A/model.rly --target cuda --random-inputs 1 > /tmp/gpu.txt; echo "rc $?"
  timeout 60 "$RUN" $A/model.rly --target cpu --random-inputs 1 > /tmp/cpu.txt
  python3 test/tools/relay-run/compare_outputs.py /tmp/gpu.txt /tmp/cpu.txt 1e-5 && echo "JIT: the CPU's values"
  mkdir -p /tmp/aot && timeout 60 "$RUN" $A/model.rly --target cuda --emit-object /tmp/aot/model.o --emit-header /tmp/aot/model.h
  cc -std=c99 -I /tmp/aot $A/main.c /tmp/aot/model.o "$D/static/libRelayMLIRCudaRuntime.a" \
    "$D/static/libRelayMLIRCRuntime.a" -lstdc++ -ldl -lpthread -lm -o /tmp/aot/main && timeout 60 /tmp/aot/main; echo "aot rc $?"
fi
if [[ $STEPS == *h* ]]; then
  echo "== h: contractions on shared-memory tiles vs cpu"
  C=test/tools/relay-run/Inputs/gpu
  for p in contractions contractions_f16; do
    timeout 60 "$RUN" $C/$p.rly --target cpu --random-inputs 1 > /tmp/$p.cpu
    tol="1e-5 max"; [ $p = contractions_f16 ] && tol="1e-2 max"
    for t in 0 4 8 -1; do
      timeout 60 "$RUN" $C/$p.rly --target cuda --gpu-shared-tile=$t --random-inputs 1 > /tmp/$p.gpu; echo "$p tile $t rc $?"
      python3 test/tools/relay-run/compare_outputs.py /tmp/$p.gpu /tmp/$p.cpu $tol && echo "$p tile $t: the CPU's values"
    done
  done
  timeout 60 "$RUN" $C/contractions.rly --target cuda --precision tf32 --random-inputs 1 > /tmp/tf32.gpu; echo "tf32 rc $?"
  python3 test/tools/relay-run/compare_outputs.py /tmp/tf32.gpu /tmp/contractions.cpu 1e-2 max && echo "tf32: the CPU's values within TF32 rounding"
fi
if [[ $STEPS == *k* ]]; then
  echo "== k: products against cuBLAS, kernels timed on the device"; date
  timeout ${KTIME:-300} python3 benchmark/gpu_workloads.py --bin "$D/bin" --only none --runs ${RUNS:-10} \
    ${GEMM:-} --gemm-variants "${VARIANTS:-}" --results "$OUT/gemm_table.md"; echo "rc $?"
fi
if [[ $STEPS == *b* ]]; then
  echo "== b: export"; date
  timeout 200 python3 examples/models/export_torchvision.py /tmp/models resnet18 mobilenet_v2 vgg16 2>&1 | tail -3
fi
if [[ $STEPS == *c* ]]; then
  echo "== c: gpu vs cpu"
  timeout 240 python3 test/tools/relay-run/gpu_vs_cpu.py --bin "$D/bin" --models /tmp/models --only "${ONLY:-}"; echo "rc $?"
fi
if [[ $STEPS == *d* ]]; then
  echo "== d: timings"
  timeout ${DTIME:-240} python3 benchmark/gpu_workloads.py --bin "$D/bin" --models /tmp/models --runs ${RUNS:-20} \
    --only "${ONLY:-}" ${GEMM:-} --results "$OUT/gpu_table.md"; echo "rc $?"
fi
if [[ $STEPS == *e* ]]; then
  echo "== e: timings, one result per thread"
  timeout 100 python3 benchmark/gpu_workloads.py --bin "$D/bin" --models /tmp/models --runs 20 \
    --only resnet18,vgg16 --relay-flag=--gpu-thread-tile=1 --results "$OUT/gpu_table_tile1.md"; echo "rc $?"
fi
if [[ $STEPS == *g* ]]; then
  echo "== g: batch 64"
  timeout 120 python3 benchmark/gpu_workloads.py --bin "$D/bin" --models /tmp/models --runs 12 \
    --only none --batch64 --no-gemm --results "$OUT/gpu_table_b64.md"; echo "rc $?"
fi
if [[ $STEPS == *t* ]]; then
  echo "== t: TF32"
  timeout 120 python3 test/tools/relay-run/gpu_vs_cpu.py --bin "$D/bin" --models /tmp/models \
    --only resnet18,mobilenet_v2,vgg16 --gpu-flag=--precision=tf32 --tolerance 2e-2; echo "rc $?"
  timeout ${TTIME:-150} python3 benchmark/gpu_workloads.py --bin "$D/bin" --models /tmp/models --runs ${RUNS:-20} \
    --only resnet18,mobilenet_v2,vgg16 --batch64 --no-gemm --relay-flag=--precision=tf32 \
    --results "$OUT/gpu_table_tf32.md"; echo "rc $?"
fi
if [[ $STEPS == *f* ]]; then
  echo "== f: ncu kernel times, ResNet-18"
  NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  timeout 60 "$NCU" --metrics gpu__time_duration.sum --csv --target-processes all "$RUN" \
    /tmp/models/resnet18.onnx --target cuda --input /tmp/models/resnet18.input.npy --summary \
    > "$OUT/ncu_resnet18.csv"; echo "rc $?"
fi
if [[ $STEPS == *p* ]]; then
  echo "== p: each kernel's device time (relay-run --profile)"
  for m in resnet18 vgg16; do
    timeout 60 "$RUN" /tmp/models/$m.onnx --target cuda --input /tmp/models/$m.input.npy --summary \
      --bench 20 --profile > "$OUT/profile_$m.txt" 2>&1; echo "$m rc $?"
    grep -A12 "device time" "$OUT/profile_$m.txt"; grep "^kernels:\|median" "$OUT/profile_$m.txt"
  done
fi
date
