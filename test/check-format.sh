#!/usr/bin/env bash
# Fails if a C++ source of the project is not formatted by clang-format.
set -euo pipefail
format=$1
files=$(git ls-files '*.h' '*.cpp' 2>/dev/null || find . -name '*.h' -o -name '*.cpp' | grep -v '^./build')
"$format" --dry-run -Werror $files
echo "format: $(echo "$files" | wc -w) files formatted"
