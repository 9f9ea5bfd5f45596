/**
 * Attack: a worktree child (Agent with mode=worktree) treats its worktree as
 * a way into the host. With the Write tool only, it rewrites the worktree's
 * `.git` file to point at a git directory it wrote (core.fsmonitor and a
 * filter driver, named by its `.gitattributes`), hides the same in a
 * submodule, or names a driver the user's own config defines; with Bash it
 * leaves symbolic links that point out of the workspace, or changes files of
 * the repository outside a workspace that is a subfolder of it. The parent's
 * collection and apply of the worktree must run none of those commands
 * (marker files on the host prove it), refuse what would leave the
 * workspace, and say so in the report, keeping the worktree.
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

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-worktree-git-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

interface Scene {
  /** The repository's top level. */
  readonly repository: string;
  /** Where the host-side commands would leave their markers. */
  readonly markers: string;
  readonly dataDir: string;
}

function scene(name: string, files: Record<string, string> = { "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n" }): Scene {
  const root = path.join(temporary, name);
  const repository = path.join(root, "repo");
  const markers = path.join(root, "markers");
  fs.mkdirSync(repository, { recursive: true });
  fs.mkdirSync(markers);
  runTestGit(repository, "init", "-q", "-b", "main");
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repository, relative)), { recursive: true });
    fs.writeFileSync(path.join(repository, relative), text);
  }
  runTestGit(repository, "add", "-A");
  runTestGit(repository, "commit", "-q", "-m", "init");
  return { repository, markers, dataDir: path.join(root, "data") };
}

/** A shell command that leaves `<markers>/<name>` when it runs (and passes its input through, as a filter must). */
const marking = (markers: string, name: string) => `touch '${path.join(markers, name)}'; cat`;

/** The git configuration of an attacker's git directory: an fsmonitor hook and a clean filter, both marking. */
function evilConfig(markers: string, prefix: string): string {
  return [
    "[core]",
    "\trepositoryformatversion = 0",
    "\tbare = false",
    `\tfsmonitor = "${marking(markers, `${prefix}-fsmonitor`)}"`,
    `\thooksPath = ${markers}`,
    '[filter "x"]',
    `\tclean = "${marking(markers, `${prefix}-clean`)}"`,
    `\tsmudge = "${marking(markers, `${prefix}-smudge`)}"`,
    "\trequired = true",
    '[diff "x"]',
    `\ttextconv = "${marking(markers, `${prefix}-textconv`)}"`,
    `\tcommand = "${marking(markers, `${prefix}-diff-command`)}"`,
    "",
  ].join("\n");
}

/** The Write calls that make `<folder>` a git directory with {@link evilConfig}, HEAD at `head`. */
function evilGitDirectory(scene: Scene, folder: string, head: string): ScriptedToolCall[] {
  const write = (relative: string, content: string): ScriptedToolCall => ({ name: "Write", arguments: { path: `${folder}/${relative}`, content } });
  return [
    write("HEAD", head),
    write("config", evilConfig(scene.markers, folder)),
    write("objects/info/alternates", `${path.join(scene.repository, ".git", "objects")}\n`),
    write("refs/heads/main", `${runTestGit(scene.repository, "rev-parse", "HEAD").trim()}\n`),
  ];
}

const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "assistant").length;

/** A model whose worktree child makes `calls` in its first turn, then reports. */
function childMaking(calls: readonly ScriptedToolCall[]): ScriptedModelClient {
  return new ScriptedModelClient({
    respond: (request): ScriptedModelResponse | string => (turnOf(request) > 0 ? `done ${agentOf(request)}` : { toolCalls: calls }),
  });
}

