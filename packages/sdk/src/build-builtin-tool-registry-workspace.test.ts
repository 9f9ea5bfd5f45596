import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, toolResultText } from "@agent-tools/core";
import { type MemoryWorkspace, type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import { ExecaProcessRunner, createLocalWorkspace } from "@agent-tools/node";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-workspace-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

const call = (registry: Registry, name: string, args: Record<string, unknown>) =>
  registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args });

async function buildError(run: () => Promise<unknown>): Promise<SdkError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SdkError) return error;
    throw error;
  }
  throw new Error("expected an SdkError");
}

/** A fresh dataDir on the host (the registry's own files). */
function dataDir(name: string): string {
  const dir = path.join(temporary, name, "data");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A workspace that is not the local disk but runs real processes: the
 * memory tree for files and a real ExecaProcessRunner for commands, rooted
 * at a local directory so the commands have somewhere to run. Whatever the
 * tools decide about paths comes from the memory tree, never the disk.
 */
function memoryWithProcesses(root: string, files: Record<string, string>): { workspace: Workspace; memory: MemoryWorkspace; runner: ExecaProcessRunner } {
  const memory = createMemoryWorkspace({ root, files });
  const runner = new ExecaProcessRunner();
  const workspace: Workspace = {
    kind: "memory+processes",
    label: `test-remote:${root}`,
    root: memory.root,
    fs: memory.fs,
    processes: runner,
    capabilities: { ...memory.capabilities, processes: true },
    close: async () => {
      await runner.close();
      await memory.close();
    },
  };
  return { workspace, memory, runner };
}

describe("buildBuiltinToolRegistry({ workspace }): the registry on a non-local workspace", () => {
  it("takes the workspace root as the workdir without touching the local disk (the path does not exist here)", async () => {
    const workspace = createMemoryWorkspace({ root: "/srv/not-on-this-host/app", files: { "README.md": "hello\n" } });
    expect(fs.existsSync("/srv/not-on-this-host")).toBe(false);
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: dataDir("root"), memory: false });
    try {
      expect(registry.workdir).toBe("/srv/not-on-this-host/app");
      expect(registry.ports.workspace).toBe(workspace);
      expect(registry.paths.resolve("src/a.ts", { intent: "write" })).toMatchObject({ absolutePath: "/srv/not-on-this-host/app/src/a.ts", exists: false });
    } finally {
      await registry.close();
    }
    // close() leaves the host's workspace open: the host owns it.
    expect((await workspace.fs.readFile("/srv/not-on-this-host/app/README.md")).toString()).toBe("hello\n");
    await workspace.close();
  });

  it("checks the workdir and the granted roots through the workspace: missing, a file, outside the root", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws", files: { "app/x.txt": "x\n", "docs/guide.md": "# Guide\n", "file.txt": "f\n" } });
    await workspace.symlink("/elsewhere", "/ws/escape");
    const data = dataDir("checks");
    const missing = await buildError(() => buildBuiltinToolRegistry({ workspace, workdir: "/ws/nope", dataDir: data, memory: false }));
    expect(missing.code).toBe("invalid_options");
    expect(missing.message).toMatch(/^workdir \/ws\/nope does not exist/);
    expect(missing.message).toContain("memory:/ws");
    const file = await buildError(() => buildBuiltinToolRegistry({ workspace, workdir: "/ws/file.txt", dataDir: data, memory: false }));
    expect(file.message).toMatch(/is not a directory/);
    await workspace.fs.mkdir("/elsewhere");
    const outside = await buildError(() => buildBuiltinToolRegistry({ workspace, workdir: "/ws/escape", dataDir: data, memory: false }));
    expect(outside.message).toMatch(/resolves to \/elsewhere, outside the workspace root/);
    const relative = await buildError(() => buildBuiltinToolRegistry({ workspace, workdir: "app", dataDir: data, memory: false }));
    expect(relative.message).toMatch(/must be an absolute path of the workspace/);
    const root = await buildError(() =>
      buildBuiltinToolRegistry({
        workspace,
        workdir: "/ws/app",
        additionalRoots: [{ alias: "docs", path: "/ws/missing", access: "read" }],
        dataDir: data,
        memory: false,
      }),
    );
    expect(root.code).toBe("invalid_root");
    expect(root.message).toMatch(/root "docs": path \/ws\/missing does not exist/);

    const registry = await buildBuiltinToolRegistry({
      workspace,
      workdir: "/ws/app",
      additionalRoots: [{ alias: "docs", path: "/ws/docs", access: "read" }],
      dataDir: data,
      memory: false,
    });
    try {
      expect(registry.workdir).toBe("/ws/app");
      expect(registry.paths.roots()).toEqual([expect.objectContaining({ alias: "docs", canonicalPath: "/ws/docs", status: "active" })]);
      expect(registry.paths.display("/ws/docs/guide.md")).toBe("root://docs/guide.md");
    } finally {
      await registry.close();
      await workspace.close();
    }
  });

  it("refuses, at build, the options that would read or run on this host, and an unknown key", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws" });
    const data = dataDir("refusals");
    for (const [option, value] of [["sandbox", { enabled: true }]] as const) {
      const error = await buildError(() => buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, [option]: value }));
      expect(error.code, option).toBe("invalid_options");
      expect(error.message, option).toMatch(new RegExp(`^${option} is not available with a non-local workspace \\(memory:/ws\\) yet`));
      expect(error.details.option).toBe(option);
    }
    const mcpRoots = await buildError(() =>
      buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, mcp: { getSettings: () => ({ mcpServers: {} }) } as never }),
    );
    expect(mcpRoots.message).toMatch(/^mcp\.roots is not available with a non-local workspace \(memory:\/ws\) yet: MCP servers run on this host/);
    const typo = await buildError(() => buildBuiltinToolRegistry({ workspce: workspace, dataDir: data } as never));
    expect(typo.details.suggestion).toBe("workspace");
    const twoWorkspaces = await buildError(() => buildBuiltinToolRegistry({ workspace, ports: { workspace: createMemoryWorkspace() }, dataDir: data }));
    expect(twoWorkspaces.message).toMatch(/different workspaces/);
    await workspace.close();
  });

  it("refuses commands on a workspace without processes, skill:// and ~, naming the workspace", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws" });
    // The host's own runner, closed: spawning through it would throw, so a command can only have gone to the workspace.
    const hostRunner = new ExecaProcessRunner();
    await hostRunner.close();
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: dataDir("no-processes"), memory: false, ports: { processRunner: hostRunner } });
    try {
      const bash = await call(registry, "Bash", { command: "echo hi" });
      expect(bash.isError).toBe(true);
      expect(bash.error?.code).toBe("unsupported_target");
      expect(toolResultText(bash, "")).toMatch(/cannot run commands on memory:\/ws: this memory workspace has no processes/);
      const managed = await call(registry, "ManagedProcess", { action: "start", command: "sleep 5" });
      expect(managed.error?.code).toBe("unsupported_target");
      const skill = await call(registry, "Read", { path: "skill://pdf/SKILL.md" });
      expect(skill.isError).toBe(true);
      expect(toolResultText(skill, "")).toMatch(/skills live on the host/);
      const home = await call(registry, "Bash", { command: "ls", cwd: "~/x" });
      expect(toolResultText(home, "")).toMatch(/home directory of the host/);
    } finally {
      await registry.close();
      await workspace.close();
    }
  });

  it("runs Bash, ProcessWait/ProcessStop and ManagedProcess through workspace.processes, checking cwd in the workspace, logs in the host's dataDir", async () => {
    const root = path.join(temporary, "with-processes", "root");
    fs.mkdirSync(path.join(root, "local-only"), { recursive: true });
    const { workspace, memory } = memoryWithProcesses(root, { "sub/keep.txt": "k\n", "memory-only/keep.txt": "m\n" });
    fs.mkdirSync(path.join(root, "sub"), { recursive: true });
    const hostRunner = new ExecaProcessRunner();
    await hostRunner.close();
    const data = dataDir("with-processes");
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, ports: { processRunner: hostRunner } });
    try {
      const bash = await call(registry, "Bash", { command: "pwd; echo out", cwd: "sub" });
      expect(bash.isError, toolResultText(bash, "")).toBe(false);
      expect(toolResultText(bash, "")).toContain(`${root}/sub`);
      expect(toolResultText(bash, "")).toContain(`workspace: test-remote:${root}`);
      expect(bash.details).toMatchObject({ status: "completed", sandbox: "none", workspace: `test-remote:${root}` });

      // The cwd is checked in the workspace's tree, not on this disk: a local-only directory does not exist there.
      const localOnly = await call(registry, "Bash", { command: "pwd", cwd: "local-only" });
      expect(localOnly.error?.code).toBe("not_found");
      expect(toolResultText(localOnly, "")).toMatch(/does not exist on test-remote:/);
      await memory.symlink("/etc", `${root}/sub/out`);
      const outOfRoot = await call(registry, "Bash", { command: "pwd", cwd: "sub/out" });
      expect(outOfRoot.error?.code).toBe("out_of_bounds");

      const long = await call(registry, "Bash", { command: "echo started; sleep 30", yield_time_ms: 500 });
      const sessionId = (long.details as { session_id: string }).session_id;
      expect((long.details as { status: string }).status).toBe("running");
      const stopped = await call(registry, "ProcessStop", { session_id: sessionId });
      expect((stopped.details as { status: string }).status).toBe("cancelled");

      const isolated = await call(registry, "ManagedProcess", { action: "start", command: "echo hi", isolated: true });
      expect(isolated.error?.code).toBe("unsupported_target");
      expect(toolResultText(isolated, "")).toMatch(/cannot outlive the host/);
      const started = await call(registry, "ManagedProcess", { action: "start", command: "echo managed-line; sleep 30", label: "srv" });
      expect(started.isError, toolResultText(started, "")).toBe(false);
      const processId = (started.details as { process: { process_id: string; log_path: string; workspace?: string } }).process;
      expect(processId.workspace).toBe(`test-remote:${root}`);
      expect(processId.log_path.startsWith(path.join(data, "process-logs"))).toBe(true);
      const waited = await call(registry, "ManagedProcess", { action: "wait", process_id: processId.process_id, yield_time_ms: 20000, max_bytes: 12 });
      expect(toolResultText(waited, "")).toContain("managed-line");
      expect(fs.readFileSync(processId.log_path, "utf8")).toContain("managed-line");
      const stop = await call(registry, "ManagedProcess", { action: "stop", process_id: processId.process_id });
      expect((stop.details as { process: { status: string } }).process.status).toBe("stopped");
    } finally {
      await registry.close();
      await workspace.close();
    }
  });
});

