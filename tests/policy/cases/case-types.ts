/**
 * The shape of one row of the permission decision table (issue 35): a rule
 * set, one call, and the decision the documented semantics give it
 * (Claude Code's permission rules as adopted in docs/policy.md and the
 * lead's design). Rows are data: decision-table.test.ts runs each through
 * `registry.policy.explain` and `executeToolCall` on a real temp tree.
 *
 * Strings in `permissions`, `call.input`, `setup` and `rule` may hold tokens
 * the runner replaces: `{work}` the canonical workdir, `{out}` a folder
 * outside every root, `{extra}` the folder granted as `root://shared`,
 * `{data}` the registry's dataDir, `{home}` the user's home directory and
 * `{n}` the row's index (for names no other row uses). All four folders are
 * absolute, so `//{out}/x` is written `/{out}/x` (a rule starting `//`).
 */

/** A decision of the table. */
export type Decision = "allow" | "ask" | "deny";

/** Claude Code's settings `permissions` block, as the host passes it. */
export interface PermissionSettingsData {
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
  defaultMode?: "default" | "acceptEdits" | "plan" | "dontAsk" | "bypassPermissions";
  disableBypassPermissionsMode?: "disable";
}

/** The layered form: host-managed, user and project settings. */
export interface PermissionLayersData {
  managed?: PermissionSettingsData;
  user?: PermissionSettingsData;
  project?: PermissionSettingsData;
}

/** The registry's existing approval options (without `onAsk`, which the runner adds). */
export interface ApprovalData {
  policies?: Readonly<Record<string, Decision>>;
  defaultDecision?: Decision;
}

/** Files, folders and symlinks a row needs on top of the group's fixture tree (paths relative to the workdir unless they start with a token). */
export interface CaseSetup {
  dirs?: readonly string[];
  files?: Readonly<Record<string, string>>;
  /** link path -> target (as written into the link). */
  symlinks?: Readonly<Record<string, string>>;
}

/** One row of the table. */
export interface PolicyCase {
  name: string;
  permissions: PermissionSettingsData | PermissionLayersData;
  approval?: ApprovalData;
  call: { tool: string; input: Readonly<Record<string, unknown>> };
  expected: Decision;
  /** On a case-insensitive file system, when the decision differs there. */
  expectedCaseInsensitive?: Decision;
  /** The deciding rule as written (after token replacement), when one decides. */
  rule?: string;
  /** The deciding layer (`managed`, `user`, `project`, `mode`, `approval`, ...), when asserted. */
  layer?: string;
  setup?: CaseSetup;
  /** Set (with the reason) when the call must not run even if the policy wrongly allowed it: only `explain` and an `ask` registry see it. */
  explainOnly?: string;
  /** A point the design leaves open ("decide and document") that this row takes a side on. */
  open?: string;
}

/** Rows that share registry needs. */
export interface CaseGroup {
  group: string;
  /** Start the fixture MCP servers (`github`, `gitlab`) for these rows. */
  mcp?: boolean;
  cases: readonly PolicyCase[];
}

/** Approval fallback that asks for every tool that is not read-only (so "no rule allowed it" shows as `ask`). */
export const ASK_FALLBACK: ApprovalData = Object.freeze({ defaultDecision: "ask" });

/**
 * Approval fallback that allows (so a row shows that a deny or ask rule does
 * not reach a call). Without it a call no rule matches asks when its tool
 * reaches outside the conversation (docs/policy.md, "Rules").
 */
export const ALLOW_FALLBACK: ApprovalData = Object.freeze({ defaultDecision: "allow" });
