/**
 * The page cache of one registry: converted pages by URL (the one asked
 * for and the final one after redirects), kept for a TTL, bounded in
 * entries and characters, least recently used dropped first. Owned by the
 * bundle; nothing global.
 */
import type { ConvertedContent } from "./content/convert-content.js";

/** One cached page. */
export interface CachedPage {
  readonly finalUrl: string;
  readonly status: number;
  readonly contentType: string | undefined;
  readonly bytes: number;
  readonly truncated: boolean;
  /** The byte cap it was fetched with (a cut page does not answer a call with a larger cap). */
  readonly maxBytes: number;
  readonly content: ConvertedContent;
}

/** Limits of the cache. */
export interface WebFetchCacheOptions {
  /** Default 15 minutes. */
  readonly ttlMs?: number;
  /** Default 50. */
  readonly maxEntries?: number;
  /** Characters of page text kept at most, default 50 Mi. */
  readonly maxChars?: number;
}

/** The cache; see {@link createWebFetchCache}. */
export interface WebFetchCache {
  get(url: string, maxBytes: number): CachedPage | undefined;
  set(urls: readonly string[], page: CachedPage): void;
  clear(): void;
}

/** Default TTL of a cached page. */
export const WEB_FETCH_CACHE_TTL_MS = 15 * 60_000;

/** Builds a cache; `now` is the clock (tests move it). */
export function createWebFetchCache(options: WebFetchCacheOptions = {}, now: () => number = Date.now): WebFetchCache {
  const ttlMs = options.ttlMs ?? WEB_FETCH_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? 50;
  const maxChars = options.maxChars ?? 50 * 1024 * 1024;
  // Map order is recency: a hit moves its key to the end.
  const entries = new Map<string, { page: CachedPage; expires: number }>();
  const charsOf = () => {
    let total = 0;
    for (const { page } of new Set(entries.values())) total += page.content.text.length;
    return total;
  };
  return {
    get(url, maxBytes) {
      const entry = entries.get(url);
      if (entry === undefined) return undefined;
      if (entry.expires <= now() || (entry.page.truncated && entry.page.maxBytes < maxBytes)) {
        entries.delete(url);
        return undefined;
      }
      entries.delete(url);
      entries.set(url, entry);
      return entry.page;
    },
    set(urls, page) {
      if (ttlMs <= 0 || page.content.text.length > maxChars) return;
      const entry = { page, expires: now() + ttlMs };
      for (const url of urls) {
        entries.delete(url);
        entries.set(url, entry);
      }
      while (entries.size > maxEntries || charsOf() > maxChars) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
      }
    },
    clear: () => entries.clear(),
  };
}
