/**
 * Checks a registry's approval options when it is created. A rule that names
 * nothing (a misspelt or wrongly cased tool name, an unknown server or group)
 * would silently not apply, and an invalid value used to act as `ask`: both
 * are host mistakes, so they throw `SdkError` naming the key and the closest
 * valid name instead of failing open.
 */
import { SdkError } from "../errors.js";
import { previewForMessage, shortenForMessage } from "../quote.js";
import { TOOL_GROUP_IDS, type ToolBundle } from "../types.js";
import { APPROVAL_DECISIONS, type ApprovalDecision, type ApprovalOptions, isApprovalDecision } from "./approval-policy.js";
import { closestName } from "./closest-name.js";

/** Everything the approval rules of one registry may name. */
export interface ApprovalVocabulary {
  /** Exact tool names. */
  readonly toolNames: ReadonlySet<string>;
  /** Prefixes of tool names that arrive later (see `BundleApprovalTargets`). */
  readonly toolNamePrefixes: readonly string[];
  readonly serverIds: ReadonlySet<string>;
  readonly groupIds: ReadonlySet<string>;
  /** Keys the host vouches for whatever they name (`knownApprovalKeys`). */
  readonly knownKeys: ReadonlySet<string>;
}

/** A rule accepted only by a name prefix: its tool has not arrived yet. */
export interface DeferredApprovalKey {
  readonly key: string;
  readonly prefix: string;
}

/** Checked, snapshotted approval options and the keys to look at again once their tools arrive. */
export interface CheckedApproval {
  readonly approval: ApprovalOptions | undefined;
  readonly deferredKeys: readonly DeferredApprovalKey[];
}

const APPROVAL_OPTION_KEYS = ["policies", "defaultDecision", "onAsk"];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));

/**
 * What the rules may name: every tool every bundle lists now (in any scope,
 * so one rule set serves a chat and a cron registry), the servers and groups
 * those tools carry, what bundles declare through `approvalTargets`, the
 * SDK's groups ({@link TOOL_GROUP_IDS}) and the host's `knownKeys`.
 */
export function approvalVocabulary(bundles: readonly ToolBundle[], knownKeys: readonly string[] = []): ApprovalVocabulary {
  const toolNames = new Set<string>();
  const toolNamePrefixes: string[] = [];
  const serverIds = new Set<string>();
  const groupIds = new Set<string>(TOOL_GROUP_IDS);
  for (const bundle of bundles) {
    for (const tool of bundle.listTools()) {
      toolNames.add(tool.name);
      groupIds.add(tool.metadata.groupId);
      if (tool.metadata.serverId !== undefined) serverIds.add(tool.metadata.serverId);
    }
    const targets = bundle.approvalTargets?.();
    for (const name of targets?.toolNames ?? []) toolNames.add(name);
    for (const prefix of targets?.toolNamePrefixes ?? []) if (prefix !== "") toolNamePrefixes.push(prefix);
    for (const id of targets?.serverIds ?? []) serverIds.add(id);
    for (const id of targets?.groupIds ?? []) groupIds.add(id);
  }
  return { toolNames, toolNamePrefixes, serverIds, groupIds, knownKeys: new Set(knownKeys) };
}

/**
 * A one-time copy of a host's approval options: their own properties only
 * (an inherited `onAsk`, `policies` or `defaultDecision`, e.g. from a
 * polluted `Object.prototype`, is no option), `policies` copied to a frozen
 * object without a prototype, each getter read exactly once. Everything
 * that reads the host's rules (a registry, a worktree child's registry built
 * later from the same options) reads such a copy, so a getter that changes
 * its answer or a mutation after the build reaches no registry. A value that
 * is not a plain object is returned as it is, for the check to refuse.
 *
 * @example
 * const approval = snapshotApprovalOptions(options.approval); // read once, shared by parent and children
 */
export function snapshotApprovalOptions(approval: unknown): unknown {
  if (!isPlainObject(approval)) return approval;
  // No prototype: an own "__proto__" key (JSON.parse makes one) stays a key, for the check to name.
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(approval)) copy[key] = approval[key];
  if (isPlainObject(copy.policies)) {
    const policies: Record<string, unknown> = Object.create(null);
    for (const [key, value] of Object.entries(copy.policies)) policies[key] = value;
    copy.policies = Object.freeze(policies);
  }
  return Object.freeze(copy);
}

/**
 * Validates `approval` against the vocabulary (built on first need) and returns a frozen copy (the
 * registry reads the copy, so a later change of the host's object cannot
 * slip an unchecked rule in). Throws `SdkError` (`invalid_options`) for an
 * unknown option, a rule key that names nothing, a value that is not exactly
 * `allow`, `ask` or `deny`, or an `onAsk` that is not a function.
 *
 * @example
 * checkApprovalOptions({ policies: { bash: "deny" } }, () => vocabulary); // throws: ... did you mean `Bash`?
 */
