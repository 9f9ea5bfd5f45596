/**
 * Worktree subagents on an SSH workspace touch nothing of this host but the
 * registry's dataDir and start no local process (no local git): the Agent
 * call runs in a child process under strace, which records every file and
 * exec syscall. The test sshd runs on this machine, so the repository is
 * also a local path: the host must never touch it.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startTestSshd } from "@agent-tools/ssh/testing";
import type { SubagentReportDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";

const asRoot = process.getuid?.() === 0;
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-subagents-strace-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const scenario = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "subagent-ssh-process.mjs");

/** Syscalls that change the file system (an `openat` counts when it writes or creates). */
const WRITING = /^(?:mkdirat?|unlinkat?|renameat2?|rename|rmdir|symlinkat?|linkat?|f?chmodat?|f?chownat?|lchown|utimensat|truncate|creat)$/;

/** Every path syscall and exec between the scenario's markers, leaving out tsx's esbuild processes. */
function traced(trace: string, marker: string): { accesses: { call: string; path: string; writes: boolean }[]; execs: string[] } {
  const accesses: { call: string; path: string; writes: boolean }[] = [];
  const execs: string[] = [];
  const loader = new Set<string>();
  let state: "before" | "during" | "after" = "before";
  for (const line of trace.split("\n")) {
    const pid = /^(\d+)\s/.exec(line)?.[1];
    if (pid === undefined) continue;
    const child = /^\d+\s+(?:(?:clone3?|fork|vfork)\(|<\.\.\. (?:clone3?|fork|vfork) resumed>).*\)\s+=\s+(\d+)$/.exec(line)?.[1];
    if (child !== undefined && loader.has(pid)) loader.add(child);
    if (/^\d+\s+execve\("[^"]*\/@esbuild\//.test(line)) loader.add(pid);
    if (loader.has(pid)) continue;
    const match = /^\d+\s+([a-z_0-9]+)\((?:AT_FDCWD, |-?\d+, )?"([^"]*)"(.*)$/.exec(line);
    if (match === null) continue;
    const [, call, target, rest] = match as unknown as [string, string, string, string];
    if (target === marker) state = "during";
    if (target === `${marker}.end`) state = "after";
    if (state !== "during" || target === marker) continue;
    if (call === "execve") execs.push(target);
    else
      accesses.push({
        call,
        path: path.resolve(repositoryRoot, target),
        writes: WRITING.test(call) || (/^open(?:at)?$/.test(call) && /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(rest)),
      });
  }
  return { accesses, execs };
}

const within = (parent: string, child: string) => child === parent || child.startsWith(`${parent}/`);

describe.skipIf(!asRoot)("worktree subagents on an SSH workspace, watched by strace", () => {
  it("make, read, apply and remove the worktree over SSH: no local file outside the dataDir, no local process", async () => {
    const strace = ["/usr/bin/strace", "/bin/strace"].find((candidate) => fs.existsSync(candidate));
    expect(strace, "strace is missing: scripts/setup.sh installs it (Debian package strace)").toBeDefined();
    const sshd = await startTestSshd();
    try {
      const repository = path.join(sshd.root, "repo");
      const asUser = (script: string) => execFileSync("runuser", ["-u", sshd.username, "--", "/bin/sh", "-c", script], { encoding: "utf8" });
      asUser(
        `mkdir -p '${repository}/src' && cd '${repository}' && printf '# demo\\n' > README.md && printf 'export const a = 1;\\n' > src/a.ts && git init -q -b main && git add -A && git -c user.name=t -c user.email=t@e commit -q -m init`,
      );
      const data = path.join(temporary, "data");
      fs.mkdirSync(data, { recursive: true });
      const marker = `/__agent_tools_subagents_${process.pid}__`;
      const traceFile = path.join(temporary, "trace.txt");
      const ssh = { host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, hostKey: sshd.hostKeyFingerprint };
      const { stdout } = await promisify(execFile)(
        strace as string,
        [
          "-f",
          "-qq",
          "-e",
          "trace=file,process",
          "-o",
          traceFile,
          process.execPath,
          "--import",
          "tsx",
          "--conditions=@agent-tools/source",
          scenario,
          sshd.root,
          repository,
          data,
          marker,
          JSON.stringify(ssh),
        ],
        { cwd: repositoryRoot, timeout: 180_000, env: { ...process.env, TSX_DISABLE_CACHE: "1" } },
      );
      const { agents } = JSON.parse(stdout.trim().split("\n").at(-1) as string) as { agents: SubagentReportDetails[] };
      expect(agents.map((agent) => [agent.id, agent.status])).toEqual([
        ["reader", "completed"],
        ["writer", "completed"],
      ]);
      expect(agents[1]).toMatchObject({ applyStatus: "applied", worktreeCleanupStatus: "removed", changedPaths: ["src/a.ts", "src/new.ts"] });
      expect(fs.readFileSync(path.join(repository, "src/a.ts"), "utf8")).toBe("export const a = 2;\n");

      const { accesses, execs } = traced(fs.readFileSync(traceFile, "utf8"), marker);
      expect(accesses.length).toBeGreaterThan(0);
      // No local git, no local shell: every command ran over SSH.
      expect(execs).toEqual([]);
      const nodePrefix = path.resolve(path.dirname(process.execPath), "..");
      const readable = [data, repositoryRoot, "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/proc", "/sys", "/dev", nodePrefix];
      const ancestorOfAllowed = (target: string) => [data, repositoryRoot].some((allowed) => within(target, allowed));
      const show = (list: typeof accesses) => list.map((access) => `${access.call} ${access.path}`);
      expect(show(accesses.filter((access) => within(sshd.root, access.path))), "the workspace's path on this disk").toEqual([]);
      expect(show(accesses.filter((access) => access.writes && !within(data, access.path) && access.path !== "/dev/null")), "local writes").toEqual([]);
      const reads = accesses.filter(
        (access) =>
          !access.writes &&
          !readable.some((prefix) => within(prefix, access.path)) &&
          !ancestorOfAllowed(access.path) &&
          !(access.call === "access" && access.path !== repositoryRoot && access.path.toLowerCase() === repositoryRoot.toLowerCase()),
      );
      expect(show(reads), "local reads outside the dataDir and the code").toEqual([]);
    } finally {
      await sshd.stop();
    }
  }, 240_000);
});
