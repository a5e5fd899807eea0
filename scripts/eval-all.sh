#!/usr/bin/env bash
# Every dev set, Engram's keyword lane next to SQLite FTS5, one compact table per set: the
# numbers to re-measure after a ranking change (`npm run eval:all`).
#
# The committed sets (sample vault, Chinese/Japanese vault) always run. Sets over outside
# corpora run when their data is there: ENGRAM_CORPORA (default: ../shared/corpora next to the
# repository) holding obsidian-help/vault, yuri-estudos, sc-pkm-legacy, locomo-dev and scifact; a missing one
# is skipped with a line saying so. State goes to a scratch ENGRAM_HOME, never your own.
# Extra arguments go to every `engram eval` (e.g. --title-weight 4).
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
CORPORA=${ENGRAM_CORPORA:-$REPO/../shared/corpora}
SCRATCH=${ENGRAM_EVAL_SCRATCH:-${TMPDIR:-/tmp}/engram-eval-all}
export ENGRAM_HOME=$SCRATCH/home ENGRAM_OFFLINE=1
unset ENGRAM_VAULT
mkdir -p "$ENGRAM_HOME"
failed=0

engram() { node --import tsx "$REPO/src/cli/main.ts" "$@"; }

# Prints the comparison table only: the text output is the table, a blank line, then the misses.
run() {
  local name=$1; shift
  echo "== $name"
  local out
  if out=$(engram eval --baseline fts5 --mode keyword --no-history "$@" "${EXTRA[@]}" 2>&1); then
    printf '%s\n' "$out" | grep -v '^engram: .* written; golden file' | sed '/^$/q' | sed '/^$/d'
  else
    printf '%s\n' "$out" | tail -3
    failed=1
  fi
  echo
}

skip() { echo "== $1"; echo "(skipped: $2 not found; set ENGRAM_CORPORA)"; echo; }

# With the rephrasings an agent wrote for each question (evals/*.also.json, from the questions
# alone), passed as search_brain's alternatives: both engines get them, fused alike. One line a set.
also_header() { echo "== with an agent's rephrasings (--also): overall, engram then fts5"; echo "set                    n     s@1    s@5    MRR  nDCG10     s@1    s@5    MRR  nDCG10     s@5     MRR"; }
also() {
  local name=$1; shift
  local out
  if out=$(engram eval --baseline fts5 --mode keyword --no-history "$@" "${EXTRA[@]}" 2>&1); then
    printf '%s\n' "$out" | grep '^overall' | sed "s/^overall      /$(printf '%-13s' "$name")/"
  else
    printf '%s\n' "$out" | tail -3
    failed=1
  fi
}

EXTRA=("$@")
run "sample vault (evals/golden.yaml)" --golden evals/golden.yaml --vault evals/vault
run "sample vault blind set (evals/golden-blind.yaml, written before any run)" --golden evals/golden-blind.yaml --vault evals/vault
run "sample vault memory questions (evals/golden-blind-memory.yaml, another author, written before any run)" --golden evals/golden-blind-memory.yaml --vault evals/vault
run "sample vault fifth blind set (evals/golden-blind5.json, a tester, written before any run)" --golden evals/golden-blind5.json --vault evals/vault
run "Chinese/Japanese (evals/cjk.golden.yaml)" --golden evals/cjk.golden.yaml --vault evals/cjk-vault
if [ -d "$CORPORA/obsidian-help/vault" ]; then
  run "obsidian-help known items" --golden evals/obsidian-help.golden.json --vault "$CORPORA/obsidian-help/vault"
  # The four questions a new user tried first: where each engine ranks the note they wanted.
  engram eval --golden evals/obsidian-help.golden.json --vault "$CORPORA/obsidian-help/vault" --baseline fts5 --mode keyword --no-history --json "${EXTRA[@]}" 2>/dev/null \
    | node -e '
      const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const rank = (side, id) => side.results.find((q) => q.id === id)?.rank ?? ">20";
      for (const id of ["embed-a-file", "what-is-a-vault", "change-font-size", "install-community-plugin"])
        console.log(`  ${id.padEnd(26)} engram #${rank(r, id)}   fts5 #${rank(r.baseline, id)}`);' || failed=1
  echo
  run "obsidian-help blind set (written before any run)" --golden evals/obsidian-help-blind.golden.json --vault "$CORPORA/obsidian-help/vault"
  run "obsidian-help second blind set (another author, written before any run)" --golden evals/obsidian-help-blind2.golden.json --vault "$CORPORA/obsidian-help/vault"
  run "obsidian-help third blind set (another author, written before any run)" --golden evals/obsidian-help-blind3.golden.json --vault "$CORPORA/obsidian-help/vault"
  run "obsidian-help fourth blind set (a tester, written before any run)" --golden evals/obsidian-help-blind4.golden.json --vault "$CORPORA/obsidian-help/vault"
  run "obsidian-help fifth blind set (another tester, written before any run)" --golden evals/obsidian-help-blind5.golden.json --vault "$CORPORA/obsidian-help/vault"
