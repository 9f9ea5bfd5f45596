/**
 * Attacks on cron tasks (issue 29, items 5 and 7), as a model would make
 * them: CronTaskManager through `executeToolCall` on registries of
 * `buildBuiltinToolRegistry`, fired by `startBuiltinCronScheduler` with real
 * bubblewrap, real SQLite and real HTTP servers on 127.0.0.1 (the only
 * network on the test machines).
 *
 * - A task's workdir must lie in the workspace or a root granted with write
 *   access of the registry that created it: `/`, `..`, a symlink leading out
 *   and any outside path are refused when the task is created, and again
 *   when it runs (a folder swapped for a symlink, a task stored before the
 *   check existed); nothing outside is ever written.
 * - http tasks follow the creating registry's network: none when its
 *   sandbox has no network; otherwise only public addresses, in every
 *   numeric, mapped and redirected form, unless the host allows private
 *   networks. A refused request's log says why and shows no body.
 *
 * `ATTACK_ROUNDS` (default 3) sets how many runs race a workdir swap.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolResultText } from "../../packages/core/src/index.js";
import { ScriptedModelClient } from "../../packages/core/src/testing/index.js";
import { KyselyCronStore } from "../../packages/cron/src/index.js";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry, startBuiltinCronScheduler } from "../../packages/sdk/src/index.js";
import { leaseSqliteStorage } from "../../packages/storage/src/index.js";

const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 3));
const hasBubblewrap = fs.existsSync("/usr/bin/bwrap");
const sandboxSkip = !hasBubblewrap && !process.env.CI;
if (sandboxSkip) console.warn("cron sandbox attacks skipped: bubblewrap (/usr/bin/bwrap) is not installed");

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-attack-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function directories() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  for (const name of ["project", "outside", "data", "shared", "reference"]) fs.mkdirSync(path.join(base, name));
  return {
    base,
    workdir: path.join(base, "project"),
    outside: path.join(base, "outside"),
    dataDir: path.join(base, "data"),
    shared: path.join(base, "shared"),
    reference: path.join(base, "reference"),
  };
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function cron(registry: BuiltinToolRegistry, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `call-${Math.random()}`, name: "CronTaskManager", arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, "") };
}

function taskIdOf(text: string): string {
  const id = /task_id=(\S+)/.exec(text)?.[1];
  if (id === undefined) throw new Error(`no task id in: ${text}`);
  return id;
}

/** Runs the scheduler until `runs` runs have finished; returns their outcomes. */
async function runScheduler(dataDir: string, runs: number, options: Parameters<typeof startBuiltinCronScheduler>[0] = {}): Promise<boolean[]> {
  const finished: boolean[] = [];
  const scheduler = await startBuiltinCronScheduler({
    dataDir,
    tickMs: 100,
    ...options,
    onEvent: (event) => {
      if (event.type === "run-finished") finished.push(event.success);
    },
  });
  try {
    await waitFor(() => (finished.length >= runs ? true : undefined), `${runs} finished runs`);
    await scheduler.idle();
  } finally {
    await scheduler.stop();
  }
  return finished;
}

async function logsOf(dataDir: string, workdir: string, taskId: string): Promise<string> {
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {} });
  try {
    return (await cron(registry, { action: "list_logs", task_id: taskId })).text;
  } finally {
    await registry.close();
  }
}

/** Stores a task the way versions before the workdir check did: straight into the store, no record of its registry. */
async function storeLegacyTask(dataDir: string, fields: Record<string, unknown>): Promise<string> {
  const lease = leaseSqliteStorage({ dataDir });
  try {
    const store = await KyselyCronStore.open(await lease.get());
    const task = await store.createTask(
      { name: "legacy", description: "", cron: "* * * * * *", enabled: true, remainingExecutions: 1, timeoutSeconds: 30, type: "bash", ...fields } as never,
      Date.now(),
    );
    return task.id;
  } finally {
    await lease.release();
  }
}

