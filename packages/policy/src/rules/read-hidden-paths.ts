/**
 * The paths `Read(...)` deny and ask rules keep from the model, as data a
 * process outside the policy can evaluate (the language servers' fs guard
 * of @agent-tools/lsp): each rule's anchor resolved to absolute bases, its
 * minimatch globs and options, and the file of the minimatch the policy
 * uses, so the guard matches exactly what `matchPathPattern` matches for a
 * path.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { type PathBases, type PathPattern, compilePathPattern } from "./path-pattern.js";
import { type LayeredPermissionSettings, PERMISSION_LAYERS, type PermissionSettings, checkPermissionSettings } from "./permission-settings.js";
import { parseRuleText } from "./rule-grammar.js";
import type { HiddenPathData } from "@agent-tools/core/internal";

export type { HiddenPathData };

const MINIMATCH = createRequire(import.meta.url).resolve("minimatch");

/** Rules that decide a Read of a path (LSP is judged as a Read of its path). */
const READ_TOOLS = new Set(["Read", "LSP"]);

function basesOf(pattern: PathPattern, bases: PathBases): readonly string[] {
  if (pattern.anchor === "absolute") return ["/"];
  if (pattern.anchor === "home") return bases.home;
  if (pattern.anchor === "root") return bases.roots.get(pattern.alias ?? "") ?? [];
  return bases.workdir.map((dir) => path.resolve(dir, ...Array.from({ length: pattern.up }, () => "..")));
}

/**
 * The deny and ask rules of `given` on Read (or LSP) with their paths as
 * data. A rule without a specifier hides every path (base `/`).
 */
export function readHiddenPaths(given: PermissionSettings | LayeredPermissionSettings, bases: PathBases, nocase: boolean): HiddenPathData[] {
  const settings = checkPermissionSettings(given);
  const out: HiddenPathData[] = [];
  for (const list of ["deny", "ask"] as const) {
    for (const layer of PERMISSION_LAYERS) {
      for (const [index, text] of (settings[layer]?.[list] ?? []).entries()) {
        const parsed = parseRuleText(text, `permissions.${layer}.${list}[${index}]`);
        if (!READ_TOOLS.has(parsed.tool)) continue;
        if (parsed.specifier === undefined) {
          out.push({ rule: text, bases: ["/"], self: true, globs: ["**"], options: { dot: true }, minimatch: MINIMATCH });
          continue;
        }
        const pattern = compilePathPattern(text, parsed.specifier);
        const matchers = nocase ? pattern.matchers.nocase : pattern.matchers.exact;
        const globs = matchers.map((matcher) => matcher.pattern);
        const options = { ...(matchers[0]?.options ?? {}) } as Record<string, boolean>;
        out.push({
          rule: text,
          bases: pattern.anchor === "anywhere" ? null : basesOf(pattern, bases),
          self: pattern.glob === "",
          globs,
          options,
          minimatch: MINIMATCH,
        });
      }
    }
  }
  return out;
}
