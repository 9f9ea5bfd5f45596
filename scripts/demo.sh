#!/usr/bin/env bash
# Sets up (see setup.sh) and runs the example CLI host. With no OPENAI_API_KEY
# it runs the offline scripted demo on a temporary copy of the sample project.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
exec pnpm --silent --filter @agent-tools/example-cli run demo -- "$@"
