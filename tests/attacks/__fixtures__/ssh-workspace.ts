/**
 * Shared set-up of the SSH workspace attack files (`ssh-workspace-paths`,
 * `-connection`, `-processes`, `-races` `.attack.test.ts`): each file starts
 * its own test sshd in its own `beforeAll` through `useSshWorkspaceHarness`
 * (as root only: the sshd's dedicated account `agtssh`), and makes scenes of
 * a registry on `createSshWorkspace` whose Bash runs on the "remote" machine
 * (this host) as the SSH user.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll } from "vitest";

/** Rounds of the racing cases (`ATTACK_ROUNDS`, default 40). */
export const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 40));
/** Whether the tests run as root (they are skipped otherwise). */
export const asRoot = process.getuid?.() === 0;
/** The ripgrep binary of the repository's node_modules (copied to the remote side by the ripgrep case). */
export const RG = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  "../../../node_modules/.pnpm/@vscode+ripgrep-linux-x64@1.18.0/node_modules/@vscode/ripgrep-linux-x64/bin/rg",
);

/** A registry as `buildBuiltinToolRegistry` returns it. */
export type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

/** A scene: a fresh project in the root, its `-docs` sibling, an outside folder, and a registry on a workspace. */
export interface Scene {
  workdir: string;
  docs: string;
  outside: string;
  workspace: Workspace;
  registry: Registry;
  dataDir: string;
}

/** One test file's sshd, local temporary folder, clean-ups and helpers. */
export interface SshWorkspaceHarness {
  /** The file's test sshd (set once its `beforeAll` ran). */
  readonly sshd: TestSshd;
  /** The SSH user's home (the parent of the sshd's root). */
  readonly home: string;
  /** A local folder for the registries' dataDirs (removed in `afterAll`). */
  readonly localTemporary: string;
  /** Run in reverse order in `afterAll`, each given at most 10 s. */
  readonly cleanups: Array<() => Promise<unknown> | unknown>;
  /** Runs `script` on the "remote" machine as the SSH user (what the model's Bash can do there). */
  asUser(script: string): string;
  /** Opens an SSH workspace on the test sshd (or `target`, e.g. a proxy in front of it). */
  openWorkspace(target?: { host: string; port: number }, hostKey?: string, root?: string): Promise<Workspace>;
  /** A fresh project in the root and a fresh outside folder (a sibling of the root in the user's home), both the user's. */
  scene(options?: { workspace?: Workspace; additionalRoot?: boolean }): Promise<Scene>;
  /** Runs one tool call. */
  call(
    registry: Registry,
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError: boolean; text: string; details: Record<string, unknown> | undefined }>;
}

/** Registers this file's `beforeAll` (starts the sshd as root) and `afterAll` (runs the clean-ups, stops the sshd). */
export function useSshWorkspaceHarness(): SshWorkspaceHarness {
  const localTemporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-ssh-workspace-")));
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  const state: { sshd?: TestSshd } = {};
  const server = (): TestSshd => {
    if (!state.sshd) throw new Error("the test sshd is not started (not root, or used outside a test)");
    return state.sshd;
  };

  beforeAll(async () => {
    if (!asRoot) return;
    state.sshd = await startTestSshd();
  }, 60_000);
  afterAll(async () => {
    // A workspace whose SFTP server is stuck (the FIFO case) may never close: give each step 10 s.
    for (const cleanup of cleanups.reverse()) {
      await Promise.race([Promise.resolve(cleanup()).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    await state.sshd?.stop();
    fs.rmSync(localTemporary, { recursive: true, force: true });
  }, 60_000);

  const asUser = (script: string): string => execFileSync("runuser", ["-u", server().username, "--", "/bin/sh", "-c", script], { encoding: "utf8" });

  const openWorkspace = (
    target: { host: string; port: number } = server(),
    hostKey = server().hostKeyFingerprint,
    root = server().root,
  ): Promise<Workspace> => {
    const sshd = server();
    return createSshWorkspace({ host: target.host, port: target.port, username: sshd.username, privateKey: sshd.privateKey, hostKey, root });
  };

  let sceneCount = 0;
  let calls = 0;
  return {
    get sshd() {
      return server();
    },
    get home() {
      return path.dirname(server().root);
    },
    localTemporary,
    cleanups,
    asUser,
    openWorkspace,
    async scene(options: { workspace?: Workspace; additionalRoot?: boolean } = {}): Promise<Scene> {
      const name = `s${++sceneCount}-${process.pid}`;
      const workdir = path.join(server().root, name);
      const outside = path.join(path.dirname(server().root), `outside-${name}`);
      const docs = `${workdir}-docs`;
      asUser(
        `mkdir -p '${workdir}/sub' '${docs}' '${outside}/dir' && printf 'OUTSIDE-SECRET\\n' > '${outside}/secret.txt' && printf 'OUTSIDE-DIR-FILE\\n' > '${outside}/dir/inner.txt'`,
      );
      cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
      const workspace = options.workspace ?? (await openWorkspace());
      const dataDir = path.join(localTemporary, `data-${name}`);
      const registry = await buildBuiltinToolRegistry({
        workspace,
        workdir,
        dataDir,
        memory: false,
        ...(options.additionalRoot ? { additionalRoots: [{ alias: "docs", path: docs, access: "write" as const }] } : {}),
      });
      cleanups.push(async () => {
        await registry.close();
        await workspace.close();
      });
      return { workdir, docs, outside, workspace, registry, dataDir };
    },
    async call(registry, name, args) {
      const result = await registry.executeToolCall({ id: `${name}-${++calls}`, name, arguments: args });
      return { isError: result.isError === true, text: toolResultText(result, ""), details: result.details as Record<string, unknown> | undefined };
    },
  };
}

/** Every file below `dir` with its content (the outside folder's state). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isSymbolicLink()) out[path.relative(dir, full)] = `-> ${fs.readlinkSync(full)}`;
      else out[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
    }
  };
  walk(dir);
  return out;
}
