import type { ToolAnnotations, ToolGroupId, ToolKind, ToolMetadata } from "../types.js";

/** The keys a tool's `annotations` may hold. */
export const TOOL_ANNOTATION_KEYS = Object.freeze(["readOnly", "destructive", "idempotent", "openWorld", "listedInPlanMode"] as const);

/** What a kind implies for a state-changing tool that declares no annotations. */
interface KindDefaults {
  readonly destructive?: true;
  readonly idempotent?: true;
  readonly listedInPlanMode?: true;
}

/**
 * What each kind implies for a state-changing tool that declares no
 * annotations: kinds that overwrite, delete, run commands or stop processes
 * are destructive; a write or delete repeated has the effect of one; asking
 * the user, presenting a plan, starting (read-only, in plan mode) agents and
 * messaging them are what plan mode is for. Exhaustive over
 * {@link ToolKind}, so a new kind must say.
 */
const KIND_DEFAULTS: Readonly<Record<ToolKind, KindDefaults>> = Object.freeze({
  read: {},
  list: {},
  search: {},
  image: {},
  write: { destructive: true, idempotent: true },
  edit: { destructive: true },
  delete: { destructive: true, idempotent: true },
  execute: { destructive: true },
  process: { destructive: true },
  stop: { destructive: true },
  wait: {},
  task_create: {},
  task_list: {},
  task_update: {},
  memory: {},
  skills: {},
  cron: {},
  manage: {},
  ask_user: { listedInPlanMode: true },
  exit_plan_mode: { listedInPlanMode: true },
  http_get: {},
  mcp: {},
  agent: { listedInPlanMode: true },
  message: { listedInPlanMode: true },
  custom: {},
});

/** Groups that say whether their tools reach beyond the workspace: shell commands and MCP servers do, file tools do not. */
const GROUP_OPEN_WORLD: ReadonlyMap<ToolGroupId, boolean> = new Map([
  ["shell", true],
  ["mcp", true],
  ["fs", false],
]);

/**
 * The annotations of a tool that declares none: read-only as `isReadOnly`
 * says; listed in plan mode when read-only or of a kind plan mode is for
 * (`ask_user`, `exit_plan_mode`, `agent`, `message`); destructive and
 * idempotent as its kind implies (only for tools that change state);
 * open-world for the `shell` and `mcp` groups and not for `fs`; what none of
 * these tells stays undeclared (MCP clients then assume their defaults).
 *
 * @example
 * defaultToolAnnotations({ groupId: "fs", kind: "write", isReadOnly: false, displayCategory: "file" });
 * // { readOnly: false, listedInPlanMode: false, destructive: true, idempotent: true, openWorld: false }
 */
export function defaultToolAnnotations(metadata: Pick<ToolMetadata, "groupId" | "kind" | "isReadOnly">): ToolAnnotations {
  const readOnly = metadata.isReadOnly === true;
  const { listedInPlanMode, ...effects } = readOnly || !Object.hasOwn(KIND_DEFAULTS, metadata.kind) ? {} : KIND_DEFAULTS[metadata.kind];
  const openWorld = GROUP_OPEN_WORLD.get(metadata.groupId);
  return { readOnly, listedInPlanMode: readOnly || listedInPlanMode === true, ...effects, ...(openWorld === undefined ? {} : { openWorld }) };
}

/**
 * The annotations approval, plan mode, the MCP server and the AI SDK adapter
 * go by: the declared ones, or {@link defaultToolAnnotations}. Fail-closed
 * for definitions that bypass `defineTool`'s checks: read-only only when
 * both `annotations.readOnly` and `isReadOnly` say so, listed in plan mode
 * only for exactly `true`.
 *
 * @example
 * resolveToolAnnotations(registry.metadataByName.Read!).readOnly; // true
 */
export function resolveToolAnnotations(metadata: ToolMetadata): ToolAnnotations {
  const declared = metadata.annotations;
  if (declared === undefined || declared === null || typeof declared !== "object") return defaultToolAnnotations(metadata);
  const readOnly = declared.readOnly === true && metadata.isReadOnly === true;
  const out: { -readonly [Key in keyof ToolAnnotations]: ToolAnnotations[Key] } = { readOnly, listedInPlanMode: declared.listedInPlanMode === true };
  if (typeof declared.destructive === "boolean") out.destructive = declared.destructive;
  if (typeof declared.idempotent === "boolean") out.idempotent = declared.idempotent;
  if (typeof declared.openWorld === "boolean") out.openWorld = declared.openWorld;
  return out;
}
