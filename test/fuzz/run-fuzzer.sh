#!/usr/bin/env bash
# Runs the Relay text fuzzer for a bounded time from a corpus seeded with the
# project's Relay programs. usage: run-fuzzer.sh FUZZER SOURCE_ROOT SECONDS
set -euo pipefail
fuzzer=$1 root=$2 seconds=$3
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
cp "$root"/test/frontends/RelayText/*.rly "$root"/frontends/RelayText/Prelude.rly "$corpus"/
# LLVM's inline allocators poison memory the uninstrumented libMLIR.so does
# not unpoison: ignore user poisoning, keep every other check.
export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
  -max_len=4096 -print_final_stats=1 "$corpus"
