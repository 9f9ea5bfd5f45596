// mcpTools' default manifest cache end to end: real stdio servers, the real SQLite file of the host's dataDir.
import fs from "node:fs";
import path from "node:path";
import { type ToolPluginHost, composeToolRegistry } from "@agent-tools/core";
import type { McpSettings } from "@agent-tools/core/mcp";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterEach, describe, expect, it } from "vitest";
import { recordingLogger, tempDir } from "../__fixtures__/test-servers.js";
import { lazyServer, recordedStarts } from "../lifecycle/__fixtures__/lazy-servers.js";
import { mcpManifestScope } from "../lifecycle/manifest-scope.js";
import { mcpTools } from "../mcp-tools-plugin.js";
import { normalizeMcpServerConfig } from "../settings.js";
import { MCP_MANIFEST_TABLE } from "./kysely-mcp-manifest-store.js";
import { mcpConfigHash } from "./mcp-config-hash.js";

describe("mcpTools: the default manifest cache", () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A temporary folder (removed after the test), its `data` path, and its sub-folders `names`, created. */
  function workArea(prefix: string, ...names: string[]) {
    const work = tempDir(prefix);
    cleanups.push(work.cleanup);
    const dirs = names.map((name) => path.join(work.dir, name));
    for (const dir of dirs) fs.mkdirSync(dir);
    return { work, dataDir: path.join(work.dir, "data"), dirs };
  }

  async function build(settings: McpSettings, dataDir: string, workdir: string, manifestCache?: false) {
    const logger = recordingLogger();
    const registry = await composeToolRegistry({
      workdir,
      dataDir,
      logger,
      plugins: [mcpTools({ getSettings: () => settings, toolSearch: false, ...(manifestCache === undefined ? {} : { manifestCache }) })],
    });
    const names = registry.tools.map((tool) => tool.name).filter((name) => name.startsWith("mcp_"));
    await registry.close();
    return { names, warnings: logger.warnings };
  }

  it("stores the first build's listing in the SQLite file of dataDir, so the next registry lists the server without starting it", async () => {
    const { work, dataDir } = workArea("mcp-manifest-default-");
    const server = lazyServer("docs", work.dir, ["search"]);
    const settings: McpSettings = { servers: [normalizeMcpServerConfig(server)], selected: [] };

    const first = await build(settings, dataDir, work.dir);
    expect(recordedStarts(work.dir).map((start) => start.name)).toEqual(["docs"]);
    expect(first.names).toContain("mcp_docs_search");
    const storage = await openSqliteStorage({ dataDir });
    try {
      const rows = await storage.db.selectFrom(MCP_MANIFEST_TABLE).select(["server_id", "config_hash"]).execute();
      expect(rows).toEqual([{ server_id: "docs", config_hash: mcpConfigHash(settings.servers[0]!, mcpManifestScope({ workdir: work.dir })) }]);
    } finally {
      await storage.close();
    }

    const second = await build(settings, dataDir, work.dir);
    expect(second.names).toEqual(first.names);
    expect(recordedStarts(work.dir)).toHaveLength(1);
    expect([...first.warnings, ...second.warnings]).toEqual([]);

    // false: no cache, the server starts at build as before.
    await build(settings, dataDir, work.dir, false);
    expect(recordedStarts(work.dir)).toHaveLength(2);
  });

  it("keys the manifest by project and by env values: another workdir or another value on the same dataDir starts the server", async () => {
    const { work, dataDir, dirs } = workArea("mcp-manifest-scope-", "alpha", "beta");
    const [alpha, beta] = dirs as [string, string];
    const settingsWith = (token: string): McpSettings => ({
      servers: [normalizeMcpServerConfig(lazyServer("docs", work.dir, ["search"], { env: { TOKEN: token } }))],
      selected: [],
    });

    await build(settingsWith("alice"), dataDir, alpha);
    expect(recordedStarts(work.dir)).toHaveLength(1);
    // The same project and values: a hit.
    await build(settingsWith("alice"), dataDir, alpha);
    expect(recordedStarts(work.dir)).toHaveLength(1);
    // Another project sharing the dataDir: a miss, the server starts.
    await build(settingsWith("alice"), dataDir, beta);
    expect(recordedStarts(work.dir)).toHaveLength(2);
    // The first project with another token (another tenant, or a rotated one): a miss.
    await build(settingsWith("bob"), dataDir, alpha);
    expect(recordedStarts(work.dir)).toHaveLength(3);
    const storage = await openSqliteStorage({ dataDir });
    try {
      const body = JSON.stringify(await storage.db.selectFrom(MCP_MANIFEST_TABLE).selectAll().execute());
      expect(body).not.toContain("bob");
      expect(body).not.toContain("alice");
    } finally {
      await storage.close();
    }
  });

  it("a worktree child registry keeps its parent's scope: its build lists the cached server without starting it", async () => {
    const { work, dataDir, dirs } = workArea("mcp-manifest-child-", "project", "worktree");
    const [project, worktree] = dirs as [string, string];
    const settings: McpSettings = { servers: [normalizeMcpServerConfig(lazyServer("docs", work.dir, ["search"]))], selected: [] };
    let host: ToolPluginHost | undefined;
    const registry = await composeToolRegistry({
      workdir: project,
      dataDir,
      plugins: [
        mcpTools({ getSettings: () => settings, toolSearch: false }),
        {
          id: "capture",
          scopes: ["chat"],
          child: "omit",
          create: (given) => {
            host = given;
            return [];
          },
        },
      ],
    });
    cleanups.push(() => registry.close());
    expect(recordedStarts(work.dir)).toHaveLength(1);
    const child = await host!.createChildRegistry({ workdir: worktree, additionalRoots: [] });
    cleanups.push(() => child.close());
    expect(child.tools.map((tool) => tool.name)).toContain("mcp_docs_search");
    expect(recordedStarts(work.dir)).toHaveLength(1);
    // A registry of its own on that folder is another project: a miss.
    await build(settings, dataDir, worktree);
    expect(recordedStarts(work.dir)).toHaveLength(2);
  });
});
