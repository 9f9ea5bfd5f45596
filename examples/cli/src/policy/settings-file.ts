/**
 * `--settings <file>`: permission rules and hooks from a JSON file in the
 * shape of Claude Code's `settings.json`. Only `permissions` and `hooks` are
 * read; the other keys such a file holds (`env`, `model`, ...) are listed so
 * the CLI can say once that it ignores them. What is inside `permissions`
 * and `hooks` goes to `buildBuiltinToolRegistry` as it is (apart from the
 * hooks' timeouts, see {@link convertSettingsHooks}), so the SDK's own checks
 * (unknown tools and keys, wrong case, patterns that never match) apply and
 * fail closed.
 */
import { readFileSync } from "node:fs";
import type { BuiltinToolRegistryOptions } from "@agent-tools/sdk";
import { UsageError } from "../cli-options.js";
import { convertSettingsHooks } from "./settings-hooks.js";

/** What the CLI takes from a settings file. */
export interface CliPolicySettings {
  /** The file's `permissions` block, as written. */
  permissions?: BuiltinToolRegistryOptions["permissions"];
  /** The file's `hooks`, with Claude Code's `timeout` (seconds) turned into `timeoutMs`. */
  hooks?: BuiltinToolRegistryOptions["hooks"];
  /** Top-level keys this CLI does not use (`env`, `model`, ...), in file order. */
  ignoredKeys: string[];
}

/** The top-level keys the CLI reads. `$schema` only names the file's JSON Schema: neither used nor worth a warning. */
const READ_KEYS = new Set(["permissions", "hooks"]);
const SILENT_KEYS = new Set(["$schema"]);

/**
 * Reads a settings file. A file that cannot be read, is not JSON, or is not
 * a JSON object is a usage error naming the file; so is a hook whose kind
 * cannot come from JSON (see {@link convertSettingsHooks}).
 *
 * @example
 * const settings = readSettingsFile("/home/me/project/.claude/settings.json");
 * const registry = await buildBuiltinToolRegistry({ workdir, permissions: settings.permissions, hooks: settings.hooks });
 */
export function readSettingsFile(file: string): CliPolicySettings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--settings ${file}: cannot read it as JSON (${(error as Error).message}).`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(`--settings ${file}: expected a JSON object such as { "permissions": { "allow": [...], "deny": [...] }, "hooks": { ... } }.`);
  }
  const record = parsed as Record<string, unknown>;
  const settings: CliPolicySettings = {
    ignoredKeys: Object.keys(record).filter((key) => !READ_KEYS.has(key) && !SILENT_KEYS.has(key)),
  };
  if (record.permissions !== undefined) settings.permissions = record.permissions as CliPolicySettings["permissions"];
  if (record.hooks !== undefined) {
    try {
      settings.hooks = convertSettingsHooks(record.hooks) as CliPolicySettings["hooks"];
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(`--settings ${file}: ${error.message}`);
    }
  }
  return settings;
}

/**
 * The one line the CLI writes on stderr about keys it ignores, or
 * `undefined` when there are none.
 *
 * @example
 * ignoredKeysNotice("s.json", ["env", "model"]); // "--settings s.json: this CLI ignores env, model (it reads only permissions and hooks)."
 */
export function ignoredKeysNotice(file: string, ignoredKeys: readonly string[]): string | undefined {
  if (ignoredKeys.length === 0) return undefined;
  return `--settings ${file}: this CLI ignores ${ignoredKeys.join(", ")} (it reads only permissions and hooks).`;
}
