import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type ToolResult, toolResultText } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type { SdkSandboxOptions } from "./sandbox-wiring.js";
import { startBuiltinCronScheduler } from "./start-builtin-cron-scheduler.js";

// Real bubblewrap: skipped only where it is missing and this is not CI (CI must have it).
const hasBubblewrap = fs.existsSync("/usr/bin/bwrap");
const skipReason = !hasBubblewrap && !process.env.CI ? "bubblewrap (/usr/bin/bwrap) is not installed on this machine" : undefined;
if (skipReason) console.warn(`sandbox tests skipped: ${skipReason}`);

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-sandbox-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function directories() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  for (const name of ["project", "outside", "data"]) fs.mkdirSync(path.join(base, name));
  return { base, workdir: path.join(base, "project"), outside: path.join(base, "outside"), dataDir: path.join(base, "data") };
}

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Host pids whose command line holds `marker` (pids inside the sandbox's namespace differ, so look from outside). */
function pidsWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const commandLine = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const status = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // A zombie has ended; only its parent's reaping is left.
      if (commandLine.includes(marker) && !/^\d+ \(.*\) Z /.test(status)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function text(result: ToolResult): string {
  return toolResultText(result, "");
}

async function bash(registry: Awaited<ReturnType<typeof buildBuiltinToolRegistry>>, command: string, signal?: AbortSignal): Promise<ToolResult> {
  return registry.executeToolCall({ id: `call-${Math.random()}`, name: "Bash", arguments: { command, yield_time_ms: 30_000 } }, { signal });
}

describe.skipIf(skipReason !== undefined)("buildBuiltinToolRegistry({ sandbox }) with bubblewrap", () => {
  it("lets commands write the workspace only, reports bubblewrap in the header and details, and keeps a private /tmp", async () => {
    const { workdir, outside, dataDir } = directories();
    const home = fs.mkdtempSync(path.join(os.homedir(), ".agent-tools-sandbox-test-"));
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true } });
    try {
      const inside = await bash(registry, "echo kept > made-here.txt && echo private > /tmp/scratch.txt && cat /tmp/scratch.txt");
      expect(inside.isError).toBe(false);
      expect(text(inside)).toContain("sandbox: bubblewrap");
      expect((inside.details as { sandbox: string }).sandbox).toBe("bubblewrap");
      expect(fs.readFileSync(path.join(workdir, "made-here.txt"), "utf8")).toBe("kept\n");
      expect(text(inside)).toContain("private");

      const toOutside = await bash(registry, `echo leaked > ${outside}/leak.txt`);
      expect(toOutside.isError).toBe(true);
      expect(fs.existsSync(path.join(outside, "leak.txt"))).toBe(false);

      const toHome = await bash(registry, `echo leaked > ${home}/leak.txt`);
      expect(toHome.isError).toBe(true);
      expect(text(toHome)).toMatch(/Read-only file system/);
      expect(fs.existsSync(path.join(home, "leak.txt"))).toBe(false);

      const cron = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "cron", sandbox: { enabled: true } });
      try {
        const sync = await cron.executeToolCall({ id: "sync", name: "Bash", arguments: { command: `touch ${home}/sync-leak.txt; touch sync-ok.txt` } });
        expect(text(sync)).toMatch(/\nsandbox: bubblewrap\n/);
        expect((sync.details as { sandbox: string }).sandbox).toBe("bubblewrap");
        expect(fs.existsSync(path.join(home, "sync-leak.txt"))).toBe(false);
        expect(fs.existsSync(path.join(workdir, "sync-ok.txt"))).toBe(true);
      } finally {
        await cron.close();
      }
    } finally {
      await registry.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);

  it("hides secrets directories, keeps read-only roots read-only and grants write-access roots", async () => {
    const { base, workdir, dataDir } = directories();
    const fakeHome = path.join(base, "home");
    fs.mkdirSync(path.join(fakeHome, ".ssh"), { recursive: true });
    fs.writeFileSync(path.join(fakeHome, ".ssh", "id_rsa"), "PRIVATE KEY\n");
    fs.writeFileSync(path.join(fakeHome, "notes.txt"), "visible notes\n");
    const shared = path.join(base, "shared");
    fs.mkdirSync(shared);
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      additionalRoots: [
        { alias: "home", path: fakeHome, access: "read" },
        { alias: "shared", path: shared, access: "write" },
      ],
      sandbox: { enabled: true, hiddenPaths: [path.join(fakeHome, ".ssh")] },
    });
    try {
      const notes = await bash(registry, `cat ${fakeHome}/notes.txt`);
      expect(notes.isError).toBe(false);
      expect(text(notes)).toContain("visible notes");

      const secret = await bash(registry, `cat ${fakeHome}/.ssh/id_rsa; ls -A ${fakeHome}/.ssh | wc -l`);
      expect(text(secret)).not.toContain("PRIVATE KEY");
      expect(text(secret)).toMatch(/No such file or directory/);
      expect(text(secret)).toMatch(/^0$/m);

      const readOnly = await bash(registry, `touch ${fakeHome}/written.txt`);
      expect(readOnly.isError).toBe(true);
      expect(text(readOnly)).toMatch(/Read-only file system/);
      expect(fs.existsSync(path.join(fakeHome, "written.txt"))).toBe(false);

      const writable = await bash(registry, `echo shared > ${shared}/written.txt`);
      expect(writable.isError).toBe(false);
      expect(fs.readFileSync(path.join(shared, "written.txt"), "utf8")).toBe("shared\n");
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("lets commands read the uploads folder, read-only, while the rest of the dataDir stays masked", async () => {
    const { base, workdir, dataDir } = directories();
    fs.mkdirSync(path.join(dataDir, "uploads"));
    fs.writeFileSync(path.join(dataDir, "uploads", "report.csv"), "a,b\n1,2\n");
    fs.writeFileSync(path.join(dataDir, "secret.log"), "DATADIR SECRET\n");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true } });
    try {
      const upload = await bash(registry, `cat ${dataDir}/uploads/report.csv`);
      expect(upload.isError).toBe(false);
      expect(text(upload)).toContain("1,2");
      const secret = await bash(registry, `cat ${dataDir}/secret.log; ls -A ${dataDir}`);
      expect(text(secret)).not.toContain("DATADIR SECRET");
      expect(text(secret)).toMatch(/^uploads$/m);
      const write = await bash(registry, `echo x > ${dataDir}/uploads/new.txt`);
      expect(write.isError).toBe(true);
      expect(fs.existsSync(path.join(dataDir, "uploads", "new.txt"))).toBe(false);
    } finally {
      await registry.close();
    }
    // An uploads folder that is a symlink is not followed: it stays masked with the rest.
    const elsewhere = path.join(base, "elsewhere");
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, "private.txt"), "LINKED SECRET\n");
    fs.rmSync(path.join(dataDir, "uploads"), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(dataDir, "uploads"));
    const linked = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true } });
    try {
      expect(text(await bash(linked, `cat ${dataDir}/uploads/private.txt`))).not.toContain("LINKED SECRET");
    } finally {
      await linked.close();
    }
  }, 120_000);

  it("has no network unless allowNetwork, loopback included", async () => {
    const { workdir, dataDir } = directories();
    const server = net.createServer((socket) => socket.end("hello from the host\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    const offline = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true } });
    const online = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true, allowNetwork: true } });
    try {
      const refused = await bash(offline, connect);
      expect(refused.isError).toBe(true);
      expect(text(refused)).not.toContain("hello from the host");

      const allowed = await bash(online, connect);
      expect(allowed.isError).toBe(false);
      expect(text(allowed)).toContain("hello from the host");
    } finally {
      await Promise.all([offline.close(), online.close()]);
      await new Promise((resolve) => server.close(resolve));
    }
  }, 120_000);

  it("ends a confined session's whole process tree on ProcessStop and on abort", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true } });
    try {
      // A unique sleep length marks every process of the tree (bwrap, its pid 1, bash and both sleeps).
      const marker = `900.${process.pid}${Date.now() % 100_000}`;
      const started = await registry.executeToolCall({
        id: "start",
        name: "Bash",
        arguments: { command: `sleep ${marker}1 >/dev/null 2>&1 & sleep ${marker}2`, yield_time_ms: 250 },
      });
      expect(text(started)).toContain("sandbox: bubblewrap");
      const details = started.details as { status: string; session_id: string; sandbox: string };
      expect(details.status).toBe("running");
      expect(details.sandbox).toBe("bubblewrap");
      await waitFor(() => (pidsWith(`${marker}1`).length > 0 && pidsWith(`${marker}2`).length > 0 ? true : undefined), "both sleeps to run");
      const stopped = await registry.executeToolCall({ id: "stop", name: "ProcessStop", arguments: { session_id: details.session_id } });
      expect((stopped.details as { status: string }).status).toBe("cancelled");
      await waitFor(() => (pidsWith(marker).length === 0 ? true : undefined), "every process of the stopped tree to end");

      const abortMarker = `901.${process.pid}${Date.now() % 100_000}`;
      const controller = new AbortController();
      const running = bash(registry, `sleep ${abortMarker}1 >/dev/null 2>&1 & sleep ${abortMarker}2`, controller.signal);
      await waitFor(() => (pidsWith(`${abortMarker}1`).length > 0 && pidsWith(`${abortMarker}2`).length > 0 ? true : undefined), "both sleeps to run");
      controller.abort();
      await running;
      await waitFor(() => (pidsWith(abortMarker).length === 0 ? true : undefined), "every process of the aborted tree to end");
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("confines ManagedProcess and reports its sandbox", async () => {
    const { workdir, dataDir } = directories();
    const home = fs.mkdtempSync(path.join(os.homedir(), ".agent-tools-sandbox-test-"));
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true } });
    try {
      const started = await registry.executeToolCall({
        id: "managed",
        name: "ManagedProcess",
        arguments: { action: "start", command: `touch ${home}/managed-leak; echo managed > managed.txt; echo done` },
      });
      expect(started.isError).toBe(false);
      expect(text(started)).toContain("sandbox: bubblewrap");
      const processId = (started.details as { process: { process_id: string } }).process.process_id;
      const waited = await registry.executeToolCall({ id: "wait", name: "ManagedProcess", arguments: { action: "wait", process_id: processId } });
      expect(text(waited)).toMatch(/Read-only file system/);
      expect(fs.existsSync(path.join(home, "managed-leak"))).toBe(false);
      expect(fs.readFileSync(path.join(workdir, "managed.txt"), "utf8")).toBe("managed\n");
    } finally {
      await registry.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);

  it("fails closed on a mistyped sandbox option: SdkError naming it, no registry", async () => {
    const { workdir, dataDir } = directories();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ enabled: true, allownetwork: false }, /Unknown sandbox option "allownetwork". Did you mean "allowNetwork"\?/],
      [{ enabled: true, hiddenPaths: ["~/.ssh"] }, /sandbox.hiddenPaths entry "~\/.ssh" is not an absolute path/],
      [{ enabled: true, environment: { allow: "OPENAI_API_KEY" } }, /sandbox.environment.allow must be an array/],
      [{ enabled: true, environment: { alow: ["MY_VAR"] } }, /Unknown key sandbox.environment.alow/],
      [{ enabled: true, environment: { allow: ["MY VAR"] } }, /entry "MY VAR" is not a variable name/],
      [{ enabled: true, bubblewrapPath: "bwrap" }, /sandbox.bubblewrapPath must be the absolute path of bwrap/],
      [{ enabled: "true" }, /sandbox.enabled must be true or false/],
    ];
    for (const [sandbox, message] of cases) {
      const building = buildBuiltinToolRegistry({ workdir, dataDir, sandbox: sandbox as unknown as SdkSandboxOptions });
      await expect(building).rejects.toMatchObject({ name: "SdkError", code: "invalid_options", message: expect.stringMatching(message) });
    }
    // Checked also for the scheduler, which probes the same option.
    await expect(
      startBuiltinCronScheduler({ dataDir, registryOptions: { sandbox: { enabled: true, allownetwork: true } as SdkSandboxOptions } }),
    ).rejects.toMatchObject({
      code: "invalid_options",
    });
  }, 120_000);

  it("fails closed: a sandbox that cannot start refuses every command with the reason and runs nothing", async () => {
    const { workdir, dataDir } = directories();
    const missing = path.join(temporary, "no-such-dir", "bwrap");
    const chat = await buildBuiltinToolRegistry({ workdir, dataDir, sandbox: { enabled: true, bubblewrapPath: missing } });
    const cron = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "cron", sandbox: { enabled: true, bubblewrapPath: missing } });
    try {
      const calls: Array<[typeof chat, string, Record<string, unknown>]> = [
        [chat, "Bash", { command: "touch marker-session" }],
        [chat, "ManagedProcess", { action: "start", command: "touch marker-managed" }],
        [cron, "Bash", { command: "touch marker-sync" }],
      ];
      for (const [registry, name, args] of calls) {
        const result = await registry.executeToolCall({ id: name, name, arguments: args });
        expect(result.isError).toBe(true);
        expect(text(result)).toContain(`bubblewrap was not found at ${missing}`);
        expect(text(result)).toMatch(/Install bubblewrap/);
        expect(text(result)).toMatch(/sandbox: \{ enabled: false \}/);
      }
      // Give a wrongly started command time to create its marker before checking.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(fs.readdirSync(workdir).filter((name) => name.startsWith("marker-"))).toEqual([]);
    } finally {
      await Promise.all([chat.close(), cron.close()]);
    }
  }, 120_000);
  it("confines cron bash tasks, and runs none when the sandbox cannot start", async () => {
    const home = fs.mkdtempSync(path.join(os.homedir(), ".agent-tools-sandbox-test-"));
    try {
      for (const bubblewrapPath of [undefined, path.join(temporary, "no-such-dir", "bwrap")]) {
        const { workdir, dataDir } = directories();
        const chat = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {} });
        const created = await chat.executeToolCall({
          id: "create",
          name: "CronTaskManager",
          arguments: {
            action: "create",
            name: "confined",
            cron: "* * * * * *",
            type: "bash",
            script: `touch ${home}/cron-leak; echo ran > ran.txt`,
            remaining_executions: 1,
          },
        });
        expect(created.isError).toBe(false);
        await chat.close();
        const finished: boolean[] = [];
        const scheduler = await startBuiltinCronScheduler({
          dataDir,
          tickMs: 100,
          registryOptions: { sandbox: { enabled: true, bubblewrapPath } },
          onEvent: (event) => {
            if (event.type === "run-finished") finished.push(event.success);
          },
        });
        try {
          await waitFor(() => (finished.length > 0 ? true : undefined), "the run to finish");
        } finally {
          await scheduler.stop();
        }
        expect(fs.existsSync(path.join(home, "cron-leak"))).toBe(false);
        if (bubblewrapPath === undefined) {
          expect(fs.readFileSync(path.join(workdir, "ran.txt"), "utf8")).toBe("ran\n");
        } else {
          expect(finished).toEqual([false]);
          expect(fs.existsSync(path.join(workdir, "ran.txt"))).toBe(false);
          const cron = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "cron", cron: {} });
          try {
            const taskId = /task_id=(\S+)/.exec(text(created))?.[1];
            const logs = await cron.executeToolCall({ id: "logs", name: "CronTaskManager", arguments: { action: "list_logs", task_id: taskId } });
            expect(text(logs)).toMatch(/bubblewrap was not found/);
          } finally {
            await cron.close();
          }
        }
      }
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});
