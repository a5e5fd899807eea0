#!/usr/bin/env bash
# The README's test command (`npm test`). Node 20's test runner does not expand globs itself,
# so the shell does. Type-checks first: a type error is a failing test.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
npx tsc -p tsconfig.json --noEmit
files=(test/**/*.test.ts)
exec node --import tsx --test --test-concurrency=2 "${files[@]}"
