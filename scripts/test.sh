#!/usr/bin/env bash
# The README's test command (`npm test`): format check, lint and type-check, then every test
# file. Node 20's test runner does not expand globs itself, so the shell does. A type error, a
# lint error or an unformatted file is a failing test (`npm run format` fixes the last).
#
#   scripts/test.sh              everything (what CI runs)
#   scripts/test.sh reliability  only the real-process reliability suite (test/reliability/)
#   scripts/test.sh quick        the edit loop (< 1 min): pure and in-process suites only
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
subset=${1:-all}
files=()
case "$subset" in
  all)
    npm run --silent format:check
    npm run --silent lint
    npx tsc -p tsconfig.json --noEmit
    files=(test/**/*.test.ts) ;;
  reliability) files=(test/reliability/*.test.ts) ;;
  quick)
    # Pure and in-process suites: no model, no spawned processes, no kill or race loops.
    for file in test/{search,vault,writes,index,session,smart-env,eval}/*.test.ts test/architecture.test.ts test/mcp/contract.test.ts; do
      case "$file" in
        test/index/kill.test.ts|test/search/hybrid.test.ts|test/eval/golden.test.ts|test/eval/eval-cli.test.ts|test/eval/graph-eval.test.ts) ;;
        *) files+=("$file") ;;
      esac
    done ;;
  *) echo "scripts/test.sh: unknown subset \"$subset\" (all, reliability or quick)" >&2; exit 2 ;;
esac
# A test file that runs 10 minutes is hung (the whole suite takes about 7, two files at a time):
# it is cancelled and the run fails, instead of CI waiting forever on a spawned server.
exec node --import tsx --test --test-concurrency=2 --test-timeout=600000 "${files[@]}"
