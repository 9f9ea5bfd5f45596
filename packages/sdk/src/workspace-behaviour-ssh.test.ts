/**
 * The file tools' behaviour table (tools-fs's workspace-behaviour-cases,
 * exact texts shared with the local disk and the memory workspace) on an SSH
 * workspace: the real OpenSSH server of @agent-tools/ssh/testing, a registry
 * built with `buildBuiltinToolRegistry({ workspace: createSshWorkspace(...) })`.
 * Twice: with `rg` on the remote PATH (Grep's candidates from ripgrep run
 * over SSH) and without (the walk through SFTP).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { createSshWorkspace } from "@agent-tools/ssh";
import type { TestSshd } from "@agent-tools/ssh/testing";
import { describe, expect, it } from "vitest";
import { type BehaviourHarness, runWorkspaceBehaviourCases } from "../../tools-fs/src/__fixtures__/workspace-behaviour-cases.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { rgSshServers } from "./__fixtures__/rg-ssh-servers.js";

const { temporary, servers } = rgSshServers("agent-tools-sdk-behaviour-ssh-");

/** Gives `target` (and what is under it) to the server's account, as files that account wrote. */
function giveToAccount(sshd: TestSshd, target: string): void {
  const stat = fs.lstatSync(target);
  fs.lchownSync(target, sshd.uid, sshd.uid === 0 ? 0 : stat.gid);
  if (stat.isDirectory()) for (const name of fs.readdirSync(target)) giveToAccount(sshd, path.join(target, name));
}

/**
 * A harness on a fresh folder under the server's root: the tree is written
 * on this disk (the server runs here) and given to the server's account,
 * the tools reach it only through the SSH workspace.
 */
function sshHarness(which: "withRg" | "withoutRg") {
  return async (files: Record<string, string | Buffer>): Promise<BehaviourHarness> => {
    const sshd = servers[which];
    if (sshd === undefined) throw new Error("the test sshd did not start");
    const base = path.join(sshd.root, `case-${randomBytes(5).toString("hex")}`);
    const root = path.join(base, "root");
    const ownerGid = fs.statSync(sshd.root).gid;
    const give = (target: string) => {
      giveToAccount(sshd, target);
      fs.lchownSync(target, sshd.uid, ownerGid);
    };
    const put = (relative: string, content: string | Buffer) => {
      const file = path.join(root, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    };
    fs.mkdirSync(root, { recursive: true });
    for (const [relative, content] of Object.entries(files)) put(relative, content);
    give(base);
    const workspace = await createSshWorkspace({ ...sshd.connectOptions, root });
    expect(workspace.capabilities.ripgrep).toBe(which === "withRg");
    const dataDir = path.join(temporary, `data-${randomBytes(5).toString("hex")}`);
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir, memory: false });
    return {
      registry,
      root: workspace.root,
      write: async (relative, content) => {
        put(relative, content);
        give(base);
      },
      read: async (relative) => {
        try {
          return fs.readFileSync(path.join(root, relative));
        } catch {
          return undefined;
        }
      },
      symlink: async (target, relative) => {
        fs.symlinkSync(target, path.join(root, relative));
        give(path.join(root, relative));
      },
      close: async () => {
        await registry.close();
        await workspace.close();
        fs.rmSync(base, { recursive: true, force: true });
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };
}

runWorkspaceBehaviourCases("file tools on an SSH workspace with rg on the remote machine", sshHarness("withRg"));
runWorkspaceBehaviourCases("file tools on an SSH workspace without rg on the remote machine (the walk)", sshHarness("withoutRg"));

describe("Grep's candidates on an SSH workspace", () => {
  const files = { "a.txt": "needle here\n", "b.txt": "hay\n", "sub/c.txt": "another needle\n" };
  const expected = "Found 2 matching lines in 2 files (files 1-2):\na.txt (1, firstLine=1)\nsub/c.txt (1, firstLine=1)";
  for (const [which, engine] of [
    ["withRg", "ripgrep"],
    ["withoutRg", "typescript"],
  ] as const) {
    it(`come from ${engine} (${which === "withRg" ? "rg on the remote PATH" : "no rg there"})`, async () => {
      const harness = await sshHarness(which)(files);
      try {
        const result = await harness.registry.executeToolCall({ id: "grep-engine", name: "Grep", arguments: { pattern: "needle", output_mode: "files" } });
        expect(toolResultText(result)).toBe(expected);
        expect(result.details).toMatchObject({ engine, fileCount: 2 });
      } finally {
        await harness.close();
      }
    });
  }
});
