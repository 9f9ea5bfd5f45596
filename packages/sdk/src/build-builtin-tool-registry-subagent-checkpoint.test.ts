import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type FileChangeRequest, type ModelRequest, toolResultText } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import type { SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { createCommittedRepository } from "./__fixtures__/committed-repository.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { openFileCheckpoints } from "./checkpoint-wiring.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-subagent-checkpoint-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A git repository with committed files under the test's temp folder; returns its path. */
function repository(name: string, files: Record<string, string>): string {
  return createCommittedRepository(temporary, name, files, { "run.sh": 0o755 });
}

const FILES = {
  "notes-crlf.txt": "alpha\r\nbeta\r\ngamma\r\n",
  "run.sh": "#!/bin/sh\necho one\n",
  "src/a.ts": "export const a = 1;\n",
  "src/gone.ts": "export const gone = true;\n",
};

/** The child's one Bash command: modify (CRLF file, executable), create and delete. */
const CHILD_COMMAND = [
  "printf 'alpha\\r\\nBETA\\r\\ngamma\\r\\n' > notes-crlf.txt",
  "printf '#!/bin/sh\\necho two\\n' > run.sh",
  "printf 'export const a = 2;\\n' > src/a.ts",
  "printf 'export const created = 1;\\n' > src/new.ts",
  "rm src/gone.ts",
].join(" && ");

/** Every file of the work tree (`.git` left out) with its mode and bytes in hex. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (directory: string) => {
    for (const name of fs.readdirSync(directory).sort()) {
      if (directory === root && name === ".git") continue;
      const full = path.join(directory, name);
      const info = fs.lstatSync(full);
      if (info.isDirectory()) walk(full);
      else out[path.relative(root, full)] = `${(info.mode & 0o7777).toString(8)} ${fs.readFileSync(full).toString("hex")}`;
    }
  };
  walk(root);
  return out;
}

/** A worktree child ("writer") that runs CHILD_COMMAND, then finishes. */
function writerModel(): ScriptedModelClient {
  return new ScriptedModelClient({
    respond: (request: ModelRequest): ScriptedModelResponse | string => {
      if (request.messages.some((message) => message.role === "assistant")) return "done";
      return { toolCalls: [{ name: "Bash", arguments: { command: CHILD_COMMAND } }] };
    },
  });
}

const AGENT_CALL = {
  id: "call_agent",
  name: "Agent",
  arguments: { agents: [{ id: "writer", prompt: "Change the files.", mode: "worktree", apply_policy: "auto" }] },
};

describe("buildBuiltinToolRegistry: a worktree subagent's apply inside a checkpoint", () => {
  it("records the apply's files under the Agent call, and a rewind restores the parent's exact bytes and modes", async () => {
    const workdir = repository("rewind", FILES);
    const dataDir = path.join(temporary, "rewind-data");
    const before = snapshot(workdir);
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, checkpoints: { id: "chat-1:turn-1" }, subagents: { model: writerModel() } });
    try {
      const result = await registry.executeToolCall(AGENT_CALL);
      const details = result.details as SubagentBatchDetails;
      expect(result.isError).toBe(false);
      expect(details.agents[0]).toMatchObject({ status: "completed", applyStatus: "applied", worktreeCleanupStatus: "removed" });
    } finally {
      await registry.close();
    }
    expect(fs.readFileSync(path.join(workdir, "notes-crlf.txt"), "utf8")).toBe("alpha\r\nBETA\r\ngamma\r\n");
    expect(fs.readFileSync(path.join(workdir, "src/new.ts"), "utf8")).toBe("export const created = 1;\n");
    expect(fs.existsSync(path.join(workdir, "src/gone.ts"))).toBe(false);
    expect(snapshot(workdir)).not.toEqual(before);

    const checkpoints = openFileCheckpoints({ dataDir });
    try {
      const at = (relative: string) => path.join(workdir, relative);
      const entries = await checkpoints.listEntries("chat-1:turn-1");
      expect(entries.map((entry) => [entry.path, entry.toolName, entry.callId, entry.pre.kind, entry.post?.kind])).toEqual([
        [at("notes-crlf.txt"), "Agent", "call_agent", "file", "file"],
        [at("run.sh"), "Agent", "call_agent", "file", "file"],
        [at("src/a.ts"), "Agent", "call_agent", "file", "file"],
        [at("src/gone.ts"), "Agent", "call_agent", "file", "absent"],
        [at("src/new.ts"), "Agent", "call_agent", "absent", "file"],
      ]);
      const report = await checkpoints.rewindCheckpoint("chat-1:turn-1");
      expect(report).toMatchObject({
        restored: [at("notes-crlf.txt"), at("run.sh"), at("src/a.ts"), at("src/gone.ts")],
        removed: [at("src/new.ts")],
        conflicts: [],
      });
      expect(snapshot(workdir)).toEqual(before);
      expect(fs.statSync(at("run.sh")).mode & 0o777).toBe(0o755);
    } finally {
      await checkpoints.close();
    }
  }, 120_000);

  it("fails the apply, changing nothing, when the checkpoint cannot save a pre-image; the worktree keeps the changes", async () => {
    const workdir = repository("refused", FILES);
    const before = snapshot(workdir);
    const seen: string[] = [];
    const refusing = {
      async beforeChange(request: FileChangeRequest) {
        seen.push(`before ${path.relative(workdir, request.path)}`);
        throw new Error("checkpoint store is full");
      },
      async afterChange(request: FileChangeRequest) {
        seen.push(`after ${path.relative(workdir, request.path)}`);
      },
    };
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: path.join(temporary, "refused-data"),
      checkpoints: { id: "chat-2:turn-1" },
      ports: { fileCheckpoints: refusing },
      subagents: { model: writerModel() },
    });
    try {
      const result = await registry.executeToolCall(AGENT_CALL);
      const agent = (result.details as SubagentBatchDetails).agents[0]!;
      expect(agent).toMatchObject({ status: "completed", applyStatus: "failed", worktreeCleanupStatus: "retained", cleanupReason: "apply_failed" });
      expect(agent.error).toBeUndefined();
      expect(agent.applyError).toMatch(
        /^The subagent's changes were not applied, nothing in the workspace changed: the previous state of \S+\/notes-crlf\.txt could not be saved in checkpoint "chat-2:turn-1" \(checkpoint store is full\)/,
      );
      expect(toolResultText(result)).toContain(`apply error: ${agent.applyError}`);
      expect(seen).toEqual(["before notes-crlf.txt"]);
      expect(snapshot(workdir)).toEqual(before);
      const retained = agent.worktreePath!;
      expect(fs.readFileSync(path.join(retained, "src/new.ts"), "utf8")).toBe("export const created = 1;\n");
    } finally {
      await registry.close();
    }
  }, 120_000);
});
