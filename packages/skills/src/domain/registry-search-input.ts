/**
 * The arguments of a registry search, checked and given their defaults.
 */
import { ToolError } from "@agent-tools/core";
import { SKILL_LIMITS, type SkillRegistrySort } from "./skill-types.js";

/** Registry search orders, the default first. */
export const SKILL_REGISTRY_SORTS: readonly SkillRegistrySort[] = Object.freeze(["downloads", "stars", "installs", "updated", "newest"]);

/** A checked registry search: the fields of the registry port's search request. */
export interface NormalizedRegistrySearch {
  readonly query: string;
  readonly sort: SkillRegistrySort;
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * Checks registry search arguments and fills the defaults. `query` is
 * trimmed (absent = "", every skill); `sort` is one of downloads, stars,
 * installs, updated, newest (any case; default downloads); `limit` is a
 * whole number 1..20 (a numeric string is accepted; default 10), and a
 * value out of range is an error, not clamped; `cursor` is kept when it is
 * a non-empty string. `null` counts as absent.
 *
 * @throws ToolError `invalid_arguments` naming the field and what it accepts.
 * @example
 * normalizeRegistrySearch({ query: " pdf ", limit: 5 }); // { query: "pdf", sort: "downloads", limit: 5 }
 */
export function normalizeRegistrySearch(input: { query?: unknown; sort?: unknown; limit?: unknown; cursor?: unknown }): NormalizedRegistrySearch {
  const query = readQuery(input.query);
  const sort = readSort(input.sort);
  const limit = readLimit(input.limit);
  const cursor = readCursor(input.cursor);
  return cursor === undefined ? { query, sort, limit } : { query, sort, limit, cursor };
}

function readQuery(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw invalid(`"query" must be a string of search words, not ${typeName(value)}.`);
  return value.trim();
}

function readSort(value: unknown): SkillRegistrySort {
  const choices = SKILL_REGISTRY_SORTS.join(", ");
  if (value === undefined || value === null || value === "") return "downloads";
  if (typeof value !== "string") throw invalid(`"sort" must be one of ${choices}; got ${typeName(value)}.`);
  const sort = SKILL_REGISTRY_SORTS.find((choice) => choice === value.trim().toLowerCase());
  if (sort === undefined) throw invalid(`"sort" must be one of ${choices}; got ${JSON.stringify(value)}.`);
  return sort;
}

function readLimit(value: unknown): number {
  const { registryLimitMin: min, registryLimitMax: max, registryLimitDefault } = SKILL_LIMITS;
  if (value === undefined || value === null || value === "") return registryLimitDefault;
  const limit = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof limit !== "number" || !Number.isInteger(limit)) {
    throw invalid(`"limit" must be a whole number from ${min} to ${max}; got ${JSON.stringify(value) ?? typeName(value)}.`);
  }
  if (limit < min || limit > max) {
    throw invalid(`"limit" must be from ${min} to ${max}; got ${limit}. For more results, follow the next page's cursor.`);
  }
  return limit;
}

function readCursor(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw invalid(`"cursor" must be the cursor string of a previous page, not ${typeName(value)}.`);
  return value;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  return value === null ? "null" : `a ${typeof value}`;
}

function invalid(message: string): ToolError {
  return new ToolError("invalid_arguments", message);
}