/** Runs one Agent call with a worktree child from `workdir`; returns the child's report. */
async function runChild(
  scene: Scene,
  options: { workdir?: string; calls: readonly ScriptedToolCall[]; agent?: Record<string, unknown>; sandbox?: BuiltinToolRegistryOptions["sandbox"] },
): Promise<{ report: SubagentReportDetails; text: string }> {
  const registry = await buildBuiltinToolRegistry({
    workdir: options.workdir ?? scene.repository,
    dataDir: scene.dataDir,
    memory: false,
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    subagents: { model: childMaking(options.calls), conversationId: "attack" },
  });
  try {
    const result = await registry.executeToolCall({
      id: `agent-${Math.random()}`,
      name: "Agent",
      arguments: { agents: [{ id: "child", prompt: "Do the task.", mode: "worktree", apply_policy: "auto", ...options.agent }] },
    });
    const details = result.details as SubagentBatchDetails;
    const text = result.content.map((part) => ("text" in part ? part.text : "")).join("\n");
    expect(details.agents, text).toHaveLength(1);
    return { report: details.agents[0]!, text };
  } finally {
    await registry.close();
  }
}

const markersOf = (scene: Scene) => fs.readdirSync(scene.markers).sort();

function removeWorktree(report: SubagentReportDetails, scene: Scene): void {
  if (report.worktreePath !== undefined && fs.existsSync(report.worktreePath)) {
    fs.rmSync(report.worktreePath, { recursive: true, force: true });
    runTestGit(scene.repository, "worktree", "prune");
  }
}

