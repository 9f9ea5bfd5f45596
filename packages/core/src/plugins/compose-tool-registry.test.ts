import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import { defineTool } from "../registry/define-tool.js";
import type { ToolBundle } from "../types.js";
import { SKILL_PATHS_SLOT, composeToolRegistry } from "./compose-tool-registry.js";
import { createResourceHub } from "./resource-hub.js";
import { type ToolPlugin, type ToolPluginHost, definePluginSlot } from "./tool-plugin.js";

const workdir = mkdtempSync(path.join(tmpdir(), "agent-tools-compose-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "agent-tools-compose-data-"));
afterAll(() => {
  rmSync(workdir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

function echoTool(name: string, text: string = name) {
  return defineTool({ name, description: `Says ${text}.`, inputSchema: z.object({}), metadata: { isReadOnly: true }, execute: () => ({ content: text }) });
}

function plugin(id: string, overrides: Partial<ToolPlugin> = {}, closed: string[] = []): ToolPlugin {
  return {
    id,
    scopes: ["chat", "cron"],
    child: "inherit",
    create: (): ToolBundle => ({
      id,
      trusted: true,
      listTools: () => [echoTool(`${id[0]?.toUpperCase()}${id.slice(1)}Tool`)],
      close: async () => void closed.push(id),
    }),
    ...overrides,
  };
}

describe("composeToolRegistry", () => {
  it("creates the plugins of its scope in list order and lists their tools in that order", async () => {
    const registry = await composeToolRegistry({
      workdir,
      dataDir,
      plugins: [plugin("beta"), plugin("alpha"), plugin("chatonly", { scopes: ["chat"] })],
      runtimeScope: "cron",
    });
    expect(registry.tools.map((tool) => tool.name)).toEqual(["BetaTool", "AlphaTool"]);
    await registry.close();
  });

  it("builds a child from the child policies only: inherit as is, readonly through readonlyChild, omit left out", async () => {
    const parentHosts: ToolPluginHost[] = [];
    const keeper: ToolPlugin = {
      id: "keeper",
      scopes: ["chat"],
      child: "omit",
      create: (host) => {
        parentHosts.push(host);
        return [];
      },
    };
    const notes: ToolPlugin = {
      id: "notes",
      scopes: ["chat"],
      child: "readonly",
      readonlyChild: () => ({
        id: "notes",
        scopes: ["chat"],
        child: "omit",
        create: () => ({ id: "notes", trusted: true, listTools: () => [echoTool("Notes", "read-only notes")] }),
      }),
      create: () => ({ id: "notes", trusted: true, listTools: () => [echoTool("Notes", "writable notes")] }),
    };
    const registry = await composeToolRegistry({
      workdir,
      dataDir,
      plugins: [plugin("files"), notes, plugin("secrets", { child: "omit" }), keeper],
      planMode: true,
    });
    const child = await parentHosts[0]!.createChildRegistry({ workdir, additionalRoots: [] });
    expect(child.tools.map((tool) => tool.name)).toEqual(["FilesTool", "Notes"]);
    expect((await child.executeToolCall({ id: "1", name: "Notes", arguments: {} })).content).toEqual([{ type: "text", text: "read-only notes" }]);
    // Registry options are not copied wholesale either: the parent's plan mode does not reach the child.
    expect(registry.planMode).toBe(true);
    expect(child.planMode).toBe(false);
    await child.close();
    await registry.close();
  });

  it("refuses a malformed plugin list with SdkError naming the plugin", async () => {
    await expect(composeToolRegistry({ workdir, plugins: [plugin("a"), plugin("a")] })).rejects.toThrow(/Plugin a is listed twice/);
    await expect(composeToolRegistry({ workdir, plugins: [plugin("a", { child: "inhert" as never })] })).rejects.toThrow(/did you mean inherit/);
    await expect(composeToolRegistry({ workdir, plugins: [plugin("a", { child: "readonly" })] })).rejects.toThrow(/no readonlyChild/);
    await expect(composeToolRegistry({ workdir, plugins: [plugin("a", { scopes: ["chats" as never] })] })).rejects.toBeInstanceOf(SdkError);
    await expect(composeToolRegistry({ workdir, plugins: [plugin("a", { create: () => 42 as never })] })).rejects.toThrow(/not a tool bundle/);
  });

  it("gives plugins a view of the registry that throws until it is built", async () => {
    let host: ToolPluginHost | undefined;
    let during: unknown;
    const registry = await composeToolRegistry({
      workdir,
      dataDir,
      plugins: [
        plugin("files"),
        {
          id: "watcher",
          scopes: ["chat"],
          child: "omit",
          create: (given) => {
            host = given;
            try {
              void given.registry.tools;
            } catch (error) {
              during = error;
            }
            return [];
          },
        },
      ],
    });
    expect(during).toBeInstanceOf(SdkError);
    expect(host!.registry.built).toBe(true);
    expect(host!.registry.tools.map((tool) => tool.name)).toEqual(["FilesTool"]);
    host!.registry.setPlanMode(true);
    expect(registry.planMode).toBe(true);
    expect(host!.registry.registry()).toBe(registry);
    await registry.close();
  });

  it("hands slot values between plugins whatever their order, and takes the skill path rules from the slot", async () => {
    const greeting = definePluginSlot<string>("test.greeting");
    const reader: ToolPlugin = {
      id: "reader",
      scopes: ["chat"],
      child: "omit",
      create: (host) => ({
        id: "reader",
        trusted: true,
        listTools: () => [
          defineTool({
            name: "Greetings",
            description: "Lists greetings.",
            inputSchema: z.object({}),
            execute: () => ({ content: host.contributions(greeting).join(",") }),
          }),
        ],
      }),
    };
    const writer: ToolPlugin = {
      id: "writer",
      scopes: ["chat"],
      child: "omit",
      create: (host) => {
        host.contribute(greeting, "hello");
        host.contribute(SKILL_PATHS_SLOT, { rootDir: path.join(dataDir, "skills") });
        return [];
      },
    };
    mkdirSync(path.join(dataDir, "skills", "demo"), { recursive: true });
    const registry = await composeToolRegistry({ workdir, dataDir, plugins: [reader, writer] });
    expect((await registry.executeToolCall({ id: "1", name: "Greetings", arguments: {} })).content).toEqual([{ type: "text", text: "hello" }]);
    expect(registry.paths.resolve("skill://demo/SKILL.md", { intent: "read" }).absolutePath).toBe(path.join(dataDir, "skills", "demo", "SKILL.md"));
    await registry.close();
  });

  it("owns its resource hub unless given one, and shares the hub with its children", async () => {
    const disposed: string[] = [];
    let childHub: unknown;
    const user: ToolPlugin = {
      id: "user",
      scopes: ["chat"],
      child: "inherit",
      create: (host) => {
        host.resources.use(
          "thing",
          () => ({}),
          () => void disposed.push("thing"),
        );
        childHub ??= host.resources;
        return [];
      },
    };
    const hosts: ToolPluginHost[] = [];
    const spy: ToolPlugin = {
      id: "spy",
      scopes: ["chat"],
      child: "omit",
      create: (host) => {
        hosts.push(host);
        return [];
      },
    };
    const owned = await composeToolRegistry({ workdir, dataDir, plugins: [user, spy] });
    const child = await hosts[0]!.createChildRegistry({ workdir, additionalRoots: [] });
    expect(hosts[0]!.resources).toBe(childHub);
    await child.close();
    expect(disposed).toEqual([]);
    await owned.close();
    expect(disposed).toEqual(["thing"]);

    const hub = createResourceHub();
    const given = await composeToolRegistry({ workdir, dataDir, plugins: [user], resources: hub });
    await given.close();
    expect(disposed).toEqual(["thing"]);
    await hub.close();
    expect(disposed).toEqual(["thing", "thing"]);
  });

  it("closes what it created when a later plugin fails", async () => {
    const closed: string[] = [];
    const failing: ToolPlugin = { id: "failing", scopes: ["chat"], child: "omit", create: () => Promise.reject(new Error("boom")) };
    await expect(composeToolRegistry({ workdir, dataDir, plugins: [plugin("first", {}, closed), failing] })).rejects.toThrow("boom");
    expect(closed).toEqual(["first"]);
  });
});
