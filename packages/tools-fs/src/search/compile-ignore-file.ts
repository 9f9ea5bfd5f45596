/** The bundle's bounded cache of compiled ignore files (see `SearchCaches.ignoreFiles`). */
import { CompiledIgnoreFile } from "./gitignore-matcher.js";
import { SearchCaches } from "./search-caches.js";

/**
 * The compiled rules of an ignore file's text, from the bundle's bounded
 * cache (many directories share a text); without `caches`, compiled afresh.
 */
export function compileIgnoreFile(text: string, caches?: SearchCaches): CompiledIgnoreFile {
  if (!caches) return new CompiledIgnoreFile(text);
  const cache = caches.ignoreFiles;
  let compiled = cache.get(text);
  if (!compiled) {
    compiled = new CompiledIgnoreFile(text);
    if (caches.isClosed) return compiled;
    if (cache.size >= SearchCaches.FILE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(text, compiled);
  }
  return compiled;
}
