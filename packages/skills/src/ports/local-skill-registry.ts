/**
 * An in-memory skill registry: the double for tests and for hosts that ship
 * a fixed set of skills. Search and download behave as a remote registry's
 * would (paging with opaque cursors, `not_found`, `conflict`).
 */
import { ToolError } from "@agent-tools/core";
import type { SkillRegistrySort } from "../domain/skill-types.js";
import { SKILL_LIMITS } from "../domain/skill-types.js";
import type {
  SkillRegistry,
  SkillRegistryDownload,
  SkillRegistryDownloadRequest,
  SkillRegistryEntry,
  SkillRegistryPage,
  SkillRegistrySearch,
} from "./skill-registry.js";

/** One skill of a {@link LocalSkillRegistry}: its entry and a zip archive per version. */
export interface LocalSkillRegistryItem {
  readonly entry: SkillRegistryEntry;
  /** Version -> zip archive bytes; must hold `entry.version` (the latest). */
  readonly archives: Readonly<Record<string, Uint8Array>>;
}

const SORT_KEYS: Readonly<Record<SkillRegistrySort, (entry: SkillRegistryEntry) => number>> = {
  downloads: (entry) => entry.downloads,
  stars: (entry) => entry.stars,
  installs: (entry) => entry.installs,
  updated: (entry) => Date.parse(entry.updatedAt),
  newest: (entry) => Date.parse(entry.createdAt),
};

/**
 * A {@link SkillRegistry} over a fixed list of skills. Search matches every
 * query word (case-insensitive) in the slug, name or description, sorts by
 * the asked key, largest first (`newest` by `createdAt`, `updated` by
 * `updatedAt`; ties by slug, then owner), and pages with a cursor that
 * carries the offset and a hash of the query and sort, so a cursor from
 * another search is refused.
 *
 * @example
 * const registry = new LocalSkillRegistry([{ entry, archives: { "1.0.0": zipSync({ "pdf/SKILL.md": bytes }) } }]);
 * await registry.search({ query: "pdf", sort: "downloads", limit: 10 }); // { items: [entry] }
 */
export class LocalSkillRegistry implements SkillRegistry {
  readonly #items: readonly LocalSkillRegistryItem[];

  constructor(items: readonly LocalSkillRegistryItem[]) {
    for (const item of items) {
      if (item.archives[item.entry.version] === undefined) {
        throw new TypeError(`LocalSkillRegistry: ${item.entry.owner}/${item.entry.slug} has no archive for its latest version ${item.entry.version}.`);
      }
    }
    this.#items = [...items];
  }

  /** One page of the skills matching the query. Rejects `invalid_arguments` for a cursor of another search. */
  async search(request: SkillRegistrySearch): Promise<SkillRegistryPage> {
    request.signal?.throwIfAborted();
    const words = request.query.toLowerCase().split(/\s+/).filter(Boolean);
    const key = SORT_KEYS[request.sort];
    const matches = this.#items
      .map((item) => item.entry)
      .filter((entry) => {
        const text = `${entry.slug}\n${entry.name}\n${entry.description}`.toLowerCase();
        return words.every((word) => text.includes(word));
      })
      .sort((a, b) => key(b) - key(a) || compare(a.slug, b.slug) || compare(a.owner, b.owner));
    const fingerprint = searchFingerprint(request.query, request.sort);
    const offset = request.cursor === undefined ? 0 : decodeCursor(request.cursor, fingerprint);
    const limit = Math.min(SKILL_LIMITS.registryLimitMax, Math.max(SKILL_LIMITS.registryLimitMin, Math.floor(request.limit)));
    const items = matches.slice(offset, offset + limit);
    const next = offset + limit;
    return next < matches.length ? { items, nextCursor: encodeCursor(next, fingerprint) } : { items };
  }

  /** The archive of one version (default the latest). Rejects `not_found` or `conflict` (several owners, none given). */
  async download(request: SkillRegistryDownloadRequest): Promise<SkillRegistryDownload> {
    request.signal?.throwIfAborted();
    const bySlug = this.#items.filter((item) => item.entry.slug === request.slug);
    const candidates = request.owner === undefined ? bySlug : bySlug.filter((item) => item.entry.owner === request.owner);
    const [item] = candidates;
    if (item === undefined) {
      const owned = request.owner === undefined ? "" : ` from owner "${request.owner}"`;
      const owners = request.owner !== undefined && bySlug.length > 0 ? ` It is published by: ${bySlug.map((i) => i.entry.owner).join(", ")}.` : "";
      throw new ToolError("not_found", `The skill registry has no skill "${request.slug}"${owned}.${owners} Search with registry_search to find the slug.`, {
        details: { slug: request.slug, ...(request.owner === undefined ? {} : { owner: request.owner }) },
      });
    }
    if (candidates.length > 1) {
      const owners = candidates.map((candidate) => candidate.entry.owner);
      throw new ToolError(
        "conflict",
        `Several owners publish the skill "${request.slug}": ${owners.join(", ")}. Repeat the call with owner set to one of them.`,
        {
          details: { slug: request.slug, owners },
        },
      );
    }
    const version = request.version ?? item.entry.version;
    const archive = item.archives[version];
    if (archive === undefined) {
      const versions = Object.keys(item.archives).sort();
      throw new ToolError(
        "not_found",
        `The skill "${request.slug}" (owner "${item.entry.owner}") has no version "${version}". Available versions: ${versions.join(", ")}; leave version out for the latest.`,
        { details: { slug: request.slug, owner: item.entry.owner, version, versions } },
      );
    }
    return { entry: item.entry, version, archive: archive.slice() };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** FNV-1a (32 bit) of the query and sort, as 8 hex digits. */
function searchFingerprint(query: string, sort: SkillRegistrySort): string {
  let hash = 0x811c9dc5;
  for (const char of `${sort}\u0000${query.trim().toLowerCase()}`) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

function encodeCursor(offset: number, fingerprint: string): string {
  return btoa(`${offset}:${fingerprint}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeCursor(cursor: string, fingerprint: string): number {
  let text = "";
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    text = "";
  }
  const match = /^(\d+):([0-9a-f]{8})$/.exec(text);
  if (!match || match[2] !== fingerprint) {
    throw new ToolError(
      "invalid_arguments",
      "The cursor does not belong to this search (query and sort). Repeat the search without cursor to start from the first page.",
      {
        details: { cursor },
      },
    );
  }
  return Number(match[1]);
}
