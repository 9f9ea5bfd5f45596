#!/usr/bin/env bash
# Sets up a fresh clone: pnpm at the pinned version, dependencies (better-sqlite3
# is compiled against Node's own headers), the machine packages the tests use
# (PostgreSQL 15 server binaries, tmux, git, Chromium for the web example's browser tests,
# bubblewrap for the sandbox, OpenSSH's server for the SSH workspace's tests, strace for the
# check that a registry on a remote workspace touches no local file outside its dataDir, Lark
# (python3-lark) for the test of the V4A patch grammar),
# AI SDK 7 for the AI SDK matrix
# (compat/ai-sdk-v7), the MCP Inspector (compat/mcp-inspector), the MCP conformance suite
# (compat/mcp-conformance), a build of every package
# and of the web example's page.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION="$(node -p 'require("./package.json").packageManager.split("@")[1]')"
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm@$PNPM_VERSION"
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1 || npm install -g "pnpm@$PNPM_VERSION"
fi

missing=()
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql-15)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v git >/dev/null 2>&1 || missing+=(git)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
command -v strace >/dev/null 2>&1 || missing+=(strace)
/usr/bin/python3 -c 'import lark' >/dev/null 2>&1 || missing+=(python3-lark)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]} from Debian"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: warning: missing ${missing[*]}; the tests that need them will fail" >&2
  fi
fi

# pnpm does not pass .npmrc's nodedir on to node-gyp; without this it would try to download headers.
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
pnpm install --frozen-lockfile

# Tools that need Node 22 are no workspace dependencies: each has its own npm lock under compat/, with
# Node 22 from the npm package `node`, reinstalled when its lock changed:
# - compat/ai-sdk-v7: AI SDK 7, for the AI SDK matrix test;
# - compat/mcp-inspector: the MCP Inspector CLI, for the agent-tools-mcp inspector test;
# - compat/mcp-conformance: the official MCP conformance suite, for tests/mcp-conformance.test.ts;
# - compat/node22, compat/node24: Node 22 and 24 alone, for the store contract suites on node:sqlite
#   and the consumer check's Node matrix (20 is the machine's own).
for compat in compat/ai-sdk-v7 compat/mcp-inspector compat/mcp-conformance compat/node22 compat/node24; do
  if ! cmp -s "$compat/package-lock.json" "$compat/node_modules/.setup-lock"; then
    echo "setup: installing $compat"
    (cd "$compat" && npm ci --no-audit --no-fund --engine-strict=false --loglevel=error)
    cp "$compat/package-lock.json" "$compat/node_modules/.setup-lock"
  fi
done
pnpm run build
# The web example's page (Vite), served by its gateway and used by its browser tests.
pnpm --silent --filter @agent-tools/example-web run build:page