describe.skipIf(sandboxSkip)("cron attacks: a task's workdir stays inside the creating registry's writable roots", () => {
  it("refuses `/`, `..`, a symlink leading out, an outside path and a read-only root at create and update, naming the allowed roots", async () => {
    const { workdir, outside, dataDir, shared, reference } = directories();
    fs.mkdirSync(path.join(workdir, "sub"));
    fs.mkdirSync(path.join(shared, "jobs"));
    fs.symlinkSync(outside, path.join(workdir, "escape"));
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      cron: {},
      sandbox: { enabled: true },
      additionalRoots: [
        { alias: "shared", path: shared, access: "write" },
        { alias: "reference", path: reference, access: "read" },
      ],
    });
    try {
      const base = { action: "create", name: "w", cron: "0 0 * * * *", type: "bash", script: "touch pwned" };
      for (const workdirInput of ["/", `${workdir}/..`, `${workdir}/sub/../../outside`, path.join(workdir, "escape"), outside, reference, "/etc"]) {
        const refused = await cron(registry, { ...base, workdir: workdirInput });
        expect(refused.isError, `workdir ${workdirInput}`).toBe(true);
        expect(refused.text).toMatch(/outside the directories this registry may write/);
        expect(refused.text).toContain(workdir);
        expect(refused.text).toContain(`root://shared (${shared})`);
      }
      for (const allowed of ["", workdir, path.join(workdir, "sub"), path.join(shared, "jobs")]) {
        const created = await cron(registry, { ...base, workdir: allowed });
        expect(created.isError, `${allowed}: ${created.text}`).toBe(false);
      }
      const id = taskIdOf((await cron(registry, { ...base, workdir: path.join(workdir, "sub") })).text);
      const moved = await cron(registry, { action: "update", task_id: id, workdir: "/" });
      expect(moved.isError).toBe(true);
      expect(moved.text).toMatch(/outside the directories this registry may write/);
    } finally {
      await registry.close();
    }
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it(`refuses a run whose workdir was swapped for a symlink leading out (${ROUNDS} runs racing the swap): nothing outside is written`, async () => {
    const { workdir, outside, dataDir } = directories();
    const sub = path.join(workdir, "sub");
    fs.mkdirSync(sub);
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {}, sandbox: { enabled: true } });
    const created = await cron(registry, {
      action: "create",
      name: "swap",
      cron: "* * * * * *",
      type: "bash",
      workdir: sub,
      script: "touch pwned-$$; echo ran",
      remaining_executions: ROUNDS + 1,
    });
    expect(created.isError, created.text).toBe(false);
    const taskId = taskIdOf(created.text);
    await registry.close();

    // First run: the folder is swapped for a symlink before the scheduler starts.
    fs.rmSync(sub, { recursive: true });
    fs.symlinkSync(outside, sub);
    const first = await runScheduler(dataDir, 1, { registryOptions: { sandbox: { enabled: true } } });
    expect(first).toEqual([false]);
    const logs = await logsOf(dataDir, workdir, taskId);
    expect(logs).toMatch(/\[failed\]/);
    expect(logs).toContain(outside);
    expect(logs).toMatch(/outside the directories/);
    expect(fs.readdirSync(outside)).toEqual([]);

    // Then the swap races the runs: ROUNDS tasks fire together while a real folder and a symlink leading out are flipped as fast as possible.
    const fix = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {}, sandbox: { enabled: true } });
    fs.rmSync(sub);
    fs.mkdirSync(sub);
    for (let round = 0; round < ROUNDS; round += 1) {
      const racer = await cron(fix, {
        action: "create",
        name: `race ${round}`,
        cron: "* * * * * *",
        type: "bash",
        workdir: sub,
        script: "touch pwned-$$",
        remaining_executions: 1,
      });
      expect(racer.isError, racer.text).toBe(false);
    }
    await fix.close();
    let flipping = true;
    const flipper = (async () => {
      const spare = path.join(workdir, "spare");
      while (flipping) {
        try {
          fs.renameSync(sub, spare);
          fs.symlinkSync(outside, sub);
          await new Promise((resolve) => setImmediate(resolve));
          fs.rmSync(sub);
          fs.renameSync(spare, sub);
        } catch {
          // a run holds the folder: try again
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      await runScheduler(dataDir, ROUNDS, { registryOptions: { sandbox: { enabled: true } } });
    } finally {
      flipping = false;
      await flipper;
    }
    expect(fs.readdirSync(outside)).toEqual([]);
  }, 120_000);

  it("fails a task stored before the check with a bad workdir at run time, with the reason, and disables it", async () => {
    const { workdir, outside, dataDir } = directories();
    const rooted = await storeLegacyTask(dataDir, { workdir: "/", script: `touch ${outside}/pwned-from-root` });
    const outsider = await storeLegacyTask(dataDir, { workdir: outside, script: "touch pwned" });
    const results = await runScheduler(dataDir, 2, { registryOptions: { sandbox: { enabled: true } } });
    expect(results).toEqual([false, false]);
    expect(fs.readdirSync(outside)).toEqual([]);
    for (const id of [rooted, outsider]) {
      const logs = await logsOf(dataDir, workdir, id);
      expect(logs).toMatch(/no record of the roots, sandbox and network of the registry that created it/);
      const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {} });
      try {
        expect((await cron(registry, { action: "read", task_id: id })).text).toContain("enabled=false");
      } finally {
        await registry.close();
      }
    }
  }, 60_000);
});

