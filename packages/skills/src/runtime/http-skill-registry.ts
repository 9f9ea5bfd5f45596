/**
 * A {@link SkillRegistry} over HTTP.
 *
 * ## Protocol (version 1)
 *
 * All paths are under the registry's base URL. A host may require
 * `Authorization: Bearer <token>`. Error answers carry a JSON body
 * `{ "error": "<message for the model>" }`.
 *
 * - `GET {base}/v1/skills?q=<query>&sort=<downloads|stars|installs|updated|newest>&limit=<1..20>[&cursor=<cursor>]`
 *   answers `200` with `application/json`
 *   `{ "items": SkillRegistryEntry[], "nextCursor"?: string }`; `nextCursor`
 *   is absent on the last page. A cursor from another search answers `400`.
 * - `GET {base}/v1/skills/{slug}/archive[?owner=<owner>][&version=<version>]`
 *   answers `200` with `application/zip` (the skill folder, or its files at
 *   the top level) and the headers `x-skill-version` (the version sent) and
 *   `x-skill-entry` (the entry as JSON, base64url-encoded). An unknown slug,
 *   owner or version answers `404`; a slug published by several owners
 *   without `owner` answers `409` with `{ "error": ..., "owners": string[] }`.
 *
 * Status codes map to `ToolError` codes: 400 invalid_arguments, 401/403
 * permission_denied, 404 not_found, 409 conflict, 413 too_large, 408/429/5xx
 * and unreachable servers unavailable; a caller's abort is `cancelled`, the
 * timeout `timeout`. Bodies are read as streams and stopped past the size
 * cap (`too_large`).
 */
import { ToolError, type ToolErrorCode } from "@agent-tools/core";
import { readCappedBody } from "@agent-tools/core/internal";
import { z } from "zod";
import { SKILL_LIMITS } from "../domain/skill-types.js";
import type {
  SkillRegistry,
  SkillRegistryDownload,
  SkillRegistryDownloadRequest,
  SkillRegistryEntry,
  SkillRegistryPage,
  SkillRegistrySearch,
} from "../ports/skill-registry.js";

/** The subset of `fetch` the registry uses (inject one for proxies or tests). */
export type SkillRegistryFetch = (url: string, init: { method: string; headers: Record<string, string>; signal: AbortSignal }) => Promise<Response>;

/** Options of {@link HttpSkillRegistry}. */
export interface HttpSkillRegistryOptions {
  /** Base URL of the registry, e.g. `https://skills.example.com`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` when given. */
  readonly token?: string;
  /** Default: the global `fetch`. */
  readonly fetch?: SkillRegistryFetch;
  /** Per-request time limit in milliseconds; default 30 000. */
  readonly timeoutMs?: number;
  /** Largest answer read, in bytes; default `SKILL_LIMITS.downloadMaxBytes`. */
  readonly maxBytes?: number;
}

