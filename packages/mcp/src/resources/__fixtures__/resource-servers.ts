// The resource fixture server (resource-server.mjs) as stdio server settings.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfigInput } from "../../settings.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The fixture's entry. */
export const RESOURCE_SERVER_ENTRY = path.join(here, "resource-server.mjs");
/** The 1x1 PNG the fixture serves as mem://logo.png. */
export const FIXTURE_PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A stdio server running the fixture; `env` sets RES_NAME, RES_SUBSCRIBE=0, RES_RESOURCES=0. */
export function resourceStdio(id: string, env: Record<string, string> = {}): McpServerConfigInput {
  return { id, command: process.execPath, args: [RESOURCE_SERVER_ENTRY], env: { RES_NAME: id, ...env }, timeoutMs: 20_000 };
}
