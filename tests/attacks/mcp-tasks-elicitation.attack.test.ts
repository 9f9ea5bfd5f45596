/**
 * Issue 39, tasks and URL elicitation, attacked by a hostile stdio server:
 * a task polled with pollInterval 0 is polled at the floor (no hot loop);
 * a task that never ends and a server that ignores tasks/cancel end with the
 * call's abort and with registry.close() (no process left); a flood of
 * status messages reaches the host once per change, not once per poll;
 * -32042 URL elicitations reach the host only for http(s) URLs, with a
 * punycode origin without credentials, and the call is retried once.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { alive, attackRoot, eventually, hostileRegistry, recordedPids, recordedRequests, withHostileRegistry } from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-tasks-");
afterAll(() => root.cleanup());

const callsOf = (records: string) => {
  const file = path.join(records, "calls.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
};
const capabilitiesOf = (records: string): Array<{ elicitation?: { url?: unknown } }> =>
  fs
    .readFileSync(path.join(records, "client-capabilities.log"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const count = (records: string, method: string) => recordedRequests(records).filter((entry) => entry === method).length;

describe("attack: MCP tasks", () => {
  for (const pollInterval of [0, -1000, 1e-9]) {
    it(`a task with pollInterval ${pollInterval} is polled at the floor, not in a hot loop; the abort sends tasks/cancel`, async () => {
      await withHostileRegistry(
        {
          root: root.dir,
          label: `poll-${pollInterval}`,
          behaviour: { tasks: { pollInterval } },
          mcp: { manifestCache: false },
        },
        async ({ registry, records }) => {
          const controller = new AbortController();
          const started = Date.now();
          const pending = registry.executeToolCall({ id: "t", name: "mcp_hostile_peek", arguments: {} }, { signal: controller.signal });
          await new Promise((resolve) => setTimeout(resolve, 1_200));
          controller.abort();
          const result = await pending;
          const elapsed = Date.now() - started;
          expect(result.isError).toBe(true);
          // The floor is 250 ms: a generous bound that a hot loop (thousands of polls) cannot meet.
          expect(count(records, "tasks/get")).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 2);
          expect(await eventually(() => count(records, "tasks/cancel") === 1)).toBe(true);
        },
      );
    });
  }

  it("a never-ending task on a server that ignores tasks/cancel ends with registry.close(), leaving no process", async () => {
    const { registry, records } = await hostileRegistry({
      root: root.dir,
      label: "ignore-cancel",
      behaviour: { tasks: { pollInterval: 250, ignoreCancel: true } },
      mcp: { manifestCache: false },
    });
    const pending = registry.executeToolCall({ id: "t", name: "mcp_hostile_peek", arguments: {} });
    expect(await eventually(() => count(records, "tasks/get") >= 1)).toBe(true);
    await registry.close();
    const result = await pending;
    expect(result.isError).toBe(true);
    for (const pid of recordedPids(records)) expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it("status messages of 100 KB each reach onUpdate once per change, and the call still ends with its abort", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "flood",
        behaviour: { tasks: { pollInterval: 250, statusFlood: 15_000 } },
        mcp: { manifestCache: false },
      },
      async ({ registry, records }) => {
        const controller = new AbortController();
        let updates = 0;
        const pending = registry.executeToolCall(
          { id: "t", name: "mcp_hostile_peek", arguments: {} },
          {
            signal: controller.signal,
            onUpdate: () => {
              updates += 1;
            },
          },
        );
        expect(await eventually(() => count(records, "tasks/get") >= 3)).toBe(true);
        controller.abort();
        const result = await pending;
        expect(result.isError).toBe(true);
        // One update for the created task plus at most one per poll (each poll's message differs).
        expect(updates).toBeLessThanOrEqual(count(records, "tasks/get") + 1);
      },
    );
  });
});

describe("attack: URL elicitation", () => {
  async function elicitingRegistry(label: string, url: string, withCallback = true) {
    const asked: Array<{ url: string; origin: string; serverId: string }> = [];
    const made = await hostileRegistry({
      root: root.dir,
      label,
      behaviour: { urlElicitation: "always", elicitationUrl: url },
      timeoutMs: 1_000,
      mcp: {
        manifestCache: false,
        ...(withCallback
          ? {
              onUrlElicitation: async (request: { url: string; origin: string; serverId: string }) => {
                asked.push({ url: request.url, origin: request.origin, serverId: request.serverId });
                return { action: "accept" as const };
              },
            }
          : {}),
      },
    });
    return { ...made, asked };
  }

  it("an IDN homograph URL reaches the host with its punycode origin; credentials are not in the origin; one retry only", async () => {
    const { registry, records, asked } = await elicitingRegistry("idn", "https://user:pass@\u0430pple.com/login?next=1");
    try {
      const result = await registry.executeToolCall({ id: "u", name: "mcp_hostile_peek", arguments: {} });
      expect(result.isError).toBe(true);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.origin).toBe("https://xn--pple-43d.com");
      expect(asked[0]!.origin).not.toContain("pass");
      expect(asked[0]!.serverId).toBe("hostile");
      // The first call and one retry after the acceptance, never a loop.
      expect(count(records, "tools/call")).toBe(2);
      expect(callsOf(records)).toEqual([]);
      expect(capabilitiesOf(records)[0]?.elicitation?.url).toBeDefined();
    } finally {
      await registry.close();
    }
  });

  for (const url of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "ftp://example.com/x", "not a url"]) {
    it(`a ${url.split(":")[0]} URL never reaches the host and the call is not retried`, async () => {
      const { registry, records, asked } = await elicitingRegistry(`scheme-${url.split(":")[0]!.replace(/\W/g, "")}`, url);
      try {
        const result = await registry.executeToolCall({ id: "u", name: "mcp_hostile_peek", arguments: {} });
        expect(result.isError).toBe(true);
        expect(asked).toEqual([]);
        expect(count(records, "tools/call")).toBe(1);
      } finally {
        await registry.close();
      }
    });
  }

  it("without onUrlElicitation a -32042 fails the call once and declares no url elicitation capability", async () => {
    const { registry, records, asked } = await elicitingRegistry("no-callback", "https://example.com/", false);
    try {
      const result = await registry.executeToolCall({ id: "u", name: "mcp_hostile_peek", arguments: {} });
      expect(result.isError).toBe(true);
      expect(asked).toEqual([]);
      expect(count(records, "tools/call")).toBe(1);
      expect(capabilitiesOf(records).every((capabilities) => capabilities.elicitation?.url === undefined)).toBe(true);
    } finally {
      await registry.close();
    }
  });
});

describe("attack: a task and the idle stop", () => {
  it("a never-ending task is not cut by a 50 ms idle stop: the same process keeps being polled until the abort", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "task-idle",
        behaviour: { tasks: { pollInterval: 250 } },
        mcp: { manifestCache: false, idleStopMs: 50 },
      },
      async ({ registry, records }) => {
        const controller = new AbortController();
        const pending = registry.executeToolCall({ id: "t", name: "mcp_hostile_peek", arguments: {} }, { signal: controller.signal });
        expect(await eventually(() => count(records, "tasks/get") >= 4)).toBe(true);
        const pids = recordedPids(records);
        expect(pids).toHaveLength(1);
        expect(alive(pids[0]!)).toBe(true);
        controller.abort();
        expect((await pending).isError).toBe(true);
        expect(await eventually(() => count(records, "tasks/cancel") === 1)).toBe(true);
      },
    );
  });
});