describe("buildBuiltinToolRegistry({ workspace }): records and local workspaces", () => {
  it("never probes a remote ManagedProcess's pid on this host, even when a local process has that pid", async () => {
    const root = path.join(temporary, "remote-record", "root");
    fs.mkdirSync(root, { recursive: true });
    const { workspace } = memoryWithProcesses(root, { "keep.txt": "k\n" });
    const data = dataDir("remote-record");
    const remote = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false });
    let recordFile: string;
    try {
      const started = await call(remote, "ManagedProcess", { action: "start", command: "echo hi; sleep 30" });
      const processId = (started.details as { process: { process_id: string } }).process.process_id;
      recordFile = path.join(data, "process-logs", `${processId}.json`);
    } finally {
      await remote.close();
      await workspace.close();
    }
    // The remote machine's pid happens to be a live pid here (this very test process).
    const record = JSON.parse(fs.readFileSync(recordFile, "utf8")) as { process_id: string; pid: number; workspace?: string };
    expect(record.workspace).toBe(`test-remote:${root}`);
    fs.writeFileSync(recordFile, JSON.stringify({ ...record, pid: process.pid }));
    const localDir = path.join(temporary, "remote-record", "local");
    fs.mkdirSync(localDir, { recursive: true });
    const local = await buildBuiltinToolRegistry({ workdir: localDir, dataDir: data, memory: false });
    try {
      const status = await call(local, "ManagedProcess", { action: "status", process_id: record.process_id });
      expect((status.details as { processes: Array<{ status: string; workspace?: string }> }).processes).toEqual([
        expect.objectContaining({ status: "exited", workspace: `test-remote:${root}` }),
      ]);
    } finally {
      await local.close();
    }
  });

  it("a local workspace keeps the local behaviour: workdir defaults to its root and is checked through it", async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(temporary, "local-ws-")));
    fs.writeFileSync(path.join(root, "a.txt"), "local file\n");
    fs.mkdirSync(path.join(root, "sub"));
    const workspace = await createLocalWorkspace({ root });
    const data = dataDir("local-ws");
    try {
      const outside = await buildError(() => buildBuiltinToolRegistry({ workspace, workdir: temporary, dataDir: data, memory: false }));
      expect(outside.message).toMatch(/outside the workspace root/);
      const registry = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false });
      try {
        expect(registry.workdir).toBe(root);
        const read = await call(registry, "Read", { path: "a.txt" });
        expect(toolResultText(read, "")).toContain("local file");
        const bash = await call(registry, "Bash", { command: "pwd", cwd: "sub" });
        expect(toolResultText(bash, "")).toContain(`${root}/sub`);
        expect(bash.details).not.toHaveProperty("workspace");
      } finally {
        await registry.close();
      }
    } finally {
      await workspace.close();
    }
  });
});

