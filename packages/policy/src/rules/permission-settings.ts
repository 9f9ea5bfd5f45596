/**
 * The host's permission settings (Claude Code's `permissions` block, alone or
 * in layers) and the check that reads them once: every unknown key, wrong
 * type or wrong case is an `SdkError` naming it with the closest valid name,
 * so a mistyped setting can never fail open.
 */
import { SdkError } from "@agent-tools/core";
import { closestName, previewForMessage } from "@agent-tools/core/internal";

/** Every permission mode, as Claude Code names them. */
export const PERMISSION_MODES = Object.freeze(["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"] as const);

/** How calls no rule decides are treated (see docs/policy.md). */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** One settings block: rule lists and a mode. */
export interface PermissionSettings {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
  readonly defaultMode?: PermissionMode;
  /** `"disable"` refuses `bypassPermissions` in every layer. */
  readonly disableBypassPermissionsMode?: "disable";
}

/** The layers, in precedence order: managed (the host's), then user, then project. */
export interface LayeredPermissionSettings {
  readonly managed?: PermissionSettings;
  readonly user?: PermissionSettings;
  readonly project?: PermissionSettings;
}

/** The layer names in precedence order. */
export const PERMISSION_LAYERS = Object.freeze(["managed", "user", "project"] as const);

/** Where a rule came from. */
export type PermissionLayer = (typeof PERMISSION_LAYERS)[number];

/** The rule lists, in the order they are checked. */
export const RULE_LISTS = Object.freeze(["deny", "ask", "allow"] as const);

/** One rule list's name. */
export type RuleListName = (typeof RULE_LISTS)[number];

/** Checked settings: always layered, frozen, own properties only. */
export type CheckedPermissionSettings = Readonly<Partial<Record<PermissionLayer, Readonly<PermissionSettings>>>>;

const SETTINGS_KEYS = ["allow", "ask", "deny", "defaultMode", "disableBypassPermissionsMode"];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));

/**
 * Throws for a key `Object.keys` does not list (a symbol, or a property that
 * is not enumerable): it would be skipped silently, its rules never applied.
 */
function refuseHiddenKeys(value: Record<string, unknown>, where: string): void {
  const hidden = Reflect.ownKeys(value).find((key) => typeof key === "symbol" || !Object.prototype.propertyIsEnumerable.call(value, key));
  if (hidden === undefined) return;
  throw new SdkError(
    "invalid_options",
    `${where} has a key that is not an enumerable string (${String(hidden)}); its setting would be skipped. Give settings as plain enumerable properties.`,
    { option: where },
  );
}

/** True when `value` is the layered shape (has any layer key and no settings key). */
function isLayered(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.some((key) => (PERMISSION_LAYERS as readonly string[]).includes(key)) && !keys.some((key) => SETTINGS_KEYS.includes(key));
}

function unknownKey(where: string, key: string, known: readonly string[]): never {
  if (key === "additionalDirectories") {
    throw new SdkError(
      "invalid_options",
      `${where}.additionalDirectories is not supported here: give extra directories to the registry as \`additionalRoots\` (they are then reachable as root://<alias>/...).`,
      { option: key, suggestion: "additionalRoots" },
    );
  }
  const suggestion = closestName(key, known);
  throw new SdkError(
    "invalid_options",
    `${where} has an unknown key ${previewForMessage(key, 60)}${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} Known keys: ${known.join(", ")}.`,
    { option: key, ...(suggestion === undefined ? {} : { suggestion }) },
  );
}

function checkRuleList(value: unknown, where: string): readonly string[] {
  if (!Array.isArray(value)) {
    throw new SdkError("invalid_options", `${where} must be an array of rule strings such as "Bash(git status)"; got ${previewForMessage(value, 60)}.`, {
      option: where,
    });
  }
  const rules: string[] = [];
  for (const [index, rule] of value.entries()) {
    if (typeof rule !== "string") {
      throw new SdkError("invalid_options", `${where}[${index}] is ${previewForMessage(rule, 60)}; every rule must be a string such as "Read(src/**)".`, {
        option: where,
        index,
      });
    }
    rules.push(rule);
  }
  return Object.freeze(rules);
}

