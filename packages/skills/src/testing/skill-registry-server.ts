/**
 * A skill registry served over HTTP on 127.0.0.1 from any
 * {@link SkillRegistry}, speaking the protocol `HttpSkillRegistry`
 * documents: for tests and local development.
 */
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ToolError } from "@agent-tools/core";
import { SKILL_LIMITS, type SkillRegistrySort } from "../domain/skill-types.js";
import type { SkillRegistry } from "../ports/skill-registry.js";

/** Options of {@link startSkillRegistryServer}. */
export interface SkillRegistryServerOptions {
  /** When set, requests must carry `Authorization: Bearer <token>` (else 401). */
  readonly token?: string;
}

/** A running registry server. */
export interface SkillRegistryServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const SORTS: readonly SkillRegistrySort[] = ["downloads", "stars", "installs", "updated", "newest"];

const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  invalid_arguments: 400,
  permission_denied: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unavailable: 503,
};

/**
 * Serves `registry` on a free port of 127.0.0.1.
 *
 * @example
 * const server = await startSkillRegistryServer(new LocalSkillRegistry(items));
 * const registry = new HttpSkillRegistry({ baseUrl: server.url });
 * await server.close();
 */
export async function startSkillRegistryServer(registry: SkillRegistry, options: SkillRegistryServerOptions = {}): Promise<SkillRegistryServer> {
  const server = createServer((request, response) => {
    handle(registry, options, request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, error instanceof Error ? error.message : String(error));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(registry: SkillRegistry, options: SkillRegistryServerOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (options.token !== undefined && request.headers.authorization !== `Bearer ${options.token}`) {
    sendError(response, 401, "A valid bearer token is required.");
    return;
  }
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  if (request.method !== "GET") {
    sendError(response, 405, `Method ${request.method} is not supported; use GET.`);
    return;
  }
  const abort = new AbortController();
  response.once("close", () => abort.abort());
  try {
    if (url.pathname === "/v1/skills") {
      const sort = (url.searchParams.get("sort") ?? "downloads") as SkillRegistrySort;
      const limit = Number(url.searchParams.get("limit") ?? SKILL_LIMITS.registryLimitDefault);
      if (!SORTS.includes(sort)) return sendError(response, 400, `sort must be one of ${SORTS.join(", ")}.`);
      if (!Number.isInteger(limit) || limit < SKILL_LIMITS.registryLimitMin || limit > SKILL_LIMITS.registryLimitMax) {
        return sendError(response, 400, `limit must be an integer from ${SKILL_LIMITS.registryLimitMin} to ${SKILL_LIMITS.registryLimitMax}.`);
      }
      const cursor = url.searchParams.get("cursor") ?? undefined;
      const page = await registry.search({ query: url.searchParams.get("q") ?? "", sort, limit, cursor, signal: abort.signal });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(page));
      return;
    }
    const archive = /^\/v1\/skills\/([^/]+)\/archive$/.exec(url.pathname);
    if (archive) {
      const owner = url.searchParams.get("owner") ?? undefined;
      const version = url.searchParams.get("version") ?? undefined;
      const download = await registry.download({ slug: decodeURIComponent(archive[1] as string), owner, version, signal: abort.signal });
      response.writeHead(200, {
        "content-type": "application/zip",
        "content-length": download.archive.byteLength,
        "x-skill-version": download.version,
        "x-skill-entry": Buffer.from(JSON.stringify(download.entry)).toString("base64url"),
      });
      response.end(download.archive);
      return;
    }
    sendError(response, 404, `No route ${url.pathname}; use /v1/skills or /v1/skills/{slug}/archive.`);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const owners = error.code === "conflict" && Array.isArray(error.details.owners) ? { owners: error.details.owners } : {};
    sendError(response, STATUS_BY_CODE[error.code] ?? 500, error.message, owners);
  }
}

function sendError(response: ServerResponse, status: number, message: string, extra: Record<string, unknown> = {}): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: message, ...extra }));
}
