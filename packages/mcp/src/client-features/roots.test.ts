import { describe, expect, it } from "vitest";
import { useFeatureServer } from "./__fixtures__/feature-setup.js";
import type { McpRoot } from "./client-feature-types.js";

describe("roots offered to servers", () => {
  let roots: McpRoot[] = [{ uri: "file:///srv/project", name: "workspace" }];
  const feature = useFeatureServer({ roots: () => roots });
  const listRoots = () => feature.call("roots", {});

  it("declares roots with listChanged and answers roots/list with the host's current roots", async () => {
    expect(feature.server.clientCapabilities()).toEqual({ roots: { listChanged: true } });
    expect(JSON.parse((await listRoots()).text)).toEqual({ roots: [{ uri: "file:///srv/project", name: "workspace" }] });
    roots = [...roots, { uri: "file:///srv/docs", name: "docs (read-only)" }];
    expect(JSON.parse((await listRoots()).text).roots).toEqual([
      { uri: "file:///srv/project", name: "workspace" },
      { uri: "file:///srv/docs", name: "docs (read-only)" },
    ]);
  });

  it("tells connected servers that the roots changed when the host calls notifyRootsChanged", async () => {
    const before = feature.server.rootsChanges();
    await feature.setup.mcp.notifyRootsChanged();
    await feature.server.waitForRootsChanges(before + 1);
    expect(feature.server.rootsChanges()).toBe(before + 1);
  });

  it("refuses a root that is not a file:// URI, naming it", async () => {
    roots = [{ uri: "https://example.com/repo", name: "remote" }];
    const { isError, text } = await listRoots();
    roots = [{ uri: "file:///srv/project", name: "workspace" }];
    expect(isError).toBe(true);
    expect(text).toContain('root "https://example.com/repo" is not a file:// URI');
  });
});

describe("roots turned off", () => {
  const feature = useFeatureServer({ roots: false });

  it("declares nothing, and notifyRootsChanged sends nothing", async () => {
    expect(feature.server.clientCapabilities()).toEqual({});
    await feature.setup.mcp.notifyRootsChanged();
    const result = await feature.call("roots", {});
    expect(result.text).toContain("error -32601");
    expect(feature.server.rootsChanges()).toBe(0);
  });
});
