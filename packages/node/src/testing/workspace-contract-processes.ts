/** Contract cases: processes of the workspace (when it has them) and close(). */
import { posix } from "node:path";
import { expect, it } from "vitest";
import type { ProcessOutputChunk } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { type WorkspaceContractContext, expectWorkspaceError, runInWorkspace, waitUntil } from "./workspace-contract-support.js";

async function pidFile(workspace: Workspace, path: string): Promise<number> {
  let pid = 0;
  await waitUntil(async () => {
    const text = await workspace.fs.readFile(path).then(
      (data) => data.toString("utf8").trim(),
      () => "",
    );
    pid = Number(text);
    return text !== "" && pid > 0;
  }, `pid file ${path}`);
  return pid;
}

/**
 * The pids of `pids` still alive, seen from a new process in the workspace:
 * `kill -0` succeeds, and (where /proc exists) the process is not a zombie
 * waiting for a parent that does not reap.
 */
async function alivePids(workspace: Workspace, cwd: string, pids: number[]): Promise<number[]> {
  const zombie = `[ -r /proc/$p/stat ] && [ "$(sed 's/.*) //' /proc/$p/stat | cut -c1)" = Z ]`;
  const script = `for p in ${pids.join(" ")}; do kill -0 "$p" 2>/dev/null || continue; ${zombie} && continue; echo "$p"; done`;
  const result = await runInWorkspace(workspace, script, cwd);
  return result.stdout.split(/\s+/).filter(Boolean).map(Number);
}

/**
 * Registers the process cases. Each runs only when the created workspace
 * reports `capabilities.processes` (else it is skipped; the suite's first
 * case checks that `processes` is present exactly then).
 */