describe.skipIf(sandboxSkip)("cron attacks: a scheduler cannot widen the rules of the registry that created a task", () => {
  let port = 0;
  const listener = http.createServer((_request, response) => response.end("reached"));
  beforeAll(async () => {
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(async () => {
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  });

  it("confines a bash task of a sandboxed registry on a scheduler without a sandbox, and keeps its network off on one that allows it", async () => {
    const { workdir, outside, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {}, sandbox: { enabled: true } });
    const script = `touch ${outside}/pwned; (exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected) || echo no-network; echo ran > ran.txt`;
    const created = await cron(registry, { action: "create", name: "escape", cron: "* * * * * *", type: "bash", script, remaining_executions: 2 });
    expect(created.isError, created.text).toBe(false);
    const taskId = taskIdOf(created.text);
    await registry.close();
    // No sandbox asked of the scheduler, then one with the network on: both keep the task's registry's rules.
    await runScheduler(dataDir, 1);
    await runScheduler(dataDir, 1, { registryOptions: { sandbox: { enabled: true, allowNetwork: true } } });
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readFileSync(path.join(workdir, "ran.txt"), "utf8")).toBe("ran\n");
    const logs = await logsOf(dataDir, workdir, taskId);
    expect(logs).not.toContain("connected");
    expect(logs.match(/no-network/g)).toHaveLength(2);
    expect(logs).toMatch(/touch: cannot touch .*pwned/);
  }, 60_000);

  it("runs a prompt task of a sandboxed registry with that registry's sandbox and roots, whatever the scheduler was given", async () => {
    const { workdir, outside, dataDir, shared } = directories();
    const model = new ScriptedModelClient({
      id: "model-a",
      respond: (request) =>
        request.messages.some((message) => message.role === "tool")
          ? "done"
          : {
              toolCalls: [
                { name: "Bash", arguments: { command: `touch ${outside}/from-prompt; echo inside > in-workspace.txt` } },
                { name: "Write", arguments: { path: "root://shared/note.txt", content: "hi" } },
              ],
            },
    });
    const additionalRoots = [{ alias: "shared", path: shared, access: "write" as const }];
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      additionalRoots,
      cron: { currentModelId: () => model.id },
      sandbox: { enabled: true },
    });
    const created = await cron(registry, { action: "create", name: "digest", cron: "* * * * * *", type: "prompt", prompt: "work", remaining_executions: 1 });
    expect(created.isError, created.text).toBe(false);
    await registry.close();
    expect(await runScheduler(dataDir, 1, { model })).toEqual([true]);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readFileSync(path.join(workdir, "in-workspace.txt"), "utf8")).toBe("inside\n");
    expect(fs.readFileSync(path.join(shared, "note.txt"), "utf8")).toBe("hi");
    const bashResult = model.requests[1]?.messages.find((message) => message.role === "tool")?.content;
    expect(String(bashResult)).toMatch(/sandbox: bubblewrap/);
  }, 60_000);
});

