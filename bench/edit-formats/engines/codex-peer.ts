/**
 * The peer: the V4A applier of `@openai/codex`, the Rust binary of its npm
 * platform package, which runs its `apply_patch` when invoked under that name
 * (arg0 dispatch). Not a dependency of the repository: fetch it into /tmp,
 *
 *   mkdir -p /tmp/codex-peer && cd /tmp/codex-peer && npm pack @openai/codex@0.171.0-linux-x64 && tar xzf openai-codex-0.171.0-linux-x64.tgz
 *
 * and the benchmark finds it there (or at `AGENT_TOOLS_CODEX_BIN`). Each
 * case runs in a scratch directory holding the file at its path; the patch
 * goes in on stdin; exit status 0 and the file's bytes afterwards are the
 * result, any other status a refusal.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EngineOutcome, FormatEngine } from "./outcome.js";

/** Where the binary is looked for when `AGENT_TOOLS_CODEX_BIN` is not set. */
export const DEFAULT_CODEX_BIN = "/tmp/codex-peer/package/vendor/x86_64-unknown-linux-musl/bin/codex";

/** The peer's package, for the printed table. */
export const CODEX_PEER_PACKAGE = "@openai/codex@0.171.0 (linux-x64 binary, apply_patch by arg0)";

/** A peer engine with its scratch directory; `close()` removes it. */
export interface CodexPeer extends FormatEngine<{ path: string; patch: string }> {
  close(): void;
}

function run(command: string, cwd: string, input: string): Promise<number> {
  return new Promise((resolve) => {
    const child = execFile(command, [], { cwd, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 }, (error) => {
      resolve(error ? (typeof error.code === "number" ? error.code : 1) : 0);
    });
    child.stdin?.end(input);
  });
}

/** The Codex applier, or undefined when its binary is not on this machine. */
export function openCodexPeer(binary = process.env.AGENT_TOOLS_CODEX_BIN ?? DEFAULT_CODEX_BIN): CodexPeer | undefined {
  if (!existsSync(binary)) return undefined;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "edit-formats-codex-"));
  const command = path.join(scratch, "apply_patch");
  symlinkSync(binary, command);
  let next = 0;
  return {
    name: "codex",
    async apply(oldBytes, input): Promise<EngineOutcome> {
      const work = path.join(scratch, String(next++));
      const file = path.join(work, input.path);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, oldBytes);
      try {
        const status = await run(command, work, input.patch);
        if (status !== 0) return { kind: "refused", reason: `exit ${status}` };
        return { kind: "applied", bytes: readFileSync(file) };
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    close() {
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