export function processCases(context: WorkspaceContractContext): void {
  const openWithProcesses = async (skip: () => void) => {
    const fixture = await context.open();
    if (!fixture.workspace.capabilities.processes) skip();
    return fixture;
  };

  it("processes: runs echo in a workspace directory and reports the exit code; files it writes are visible through fs", async ({ skip }) => {
    const { workspace, scratch } = await openWithProcesses(skip);
    expect(workspace.processes).toBeDefined();
    const echo = await runInWorkspace(workspace, "echo hello", scratch);
    expect(echo.stdout).toBe("hello\n");
    expect(echo.exitCode).toBe(0);
    const where = await runInWorkspace(workspace, "pwd -P; printf made > made.txt; exit 7", scratch);
    expect(where.stdout.trim()).toBe(await workspace.fs.realpath(scratch));
    expect(where.exitCode).toBe(7);
    expect((await workspace.fs.readFile(posix.join(scratch, "made.txt"))).toString()).toBe("made");
  });

  it("processes: output is streamed while the process runs", async ({ skip }) => {
    const { workspace, scratch } = await openWithProcesses(skip);
    const processes = workspace.processes as NonNullable<Workspace["processes"]>;
    const child = processes.spawn({ command: "printf first; while [ ! -f go ]; do sleep 0.05; done; printf second", shell: "/bin/sh", cwd: scratch });
    const chunks: ProcessOutputChunk[] = [];
    child.onOutput((chunk) => chunks.push(chunk));
    const text = () => Buffer.concat(chunks.map((chunk) => chunk.data)).toString("utf8");
    let exited = false;
    void child.exited.then(() => {
      exited = true;
    });
    await waitUntil(() => text() === "first", "the first output before the process ends");
    expect(exited).toBe(false);
    await workspace.fs.writeFileAtomic(posix.join(scratch, "go"), Buffer.from("go"));
    expect((await child.exited).exitCode).toBe(0);
    await child.outputClosed;
    expect(text()).toBe("firstsecond");
  });

  it("processes: stdin: pipe reaches the command (write a line, read the answer, write again, end)", async ({ skip }) => {
    const { workspace, scratch } = await openWithProcesses(skip);
    const processes = workspace.processes as NonNullable<Workspace["processes"]>;
    const command = 'while IFS= read -r line; do printf "got:%s\\n" "$line"; done; printf done';
    const child = processes.spawn({ command, shell: "/bin/sh", cwd: scratch, stdin: "pipe" });
    const chunks: ProcessOutputChunk[] = [];
    child.onOutput((chunk) => chunks.push(chunk));
    const text = () => Buffer.concat(chunks.map((chunk) => chunk.data)).toString("utf8");
    await child.stdin!.write("one\n");
    await waitUntil(() => text() === "got:one\n", "the answer to the first line");
    await child.stdin!.write("two\n");
    await waitUntil(() => text() === "got:one\ngot:two\n", "the answer to the second line");
    await child.stdin!.end();
    expect((await child.exited).exitCode).toBe(0);
    await child.outputClosed;
    expect(text()).toBe("got:one\ngot:two\ndone");
  });

  it("processes: kill() ends a whole tree (sh -c 'sleep 300 & sleep 300 & wait'): no pid stays alive", async ({ skip }) => {
    const { workspace, scratch } = await openWithProcesses(skip);
    const processes = workspace.processes as NonNullable<Workspace["processes"]>;
    const script = "sh -c 'sleep 300 & echo $! > one.pid; sleep 300 & echo $! > two.pid; wait' & echo $! > shell.pid; wait";
    const child = processes.spawn({ command: script, shell: "/bin/sh", cwd: scratch });
    const descendants = [
      await pidFile(workspace, posix.join(scratch, "shell.pid")),
      await pidFile(workspace, posix.join(scratch, "one.pid")),
      await pidFile(workspace, posix.join(scratch, "two.pid")),
    ];
    // Read after the tree wrote its pid files: a remote runner learns the pid from the remote side.
    const pids = [child.pid, ...descendants];
    expect((await alivePids(workspace, scratch, pids)).sort()).toEqual([...pids].sort());
    expect(child.isTreeAlive()).toBe(true);
    await child.kill();
    expect((await child.exited).exitCode).not.toBe(0);
    await waitUntil(async () => (await alivePids(workspace, scratch, pids)).length === 0, `every pid of the tree ends (${pids.join(", ")})`);
    expect(child.isTreeAlive()).toBe(false);
    expect(child.livePids()).toEqual([]);
  });

  it("processes: close() kills the processes the workspace started (not isolated ones)", async ({ skip }) => {
    const { workspace, scratch } = await openWithProcesses(skip);
    const observer = await context.open();
    const processes = workspace.processes as NonNullable<Workspace["processes"]>;
    processes.spawn({ command: "echo $$ > plain.pid; exec sleep 300", shell: "/bin/sh", cwd: scratch });
    processes.spawn({ command: "echo $$ > isolated.pid; exec sleep 300", shell: "/bin/sh", cwd: scratch, isolated: true });
    const plainPid = await pidFile(workspace, posix.join(scratch, "plain.pid"));
    const isolatedPid = await pidFile(workspace, posix.join(scratch, "isolated.pid"));
    await workspace.close();
    await waitUntil(async () => !(await alivePids(observer.workspace, observer.scratch, [plainPid])).includes(plainPid), `pid ${plainPid} ends on close()`);
    try {
      expect(await alivePids(observer.workspace, observer.scratch, [isolatedPid])).toEqual([isolatedPid]);
    } finally {
      await runInWorkspace(observer.workspace, `kill -9 ${isolatedPid} 2>/dev/null; true`, observer.scratch);
    }
  });
}

/** Registers the close cases. */
export function closeCases(context: WorkspaceContractContext): void {
  it("close: later calls reject with closed; close() is safe to repeat", async () => {
    const { workspace, scratch } = await context.open();
    const file = posix.join(scratch, "before-close.txt");
    await workspace.fs.writeFileAtomic(file, Buffer.from("x"));
    await workspace.close();
    await workspace.close();
    await expectWorkspaceError(() => workspace.fs.stat(file), "closed");
    await expectWorkspaceError(() => workspace.fs.readFile(file), "closed");
    await expectWorkspaceError(() => workspace.fs.writeFileAtomic(file, Buffer.from("y")), "closed");
    await expectWorkspaceError(() => workspace.fs.readdir(scratch), "closed");
    await expectWorkspaceError(() => workspace.fs.mkdir(posix.join(scratch, "d")), "closed");
    await expectWorkspaceError(() => workspace.fs.lock(file, { timeoutMs: 1_000 }), "closed");
    await expectWorkspaceError(async () => {
      for await (const chunk of workspace.fs.readStream(file)) void chunk;
    }, "closed");
    if (workspace.processes !== undefined) {
      const processes = workspace.processes;
      expect(() => processes.spawn({ command: "true", shell: "/bin/sh", cwd: scratch })).toThrow();
    }
  });
}