function checkBlock(value: unknown, where: string): Readonly<PermissionSettings> {
  if (!isPlainObject(value)) throw new SdkError("invalid_options", `${where} must be an object { allow?, ask?, deny?, defaultMode? }.`, { option: where });
  refuseHiddenKeys(value, where);
  const out: { -readonly [Key in keyof PermissionSettings]: PermissionSettings[Key] } = {};
  for (const key of Object.keys(value)) {
    if (!SETTINGS_KEYS.includes(key)) unknownKey(where, key, SETTINGS_KEYS);
    const item = value[key];
    if (item === undefined) continue;
    if (key === "allow" || key === "ask" || key === "deny") out[key] = checkRuleList(item, `${where}.${key}`);
    else if (key === "defaultMode") out.defaultMode = checkMode(item, `${where}.defaultMode`);
    else if (item !== "disable") {
      throw new SdkError("invalid_options", `${where}.disableBypassPermissionsMode is ${previewForMessage(item, 60)}; the only value is "disable".`, {
        option: `${where}.disableBypassPermissionsMode`,
      });
    } else out.disableBypassPermissionsMode = "disable";
  }
  return Object.freeze(out);
}

function checkMode(value: unknown, where: string): PermissionMode {
  if ((PERMISSION_MODES as readonly unknown[]).includes(value)) return value as PermissionMode;
  const suggestion = typeof value === "string" ? closestName(value, PERMISSION_MODES) : undefined;
  throw new SdkError(
    "invalid_options",
    `${where} is ${previewForMessage(value, 60)}${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} Modes: ${PERMISSION_MODES.join(", ")}.`,
    { option: where, ...(suggestion === undefined ? {} : { suggestion }) },
  );
}

/**
 * Checks the host's `permissions` option (one block, or `{ managed, user,
 * project }`) and returns a frozen layered copy; a single block is the
 * `project` layer. Throws `SdkError` (`invalid_options`) for an unknown key
 * (with the closest name), a list that is not an array of strings, an invalid
 * mode, or `additionalDirectories` (pointing at `additionalRoots`).
 *
 * @example
 * checkPermissionSettings({ alow: ["Bash"] }); // throws: permissions has an unknown key "alow"; did you mean `allow`?
 */
export function checkPermissionSettings(given: unknown): CheckedPermissionSettings {
  if (given === undefined) return Object.freeze({});
  if (!isPlainObject(given)) {
    throw new SdkError("invalid_options", "permissions must be an object { allow?, ask?, deny?, defaultMode? } or { managed?, user?, project? }.", {
      option: "permissions",
    });
  }
  refuseHiddenKeys(given, "permissions");
  const keys = Object.keys(given);
  const layerKey = keys.find((key) => (PERMISSION_LAYERS as readonly string[]).includes(key));
  const settingsKey = keys.find((key) => SETTINGS_KEYS.includes(key));
  if (layerKey !== undefined && settingsKey !== undefined) {
    throw new SdkError(
      "invalid_options",
      `permissions mixes a layer (\`${layerKey}\`) with settings (\`${settingsKey}\`): give either one block { allow, ask, deny, defaultMode } or the layers { managed, user, project }, each such a block.`,
      { option: settingsKey },
    );
  }
  if (!isLayered(given)) return Object.freeze({ project: checkBlock(given, "permissions") });
  const out: Partial<Record<PermissionLayer, Readonly<PermissionSettings>>> = {};
  for (const key of Object.keys(given)) {
    if (!(PERMISSION_LAYERS as readonly string[]).includes(key)) unknownKey("permissions", key, [...PERMISSION_LAYERS, ...SETTINGS_KEYS]);
    if (given[key] === undefined) continue;
    out[key as PermissionLayer] = checkBlock(given[key], `permissions.${key}`);
  }
  return Object.freeze(out);
}