describe("cron attacks: http tasks follow the creating registry's network, with an SSRF guard", () => {
  const SECRET = "SECRET-BODY-4f1c";
  const hits: string[] = [];
  let port = 0;
  let redirectPort = 0;
  const secretServer = http.createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.end(SECRET);
  });
  // 127.0.0.2: a host the tests allow on purpose, redirecting to the secret one on 127.0.0.1.
  const redirector = http.createServer((request, response) => {
    hits.push(`redirector ${request.url}`);
    if (request.url === "/ok") return void response.end("redirector ok");
    response.statusCode = 302;
    response.setHeader("location", request.url === "/to-decimal" ? `http://2130706433:${port}/via-redirect` : `http://127.0.0.1:${port}/via-redirect`);
    response.end("moved");
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => secretServer.listen(0, "127.0.0.1", resolve));
    port = (secretServer.address() as AddressInfo).port;
    await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.2", resolve));
    redirectPort = (redirector.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const server of [secretServer, redirector]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const forms = () => [
    `http://127.0.0.1:${port}/plain`,
    `http://2130706433:${port}/decimal`,
    `http://0x7f000001:${port}/hex`,
    `http://0177.0.0.1:${port}/octal`,
    `http://127.1:${port}/short`,
    `http://[::ffff:127.0.0.1]:${port}/mapped`,
    `http://localhost:${port}/name`,
    `http://0.0.0.0:${port}/zero`,
  ];

  it("refuses http tasks on a registry whose sandbox has no network, at create and (for a stored task) at run", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {}, sandbox: { enabled: true } });
    try {
      const refused = await cron(registry, {
        action: "create",
        name: "exfil",
        cron: "* * * * * *",
        type: "http",
        requests: [{ url: `http://127.0.0.1:${port}/from-offline`, method: "GET" }],
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/no network/);
    } finally {
      await registry.close();
    }
    hits.length = 0;
    const legacy = await storeLegacyTask(dataDir, { type: "http", requests: [{ id: "req-1", url: `http://127.0.0.1:${port}/legacy`, method: "GET" }] });
    expect(await runScheduler(dataDir, 1)).toEqual([false]);
    expect(hits).toEqual([]);
    const logs = await logsOf(dataDir, workdir, legacy);
    expect(logs).not.toContain(SECRET);
    expect(logs).toMatch(/no record of the roots, sandbox and network/);
  }, 60_000);

  it("refuses every literal loopback form when the task is created, naming the reason", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {} });
    try {
      for (const url of forms().filter((form) => !form.includes("localhost"))) {
        const refused = await cron(registry, { action: "create", name: "ssrf", cron: "* * * * * *", type: "http", requests: [{ url, method: "GET" }] });
        expect(refused.isError, url).toBe(true);
        expect(refused.text).toMatch(/is refused: .* is (a|an) .*, not a public address/);
      }
    } finally {
      await registry.close();
    }
  });

  it("refuses `localhost`, a redirect to loopback and every loopback form at run time: the log says why and holds no body", async () => {
    const { workdir, dataDir } = directories();
    // The redirector is allowed on purpose, so the redirect hop is what gets refused.
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: { http: { allowedPrivateNetworks: ["127.0.0.2/32"] } } });
    let taskId: string;
    try {
      const requests = [
        { url: `http://localhost:${port}/name`, method: "GET" },
        { url: `http://127.0.0.2:${redirectPort}/to-plain`, method: "GET" },
        { url: `http://127.0.0.2:${redirectPort}/to-decimal`, method: "POST", body: "x" },
      ];
      const created = await cron(registry, { action: "create", name: "ssrf", cron: "* * * * * *", type: "http", requests, remaining_executions: 1 });
      expect(created.isError, created.text).toBe(false);
      taskId = taskIdOf(created.text);
    } finally {
      await registry.close();
    }
    // A task the host stored itself, with a policy that allows no private network: every literal form is checked at run time too.
    const stored = await storeLegacyTask(dataDir, {
      type: "http",
      requests: forms().map((url, index) => ({ id: `req-${index + 1}`, url, method: "GET" })),
      policy: { workspace: workdir, roots: [], allowedPrivateNetworks: [] },
    });
    hits.length = 0;
    expect(await runScheduler(dataDir, 2)).toEqual([false, false]);
    expect(hits.filter((hit) => !hit.startsWith("redirector"))).toEqual([]);
    expect(hits.sort()).toEqual(["redirector /to-decimal", "redirector /to-plain"]);
    // The log shows the first 600 characters of the output: read the whole runs through the store.
    const lease = leaseSqliteStorage({ dataDir });
    try {
      const store = await KyselyCronStore.open(await lease.get());
      const output = async (id: string) => (await store.listRuns(id, { limit: 1 }))[0]?.output ?? "";
      const viaTool = await output(taskId);
      expect(viaTool).not.toContain(SECRET);
      expect(viaTool).not.toContain("moved");
      expect(viaTool.match(/-> refused: /g)).toHaveLength(3);
      expect(viaTool).toMatch(/localhost resolves to 127\.0\.0\.1, a loopback address/);
      expect(viaTool).toMatch(/the redirect from .* to http:\/\/127\.0\.0\.1:\d+\/via-redirect was not followed/);
      const literal = await output(stored);
      expect(literal).not.toContain(SECRET);
      expect(literal.match(/-> refused: /g)).toHaveLength(forms().length);
      expect(literal).toMatch(/127\.0\.0\.1 is a loopback address/);
      expect(literal).toMatch(/0\.0\.0\.0 is a "this network" address/);
      expect(literal).toMatch(/IPv4-mapped IPv6 address embedding 127\.0\.0\.1 \(loopback\)/);
    } finally {
      await lease.release();
    }
  }, 60_000);

  it("reaches the same targets when the host allows the private networks on purpose", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      cron: { http: { allowedPrivateNetworks: ["127.0.0.0/8", "::1/128", "0.0.0.0/32"] } },
    });
    let taskId: string;
    try {
      const requests = [...forms().map((url) => ({ url, method: "GET" })), { url: `http://127.0.0.2:${redirectPort}/to-decimal`, method: "GET" }];
      const created = await cron(registry, { action: "create", name: "allowed", cron: "* * * * * *", type: "http", requests, remaining_executions: 1 });
      expect(created.isError, created.text).toBe(false);
      taskId = taskIdOf(created.text);
    } finally {
      await registry.close();
    }
    hits.length = 0;
    expect(await runScheduler(dataDir, 1)).toEqual([true]);
    expect(hits).toEqual([
      "GET /plain",
      "GET /decimal",
      "GET /hex",
      "GET /octal",
      "GET /short",
      "GET /mapped",
      "GET /name",
      "GET /zero",
      "redirector /to-decimal",
      "GET /via-redirect",
    ]);
    expect(await logsOf(dataDir, workdir, taskId)).toContain("[success]");
  }, 60_000);

  it("refuses a bad allow-list entry when the registry is built", async () => {
    const { workdir, dataDir } = directories();
    await expect(buildBuiltinToolRegistry({ workdir, dataDir, cron: { http: { allowedPrivateNetworks: ["10.0.0.0/33"] } } })).rejects.toThrow(
      /allowedPrivateNetworks.*10\.0\.0\.0\/33/,
    );
    await expect(buildBuiltinToolRegistry({ workdir, dataDir, cron: { http: { allowPrivate: true } as never } })).rejects.toThrow(/allowPrivate/);
  });
});
