// A host process for the default manifest cache. Run as
//   node --import tsx [--import <without-better-sqlite3.mjs>] --conditions=@agent-tools/source default-store-process.mjs <dataDir>
// It resolves the default cache on a fresh hub, puts and gets a manifest, and prints
// { got, warnings } as one JSON line.
import { createResourceHub } from "@agent-tools/core";
import { resolveMcpManifestCache } from "../default-mcp-manifest-store.ts";

const [dataDir] = process.argv.slice(2);
const warnings = [];
const ignore = () => undefined;
const resources = createResourceHub();
const store = resolveMcpManifestCache(undefined, {
  dataDir,
  resources,
  logger: { debug: ignore, info: ignore, error: ignore, warn: (message) => warnings.push(message) },
});
const manifest = { serverId: "docs", configHash: "h1", fetchedAt: 1, tools: [{ name: "search" }] };
await store.put(manifest);
const got = await store.get("docs", "h1");
await store.delete("docs");
await resources.close();
process.stdout.write(`${JSON.stringify({ got: got ?? null, warnings })}\n`);
