/**
 * Edit's multi-edit form on an SSH workspace: the cases of
 * tools-fs/src/edit/__fixtures__/multi-edit-cases.ts (exact texts shared
 * with the local disk and the memory workspace), on the real OpenSSH server
 * of @agent-tools/ssh/testing, through a registry built with
 * `buildBuiltinToolRegistry({ workspace: createSshWorkspace(...) })`.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll } from "vitest";
import type { BehaviourHarness } from "../../tools-fs/src/__fixtures__/workspace-behaviour-cases.js";
import { runMultiEditCases } from "../../tools-fs/src/edit/__fixtures__/multi-edit-cases.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-multi-edit-ssh-")));
let sshd: TestSshd | undefined;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(async () => {
  await sshd?.stop();
  fs.rmSync(temporary, { recursive: true, force: true });
});

/** Gives `target` (and what is under it) to the server's account. */
function giveToAccount(server: TestSshd, target: string, gid: number): void {
  fs.lchownSync(target, server.uid, gid);
  if (fs.lstatSync(target).isDirectory()) for (const name of fs.readdirSync(target)) giveToAccount(server, path.join(target, name), gid);
}

/** A fresh folder under the server's root, written here and reached by the tools only through SSH. */
async function sshHarness(files: Record<string, string | Buffer>): Promise<BehaviourHarness> {
  const server = sshd;
  if (server === undefined) throw new Error("the test sshd did not start");
  const base = path.join(server.root, `multi-edit-${randomBytes(5).toString("hex")}`);
  const root = path.join(base, "root");
  const gid = fs.statSync(server.root).gid;
  const put = (relative: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), content);
  };
  fs.mkdirSync(root, { recursive: true });
  for (const [relative, content] of Object.entries(files)) put(relative, content);
  giveToAccount(server, base, gid);
  const workspace = await createSshWorkspace({ ...server.connectOptions, root });
  const dataDir = path.join(temporary, `data-${randomBytes(5).toString("hex")}`);
  const registry = await buildBuiltinToolRegistry({ workspace, dataDir, memory: false });
  return {
    registry,
    root: workspace.root,
    write: async (relative, content) => {
      put(relative, content);
      giveToAccount(server, base, gid);
    },
    read: async (relative) => {
      try {
        return fs.readFileSync(path.join(root, relative));
      } catch {
        return undefined;
      }
    },
    symlink: async () => {
      throw new Error("not used by these cases");
    },
    close: async () => {
      await registry.close();
      await workspace.close();
      fs.rmSync(base, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

runMultiEditCases("an SSH workspace", sshHarness);
