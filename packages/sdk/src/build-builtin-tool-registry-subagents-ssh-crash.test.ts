/**
 * A host killed (SIGKILL) in the middle of a worktree subagent's apply on an
 * SSH workspace (the test sshd, as root only): the next registry built with
 * subagents on the workspace rolls the half-done apply back through the
 * workspace, from the journal the apply saved there.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { createSshWorkspace } from "@agent-tools/ssh";
import { startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const asRoot = process.getuid?.() === 0;
const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../..");
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-subagents-crash-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

describe.skipIf(!asRoot)("a worktree subagent's apply on an SSH workspace, its host killed midway", () => {
  it("is rolled back through the workspace when the next registry with subagents starts", async () => {
    const sshd = await startTestSshd();
    let host: ChildProcess | undefined;
    try {
      const repository = path.join(sshd.root, "repo");
      const asUser = (script: string) => execFileSync("runuser", ["-u", sshd.username, "--", "/bin/sh", "-c", script], { encoding: "utf8" });
      asUser(
        `mkdir -p '${repository}' && cd '${repository}' && printf 'a\\n' > a.txt && printf 'b\\n' > b.txt && git init -q -b main && git add -A && git -c user.name=t -c user.email=t@e commit -q -m init`,
      );
      const ssh = { host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint };
      const holder = await createSshWorkspace({ ...ssh, root: sshd.root });
      // Holding b.txt's lock (the one Write and the apply take) stops the apply after a.txt.
      const lock = await holder.fs.lock(path.join(repository, "b.txt"));
      const data = path.join(temporary, "data");
      host = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "--conditions=@agent-tools/source",
          path.join(here, "__fixtures__", "subagent-ssh-crash-host.mjs"),
          sshd.root,
          repository,
          data,
          JSON.stringify(ssh),
        ],
        { cwd: repositoryRoot, stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      host.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      host.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      const read = (name: string) => fs.readFileSync(path.join(repository, name), "utf8");
      // Generous: the child runs and the apply reaches b.txt.
      for (let waited = 0; read("a.txt") !== "A-CHILD\n"; waited += 50) {
        if (waited > 90_000) throw new Error(`the apply never wrote a.txt: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      host.kill("SIGKILL");
      await new Promise((resolve) => host?.once("exit", resolve));
      expect(output).not.toContain("applied");
      await lock.release();
      await holder.close();
      // Half done: a.txt has the child's version, b.txt not; the journal is in the worktree folder.
      expect([read("a.txt"), read("b.txt")]).toEqual(["A-CHILD\n", "b\n"]);
      const journal = path.join(sshd.root, ".agent-tools-subagents", "repo", "apply-journal.json");
      expect(fs.existsSync(journal)).toBe(true);

      const workspace = await createSshWorkspace({ ...ssh, root: sshd.root });
      const warnings: string[] = [];
      const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
      const registry = await buildBuiltinToolRegistry({
        workspace,
        workdir: repository,
        dataDir: data, // the same dataDir: its key signed the journal
        memory: false,
        logger,
        subagents: { model: new ScriptedModelClient({ respond: () => "done" }) },
      });
      await registry.close();
      await workspace.close();
      expect([read("a.txt"), read("b.txt")]).toEqual(["a\n", "b\n"]);
      expect(fs.existsSync(journal)).toBe(false);
      expect(warnings).toContain("rolled back a subagent apply a stopped host left half done");
    } finally {
      host?.kill("SIGKILL");
      await sshd.stop();
    }
  }, 240_000);
});