const entrySchema = z.object({
  slug: z.string(),
  owner: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.string(),
  downloads: z.number(),
  stars: z.number(),
  installs: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const pageSchema = z.object({ items: z.array(entrySchema), nextCursor: z.string().optional() });
const errorSchema = z.object({ error: z.string().optional(), message: z.string().optional(), owners: z.array(z.string()).optional() });

/**
 * Searches and downloads skills from a registry speaking the protocol
 * above. Failures reject with `ToolError`.
 *
 * @example
 * const registry = new HttpSkillRegistry({ baseUrl: "https://skills.example.com", token: process.env.SKILLS_TOKEN });
 * const page = await registry.search({ query: "pdf", sort: "downloads", limit: 10 });
 */
export class HttpSkillRegistry implements SkillRegistry {
  readonly #base: string;
  readonly #token: string | undefined;
  readonly #fetch: SkillRegistryFetch;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;

  constructor(options: HttpSkillRegistryOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, "");
    this.#token = options.token;
    this.#fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxBytes = options.maxBytes ?? SKILL_LIMITS.downloadMaxBytes;
  }

  /** `GET /v1/skills`: one page of matching skills. */
  async search(request: SkillRegistrySearch): Promise<SkillRegistryPage> {
    const params = new URLSearchParams({ q: request.query, sort: request.sort, limit: String(request.limit) });
    if (request.cursor !== undefined) params.set("cursor", request.cursor);
    const what = `the search for "${request.query}"`;
    const { body } = await this.#get(`${this.#base}/v1/skills?${params}`, what, request.signal);
    const parsed = pageSchema.safeParse(parseJson(body));
    if (!parsed.success) throw invalidAnswer(what, "the page is not { items, nextCursor? }");
    return parsed.data.nextCursor === undefined ? { items: parsed.data.items } : { items: parsed.data.items, nextCursor: parsed.data.nextCursor };
  }

  /** `GET /v1/skills/{slug}/archive`: the zip of one version. */
  async download(request: SkillRegistryDownloadRequest): Promise<SkillRegistryDownload> {
    const params = new URLSearchParams();
    if (request.owner !== undefined) params.set("owner", request.owner);
    if (request.version !== undefined) params.set("version", request.version);
    const encoded = params.toString();
    const query = encoded === "" ? "" : `?${encoded}`;
    const what = `the download of "${request.slug}"`;
    const { body, headers } = await this.#get(`${this.#base}/v1/skills/${encodeURIComponent(request.slug)}/archive${query}`, what, request.signal);
    const version = headers.get("x-skill-version");
    const entry = decodeEntry(headers.get("x-skill-entry"));
    if (!version || entry === undefined) throw invalidAnswer(what, "the x-skill-version or x-skill-entry header is missing or invalid");
    return { entry, version, archive: body };
  }

  async #get(url: string, what: string, callerSignal: AbortSignal | undefined): Promise<{ body: Uint8Array; headers: Headers }> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: "application/json, application/zip" };
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`;
    try {
      const response = await this.#fetch(url, { method: "GET", headers, signal });
      const body = await readCapped(response, this.#maxBytes, what);
      if (!response.ok) throw statusError(response, body, what);
      return { body, headers: response.headers };
    } catch (error) {
      if (error instanceof ToolError) throw error;
      if (callerSignal?.aborted) throw new ToolError("cancelled", `The skill registry request for ${what} was cancelled.`, { cause: error });
      if (timeout.aborted) {
        throw new ToolError("timeout", `The skill registry did not answer ${what} within ${this.#timeoutMs} ms. Try again later.`, {
          cause: error,
          details: { timeoutMs: this.#timeoutMs },
        });
      }
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new ToolError(
        "unavailable",
        `The skill registry at ${this.#base} could not be reached for ${what}: ${reason}. Check the registry address or try again later.`,
        {
          cause: error,
        },
      );
    }
  }
}

/** Reads a body as a stream, stopping past `maxBytes`. */
async function readCapped(response: Response, maxBytes: number, what: string): Promise<Uint8Array> {
  const body = await readCappedBody(response, maxBytes);
  if (body !== undefined) return body;
  throw new ToolError("too_large", `The skill registry's answer to ${what} is larger than ${maxBytes} bytes; it was not read to the end.`, {
    details: { maxBytes },
  });
}

function statusCode(status: number): ToolErrorCode {
  if (status === 400) return "invalid_arguments";
  if (status === 401 || status === 403) return "permission_denied";
  if (status === 404) return "not_found";
  if (status === 409) return "conflict";
  if (status === 413) return "too_large";
  if (status === 408 || status === 429 || status >= 500) return "unavailable";
  return "other";
}

function statusError(response: Response, body: Uint8Array, what: string): ToolError {
  const text = new TextDecoder().decode(body);
  const parsed = errorSchema.safeParse(parseJson(body));
  const serverMessage = parsed.success ? (parsed.data.error ?? parsed.data.message) : undefined;
  const message = serverMessage ?? (text.trim().slice(0, 500) || response.statusText || "no message");
  const owners = parsed.success ? parsed.data.owners : undefined;
  return new ToolError(statusCode(response.status), `The skill registry answered ${response.status} to ${what}: ${message}`, {
    details: { status: response.status, ...(owners === undefined ? {} : { owners }) },
  });
}

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}

function invalidAnswer(what: string, problem: string): ToolError {
  return new ToolError("unavailable", `The skill registry sent an invalid answer to ${what}: ${problem}. Try again later or check the registry address.`);
}

function decodeEntry(header: string | null): SkillRegistryEntry | undefined {
  if (!header) return undefined;
  try {
    const binary = atob(header.replace(/-/g, "+").replace(/_/g, "/"));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
    const parsed = entrySchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
