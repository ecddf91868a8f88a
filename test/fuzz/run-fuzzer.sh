#!/usr/bin/env bash
# Runs a fuzzer for a bounded time from a corpus of seed files.
# usage: run-fuzzer.sh FUZZER SECONDS MAX_LEN SEED...
set -euo pipefail
fuzzer=$1 seconds=$2 max_len=$3
shift 3
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
# Numbered: seeds from different folders may share a file name.
i=0
for seed in "$@"; do
  cp "$seed" "$corpus/$i-$(basename "$seed")"
  i=$((i + 1))
done
# LLVM's inline allocators poison memory the uninstrumented libMLIR.so does
# not unpoison: ignore user poisoning, keep every other check (leaks
# included: an input whose run does not free what it allocated fails).
export ASAN_OPTIONS=allow_user_poisoning=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# RELAY_FUZZ_FLAGS: more of libFuzzer's flags (a test's own).
# shellcheck disable=SC2086
"$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
  -malloc_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
  ${RELAY_FUZZ_FLAGS:-} "$corpus"
