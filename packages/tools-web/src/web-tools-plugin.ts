import { createRequire } from "node:module";
import type { ToolBundle, ToolPlugin } from "@agent-tools/core";
import { createWebFetchCache } from "./web-fetch-cache.js";
import { type WebFetchOptions, resolveWebFetchOptions } from "./web-fetch-options.js";
import { createWebFetchTool } from "./web-fetch-tool.js";

/** The User-Agent WebFetch sends: the SDK and its version. */
export function webFetchUserAgent(): string {
  const { version } = createRequire(import.meta.url)("../package.json") as { version: string };
  return `agent-tools/${version} (+https://github.com/agent-tools)`;
}

/**
 * WebFetch as a bundle, with its own page cache (dropped on close). The
 * options are checked here, failing closed (`SdkError`); `where` prefixes
 * the option names in messages (`webFetch.` names `webFetch.allowHosts[0]`).
 *
 * @example
 * const web = createWebToolBundle({ allowHosts: ["docs.internal.example"] });
 * const registry = createToolRegistry({ workdir, bundles: [web] });
 */
export function createWebToolBundle(options: WebFetchOptions = {}, where = ""): ToolBundle {
  const resolved = resolveWebFetchOptions(options, where);
  const cache = resolved.cache === false ? undefined : createWebFetchCache(resolved.cache);
  const tools = [createWebFetchTool(resolved, cache, webFetchUserAgent())];
  return { id: "web", trusted: true, listTools: () => tools, close: async () => cache?.clear() };
}

/**
 * WebFetch as a plugin (id `web`, chat and cron scopes). A subagent's child
 * registry gets it too, with a cache of its own: fetching is read-only.
 *
 * @example
 * const registry = await composeToolRegistry({ workdir, plugins: [webTools({ allowHosts: ["127.0.0.1:8080"] })] });
 */
export function webTools(options: WebFetchOptions = {}): ToolPlugin {
  // Checked now, so a bad option fails where the host wrote it, not at the first registry.
  resolveWebFetchOptions(options);
  return { id: "web", scopes: ["chat", "cron"], child: "inherit", create: () => createWebToolBundle(options) };
}
