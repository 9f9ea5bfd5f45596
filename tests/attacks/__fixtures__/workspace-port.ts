/**
 * Shared set-up of the Workspace port attack files
 * (`workspace-port-local.attack.test.ts`, `workspace-port-registry.attack.test.ts`):
 * a per-file temporary folder with host trees in it, tool calls, rejections
 * and folder snapshots.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { WorkspaceError } from "@agent-tools/core/workspace";
import type { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll } from "vitest";

/** Rounds of the racing cases (`ATTACK_ROUNDS`, default 40). */
export const ROUNDS = Number(process.env.ATTACK_ROUNDS ?? 40);

/** A registry as `buildBuiltinToolRegistry` returns it. */
export type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

/**
 * Makes this test file's temporary folder (removed in its `afterAll`) and
 * returns it with `hostTree`, which makes a root and an outside folder in it;
 * `outside/secret.txt` and `outside/victim.txt` hold known bytes.
 */
export function useWorkspacePortTemporary(): { temporary: string; hostTree: (label: string) => { root: string; outside: string } } {
  const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-workspace-port-")));
  afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
  const hostTree = (label: string): { root: string; outside: string } => {
    const root = path.join(temporary, label, "root");
    const outside = path.join(temporary, label, "outside");
    fs.mkdirSync(root, { recursive: true });
    fs.mkdirSync(path.join(outside, "empty"), { recursive: true });
    fs.writeFileSync(path.join(outside, "secret.txt"), "OUTSIDE SECRET\n");
    fs.writeFileSync(path.join(outside, "victim.txt"), "victim\n");
    return { root, outside };
  };
  return { temporary, hostTree };
}

/** Runs one tool call and returns whether it failed and its text. */
export async function call(registry: Registry, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const result = await registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, "") };
}

/** What `run` rejected with, or undefined when it resolved. */
export async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The `WorkspaceError` code `run` rejected with (a describing text otherwise). */
export async function workspaceCode(run: () => Promise<unknown>): Promise<string> {
  const error = await rejection(run);
  return error instanceof WorkspaceError ? error.code : `not a WorkspaceError: ${String(error)}`;
}

/** Every file below `dir` with its bytes (symlinks as their target text). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stats = fs.lstatSync(full);
    out[path.relative(dir, full)] = stats.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : stats.isFile() ? fs.readFileSync(full, "utf8") : "dir";
  }
  return out;
}
