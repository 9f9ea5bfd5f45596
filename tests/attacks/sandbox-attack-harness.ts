/**
 * What the sandbox attack files share: whether bubblewrap is here, the
 * folders the host and the sandbox both see, and registries built with
 * `sandbox: { enabled: true }` (closed after the file) whose Bash calls must
 * report `sandbox: bubblewrap`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect } from "vitest";
import { type ToolResult, toolResultText } from "../../packages/core/src/index.js";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";

const hasBubblewrap = fs.existsSync("/usr/bin/bwrap");
export const skipReason = !hasBubblewrap && !process.env.CI ? "bubblewrap (/usr/bin/bwrap) is not installed on this machine" : undefined;
if (skipReason) console.warn(`sandbox attacks skipped: ${skipReason}`);
export const isRoot = process.getuid?.() === 0;
/** A folder under /run this user may create in: /run itself as root, else the world-writable /run/lock. */
export const runParent = ["/run", "/run/lock"].find((candidate) => {
  try {
    fs.accessSync(candidate, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
});
if (runParent === undefined) console.warn("sandbox attacks: the /run socket cases are skipped: neither /run nor /run/lock is writable for this user");

// Outside /tmp (the sandbox's /tmp is private): the host and the sandbox both see it through the read-only root.
export const hostVisible = fs.realpathSync(fs.mkdtempSync(path.join(os.homedir(), ".agent-tools-sandbox-attack-")));
// Under /tmp: workspaces and roots reach the sandbox only as explicit binds.
export const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sandbox-attack-")));
export const openRegistries = new Set<BuiltinToolRegistry>();
afterAll(async () => {
  await Promise.allSettled([...openRegistries].map((registry) => registry.close()));
  fs.rmSync(hostVisible, { recursive: true, force: true });
  fs.rmSync(temporary, { recursive: true, force: true });
});

export function workspace(): { workdir: string; dataDir: string; base: string } {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  fs.mkdirSync(path.join(base, "project"));
  fs.mkdirSync(path.join(base, "data"));
  return { base, workdir: path.join(base, "project"), dataDir: path.join(base, "data") };
}

export async function sandboxed(options: Omit<Parameters<typeof buildBuiltinToolRegistry>[0], "workdir" | "dataDir"> & { workdir?: string } = {}) {
  const { workdir, dataDir, base } = workspace();
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true }, ...options });
  openRegistries.add(registry);
  return { registry, workdir: options.workdir ?? workdir, base };
}

export async function bash(registry: BuiltinToolRegistry, command: string): Promise<{ result: ToolResult; output: string }> {
  const result = await registry.executeToolCall({ id: `attack-${Math.random()}`, name: "Bash", arguments: { command, yield_time_ms: 30_000 } });
  const output = toolResultText(result, "");
  expect(output).toContain("sandbox: bubblewrap");
  return { result, output };
}

const _HOST_USER_NAMESPACE = fs.readlinkSync("/proc/self/ns/user");
const _NO_CAPABILITIES = "0000000000000000";

export const HOST_USER_NAMESPACE = fs.readlinkSync("/proc/self/ns/user");
export const NO_CAPABILITIES = "0000000000000000";
