/**
 * The shell tools' behaviour table (tools-shell's workspace-shell-cases:
 * Bash, ProcessWait, ProcessStop, ManagedProcess, exact texts after an
 * explicit normalisation) on the local disk and on an SSH workspace (the
 * real OpenSSH server of @agent-tools/ssh/testing), both registries built
 * with `buildBuiltinToolRegistry`.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll } from "vitest";
import { type ShellHarness, runWorkspaceShellCases } from "../../tools-shell/src/__fixtures__/workspace-shell-cases.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-shell-cases-")));
let sshd: TestSshd | undefined;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(async () => {
  await sshd?.stop();
  fs.rmSync(temporary, { recursive: true, force: true });
});

const fresh = (name: string) => path.join(temporary, `${name}-${randomBytes(5).toString("hex")}`);

async function localHarness(): Promise<ShellHarness> {
  const root = fresh("local");
  const dataDir = fresh("data");
  fs.mkdirSync(path.join(root, "sub"), { recursive: true });
  const registry = await buildBuiltinToolRegistry({ workdir: root, dataDir, memory: false });
  return {
    registry,
    root,
    dataDir,
    workspaceLabel: undefined,
    close: async () => {
      await registry.close();
    },
  };
}

async function sshHarness(): Promise<ShellHarness> {
  if (sshd === undefined) throw new Error("the test sshd did not start");
  const root = path.join(sshd.root, `case-${randomBytes(5).toString("hex")}`);
  fs.mkdirSync(path.join(root, "sub"), { recursive: true });
  for (const folder of [root, path.join(root, "sub")]) fs.chownSync(folder, sshd.uid, fs.statSync(sshd.root).gid);
  const workspace = await createSshWorkspace({ ...sshd.connectOptions, root });
  const dataDir = fresh("data");
  const registry = await buildBuiltinToolRegistry({ workspace, dataDir, memory: false });
  return {
    registry,
    root: workspace.root,
    dataDir,
    workspaceLabel: workspace.label,
    close: async () => {
      await registry.close();
      await workspace.close();
    },
  };
}

runWorkspaceShellCases("shell tools on the local disk", localHarness);
runWorkspaceShellCases("shell tools on an SSH workspace", sshHarness);