else skip "obsidian-help known items" "$CORPORA/obsidian-help/vault"; fi
if [ -d "$CORPORA/yuri-estudos" ]; then
  run "yuri-estudos (Portuguese)" --golden evals/yuri-estudos-pt.golden.json --vault "$CORPORA/yuri-estudos"
  run "yuri-estudos blind set (written before any run)" --golden evals/yuri-estudos-pt-blind.golden.json --vault "$CORPORA/yuri-estudos"
  run "yuri-estudos second blind set (a tester, written before any run)" --golden evals/yuri-estudos-pt-blind2.golden.json --vault "$CORPORA/yuri-estudos"
else skip "yuri-estudos (Portuguese)" "$CORPORA/yuri-estudos"; fi
if [ -d "$CORPORA/sc-pkm-legacy" ]; then
  run "sc-pkm-legacy (PKM questions)" --golden evals/sc-pkm-legacy.golden.json --vault "$CORPORA/sc-pkm-legacy"
  run "sc-pkm-legacy blind set (another author, written before any run)" --golden evals/sc-pkm-legacy-blind.golden.json --vault "$CORPORA/sc-pkm-legacy"
  run "sc-pkm-legacy second blind set (a tester, written before any run)" --golden evals/sc-pkm-legacy-blind2.golden.json --vault "$CORPORA/sc-pkm-legacy"
  run "sc-pkm-legacy third blind set (another tester, written before any run)" --golden evals/sc-pkm-legacy-blind3.golden.json --vault "$CORPORA/sc-pkm-legacy"
else skip "sc-pkm-legacy (PKM questions)" "$CORPORA/sc-pkm-legacy"; fi
if [ -d "$CORPORA/locomo-dev" ]; then
  run "LoCoMo dev (session recall)" --locomo "$CORPORA/locomo-dev" --vault "$SCRATCH/locomo-vault"
else skip "LoCoMo dev (session recall)" "$CORPORA/locomo-dev"; fi
also_header
also "sample blind" --golden evals/golden-blind.yaml --vault evals/vault --also evals/golden-blind.also.json
if [ -d "$CORPORA/obsidian-help/vault" ]; then
  also "help" --golden evals/obsidian-help.golden.json --vault "$CORPORA/obsidian-help/vault" --also evals/obsidian-help.also.json
  also "help blind" --golden evals/obsidian-help-blind.golden.json --vault "$CORPORA/obsidian-help/vault" --also evals/obsidian-help-blind.also.json
fi
[ -d "$CORPORA/yuri-estudos" ] && also "pt blind" --golden evals/yuri-estudos-pt-blind.golden.json --vault "$CORPORA/yuri-estudos" --also evals/yuri-estudos-pt-blind.also.json
[ -d "$CORPORA/sc-pkm-legacy" ] && also "pkm" --golden evals/sc-pkm-legacy.golden.json --vault "$CORPORA/sc-pkm-legacy" --also evals/sc-pkm-legacy.also.json
echo
if [ -d "$CORPORA/scifact" ]; then
  run "SciFact (BEIR test)" --beir "$CORPORA/scifact"
else skip "SciFact (BEIR test)" "$CORPORA/scifact"; fi
exit $failed
