#!/usr/bin/env bash
# Sets up (see setup.sh) and runs every test once. Prints "N passed, N failed"
# on a line of its own and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

mkdir -p .tmp
report=.tmp/vitest-report.json
rm -f "$report"
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
node scripts/print-test-summary.mjs "$report" || status=1
exit $status