describe("attack: a worktree child redirects the host's git", () => {
  for (const sandbox of [false, true]) {
    it(`runs neither the fsmonitor nor the filters of a git directory the child pointed its .git file at (sandbox: ${sandbox})`, async () => {
      const attack = scene(`redirect-${sandbox}`);
      const calls: ScriptedToolCall[] = [
        ...evilGitDirectory(attack, "evil-git", "ref: refs/heads/main\n"),
        { name: "Write", arguments: { path: ".gitattributes", content: "* filter=x diff=x\n" } },
        { name: "Write", arguments: { path: ".git", content: `gitdir: ${path.join("evil-git")}\n` } },
        { name: "Write", arguments: { path: "src/a.ts", content: "export const a = 2;\n" } },
      ];
      const { report, text } = await runChild(attack, { calls, ...(sandbox ? { sandbox: { enabled: true } } : {}) });
      expect(markersOf(attack), text).toEqual([]);
      // The change the child made is there; the git directory it wrote is only data, and the parent's own .git is untouched.
      expect(report, text).toMatchObject({ status: "completed", applyStatus: "applied" });
      expect(fs.readFileSync(path.join(attack.repository, "src/a.ts"), "utf8")).toBe("export const a = 2;\n");
      expect(fs.lstatSync(path.join(attack.repository, ".git")).isDirectory()).toBe(true);
      expect(runTestGit(attack.repository, "rev-parse", "--show-toplevel").trim()).toBe(attack.repository);
      // Removing the worktree whose .git no longer points back works too, and runs nothing either.
      expect(report.worktreeCleanupStatus, text).toBe("removed");
      expect(fs.existsSync(report.worktreePath!)).toBe(false);
      expect(markersOf(attack)).toEqual([]);
    }, 120_000);
  }

  it("runs no filter, textconv or diff driver of the user's own config that the child's .gitattributes names", async () => {
    const attack = scene("user-drivers");
    runTestGit(attack.repository, "config", "filter.userfilter.clean", marking(attack.markers, "user-clean"));
    runTestGit(attack.repository, "config", "filter.userfilter.required", "true");
    runTestGit(attack.repository, "config", "diff.userdiff.textconv", marking(attack.markers, "user-textconv"));
    runTestGit(attack.repository, "config", "diff.userdiff.command", marking(attack.markers, "user-diff-command"));
    const calls: ScriptedToolCall[] = [
      { name: "Write", arguments: { path: ".gitattributes", content: "* filter=userfilter diff=userdiff\n" } },
      { name: "Write", arguments: { path: "notes.txt", content: "notes\n" } },
      { name: "Write", arguments: { path: "src/a.ts", content: "export const a = 3;\n" } },
    ];
    // apply_policy none: only the host's collection of the worktree runs git on the child's files.
    const { report, text } = await runChild(attack, { calls, agent: { apply_policy: "none" } });
    expect(markersOf(attack), text).toEqual([]);
    expect(report.changedPaths, text).toEqual([".gitattributes", "notes.txt", "src/a.ts"]);
    expect(report.diff).toContain("+export const a = 3;");
    removeWorktree(report, attack);
  }, 120_000);

  it("does not look into a submodule whose .git the child pointed at its own git directory, and refuses the submodule", async () => {
    const attack = scene("submodule");
    // A gitlink at sub/ (the worktree checks it out as an empty folder).
    const pinned = runTestGit(attack.repository, "rev-parse", "HEAD").trim();
    runTestGit(attack.repository, "update-index", "--add", "--cacheinfo", `160000,${pinned},sub`);
    runTestGit(attack.repository, "commit", "-q", "-m", "submodule");
    const calls: ScriptedToolCall[] = [
      // HEAD at the pinned commit: an unchanged submodule is the one git asks for its status.
      ...evilGitDirectory(attack, "evil-sub", `${pinned}\n`),
      // The file tools refuse a .git path now (tests/attacks/git-metadata.attack.test.ts): the child's command writes it.
      { name: "Bash", arguments: { command: "printf 'gitdir: ../evil-sub\\n' > sub/.git" } },
      { name: "Write", arguments: { path: "sub/.gitattributes", content: "* filter=x\n" } },
      { name: "Write", arguments: { path: "sub/file.txt", content: "inside the submodule\n" } },
      { name: "Write", arguments: { path: "src/a.ts", content: "export const a = 4;\n" } },
    ];
    const { report, text } = await runChild(attack, { calls });
    expect(markersOf(attack), text).toEqual([]);
    expect(report, text).toMatchObject({ applyStatus: "failed", worktreeCleanupStatus: "retained" });
    expect(report.applyError, text).toMatch(/sub \(a submodule/);
    expect(fs.readFileSync(path.join(attack.repository, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(fs.existsSync(path.join(attack.repository, "evil-sub"))).toBe(false);
    removeWorktree(report, attack);
  }, 120_000);
});

describe("attack: a worktree child's symbolic links and special files reach the apply", () => {
  it("refuses links that leave the workspace (absolute or climbing out), names each, applies nothing and keeps the worktree", async () => {
    const attack = scene("links");
    const outside = path.join(path.dirname(attack.repository), "outside");
    fs.mkdirSync(outside);
    const command = [
      `ln -s '${outside}' absolute`,
      "ln -s ../../.. climbing",
      "mkdir -p deep/er && ln -s ../../../x deep/er/climbing",
      // Inside by its text (deep), outside once deep/up (a link to the top, itself fine) is followed.
      "ln -s .. deep/up && ln -s deep/up/.. through",
      "ln -s src/a.ts fine",
      "printf 'export const a = 5;\\n' > src/a.ts",
    ].join(" && ");
    const { report, text } = await runChild(attack, { calls: [{ name: "Bash", arguments: { command } }] });
    expect(report, text).toMatchObject({ status: "completed", applyStatus: "failed", worktreeCleanupStatus: "retained" });
    for (const refused of ["absolute", "climbing", "deep/er/climbing", "through"]) expect(report.applyError, text).toContain(`${refused} (`);
    for (const accepted of ["fine", "deep/up"]) expect(report.applyError).not.toContain(`${accepted} (`);
    expect(text).toContain("absolute");
    for (const name of ["absolute", "climbing", "deep", "through", "fine"]) expect(fs.existsSync(path.join(attack.repository, name))).toBe(false);
    expect(fs.readFileSync(path.join(attack.repository, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(report.worktreePath!)).toBe(true);
    removeWorktree(report, attack);
  }, 120_000);

  it("applies a link that stays inside the workspace", async () => {
    const attack = scene("inside-link");
    const command = "mkdir -p lib && ln -s ../src/a.ts lib/a.ts && printf 'export const a = 6;\\n' > src/a.ts";
    const { report, text } = await runChild(attack, { calls: [{ name: "Bash", arguments: { command } }] });
    expect(report, text).toMatchObject({ applyStatus: "applied", worktreeCleanupStatus: "removed" });
    expect(fs.readlinkSync(path.join(attack.repository, "lib/a.ts"))).toBe("../src/a.ts");
  }, 120_000);

  it("refuses a tracked file the child turned into a fifo and reports it, keeping the worktree", async () => {
    const attack = scene("fifo");
    const { report, text } = await runChild(attack, { calls: [{ name: "Bash", arguments: { command: "rm src/a.ts && mkfifo src/a.ts && mkfifo new.pipe" } }] });
    expect(report.applyStatus, text).not.toBe("applied");
    expect(report.worktreeCleanupStatus, text).toBe("retained");
    expect(text).toContain("src/a.ts");
    expect(fs.readFileSync(path.join(attack.repository, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(fs.existsSync(path.join(attack.repository, "new.pipe"))).toBe(false);
    removeWorktree(report, attack);
  }, 120_000);
});

describe("attack: a workspace that is a subfolder of the repository", () => {
  const files = { "README.md": "# repository\n", "packages/app/src/a.ts": "export const a = 1;\n", "packages/lib/b.ts": "export const b = 1;\n" };
  const command = "printf 'pwned\\n' > ../../README.md && printf 'pwned\\n' > ../lib/b.ts && printf 'export const a = 2;\\n' > src/a.ts";

  for (const agent of [
    { apply_policy: "auto" },
    // Every pattern that used to match outside the workspace, in one entry.
    { apply_policy: "explicit", allowed_output_paths: ["**", ".", "**/*.md", "**/*.ts"] },
  ]) {
    it(`applies nothing outside the workspace (${JSON.stringify(agent)})`, async () => {
      const attack = scene(`subfolder-${agent.apply_policy}`, files);
      const workdir = path.join(attack.repository, "packages/app");
      const { report, text } = await runChild(attack, { workdir, agent, calls: [{ name: "Bash", arguments: { command } }] });
      expect(fs.readFileSync(path.join(attack.repository, "README.md"), "utf8"), text).toBe("# repository\n");
      expect(fs.readFileSync(path.join(attack.repository, "packages/lib/b.ts"), "utf8")).toBe("export const b = 1;\n");
      expect(report, text).toMatchObject({ applyStatus: "skipped", skipReason: "changes_outside_workspace", worktreeCleanupStatus: "retained" });
      expect(text).toContain("../../README.md");
      expect(text).toContain("../lib/b.ts");
      removeWorktree(report, attack);
    }, 120_000);
  }

  it("rejects output paths with a .. segment (also after a glob) before anything starts", async () => {
    const patterns = ["**/../README.md", "src/**/../../../README.md", "../README.md", "src/..", "..\\lib\\b.ts"];
    const attack = scene("dotdot", files);
    const workdir = path.join(attack.repository, "packages/app");
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: attack.dataDir,
      memory: false,
      subagents: { model: childMaking([{ name: "Bash", arguments: { command } }]), conversationId: "attack" },
    });
    try {
      const result = await registry.executeToolCall({
        id: "agent-dotdot",
        name: "Agent",
        arguments: {
          agents: patterns.map((pattern, index) => ({
            id: `child${index}`,
            prompt: "Do it.",
            mode: "worktree",
            apply_policy: "explicit",
            allowed_output_paths: [pattern],
          })),
        },
      });
      const text = result.content.map((part) => ("text" in part ? part.text : "")).join("\n");
      expect(result.isError, text).toBe(true);
      expect((result.details as SubagentBatchDetails).status).toBe("rejected");
      for (const pattern of patterns) expect(text).toContain(`${JSON.stringify(pattern)} has a ".." segment`);
    } finally {
      await registry.close();
    }
    expect(fs.readFileSync(path.join(attack.repository, "README.md"), "utf8")).toBe("# repository\n");
    expect(fs.existsSync(path.join(path.dirname(attack.repository), ".agent-tools-subagents"))).toBe(false);
  }, 60_000);
});
