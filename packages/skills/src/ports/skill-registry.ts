import type { SkillRegistrySort } from "../domain/skill-types.js";

/** One skill a registry offers. */
export interface SkillRegistryEntry {
  /** The registry's identifier of the skill (unique per owner). */
  readonly slug: string;
  readonly owner: string;
  /** The skill's name (its folder name once installed). */
  readonly name: string;
  readonly description: string;
  /** Latest version. */
  readonly version: string;
  readonly downloads: number;
  readonly stars: number;
  readonly installs: number;
  /** ISO 8601 times. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A registry search request (already validated: limit 1..20). */
export interface SkillRegistrySearch {
  readonly query: string;
  readonly sort: SkillRegistrySort;
  readonly limit: number;
  /** Opaque cursor from a previous page. */
  readonly cursor?: string;
  readonly signal?: AbortSignal;
}

/** One page of registry search results. */
export interface SkillRegistryPage {
  readonly items: readonly SkillRegistryEntry[];
  /** Cursor of the next page; undefined on the last page. */
  readonly nextCursor?: string;
}

/** What to download from a registry. */
export interface SkillRegistryDownloadRequest {
  readonly slug: string;
  /** Needed when several owners publish the same slug. */
  readonly owner?: string;
  /** Default: the latest version. */
  readonly version?: string;
  readonly signal?: AbortSignal;
}

/** A downloaded skill: a zip archive holding one skill folder (or its files at the top level). */
export interface SkillRegistryDownload {
  readonly entry: SkillRegistryEntry;
  readonly version: string;
  readonly archive: Uint8Array;
}

/**
 * A skill registry: search and download. Failures reject with a
 * `ToolError`: `not_found` for an unknown slug or version, `conflict` when
 * a slug without an owner matches several owners (the message lists them),
 * `unavailable` when the registry cannot be reached.
 */
export interface SkillRegistry {
  search(request: SkillRegistrySearch): Promise<SkillRegistryPage>;
  download(request: SkillRegistryDownloadRequest): Promise<SkillRegistryDownload>;
}