export function checkApprovalOptions(given: unknown, vocabularyOf: () => ApprovalVocabulary): CheckedApproval {
  const approval = snapshotApprovalOptions(given);
  if (approval === undefined) return { approval: undefined, deferredKeys: [] };
  if (!isPlainObject(approval)) throw new SdkError("invalid_options", "approval must be an object { policies?, defaultDecision?, onAsk? }.");
  for (const key of Object.keys(approval)) {
    if (APPROVAL_OPTION_KEYS.includes(key)) continue;
    const suggestion = closestName(key, APPROVAL_OPTION_KEYS);
    throw new SdkError(
      "invalid_options",
      `approval has an unknown option ${previewForMessage(key, 60)}${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} Known options: ${APPROVAL_OPTION_KEYS.join(", ")}.`,
      { option: key, ...(suggestion === undefined ? {} : { suggestion }) },
    );
  }
  const { policies, defaultDecision, onAsk } = approval as ApprovalOptions;
  if (defaultDecision !== undefined) checkDecision(defaultDecision, "approval.defaultDecision", {});
  if (onAsk !== undefined && typeof onAsk !== "function") throw new SdkError("invalid_options", "approval.onAsk must be a function.");
  const deferredKeys: DeferredApprovalKey[] = [];
  let checkedPolicies: Readonly<Record<string, ApprovalDecision>> | undefined;
  if (policies !== undefined) {
    if (!isPlainObject(policies))
      throw new SdkError("invalid_options", "approval.policies must be an object of rules: { <tool name> | server:<id> | group:<id>: allow | ask | deny }.");
    const copy: Record<string, ApprovalDecision> = Object.create(null);
    // Built only when there are rules to check: it lists every bundle's tools.
    const entries = Object.entries(policies);
    const vocabulary = entries.length === 0 ? undefined : vocabularyOf();
    for (const [key, value] of entries) {
      checkDecision(value, `approval.policies[${previewForMessage(key, 60)}]`, { key });
      const deferred = checkKey(key, vocabulary!);
      if (deferred !== undefined) deferredKeys.push(deferred);
      copy[key] = value as ApprovalDecision;
    }
    checkedPolicies = Object.freeze(copy);
  }
  // No prototype: a polluted Object.prototype.onAsk (or policies, defaultDecision) is never read through the copy.
  const checked: ApprovalOptions = Object.assign(Object.create(null) as ApprovalOptions, {
    ...(checkedPolicies === undefined ? {} : { policies: checkedPolicies }),
    ...(defaultDecision === undefined ? {} : { defaultDecision }),
    ...(onAsk === undefined ? {} : { onAsk }),
  });
  return { approval: Object.freeze(checked), deferredKeys };
}

function checkDecision(value: unknown, where: string, details: Record<string, unknown>): void {
  if (isApprovalDecision(value)) return;
  const suggestion = typeof value === "string" ? closestName(value, APPROVAL_DECISIONS) : undefined;
  throw new SdkError(
    "invalid_options",
    `${where} is ${previewForMessage(value, 60)}; it must be exactly "allow", "ask" or "deny"${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}.`,
    { ...details, value: typeof value === "string" ? shortenForMessage(value, 200) : typeof value, ...(suggestion === undefined ? {} : { suggestion }) },
  );
}

/** Throws when `key` names nothing; returns the prefix a key was accepted by, if it was. */
function checkKey(key: string, vocabulary: ApprovalVocabulary): DeferredApprovalKey | undefined {
  if (vocabulary.knownKeys.has(key)) return undefined;
  if (key.startsWith("server:")) {
    if (vocabulary.serverIds.has(key.slice("server:".length))) return undefined;
    return unknownKey(
      key,
      "names no MCP server of this registry",
      [...vocabulary.serverIds].map((id) => `server:${id}`),
    );
  }
  if (key.startsWith("group:")) {
    if (vocabulary.groupIds.has(key.slice("group:".length))) return undefined;
    return unknownKey(
      key,
      "names no tool group",
      [...vocabulary.groupIds].map((id) => `group:${id}`),
    );
  }
  if (vocabulary.toolNames.has(key)) return undefined;
  const prefix = vocabulary.toolNamePrefixes.find((candidate) => key.startsWith(candidate) && key.length > candidate.length);
  if (prefix !== undefined) return { key, prefix };
  return unknownKey(key, "names no tool of this registry", [
    ...vocabulary.toolNames,
    ...[...vocabulary.serverIds].map((id) => `server:${id}`),
    ...[...vocabulary.groupIds].map((id) => `group:${id}`),
  ]);
}

function unknownKey(key: string, what: string, candidates: readonly string[]): never {
  const suggestion = closestName(key, candidates);
  throw new SdkError(
    "invalid_options",
    `approval.policies key ${previewForMessage(key, 80)} ${what}${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} Keys are exact, case-sensitive tool names, "server:<id>" or "group:<id>"; a rule that names nothing would silently not apply.`,
    { key: shortenForMessage(key, 200), ...(suggestion === undefined ? {} : { suggestion }) },
  );
}

/**
 * Looks at the rules accepted only by a name prefix once tools carrying that
 * prefix are listed: a rule that still names none of them is logged once
 * (its tool does not exist on that server, so the rule does not apply).
 * Returns the check to run with the current tool names; a no-op once every
 * such rule was looked at.
 */
export function watchDeferredApprovalKeys(
  deferredKeys: readonly DeferredApprovalKey[],
  warn: (message: string, data: Record<string, unknown>) => void,
): (currentNames: () => Iterable<string>) => void {
  const pending = new Map(deferredKeys.map((entry) => [entry.key, entry.prefix]));
  return (currentNames) => {
    if (pending.size === 0) return;
    const names = [...currentNames()];
    for (const [key, prefix] of [...pending]) {
      if (!names.some((name) => name.startsWith(prefix))) continue;
      pending.delete(key);
      if (names.includes(key)) continue;
      const suggestion = closestName(
        key,
        names.filter((name) => name.startsWith(prefix)),
      );
      warn(
        `approval.policies key ${previewForMessage(key, 80)} names no tool: the tools of its server arrived without it${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} The rule does not apply.`,
        { key, ...(suggestion === undefined ? {} : { suggestion }) },
      );
    }
  };
}
