/**
 * Attacks on what registries share and what a host's plugin list may do
 * (issue 31), through `buildBuiltinToolRegistry`, `buildToolRegistry` and
 * `composeToolRegistry`, with real SQLite files and real processes:
 *
 * - Two registries on one dataDir (different conversations) see nothing of
 *   each other's task lists; after `close()` no descriptor of the SQLite file
 *   stays open in this process (read from /proc/self/fd); a worktree child
 *   closing leaves the parent's storage open; a host's hub outlives them.
 * - A plugin list with a misspelt `child`, duplicate ids, a plugin whose
 *   `create` throws or hands back something that is no bundle (everything
 *   made before is closed: bundles, cleanups, ports, the storage it opened),
 *   a plugin using `host.registry` or `host.createChildRegistry` during
 *   `create` (refused, never recursing).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type ToolBundle,
  type ToolPlugin,
  type ToolPluginHost,
  type ToolRegistry,
  type ToolResult,
  composeToolRegistry,
  createResourceHub,
  toolResultText,
} from "../../packages/core/src/index.js";
import { buildBuiltinToolRegistry, buildToolRegistry, builtinToolPlugins } from "../../packages/sdk/src/index.js";
import { leaseSqliteStorage } from "../../packages/storage/src/index.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-plugin-resources-attack-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let counter = 0;
const fresh = (name: string) => fs.mkdtempSync(path.join(temporary, `${name}-${(counter += 1)}-`));
const text = (result: ToolResult) => toolResultText(result, "");
const call = (registry: ToolRegistry, name: string, args: Record<string, unknown> = {}) =>
  registry.executeToolCall({ id: `call_${(counter += 1)}`, name, arguments: args });

/** The descriptors of this process open on files of `dataDir` (the SQLite file, its -wal and -shm). */
function openFilesIn(dataDir: string): string[] {
  const out: string[] = [];
  for (const fd of fs.readdirSync("/proc/self/fd")) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${dataDir}${path.sep}`)) out.push(target);
    } catch {
      // closed while listing
    }
  }
  return out;
}

const hostSpy = (hosts: ToolPluginHost[]): ToolPlugin => ({
  id: "spy",
  scopes: ["chat"],
  child: "inherit",
  create(host) {
    hosts.push(host);
    return [];
  },
});

describe("nothing is shared across registries without a hub", () => {
  it("two registries on one dataDir, two conversations: neither sees the other's task list; close() leaves no SQLite descriptor", async () => {
    const workdir = fresh("work");
    const dataDir = fresh("data");
    const a = await buildBuiltinToolRegistry({ workdir, dataDir, conversationId: "chat-a" });
    const b = await buildBuiltinToolRegistry({ workdir, dataDir, conversationId: "chat-b" });
    expect(openFilesIn(dataDir)).toEqual([]);
    try {
      expect((await call(a, "TaskCreate", { subject: "secret-of-a", description: "only a", activeForm: "a" })).isError).toBe(false);
      expect((await call(b, "TaskCreate", { subject: "secret-of-b", description: "only b", activeForm: "b" })).isError).toBe(false);
      expect(text(await call(b, "TaskList"))).not.toContain("secret-of-a");
      expect(text(await call(a, "TaskList"))).not.toContain("secret-of-b");
      expect(text(await call(b, "TaskGet", { taskId: "1" }))).not.toContain("secret-of-a");
      expect(openFilesIn(dataDir).some((file) => file.endsWith("agent-tools.sqlite"))).toBe(true);
    } finally {
      await a.close();
    }
    // b still works after a closed (its own connection).
    expect(text(await call(b, "TaskList"))).toContain("secret-of-b");
    await b.close();
    expect(openFilesIn(dataDir)).toEqual([]);
  }, 60_000);

  it("a worktree child closing leaves the parent's storage open; the parent's close closes it", async () => {
    const workdir = fresh("work");
    const dataDir = fresh("data");
    const hosts: ToolPluginHost[] = [];
    const options = { workdir, dataDir, conversationId: "chat-p" };
    const parent = await buildToolRegistry({ ...options, plugins: [...builtinToolPlugins(options), hostSpy(hosts)] });
    await call(parent, "TaskCreate", { subject: "parent-task", description: "p", activeForm: "p" });
    const child = await (hosts[0] as ToolPluginHost).createChildRegistry({ workdir: fresh("child"), additionalRoots: [] });
    await call(child, "TaskCreate", { subject: "child-task", description: "c", activeForm: "c" });
    expect(text(await call(child, "TaskList"))).not.toContain("parent-task");
    await child.close();
    const after = await call(parent, "TaskList");
    expect(after.isError).toBe(false);
    expect(text(after)).toContain("parent-task");
    expect(text(after)).not.toContain("child-task");
    await parent.close();
    expect(openFilesIn(dataDir)).toEqual([]);
  }, 60_000);

  it("a host's hub stays open after both registries close, and its close releases the file", async () => {
    const workdir = fresh("work");
    const dataDir = fresh("data");
    const hub = createResourceHub();
    const a = await buildBuiltinToolRegistry({ workdir, dataDir, conversationId: "hub-a", resources: hub });
    const b = await buildBuiltinToolRegistry({ workdir, dataDir, conversationId: "hub-b", resources: hub });
    await call(a, "TaskCreate", { subject: "hub-secret-a", description: "a", activeForm: "a" });
    expect(text(await call(b, "TaskList"))).not.toContain("hub-secret-a");
    await a.close();
    expect(text(await call(b, "TaskList"))).not.toContain("hub-secret-a");
    await b.close();
    expect(openFilesIn(dataDir).length).toBeGreaterThan(0);
    await hub.close();
    expect(openFilesIn(dataDir)).toEqual([]);
  }, 60_000);
});

describe("a host's plugin list", () => {
  const plain = (id: string, extra: Partial<ToolPlugin> = {}): ToolPlugin => ({ id, scopes: ["chat"], child: "omit", create: () => [], ...extra });

  it.each(["Inherit", "inherits", "inherit ", "readOnly", "", "copy"])("refuses child %j naming the closest policy", async (child) => {
    await expect(composeToolRegistry({ workdir: fresh("work"), plugins: [plain("odd", { child: child as never })] })).rejects.toMatchObject({
      name: "SdkError",
      code: "invalid_options",
      message: expect.stringContaining("child must be one of inherit, readonly, omit"),
    });
  });

  it("refuses child readonly without readonlyChild, duplicate ids, and a list that is no array", async () => {
    await expect(composeToolRegistry({ workdir: fresh("w"), plugins: [plain("m", { child: "readonly" })] })).rejects.toMatchObject({ code: "invalid_options" });
    await expect(composeToolRegistry({ workdir: fresh("w"), plugins: [plain("x"), plain("x")] })).rejects.toMatchObject({
      code: "invalid_options",
      message: expect.stringContaining("listed twice"),
    });
    const workdir = fresh("w");
    await expect(buildToolRegistry({ workdir, plugins: [...builtinToolPlugins({ workdir }), plain("fs")] })).rejects.toMatchObject({
      code: "invalid_options",
    });
    await expect(composeToolRegistry({ workdir: fresh("w"), plugins: { length: 0 } as never })).rejects.toMatchObject({ code: "invalid_options" });
  });

  it("a plugin whose create throws: every bundle, cleanup, the ports and the storage opened before are closed", async () => {
    const closed: string[] = [];
    const dataDir = fresh("data");
    const opener: ToolPlugin = plain("opener", {
      async create(host) {
        const lease = leaseSqliteStorage({ dataDir: host.dataDir, resources: host.resources });
        await lease.get();
        host.onClose(() => {
          closed.push("cleanup");
        });
        return { id: "opener", trusted: true, listTools: () => [], close: async () => void closed.push("bundle") } as ToolBundle;
      },
    });
    const thrower = plain("thrower", {
      create: () => {
        throw new Error("plugin failed on purpose");
      },
    });
    const workdir = fresh("work");
    await expect(
      composeToolRegistry({
        workdir,
        dataDir,
        plugins: [opener, thrower],
        ports: () => ({ close: async () => void closed.push("ports") }),
      }),
    ).rejects.toThrow("plugin failed on purpose");
    expect(closed.sort()).toEqual(["bundle", "cleanup", "ports"]);
    expect(openFilesIn(dataDir)).toEqual([]);
  });

  it("a plugin handing back one good bundle next to something that is no bundle: the good bundle is closed too", async () => {
    const closed: string[] = [];
    const half = plain("half", {
      create: () => [{ id: "good", trusted: true, listTools: () => [], close: async () => void closed.push("good") } as ToolBundle, {} as ToolBundle],
    });
    await expect(composeToolRegistry({ workdir: fresh("work"), plugins: [half] })).rejects.toMatchObject({ code: "invalid_options" });
    expect(closed).toEqual(["good"]);
  });

  it("a plugin whose create throws in a worktree child leaves the parent's shared storage open", async () => {
    const hosts: ToolPluginHost[] = [];
    const dataDir = fresh("data");
    const workdir = fresh("work");
    let parentBuilt = false;
    const failsInChild = plain("fails-in-child", {
      child: "inherit",
      create: () => {
        if (parentBuilt) throw new Error("child plugin failed");
        return [];
      },
    });
    const options = { workdir, dataDir, conversationId: "c" };
    const parent = await buildToolRegistry({ ...options, plugins: [...builtinToolPlugins(options), hostSpy(hosts), failsInChild] });
    parentBuilt = true;
    try {
      await call(parent, "TaskCreate", { subject: "kept", description: "k", activeForm: "k" });
      await expect((hosts[0] as ToolPluginHost).createChildRegistry({ workdir: fresh("child"), additionalRoots: [] })).rejects.toThrow("child plugin failed");
      const list = await call(parent, "TaskList");
      expect(list.isError).toBe(false);
      expect(text(list)).toContain("kept");
    } finally {
      await parent.close();
    }
    expect(openFilesIn(dataDir)).toEqual([]);
  }, 60_000);

  it("host.registry during create is refused with invalid_options, and works once built", async () => {
    let seen: unknown;
    const early = plain("early", {
      create(host) {
        try {
          void host.registry.tools;
        } catch (error) {
          seen = error;
        }
        return [];
      },
    });
    const registry = await composeToolRegistry({ workdir: fresh("work"), plugins: [early] });
    expect(seen).toMatchObject({ name: "SdkError", code: "invalid_options" });
    await registry.close();
  });

  it("host.createChildRegistry during create is refused instead of recursing into children of children", async () => {
    let creates = 0;
    const recursive = plain("recursive", {
      child: "inherit",
      async create(host) {
        creates += 1;
        if (creates > 5) throw new Error(`recursed ${creates} levels`);
        const child = await host.createChildRegistry({ workdir: host.workdir, additionalRoots: [] });
        await child.close();
        return [];
      },
    });
    const error = await composeToolRegistry({ workdir: fresh("work"), plugins: [recursive] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "SdkError", code: "invalid_options" });
    expect(creates).toBe(1);
  });
});
