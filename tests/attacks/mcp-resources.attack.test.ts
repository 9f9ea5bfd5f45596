/**
 * Issue 39, resources: a hostile MCP server and a model calling
 * ListMcpResources / ReadMcpResource as a model would. Guards that hold:
 * a `server:<id>` deny of a server with tools refuses its resources; the
 * SDK reads nothing local for a server's `file:` URI; a huge text resource
 * and a huge resources/list page reach the model bounded; lying blobs are
 * described, never inlined. Findings F1-F4 and F8 of the issue-39 attack
 * round, kept as guards since their fixes: a `server:<id>` deny or ask holds
 * for a resources-only server too; the idle stop cuts no read and keeps the
 * resource tools; resources/updated of URIs nobody subscribed to reach
 * neither the host nor the marks.
 */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  alive,
  attackRoot,
  call,
  eventually,
  type HostileRegistry,
  hostileRegistry,
  recordedPids,
  recordedRequests,
  serverPolicy,
  withHostileRegistry,
} from "./mcp-hostile-harness.js";

const root = attackRoot("attack-mcp-resources-");
afterAll(() => root.cleanup());

/** Reading secret://doc/0 (and with `alsoList`, listing) gives none of it, and the server was never asked for a read. */
async function expectNothingRead({ registry, records }: Pick<HostileRegistry, "registry" | "records">, alsoList: boolean) {
  const read = await call(registry, "ReadMcpResource", { server: "hostile", uri: "secret://doc/0" });
  expect(read.text).not.toContain("secret of");
  expect(read.isError).toBe(true);
  if (alsoList) {
    const list = await call(registry, "ListMcpResources", {});
    expect(list.text).not.toContain("secret://doc/0");
  }
  expect(recordedRequests(records)).not.toContain("resources/read");
}

describe("attack: MCP resources past the host's approval (guards)", () => {
  it("a server with tools that the host denies by server:<id> gives no resources and is not asked for any", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "deny-tools",
        behaviour: { resources: true, tools: ["peek"] },
        extra: serverPolicy("deny"),
      },
      async ({ registry, records }) => {
        await expectNothingRead({ registry, records }, true);
        expect(recordedRequests(records)).not.toContain("resources/list");
      },
    );
  });
});

describe("attack: MCP resources, sizes, blobs and URIs (guards)", () => {
  it("a 2 MiB text resource reaches the model cut to 256 KiB", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "big-read",
        behaviour: { resources: true, readText: 2 * 1024 * 1024 },
        mcp: { manifestCache: false },
      },
      async ({ registry }) => {
        const read = await call(registry, "ReadMcpResource", { server: "hostile", uri: "secret://doc/1" });
        expect(read.text.length).toBeLessThan(300 * 1024);
        expect(read.text).toContain("truncated");
      },
    );
  });

  it("a resources/list page of 50 000 entries with long names is answered with bounded text", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "huge-list",
        behaviour: { resources: true, resourceCount: 50_000 },
        mcp: { manifestCache: false },
      },
      async ({ registry }) => {
        const list = await call(registry, "ListMcpResources", { server: "hostile" });
        expect(list.text).toContain("secret://doc/0");
        expect(list.text.length).toBeLessThan(2 * 1024 * 1024);
      },
    );
  });

  it("lying blobs (SVG/HTML sent as image/png, base64 that is not base64) are described, never inlined", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString("base64");
    const blobs = [
      { uri: "x://svg", mimeType: "image/png", blob: svg },
      { uri: "x://html", mimeType: "image/jpeg", blob: Buffer.from("<script>alert(1)</script>").toString("base64") },
      { uri: "x://bad", mimeType: "image/png", blob: "not base64 at all!!" },
      { uri: "x://svgtype", mimeType: "image/svg+xml", blob: svg },
    ];
    await withHostileRegistry(
      { root: root.dir, label: "blobs", behaviour: { resources: true, blobs }, mcp: { manifestCache: false } },
      async ({ registry }) => {
        for (const blob of blobs) {
          const read = await call(registry, "ReadMcpResource", { server: "hostile", uri: blob.uri });
          const content = (read.result as { content?: Array<{ type: string }> }).content ?? [];
          expect(content.some((block) => block.type === "image")).toBe(false);
          expect(read.text).toContain("not shown");
          expect(read.text).not.toContain("<script>");
          expect(read.text).not.toContain("onload");
        }
      },
    );
  });

  it("a file: URI is the server's to answer: the SDK reads no local file for it", async () => {
    await withHostileRegistry(
      { root: root.dir, label: "file-uri", behaviour: { resources: true }, mcp: { manifestCache: false } },
      async ({ registry, records }) => {
        const passwd = fs.readFileSync("/etc/passwd", "utf8").split("\n")[0]!;
        const read = await call(registry, "ReadMcpResource", { server: "hostile", uri: "file:///etc/passwd" });
        expect(read.text).toContain("secret of");
        expect(read.text).not.toContain(passwd);
        expect(recordedRequests(records)).toContain("resources/read");
      },
    );
  });
});

