import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { InMemoryMcpManifestStore } from "@agent-tools/mcp/manifest";
import { afterAll, describe, expect, it } from "vitest";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-manifest-cache-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const workdir = path.join(temporary, "project");
fs.mkdirSync(workdir, { recursive: true });
const dataDir = path.join(temporary, "data");
const getSettings = () => ({ servers: [], selected: [] });

describe("buildBuiltinToolRegistry: mcp.manifestCache", () => {
  it("fails closed on a value that is neither false nor a store, naming mcp.manifestCache and a valid value", async () => {
    // The sdk's own option check answers (its wording), before the MCP package is loaded.
    const cases: Array<[unknown, string, string]> = [
      [true, "false", "not true."],
      ["sqlite", "new InMemoryMcpManifestStore()", 'not "sqlite".'],
      [{ get: async () => undefined }, "new InMemoryMcpManifestStore()", "not an object (it has no put, delete)."],
    ];
    for (const [manifestCache, suggestion, ending] of cases) {
      const error = await buildBuiltinToolRegistry({ workdir, dataDir, mcp: { getSettings, manifestCache } } as unknown as BuiltinToolRegistryOptions).then(
        async (registry) => {
          await registry.close();
          return undefined;
        },
        (thrown: unknown) => thrown,
      );
      expect(error, JSON.stringify(manifestCache)).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe("invalid_options");
      expect((error as SdkError).message).toMatch(/^mcp\.manifestCache must be false or an McpManifestStore/);
      expect((error as SdkError).message.endsWith(ending)).toBe(true);
      expect((error as SdkError).details).toMatchObject({ option: "mcp.manifestCache", suggestion });
    }
  });

  it("builds with false, with a store, and with the default", async () => {
    for (const manifestCache of [false, new InMemoryMcpManifestStore(), undefined]) {
      const registry = await buildBuiltinToolRegistry({ workdir, dataDir, mcp: { getSettings, manifestCache } });
      await registry.close();
    }
  });
});
