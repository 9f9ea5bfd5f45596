#!/usr/bin/env bash
# Sets up (see setup.sh) and runs every check once:
#   1. vitest: every package's tests (real processes, git, SQLite, PostgreSQL, MCP servers),
#      then the store contract test files again under Node 24 from compat/ (node:sqlite;
#      the machine's Node 20 runs them on better-sqlite3); AGENT_TOOLS_STORE_NODES="22 24"
#      adds Node 22; skipped when files are given;
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

# The store contract suites on node:sqlite: the same files under the Node versions of compat/.
store_files=(
  packages/storage/src/storage-contract.test.ts
  packages/tools-tasks/src/task-state-store-contract.test.ts
  packages/memory/src/stores/memory-index-store.test.ts
  packages/cron/src/stores/cron-store.test.ts
  packages/subagents/src/stores/subagent-store.test.ts
  packages/checkpoints/src/stores/checkpoint-store.test.ts
  packages/mcp/src/oauth/mcp-oauth-store.test.ts
  packages/durable/src/stores/call-ledger-contract.test.ts
)
store_reports=()
if [ $# -eq 0 ]; then
  for version in ${AGENT_TOOLS_STORE_NODES:-24}; do
    store_report=.tmp/vitest-store-node$version.json
    rm -f "$store_report"
    echo "store contract suites on Node $version (node:sqlite):"
    compat/node$version/node_modules/node/bin/node node_modules/vitest/vitest.mjs run --reporter=dot --reporter=json \
      --outputFile.json="$store_report" "${store_files[@]}" || status=1
    store_reports+=("Node $version=$store_report")
  done
fi

if pnpm exec biome ci . >.tmp/biome.log 2>&1; then
  echo '{"results":[{"name":"biome ci (format + lint)","ok":true}]}' >.tmp/lint-result.json
else
  tail -60 .tmp/biome.log
  echo '{"results":[{"name":"biome ci (format + lint)","ok":false}]}' >.tmp/lint-result.json
  status=1
fi

extras=(.tmp/lint-result.json "${store_reports[@]}")
if [ "${AGENT_TOOLS_SKIP_CONSUMER_CHECK:-}" != "1" ] && [ $# -eq 0 ]; then
  node scripts/consumer-check.mjs --out .tmp || status=1
  extras+=(.tmp/consumer-check.json)
fi

node scripts/print-test-summary.mjs "$report" "${extras[@]}" || status=1
exit $status