describe("attack: MCP resources past the host's approval (fixed findings)", () => {
  it("(was F1) a resources-only server the host denies by server:<id> gives no resources and is not started", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "deny-0",
        behaviour: { resources: true, tools: [] },
        extra: serverPolicy("deny"),
      },
      async ({ registry, records }) => {
        await expectNothingRead({ registry, records }, true);
      },
    );
  });

  for (const tools of [["peek"], []] as const) {
    const what = tools.length === 0 ? "a resources-only server" : "a server with tools";
    it(`(was F2) a server the host wants asked about (server:<id> ask, no onAsk) gives no resources unasked (${what})`, async () => {
      await withHostileRegistry(
        {
          root: root.dir,
          label: `ask-${tools.length}`,
          behaviour: { resources: true, tools },
          extra: serverPolicy("ask"),
        },
        async ({ registry, records }) => {
          await expectNothingRead({ registry, records }, false);
        },
      );
    });
  }
});

describe("attack: MCP resources and the idle stop", () => {
  it("(was F3) a read slower than idleStopMs is not cut by the idle stop", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "idle-read",
        behaviour: { resources: true, readDelayMs: 4_000 },
        mcp: { idleStopMs: 100, manifestCache: false },
      },
      async ({ registry, records }) => {
        const read = await call(registry, "ReadMcpResource", { server: "hostile", uri: "secret://doc/1" });
        expect(read.text).toContain("secret of");
        expect(read.isError).toBe(false);
        expect(recordedPids(records)).toHaveLength(1);
      },
    );
  });

  it("(was F4) after an idle stop the resource tools are still there (the manifest says the server offers resources)", async () => {
    await withHostileRegistry(
      {
        root: root.dir,
        label: "idle-gone",
        behaviour: { resources: true },
        mcp: { idleStopMs: 50, manifestCache: false },
      },
      async ({ registry, records }) => {
        const [pid] = recordedPids(records);
        expect(await eventually(() => !alive(pid!))).toBe(true);
        const read = await call(registry, "ReadMcpResource", { server: "hostile", uri: "secret://doc/1" });
        expect(read.text).toContain("secret of");
      },
    );
  });
});

describe("attack: resources/updated floods", () => {
  it("(was F8) updates of URIs nobody subscribed to reach neither the host nor the marks", async () => {
    const updates: Array<{ serverId: string; uri: string }> = [];
    const { registry } = await hostileRegistry({
      root: root.dir,
      label: "update-flood",
      behaviour: { resources: true, updateFlood: 20_000 },
      mcp: { manifestCache: false, onResourceUpdated: (update: { serverId: string; uri: string }) => updates.push(update) },
    });
    try {
      const read = await call(registry, "ReadMcpResource", { server: "hostile", uri: "secret://doc/0", subscribe: true });
      expect(read.isError).toBe(false);
      expect(await eventually(() => updates.some((update) => update.uri === "secret://doc/0"))).toBe(true);
      expect(updates.filter((update) => update.uri !== "secret://doc/0")).toEqual([]);
    } finally {
      await registry.close();
    }
  });
});
