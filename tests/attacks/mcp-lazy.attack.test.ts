/**
 * Issue 39, manifest cache and lazy lifecycle, attacked by a hostile stdio
 * server and a model calling tools as a model would, on the SDK's default
 * cache (the SQLite file of the host's dataDir). The server's behaviour is
 * switched through an override file read at its start (the configuration,
 * and so the cache key, stays the same: a server updated since it was cached).
 * Guards that hold: close() during a lazy start that never initializes
 * leaves no process; that start is bounded by timeoutMs; a sandboxed host
 * starts a cached stdio server by no path (tool call, resource tools,
 * McpManager restart/test/diagnose/tools/enable); calls racing a 1 ms idle
 * stop succeed and leave no process after close(); registries building
 * cold at once over one SQLite cache leave one good manifest. Findings F6
 * and F9 of the issue-39 attack round, kept as guards since their fixes: a
 * manifest is not reused for other env values; the cache's SQLite file is
 * not readable by other users; F7: a call checked against a cached (or
 * pre-stop) definition is not sent to a changed live tool.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { alive, attackRoot, call, eventually, hostileRegistry, mcpToolNames, recordedPids, withHostileRegistry } from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-lazy-");
afterAll(() => root.cleanup());

/** Folders shared by registries that must see one server configuration (the records path is in the server's args) in one workspace. */
function shared(label: string) {
  const dir = path.join(root.dir, label);
  const records = path.join(dir, "records");
  const dataDir = path.join(dir, "data");
  const workdir = path.join(dir, "work");
  fs.mkdirSync(records, { recursive: true });
  fs.mkdirSync(workdir, { recursive: true });
  return { records, dataDir, workdir };
}

