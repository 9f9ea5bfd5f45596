/**
 * Attack: a worktree child (Agent with mode=worktree) shapes what it leaves
 * in its worktree so that the parent's apply takes it out of the workspace:
 * a symbolic link that stays inside in the worktree but leads out through a
 * link the parent's workspace already has, names that are not UTF-8 (which
 * the checks would read differently from the file system), and a patch too
 * large for the host to hold. The apply must refuse each, name it, apply
 * nothing and keep the worktree. (The attacks on the host's git runs are in
 * worktree-git.attack.test.ts.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ModelRequest } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse, type ScriptedToolCall } from "@agent-tools/core/testing";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import type { SubagentBatchDetails, SubagentReportDetails } from "@agent-tools/subagents";
import { runTestGit } from "@agent-tools/git/testing";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-worktree-escape-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

interface Scene {
  /** The repository's top level (the workspace). */
  readonly repository: string;
  /** A folder beside the repository, outside the workspace. */
  readonly outside: string;
  readonly dataDir: string;
}

function scene(name: string): Scene {
  const root = path.join(temporary, name);
  const repository = path.join(root, "repo");
  const outside = path.join(root, "outside");
  fs.mkdirSync(path.join(repository, "src"), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "secret"), "outside\n");
  runTestGit(repository, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(repository, "README.md"), "# demo\n");
  fs.writeFileSync(path.join(repository, "src/a.ts"), "export const a = 1;\n");
  runTestGit(repository, "add", "-A");
  runTestGit(repository, "commit", "-q", "-m", "init");
  return { repository, outside, dataDir: path.join(root, "data") };
}

const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "assistant").length;

/** Runs one Agent call whose worktree child makes `calls` in its first turn, then reports; returns the child's report. */
async function runChild(
  scene: Scene,
  options: { calls: readonly ScriptedToolCall[]; sandbox?: BuiltinToolRegistryOptions["sandbox"] },
): Promise<{ report: SubagentReportDetails; text: string }> {
  const model = new ScriptedModelClient({
    respond: (request): ScriptedModelResponse | string => (turnOf(request) > 0 ? `done ${agentOf(request)}` : { toolCalls: options.calls }),
  });
  const registry = await buildBuiltinToolRegistry({
    workdir: scene.repository,
    dataDir: scene.dataDir,
    memory: false,
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    subagents: { model, conversationId: "attack" },
  });
  try {
    const result = await registry.executeToolCall({
      id: `agent-${Math.random()}`,
      name: "Agent",
      arguments: { agents: [{ id: "child", prompt: "Do the task.", mode: "worktree", apply_policy: "auto" }] },
    });
    const text = result.content.map((part) => ("text" in part ? part.text : "")).join("\n");
    const details = result.details as SubagentBatchDetails;
    expect(details.agents, text).toHaveLength(1);
    return { report: details.agents[0]!, text };
  } finally {
    await registry.close();
  }
}

const bash = (command: string): ScriptedToolCall[] => [{ name: "Bash", arguments: { command } }];

/** The workspace's top-level entries, links as `name -> target`. */
function topLevel(scene: Scene): string[] {
  return fs
    .readdirSync(scene.repository)
    .sort()
    .map((name) => {
      const full = path.join(scene.repository, name);
      return fs.lstatSync(full).isSymbolicLink() ? `${name} -> ${fs.readlinkSync(full)}` : name;
    });
}

describe("attack: a worktree child's links lead out only once applied", () => {
  it("refuses links that leave through a link of the parent's workspace the worktree does not have", async () => {
    const attack = scene("parent-link");
    // The user's own link out of the workspace (untracked: the worktree, made from HEAD, lacks it).
    fs.symlinkSync(attack.outside, path.join(attack.repository, "ext"));
    const { report, text } = await runChild(attack, {
      calls: bash("ln -s ext/secret x && ln -s ext/.. y && mkdir -p d && ln -s ../ext d/z && ln -s src/a.ts fine"),
    });
    expect(report, text).toMatchObject({ status: "completed", applyStatus: "failed", worktreeCleanupStatus: "retained" });
    for (const refused of ["x", "y", "d/z"]) expect(report.applyError, text).toContain(`${refused} (a symbolic link that leaves the workspace`);
    expect(report.applyError).toContain("through ext ->");
    expect(report.applyError).not.toContain("fine (");
    expect(topLevel(attack)).toEqual([".git", "README.md", `ext -> ${attack.outside}`, "src"]);
  }, 120_000);
});

describe("attack: a worktree child's names that are not UTF-8", () => {
  it("refuses a link chain through a name that is not UTF-8 (read as another name by the checks) and a link target that is not", async () => {
    const attack = scene("not-utf8");
    // deep/up\xff -> .. stays inside; through -> deep/up\xff/.. leaves the workspace, but only for the real name.
    const command = "mkdir deep && ln -s .. $'deep/up\\xff' && ln -s $'deep/up\\xff/..' through && ln -s $'sr\\xfe' odd && printf 'x\\n' > $'name\\xff.txt'";
    const { report, text } = await runChild(attack, { calls: bash(command) });
    expect(report, text).toMatchObject({ status: "completed", applyStatus: "failed", worktreeCleanupStatus: "retained" });
    expect(report.applyError, text).toMatch(/^Refused/);
    expect(report.applyError).toContain("deep/up\u{fffd} (a path name the apply cannot take as it is: a name that is not UTF-8)");
    expect(report.applyError).toContain("name\u{fffd}.txt (a path name the apply cannot take as it is: a name that is not UTF-8)");
    expect(report.applyError).toContain("odd (a path name the apply cannot take as it is: a link whose target is not UTF-8)");
    expect(topLevel(attack)).toEqual([".git", "README.md", "src"]);
  }, 120_000);
});

describe("attack: a worktree child's changes too large for the host", () => {
  const cases = [
    // Costs the child nothing; git add would hash all of it (a 1.8 GB one took 87 s of the host's git).
    { name: "a sparse file of a terabyte", command: "truncate -s 1T sparse.bin", reason: "of changed files" },
    // 55 MiB of content, but a binary patch over 64 MiB (base85 of what does not compress): the patch is read no further.
    { name: "a patch larger than its files", command: "head -c 55M /dev/urandom > random.bin", reason: "of patch: git diff" },
  ];
  for (const { name, command, reason } of cases) {
    it(`reads nothing past the limit and applies nothing: ${name} (a 300 MB random file took 1.9 GB of the host's memory and 218 s)`, async () => {
      const attack = scene(`huge-${reason.length}`);
      const started = Date.now();
      const { report, text } = await runChild(attack, { calls: bash(`${command} && printf 'export const a = 2;\\n' > src/a.ts`) });
      expect(report.applyStatus, text).toBeUndefined();
      expect(report.cleanupReason, text).toContain(`are larger than 67108864 bytes (${reason})`);
      expect(text).toContain("kept because:");
      expect(report.worktreeCleanupStatus, text).toBe("retained");
      expect(topLevel(attack)).toEqual([".git", "README.md", "src"]);
      expect(fs.readFileSync(path.join(attack.repository, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
      expect(Date.now() - started).toBeLessThan(60_000);
    }, 180_000);
  }
});