describe("project memory on non-local workspaces", () => {
  /** A memory tree presented as a workspace of another machine (its own label). */
  function machine(label: string): Workspace {
    const memory = createMemoryWorkspace({ root: "/srv", files: { "app/README.md": "app" } });
    return {
      kind: "memory",
      label,
      root: memory.root,
      fs: memory.fs,
      capabilities: memory.capabilities,
      close: () => memory.close(),
    };
  }

  it("keeps /srv/app on two machines as two projects, even with one dataDir", async () => {
    const shared = dataDir("memory-two-machines");
    const first = await buildBuiltinToolRegistry({ workspace: machine("ssh://dev@host-a:22"), workdir: "/srv/app", dataDir: shared });
    const second = await buildBuiltinToolRegistry({ workspace: machine("ssh://dev@host-b:22"), workdir: "/srv/app", dataDir: shared });
    try {
      const wrote = await call(first, "MemoryManager", {
        action: "write",
        slug: "deploy-target",
        scope: "project",
        type: "project",
        description: "Deploy target",
        body: "Deploys go to host-a only.",
      });
      expect(wrote.isError).toBe(false);
      const own = await call(first, "MemoryManager", { action: "list" });
      expect(toolResultText(own, "")).toContain("deploy-target");
      const other = await call(second, "MemoryManager", { action: "list" });
      expect(other.isError).toBe(false);
      expect(toolResultText(other, "")).not.toContain("deploy-target");
    } finally {
      await first.close();
      await second.close();
    }
  });
});
