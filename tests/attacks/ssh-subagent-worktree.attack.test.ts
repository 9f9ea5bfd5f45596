/**
 * Attacks on subagent worktrees on an SSH workspace (`WorkspaceSubagentWorktrees`
 * through `buildBuiltinToolRegistry({ workspace, subagents })`, a real
 * OpenSSH server from `startTestSshd`), played by a worktree child whose
 * tools run on the remote machine as the SSH user:
 *
 * - a `.gitattributes` naming filter, diff and merge drivers the
 *   repository's config defines: the snapshot, the apply and the removal run
 *   none of them;
 * - the worktree's `.git` pointed at a git directory the child made (its
 *   fsmonitor, hooks and config): never used, the changes still read against
 *   the base commit;
 * - a nested repository and `.git` paths: refused, nothing applied;
 * - `..` paths and links climbing out of the root, and a parent folder that
 *   is a symlink to outside: nothing written outside the work tree.
 *
 * Runs as root (the test sshd's dedicated account); skipped otherwise.
 * Shared set-up: `__fixtures__/ssh-workspace.ts` (its own test sshd).
 */
import fs from "node:fs";
import path from "node:path";
import type { ModelRequest } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { createSshWorkspace } from "@agent-tools/ssh";
import type { SubagentBatchDetails, SubagentReportDetails } from "@agent-tools/subagents";
import { describe, expect, it } from "vitest";
import { asRoot, snapshot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();
const { cleanups, asUser } = harness;
let count = 0;

const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "assistant").length;