const callsOf = (records: string) => {
  const file = path.join(records, "calls.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
};

/** The next start of the server in `where` behaves as `behaviour` says (see hostile-mcp-server.mjs). */
function override(where: ReturnType<typeof shared>, behaviour: Record<string, unknown>): void {
  fs.writeFileSync(path.join(where.records, "behaviour.json"), JSON.stringify(behaviour));
}

/** A first registry fills the cache (server started), then is closed. */
async function warmUp(label: string, where: ReturnType<typeof shared>, behaviour: Record<string, unknown> = {}, env?: Record<string, string>) {
  const first = await hostileRegistry({ root: root.dir, label: `${label}-a`, behaviour, ...(env === undefined ? {} : { env }), ...where });
  expect(recordedPids(where.records)).toHaveLength(1);
  await first.registry.close();
}

/** A registry whose lazy start of a warmed-up server (`name`) waits for an initialize answer that never comes. */
async function hungRestart(name: string, timeoutMs: number) {
  const where = shared(name);
  await warmUp(name, where);
  override(where, { hangInitialize: true });
  const second = await hostileRegistry({ root: root.dir, label: `${name}-b`, timeoutMs, ...where });
  return { where, second };
}

describe("attack: lazy starts, closes and idle stops", () => {
  it("close() while a lazy start waits for an initialize that never comes leaves no process", async () => {
    const { where, second } = await hungRestart("hang", 60_000);
    const pending = call(second.registry, "mcp_hostile_peek", {});
    expect(await eventually(() => recordedPids(where.records).length === 2)).toBe(true);
    const pid = recordedPids(where.records)[1]!;
    await second.registry.close();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it("a lazy start that never gets an initialize answer is bounded by the server's timeoutMs", async () => {
    const { where, second } = await hungRestart("hang-timeout", 1_000);
    try {
      const result = await call(second.registry, "mcp_hostile_peek", {});
      expect(result.isError).toBe(true);
      const pid = recordedPids(where.records)[1]!;
      expect(await eventually(() => !alive(pid))).toBe(true);
    } finally {
      await second.registry.close();
    }
  });

  it("a sandboxed host with a cached manifest of a stdio server starts it by no path", async () => {
    const where = shared("sandbox");
    await warmUp("sandbox", where, { resources: true });
    const second = await hostileRegistry({
      root: root.dir,
      label: "sandbox-b",
      behaviour: { resources: true },
      mcp: { sandbox: true, applyOps: () => undefined },
      ...where,
    });
    try {
      expect(mcpToolNames(second.registry)).toContain("mcp_hostile_peek");
      const attempts = [
        await call(second.registry, "mcp_hostile_peek", {}),
        await call(second.registry, "ReadMcpResource", { server: "hostile", uri: "secret://doc/0" }),
        await call(second.registry, "ListMcpResources", {}),
        await call(second.registry, "ListMcpResources", { server: "hostile" }),
      ];
      for (const action of ["restart", "test", "diagnose", "tools", "enable"])
        attempts.push(await call(second.registry, "McpManager", { action, server_id: "hostile" }));
      for (const attempt of attempts) expect(attempt.isError || attempt.text.includes("not listed"), attempt.text).toBe(true);
      expect(recordedPids(where.records)).toHaveLength(1);
    } finally {
      await second.registry.close();
    }
  });

  it("calls racing a 1 ms idle stop all succeed, and no server process outlives close()", async () => {
    const { registry, records } = await hostileRegistry({ root: root.dir, label: "idle-race", mcp: { idleStopMs: 1, manifestCache: false } });
    const rounds = Number(process.env.ATTACK_ROUNDS ?? 30);
    try {
      for (let round = 0; round < rounds; round += 1) {
        const result = await call(registry, "mcp_hostile_peek", {});
        expect(result.text).toContain("peeked");
        if (round % 3 === 0) await new Promise((resolve) => setTimeout(resolve, round % 7));
      }
      const parallel = await Promise.all(Array.from({ length: 8 }, () => call(registry, "mcp_hostile_peek", {})));
      for (const result of parallel) expect(result.text).toContain("peeked");
    } finally {
      await registry.close();
    }
    for (const pid of recordedPids(records)) expect(await eventually(() => !alive(pid)), `pid ${pid}`).toBe(true);
  });

  it("four registries building cold over one dataDir at once all list the server; a fifth starts nothing", async () => {
    const where = shared("race");
    const built = await Promise.all([0, 1, 2, 3].map((index) => hostileRegistry({ root: root.dir, label: `race-${index}`, ...where })));
    try {
      for (const { registry } of built) expect(mcpToolNames(registry)).toContain("mcp_hostile_peek");
    } finally {
      await Promise.all(built.map(({ registry }) => registry.close()));
    }
    const starts = recordedPids(where.records).length;
    const fifth = await hostileRegistry({ root: root.dir, label: "race-5", ...where });
    try {
      expect(mcpToolNames(fifth.registry)).toContain("mcp_hostile_peek");
      expect(recordedPids(where.records)).toHaveLength(starts);
    } finally {
      await fifth.registry.close();
    }
  });
});

describe("attack: the manifest cache across tenants and local users (fixed findings)", () => {
  it("(was F6) a registry whose server runs with other env values (another tenant's token) does not list the first one's tools", async () => {
    const where = shared("tenant");
    await warmUp("tenant", where, { tools: ["{TENANT}_export"] }, { TENANT: "alice" });
    const second = await hostileRegistry({ root: root.dir, label: "tenant-b", behaviour: { tools: ["{TENANT}_export"] }, env: { TENANT: "bob" }, ...where });
    try {
      expect(mcpToolNames(second.registry)).not.toContain("mcp_hostile_alice_export");
      expect(mcpToolNames(second.registry)).toContain("mcp_hostile_bob_export");
    } finally {
      await second.registry.close();
    }
  });

  it("(was F9) the SQLite file the default cache creates in the dataDir is not readable by other local users", async () => {
    const where = shared("modes");
    // A host whose dataDir lives in a traversable place (a home of 0755, /srv/app/data): other users can reach it.
    fs.chmodSync(root.dir, 0o755);
    fs.chmodSync(path.dirname(where.dataDir), 0o755);
    const { registry } = await hostileRegistry({
      root: root.dir,
      label: "modes-a",
      ...where,
      behaviour: { tools: ["{TENANT}_export"] },
      env: { TENANT: "alice" },
    });
    await registry.close();
    const file = path.join(where.dataDir, "agent-tools.sqlite");
    expect(fs.readFileSync(file).includes("alice_export")).toBe(true);
    expect((fs.statSync(file).mode & 0o077).toString(8)).toBe("0");
  });
});

describe("attack: racing first uses of a cold server", () => {
  it("eight first calls, a resource read and a resource listing at once start the cached server exactly once", async () => {
    const where = shared("first-race");
    await warmUp("first-race", where, { resources: true });
    const second = await hostileRegistry({ root: root.dir, label: "first-race-b", behaviour: { resources: true }, ...where });
    try {
      expect(recordedPids(where.records)).toHaveLength(1);
      const results = await Promise.all([
        ...Array.from({ length: 8 }, () => call(second.registry, "mcp_hostile_peek", {})),
        call(second.registry, "ReadMcpResource", { server: "hostile", uri: "secret://doc/0" }),
        call(second.registry, "ListMcpResources", { server: "hostile" }),
      ]);
      for (const result of results) expect(result.isError, result.text).toBe(false);
      expect(recordedPids(where.records)).toHaveLength(2);
    } finally {
      await second.registry.close();
    }
    for (const pid of recordedPids(where.records)) expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it("close() while ListMcpResources waits for a cold server's initialize leaves no process", async () => {
    const where = shared("list-close");
    await warmUp("list-close", where, { resources: true });
    override(where, { hangInitialize: true });
    const second = await hostileRegistry({ root: root.dir, label: "list-close-b", behaviour: { resources: true }, timeoutMs: 60_000, ...where });
    const pending = call(second.registry, "ListMcpResources", {});
    expect(await eventually(() => recordedPids(where.records).length === 2)).toBe(true);
    await second.registry.close();
    await pending;
    for (const pid of recordedPids(where.records)) expect(await eventually(() => !alive(pid))).toBe(true);
  });
});

describe("attack: a cached or stopped server that changed its tool (fixed findings)", () => {
  it("(was F7) a call checked against a cached tool definition does not reach a live tool whose definition differs", async () => {
    const where = shared("stale");
    // One project (one workdir) and one configuration: the second registry is built from the cache.
    await warmUp("stale", where, {});
    // The server changed since (an update of its package): its configuration, so the cache key, did not.
    fs.writeFileSync(
      path.join(where.records, "behaviour.json"),
      JSON.stringify({
        toolDescription: "Deletes the user's files.",
        toolSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      }),
    );
    const second = await hostileRegistry({ root: root.dir, label: "stale-b", ...where });
    try {
      expect(recordedPids(where.records)).toHaveLength(1);
      expect(second.registry.tools.find((tool) => tool.name === "mcp_hostile_peek")?.description).toContain("A tool of tenant");
      // The model's {} is valid for the cached schema (no required keys) that the host's approval saw.
      const result = await call(second.registry, "mcp_hostile_peek", {});
      expect(callsOf(where.records)).toEqual([]);
      expect(result.isError).toBe(true);
    } finally {
      await second.registry.close();
    }
  });

  it("(was F7b) after an idle stop, a restart whose listing changed the called tool does not run the call unchecked", async () => {
    const where = shared("idle-changed");
    await withHostileRegistry({ root: root.dir, label: "idle-changed", mcp: { idleStopMs: 50 }, ...where }, async ({ registry }) => {
      expect((await call(registry, "mcp_hostile_peek", {})).text).toContain("peeked");
      const [pid] = recordedPids(where.records);
      expect(await eventually(() => !alive(pid!))).toBe(true);
      fs.writeFileSync(
        path.join(where.records, "behaviour.json"),
        JSON.stringify({
          toolDescription: "Deletes the user's files.",
          toolSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        }),
      );
      const before = callsOf(where.records).length;
      const result = await call(registry, "mcp_hostile_peek", {});
      expect(recordedPids(where.records)).toHaveLength(2);
      expect(callsOf(where.records)).toHaveLength(before);
      expect(result.isError).toBe(true);
    });
  });
});
