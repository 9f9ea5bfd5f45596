/**
 * Attack: the model writes the parent repository's own `.git` (config with
 * `core.fsmonitor`, a hook) with the file tools or from a sandboxed Bash, so
 * that the next git command the HOST runs on the workspace (a worktree
 * subagent's `git worktree add`, a status) runs the model's command
 * unconfined. The file tools refuse `.git`, the sandbox binds the git
 * control files read-only, and the host's own git runs ignore hooks and
 * fsmonitor whatever the repository says.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GitCliClient } from "@agent-tools/git";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-git-metadata-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });
}

function repository(name: string): { workdir: string; dataDir: string; marker: string } {
  const root = path.join(temporary, name);
  const workdir = path.join(root, "project");
  fs.mkdirSync(workdir, { recursive: true });
  git(workdir, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(workdir, "a.txt"), "a\n");
  git(workdir, "add", "a.txt");
  git(workdir, "commit", "-q", "-m", "init");
  fs.mkdirSync(path.join(workdir, ".git", "info"), { recursive: true });
  return { workdir, dataDir: path.join(root, "data"), marker: path.join(root, "pwned") };
}

describe("attack: the model writes the repository's .git so the host's git runs its command", () => {
  it("the file tools refuse every write into .git, by any spelling or through a symlink", async () => {
    const { workdir, dataDir, marker } = repository("file-tools");
    fs.symlinkSync(".git", path.join(workdir, "meta"));
    const configBefore = fs.readFileSync(path.join(workdir, ".git", "config"), "utf8");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      const attempts: Array<[string, Record<string, unknown>]> = [
        ["Write", { path: ".git/config", content: `[core]\n\tfsmonitor = "touch ${marker}; false"\n` }],
        ["Write", { path: ".git/hooks/post-checkout", content: `#!/bin/sh\ntouch ${marker}\n` }],
        ["Write", { path: ".git/info/attributes", content: "* filter=evil\n" }],
        ["Write", { path: ".GIT/config", content: "x" }],
        ["Write", { path: "meta/config", content: "x" }],
        ["Write", { path: `${workdir}/.git/config`, content: "x" }],
        ["Edit", { path: ".git/config", old_string: "[core]", new_string: `[core]\n\tfsmonitor = "touch ${marker}; false"` }],
        ["Delete", { path: ".git/HEAD" }],
      ];
      for (const [name, args] of attempts) {
        const result = await registry.executeToolCall({ id: `${name}-${JSON.stringify(args)}`, name, arguments: args });
        expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        expect(JSON.stringify(result.content)).toMatch(/\.git folder/);
      }
      // .gitignore and .github stay ordinary files.
      const ordinary = await registry.executeToolCall({ id: "ok", name: "Write", arguments: { path: ".gitignore", content: "node_modules\n" } });
      expect(ordinary.isError).toBe(false);
    } finally {
      await registry.close();
    }
    expect(fs.readFileSync(path.join(workdir, ".git", "config"), "utf8")).toBe(configBefore);
    expect(fs.existsSync(path.join(workdir, ".git", "hooks", "post-checkout"))).toBe(false);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("a sandboxed Bash can commit but cannot write the git config, hooks or info attributes", async () => {
    const { workdir, dataDir, marker } = repository("sandbox");
    const configBefore = fs.readFileSync(path.join(workdir, ".git", "config"), "utf8");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, sandbox: { enabled: true } });
    try {
      const run = async (command: string) => {
        const result = await registry.executeToolCall({ id: command, name: "Bash", arguments: { command } });
        return JSON.stringify(result.content);
      };
      const attacks = [
        `git config core.fsmonitor "touch ${marker}; false"`,
        `printf '[core]\\n\\tfsmonitor = "touch ${marker}; false"\\n' >> .git/config`,
        `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout`,
        `echo '* filter=evil' > .git/info/attributes`,
        "rm -rf .git/hooks",
      ];
      for (const command of attacks) await run(command);
      const commit = await run("echo b > b.txt && git add b.txt && git -c user.name=t -c user.email=t@t commit -q -m b && git log --oneline | wc -l");
      expect(commit).toMatch(/\b2\b/);
    } finally {
      await registry.close();
    }
    expect(fs.readFileSync(path.join(workdir, ".git", "config"), "utf8")).toBe(configBefore);
    expect(fs.existsSync(path.join(workdir, ".git", "hooks", "post-checkout"))).toBe(false);
    expect(fs.existsSync(path.join(workdir, ".git", "hooks"))).toBe(true);
    expect(fs.existsSync(path.join(workdir, ".git", "info", "attributes"))).toBe(false);
    git(workdir, "status");
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("the host's git client runs no hook and no fsmonitor the repository names", async () => {
    const { workdir, marker } = repository("host-git");
    // What an unconfined command (or a host that allowed it) could have left in the repository.
    git(workdir, "config", "core.fsmonitor", `touch ${marker}-fsmonitor; false`);
    for (const hook of ["post-checkout", "reference-transaction", "pre-commit", "post-commit"]) {
      const file = path.join(workdir, ".git", "hooks", hook);
      fs.writeFileSync(file, `#!/bin/sh\ntouch ${marker}-${hook}\n`);
      fs.chmodSync(file, 0o755);
    }
    const client = new GitCliClient();
    await client.status(workdir);
    await client.addWorktree(workdir, { path: path.join(temporary, "host-git", "wt"), branch: "child" });
    fs.writeFileSync(path.join(temporary, "host-git", "wt", "c.txt"), "c\n");
    await client.commit(path.join(temporary, "host-git", "wt"), { message: "c", author: { name: "t", email: "t@t" } });
    await client.removeWorktree(workdir, { path: path.join(temporary, "host-git", "wt"), force: true });
    const planted = fs.readdirSync(path.dirname(marker)).filter((name) => name.startsWith("pwned"));
    expect(planted).toEqual([]);
  });
});