/** A committed repository (the SSH account's) under the server's root, with `files` and `config` (`git config` pairs). */
function repository(files: Record<string, string>, config: Record<string, string> = {}): string {
  const root = path.join(harness.sshd.root, `repo-${++count}-${process.pid}`);
  asUser(`mkdir -p '${root}'`);
  for (const [relative, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }
  fs.chownSync(root, harness.sshd.uid, fs.statSync(root).gid);
  for (const relative of Object.keys(files)) {
    let at = path.join(root, relative);
    while (at !== root) {
      fs.chownSync(at, harness.sshd.uid, fs.statSync(root).gid);
      at = path.dirname(at);
    }
  }
  const settings = Object.entries(config)
    .map(([key, value]) => `git config '${key}' '${value.replace(/'/g, "'\\''")}'`)
    .join(" && ");
  asUser(`cd '${root}' && git init -q -b main && git add -A && git -c user.name=t -c user.email=t@e commit -q -m init${settings ? ` && ${settings}` : ""}`);
  return root;
}

/** A folder of markers the SSH account can write (a driver or hook that ran leaves its file there). */
function markers(): string {
  const folder = path.join(harness.home, `marks-${++count}-${process.pid}`);
  asUser(`mkdir -p '${folder}'`);
  cleanups.push(() => fs.rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** One Agent call with one worktree child on a registry over the SSH workspace at `workdir`; the child runs `steps` (one per turn). */
async function runChild(
  workdir: string,
  steps: readonly (ScriptedModelResponse | (() => ScriptedModelResponse))[],
  root?: string,
  byPath = false,
): Promise<SubagentReportDetails> {
  const sshd = harness.sshd;
  const workspace = byPath
    ? await createSshWorkspace({ ...sshd.connectOptions, root: root ?? sshd.root, anchoredOpens: false })
    : await harness.openWorkspace(undefined, undefined, root);
  const model = new ScriptedModelClient({
    respond: (request) => {
      const step = steps[turnOf(request)] ?? "done";
      return typeof step === "function" ? step() : step;
    },
  });
  const dataDir = fs.mkdtempSync(path.join(harness.localTemporary, "data-"));
  const registry = await buildBuiltinToolRegistry({ workspace, workdir, dataDir, memory: false, subagents: { model } });
  try {
    const result = await registry.executeToolCall({
      id: `call-${++count}`,
      name: "Agent",
      arguments: { agents: [{ id: "child", prompt: "Work.", mode: "worktree", apply_policy: "auto" }] },
    });
    return (result.details as SubagentBatchDetails).agents[0]!;
  } finally {
    await registry.close();
    await workspace.close();
  }
}

const bash = (command: string): ScriptedModelResponse => ({ toolCalls: [{ name: "Bash", arguments: { command } }] });
const write = (file: string, content: string): ScriptedModelResponse => ({ toolCalls: [{ name: "Write", arguments: { path: file, content } }] });

describe.skipIf(!asRoot)("attack: subagent worktrees on an SSH workspace", () => {
  it("runs none of the filter, diff or merge drivers a child's .gitattributes names (snapshot, apply, removal)", async () => {
    const marks = markers();
    const touch = (name: string) => `touch ${marks}/${name}; cat`;
    const root = repository(
      { "a.txt": "one\n" },
      {
        "filter.evil.clean": touch("clean"),
        "filter.evil.smudge": touch("smudge"),
        "filter.evil.process": touch("process"),
        "diff.evil.command": touch("diff-command"),
        "diff.evil.textconv": touch("textconv"),
        "merge.evil.driver": touch("merge"),
      },
    );
    const report = await runChild(root, [write(".gitattributes", "* filter=evil diff=evil merge=evil\n"), write("a.txt", "two\n")]);
    expect(report).toMatchObject({ applyStatus: "applied", worktreeCleanupStatus: "removed" });
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("two\n");
    expect(fs.readdirSync(marks)).toEqual([]);
  }, 180_000);

  it("never uses a git directory the child pointed its worktree's .git at (fsmonitor, hooks), and reads its changes against the base", async () => {
    const marks = markers();
    const root = repository({ "a.txt": "one\n" });
    const plant = [
      'fake="$(mktemp -d)"',
      'git init -q "$fake"',
      `git -C "$fake" config core.fsmonitor 'touch ${marks}/fsmonitor; false'`,
      `git -C "$fake" config core.hooksPath "$fake/hooks"`,
      'mkdir -p "$fake/hooks"',
      `for hook in post-checkout pre-commit post-index-change reference-transaction; do printf '#!/bin/sh\\ntouch ${marks}/hook-%s\\n' "$hook" > "$fake/hooks/$hook"; chmod +x "$fake/hooks/$hook"; done`,
      `printf 'gitdir: %s/.git\\n' "$fake" > .git`,
      "printf 'two\\n' > a.txt",
    ].join(" && ");
    const report = await runChild(root, [bash(plant)]);
    expect(report).toMatchObject({ applyStatus: "applied", changedPaths: ["a.txt"] });
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("two\n");
    expect(fs.readdirSync(marks)).toEqual([]);
    // The worktree is gone though git no longer knew it as one.
    expect(report.worktreeCleanupStatus).toBe("removed");
    expect(fs.existsSync(report.worktreePath!)).toBe(false);
  }, 180_000);

  it("refuses a nested repository and .git paths a child made, applying nothing and running nothing they configure", async () => {
    const marks = markers();
    const root = repository({ "a.txt": "one\n" });
    const nested = [
      "mkdir -p sub && git -C sub init -q",
      `git -C sub config core.fsmonitor 'touch ${marks}/nested-fsmonitor; false'`,
      "printf 'x\\n' > sub/f.txt && printf 'two\\n' > a.txt",
    ].join(" && ");
    const writeGit = await runChild(root, [write(".git/config", "[core]\n\tfsmonitor = touch /tmp/x\n"), bash(nested)]);
    expect(writeGit.applyStatus).toBe("failed");
    expect(writeGit.applyError).toMatch(/sub/);
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    expect(fs.existsSync(path.join(root, "sub"))).toBe(false);
    expect(fs.readdirSync(marks)).toEqual([]);
  }, 180_000);

  it("writes nothing outside the work tree: `..` paths, links climbing out, a parent folder that is a symlink to outside", async () => {
    const outside = path.join(harness.home, `outside-sub-${process.pid}`);
    asUser(`mkdir -p '${outside}' && printf 'SECRET\\n' > '${outside}/secret.txt'`);
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const before = snapshot(outside);
    const root = repository({ "a.txt": "one\n", "ext/keep.txt": "keep\n" });
    const report = await runChild(root, [
      write("../../../escape.txt", "x\n"),
      bash(`ln -s ../../../.. up && ln -s '${outside}/secret.txt' leak && printf 'two\\n' > a.txt`),
    ]);
    expect(report.applyStatus).toBe("failed");
    expect(report.applyError).toMatch(/up/);
    expect(report.applyError).toMatch(/leak/);
    expect(fs.existsSync(path.join(harness.sshd.root, "escape.txt"))).toBe(false);
    expect(fs.existsSync(path.join(root, "up"))).toBe(false);
    // The parent's own `ext` becomes a link to outside once the worktree is made (in the worktree it stays a folder): never written through.
    const swapped = await runChild(root, [
      () => {
        asUser(`rm -rf '${root}/ext' && ln -s '${outside}' '${root}/ext'`);
        return bash("printf 'changed\\n' > ext/keep.txt && printf 'new\\n' > ext/secret.txt");
      },
    ]);
    expect(swapped).toMatchObject({ applyStatus: "failed" });
    expect(swapped.conflictFiles).toEqual(expect.arrayContaining(["ext/keep.txt", "ext/secret.txt"]));
    expect(snapshot(outside)).toEqual(before);
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    expect(fs.existsSync(path.join(root, "leak"))).toBe(false);
  }, 180_000);

  it("makes a child's links with shell words in their targets as data (no command runs), and refuses a sparse 100 GB file before git reads it", async () => {
    const marks = markers();
    const root = repository({ "a.txt": "one\n" });
    const target = `x$(touch ${marks}/dollar)\`touch ${marks}/backtick\`;touch ${marks}/semicolon'"`;
    const quoted = `'${target.replace(/'/g, "'\\''")}'`;
    const report = await runChild(root, [bash(`ln -s ${quoted} weird && ln -s -- '-rf' dash`)]);
    expect(report).toMatchObject({ applyStatus: "applied" });
    expect(fs.readlinkSync(path.join(root, "weird"))).toBe(target);
    expect(fs.readlinkSync(path.join(root, "dash"))).toBe("-rf");
    expect(fs.readdirSync(marks)).toEqual([]);
    const big = await runChild(root, [bash("truncate -s 100G big.bin && printf 'two\\n' > a.txt")]);
    expect(big.applyStatus).not.toBe("applied");
    expect(JSON.stringify(big)).toMatch(/larger than/);
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    expect(fs.existsSync(path.join(root, "big.bin"))).toBe(false);
  }, 180_000);

  it("never makes a worktree through a planted .agent-tools-subagents symlink leading out of the root", async () => {
    const outside = path.join(harness.home, `outside-folder-${process.pid}`);
    asUser(`mkdir -p '${outside}'`);
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const root = repository({ "a.txt": "one\n" });
    // The workspace is the repository itself: worktrees go to <root>/.agent-tools-subagents/, planted as a link to outside.
    asUser(`ln -s '${outside}' '${root}/.agent-tools-subagents'`);
    // Both ways the SSH workspace opens files: anchored on the remote side, and by path over SFTP (which follows the link).
    for (const byPath of [false, true]) {
      const report = await runChild(root, [write("a.txt", "two\n")], root, byPath);
      expect(report.status, `byPath ${byPath}`).toBe("failed");
      expect(report.error).toMatch(/\.agent-tools-subagents/);
      expect(fs.readdirSync(outside), `byPath ${byPath}`).toEqual([]);
      expect(asUser(`cd '${root}' && git worktree list --porcelain`).match(/^worktree /gm)).toHaveLength(1);
      expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    }
  }, 180_000);

  it("reads nothing through, and empties nothing behind, a worktree folder the child swapped for a link to outside", async () => {
    const outside = path.join(harness.home, `outside-swap-${process.pid}`);
    asUser(`mkdir -p '${outside}' && printf 'SECRET\\n' > '${outside}/secret.txt'`);
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const root = repository({ "a.txt": "one\n" });
    // The child moves the folder holding its worktree (the worktree and its .git file in it) outside and leaves a link in its place.
    const swap = [
      'wt="$(pwd -P)" && name="$(basename "$wt")" && folder="$(dirname "$wt")" && cd /',
      `cp -a "$folder/." '${outside}/' && rm -rf "$folder" && ln -s '${outside}' "$folder"`,
      `printf 'two\\n' > '${outside}/'"$name/a.txt" && cp '${outside}/secret.txt' '${outside}/'"$name/"`,
    ].join(" && ");
    // Over SFTP by path (the anchored remote helper alone would refuse the scratch folder outside the root).
    const report = await runChild(root, [bash(swap)], undefined, true);
    expect(report.applyStatus).not.toBe("applied");
    expect(report.cleanupReason).toMatch(/a symlink on the way/);
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    expect(fs.existsSync(path.join(root, "secret.txt"))).toBe(false);
    // Whatever happened to the worktree, the outside folder still holds its files.
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("SECRET\n");
    expect(fs.readdirSync(outside).length).toBeGreaterThan(1);
  }, 180_000);

  it("sets aside, untouched, a journal planted in the worktree folder whose paths leave the work tree or name .git", async () => {
    const outside = path.join(harness.home, `outside-journal-${process.pid}`);
    asUser(`mkdir -p '${outside}' && printf 'SECRET\\n' > '${outside}/secret.txt'`);
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    const before = snapshot(outside);
    const root = repository({ "a.txt": "one\n" });
    const folder = path.join(harness.sshd.root, ".agent-tools-subagents", path.basename(root));
    const evil = (entryPath: string) =>
      JSON.stringify({
        version: 1,
        repositoryRoot: root,
        entries: [
          {
            path: "a.txt",
            pre: { kind: "file", mode: 420, base64: Buffer.from("EVIL\n").toString("base64") },
            post: { kind: "file", mode: 420, base64: Buffer.from("one\n").toString("base64") },
          },
          {
            path: entryPath,
            pre: { kind: "file", mode: 493, base64: Buffer.from("#!/bin/sh\ntouch /tmp/pwned\n").toString("base64") },
            post: { kind: "missing" },
          },
        ],
      });
    for (const entryPath of [`../../../${path.basename(outside)}/secret.txt`, ".git/hooks/post-checkout"]) {
      asUser(`mkdir -p '${folder}' && printf '%s' '${evil(entryPath)}' > '${folder}/apply-journal.json'`);
      // A run starts with the recovery of the repository's journal (the registry's start, then the apply).
      const report = await runChild(root, [write("b.txt", "b\n")]);
      expect(report.applyStatus).toBe("applied");
      expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
      expect(fs.existsSync(path.join(root, ".git", "hooks", "post-checkout"))).toBe(false);
      expect(fs.readdirSync(folder).filter((name) => name.startsWith("apply-journal.json.unreadable-"))).toHaveLength(1);
      for (const name of fs.readdirSync(folder)) if (name.startsWith("apply-journal")) fs.rmSync(path.join(folder, name));
      fs.rmSync(path.join(root, "b.txt"));
    }
    expect(snapshot(outside)).toEqual(before);
  }, 180_000);

  it("applies nothing into the worktrees' own folder when it is inside the work tree (the workspace root is the repository)", async () => {
    const root = repository({ "a.txt": "one\n" });
    const name = path.basename(root);
    const report = await runChild(root, [write(`.agent-tools-subagents/${name}/planted.json`, "{}\n"), write(".agent-tools-subagents/.gitignore", "")], root);
    expect(report.applyStatus).toBe("failed");
    expect(report.applyError).toMatch(/folder of the subagents' worktrees/);
    expect(fs.existsSync(path.join(root, ".agent-tools-subagents", name, "planted.json"))).toBe(false);
    expect(fs.readFileSync(path.join(root, ".agent-tools-subagents", ".gitignore"), "utf8")).toMatch(/^\*$/m);
  }, 180_000);
});
