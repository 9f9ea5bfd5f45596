#!/usr/bin/env bash
# Sets up (see setup.sh) and runs every check once:
#   1. vitest: every package's tests (real processes, git, SQLite, PostgreSQL, MCP servers);
#   2. Biome: formatter and linter (biome.json), as `biome ci`;
#   3. the consumer check (scripts/consumer-check.mjs): packs every published
#      package and installs the tarballs with npm into fresh projects outside
#      the workspace (skip with AGENT_TOOLS_SKIP_CONSUMER_CHECK=1; needs the npm registry).
# Prints "N passed, N failed" on a line of its own (each Biome run and each
# consumer check counts as one test) and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

mkdir -p .tmp
report=.tmp/vitest-report.json
rm -f "$report" .tmp/consumer-check.json .tmp/lint-result.json
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?

if pnpm exec biome ci . >.tmp/biome.log 2>&1; then
  echo '{"results":[{"name":"biome ci (format + lint)","ok":true}]}' >.tmp/lint-result.json
else
  tail -60 .tmp/biome.log
  echo '{"results":[{"name":"biome ci (format + lint)","ok":false}]}' >.tmp/lint-result.json
  status=1
fi

extras=(.tmp/lint-result.json)
if [ "${AGENT_TOOLS_SKIP_CONSUMER_CHECK:-}" != "1" ] && [ $# -eq 0 ]; then
  node scripts/consumer-check.mjs --out .tmp || status=1
  extras+=(.tmp/consumer-check.json)
fi

node scripts/print-test-summary.mjs "$report" "${extras[@]}" || status=1
exit $status
