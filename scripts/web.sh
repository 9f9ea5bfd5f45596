#!/usr/bin/env bash
# Sets up (see setup.sh) and runs the web example: the gateway and the
# executing host in one process, the page built first if it is missing. With
# no OPENAI_API_KEY / OPENAI_BASE_URL it runs the scripted demo on a temporary
# copy of the sample project. Flags go to start-web (--port, --workdir,
# --gateway-only, --host-only --gateway URL --host-token H); it prints the URL to open.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
exec pnpm --silent --filter @agent-tools/example-web start -- "$@"
