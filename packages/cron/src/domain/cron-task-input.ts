/**
 * Validation of the CronTaskManager's create and update inputs into a
 * {@link NewCronTask} or a {@link CronTaskPatch}. Pure: the caller passes
 * the current workspace, the host's current model id and the time. Every
 * problem is reported at once, one English sentence each, naming the field
 * and the fix.
 */
import type { CronTaskPatch, NewCronTask } from "../ports/cron-store.js";
import { type CronHttpRequestInput, validateCronRequests } from "./cron-request-input.js";
import { isValidTimeZone, nextFireTimes, parseCronSchedule } from "./cron-schedule.js";
import { CRON_LIMITS, type CronHttpRequest, type CronReasoning, type CronTask, type CronTaskType } from "./cron-types.js";

/** The task fields of a CronTaskManager call, as the model sends them. */
export interface CronTaskFieldsInput {
  readonly name?: string;
  readonly description?: string;
  readonly cron?: string;
  readonly type?: CronTaskType;
  readonly enabled?: boolean;
  /** null = unlimited. */
  readonly remaining_executions?: number | null;
  readonly timeout_seconds?: number;
  readonly script?: string;
  readonly requests?: readonly CronHttpRequestInput[];
  readonly prompt?: string;
  /** Empty = the current workspace. */
  readonly workdir?: string;
}

/** What validation needs from the host. */
export interface CronTaskInputContext {
  /** The current workspace (absolute): the default workdir of bash and prompt tasks. */
  readonly workdir: string;
  /** The host's current chat model id: pinned on prompt tasks. */
  readonly currentModelId?: string;
  /** Epoch ms: a schedule must fire at least once after it. */
  readonly now: number;
  /** IANA zone the schedule is read in (stored on new tasks); default the process's. */
  readonly timeZone?: string;
}

/** The outcome of a validation: the value, or one message listing every problem. */
export type CronInputCheck<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** The reasoning level every prompt task created by the tool carries. */
export const CRON_PROMPT_REASONING: CronReasoning = "medium";

/** Fields an update may change (at least one is needed). */
export const CRON_UPDATABLE_FIELDS = [
  "name",
  "description",
  "cron",
  "type",
  "enabled",
  "remaining_executions",
  "timeout_seconds",
  "script",
  "requests",
  "prompt",
  "workdir",
] as const satisfies readonly (keyof CronTaskFieldsInput)[];

/** The field each type requires (and the only one of the three it accepts). */
const TYPE_FIELD = { bash: "script", http: "requests", prompt: "prompt" } as const;

const TYPE_FIELD_EXAMPLE = {
  bash: 'script (the bash script to run, e.g. "./backup.sh")',
  http: 'requests (e.g. [{"url": "https://example.com/hook"}])',
  prompt: "prompt (the message the model runs on each fire)",
} as const;

/** Largest `timeout_seconds` of a type. */
export function cronTimeoutMaxSeconds(type: CronTaskType): number {
  return type === "prompt" ? CRON_LIMITS.promptTimeoutMaxSeconds : CRON_LIMITS.timeoutMaxSeconds;
}

function isAbsolutePath(value: string): boolean {
  return value.startsWith("/") || /^[A-Za-z]:[\\/]/.test(value) || value.startsWith("\\\\");
}

function checkText(field: "name" | "description", value: string, max: number, issues: string[]): string {
  const trimmed = value.trim();
  if (field === "name" && trimmed === "") issues.push('name is empty; give the task a short name, e.g. "nightly backup".');
  if (trimmed.length > max) issues.push(`${field} has ${trimmed.length} characters; shorten it to at most ${max}.`);
  return trimmed;
}

function checkCron(cron: string, context: CronTaskInputContext, issues: string[]): string {
  const trimmed = cron.trim().split(/\s+/).join(" ");
  const check = parseCronSchedule(trimmed);
  if (!check.ok) {
    issues.push(check.message);
  } else if (context.timeZone !== undefined && !isValidTimeZone(context.timeZone)) {
    issues.push(`the schedule's time zone "${context.timeZone}" is unknown; ask the user to configure an IANA zone such as "Europe/Berlin".`);
  } else if (nextFireTimes(trimmed, context.now, 1, context.timeZone).length === 0) {
    issues.push(`cron "${trimmed}" never fires (no such date); choose a schedule that matches a real date.`);
  }
  return trimmed;
}

function checkRemaining(value: number | null, issues: string[]): void {
  if (value !== null && (!Number.isSafeInteger(value) || value < 0)) {
    issues.push(`remaining_executions must be a whole number >= 0 and <= ${Number.MAX_SAFE_INTEGER}, or null for unlimited (got ${value}).`);
  }
}

function checkTimeout(value: number, type: CronTaskType, given: boolean, issues: string[]): void {
  const max = cronTimeoutMaxSeconds(type);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    const source = given ? `timeout_seconds ${value}` : `the task's timeout_seconds ${value}`;
    issues.push(`${source} is out of range for ${type === "http" ? "an" : "a"} ${type} task; give a whole number of seconds from 1 to ${max}.`);
  }
}

function checkTypeFields(input: CronTaskFieldsInput, type: CronTaskType, issues: string[]): void {
  for (const [otherType, field] of Object.entries(TYPE_FIELD) as [CronTaskType, keyof CronTaskFieldsInput][]) {
    if (otherType !== type && input[field] !== undefined) {
      issues.push(`${field} belongs to ${otherType} tasks, not ${type} tasks; remove it.`);
    }
  }
  if (type === "http" && input.workdir !== undefined) issues.push("workdir is not used by http tasks; remove it.");
}

function checkWorkdir(workdir: string | undefined, context: CronTaskInputContext, issues: string[]): string {
  const resolved = workdir === undefined || workdir.trim() === "" ? context.workdir : workdir.trim();
  if (!isAbsolutePath(resolved)) {
    issues.push(`workdir "${resolved}" is not an absolute path; give an absolute directory, or an empty string for the current workspace.`);
  }
  return resolved;
}

interface TypeFields {
  script?: string;
  requests?: CronHttpRequest[];
  prompt?: string;
}

/** Validates the type's own field when given; `required` adds an issue when it is missing. */
function checkOwnField(input: CronTaskFieldsInput, type: CronTaskType, required: boolean, issues: string[]): TypeFields {
  const field = TYPE_FIELD[type];
  if (input[field] === undefined) {
    if (required) issues.push(`${type === "http" ? "an" : "a"} ${type} task needs ${TYPE_FIELD_EXAMPLE[type]}.`);
    return {};
  }
  if (type === "http") {
    const requests = validateCronRequests(input.requests ?? [], issues);
    return requests === undefined ? {} : { requests };
  }
  const text = (type === "bash" ? input.script : input.prompt) ?? "";
  if (text.trim() === "") issues.push(`${field} is empty; give ${TYPE_FIELD_EXAMPLE[type]}.`);
  return type === "bash" ? { script: text } : { prompt: text };
}

function promptModel(context: CronTaskInputContext, issues: string[]): { selectedModel?: string; reasoning?: CronReasoning } {
  if (context.currentModelId === undefined || context.currentModelId.trim() === "") {
    issues.push("a prompt task runs on the current chat model, and none is selected; select a model in the chat, then create the task again.");
    return {};
  }
  return { selectedModel: context.currentModelId, reasoning: CRON_PROMPT_REASONING };
}

function result<T>(issues: readonly string[], value: T): CronInputCheck<T> {
  return issues.length === 0 ? { ok: true, value } : { ok: false, message: issues.join(" ") };
}

/**
 * Validates a create: `name`, `cron` and `type` are required, plus the
 * type's own field (`script`, `requests` or `prompt`). Defaults: enabled
 * true, remaining_executions null (unlimited), timeout_seconds 300,
 * description "", workdir the current workspace (bash and prompt). Prompt
 * tasks pin the current model with reasoning `medium`.
 *
 * @example
 * validateNewCronTask({ name: "ping", cron: "0 *\/5 * * * *", type: "bash", script: "echo hi" }, { workdir: "/repo", now: Date.now() });
 */
export function validateNewCronTask(input: CronTaskFieldsInput, context: CronTaskInputContext): CronInputCheck<NewCronTask> {
  const issues: string[] = [];
  if (input.name === undefined) issues.push('name is required; give the task a short name, e.g. "nightly backup".');
  if (input.cron === undefined) issues.push('cron is required; give six fields "second minute hour day-of-month month day-of-week", e.g. "0 */5 * * * *".');
  if (input.type === undefined) issues.push("type is required; use bash (runs script), http (sends requests) or prompt (runs prompt on the current model).");
  const name = input.name === undefined ? "" : checkText("name", input.name, CRON_LIMITS.nameMaxChars, issues);
  const description = checkText("description", input.description ?? "", CRON_LIMITS.descriptionMaxChars, issues);
  const cron = input.cron === undefined ? "" : checkCron(input.cron, context, issues);
  const remainingExecutions = input.remaining_executions ?? null;
  checkRemaining(remainingExecutions, issues);
  const type = input.type;
  if (type === undefined) return result(issues, undefined as never);
  const timeoutSeconds = input.timeout_seconds ?? CRON_LIMITS.timeoutDefaultSeconds;
  checkTimeout(timeoutSeconds, type, true, issues);
  checkTypeFields(input, type, issues);
  const own = checkOwnField(input, type, true, issues);
  const workdir = type === "http" ? undefined : checkWorkdir(input.workdir, context, issues);
  const model = type === "prompt" ? promptModel(context, issues) : {};
  return result<NewCronTask>(issues, {
    name,
    description,
    cron,
    enabled: input.enabled ?? true,
    remainingExecutions,
    timeoutSeconds,
    type,
    ...own,
    ...model,
    ...(workdir === undefined ? {} : { workdir }),
    ...(context.timeZone === undefined ? {} : { timeZone: context.timeZone }),
  });
}

/** The fields a type change leaves behind, as `null` (cleared by the store): the old type's own fields that the new type does not use. */
function clearedFieldsOf(from: CronTask["type"], to: CronTask["type"]): CronTaskPatch {
  const cleared: { -readonly [K in keyof CronTaskPatch]: CronTaskPatch[K] } = {};
  if (from === "bash") cleared.script = null;
  if (from === "http") cleared.requests = null;
  if (from === "prompt") Object.assign(cleared, { prompt: null, selectedModel: null, reasoning: null });
  if (to === "http") cleared.workdir = null;
  return cleared;
}

/**
 * Validates an update of `current`: at least one field; a type change must
 * bring the new type's field (and a prompt type needs a current model);
 * fields of other types are refused, and the old type's fields are cleared
 * on a type change; the timeout is checked against the
 * (new) type's limit; requests given replace the old ones (ids renumbered).
 *
 * @example
 * validateCronTaskPatch(task, { enabled: false }, { workdir: "/repo", now: Date.now() }); // { ok: true, value: { enabled: false } }
 */
export function validateCronTaskPatch(current: CronTask, input: CronTaskFieldsInput, context: CronTaskInputContext): CronInputCheck<CronTaskPatch> {
  const issues: string[] = [];
  if (CRON_UPDATABLE_FIELDS.every((field) => input[field] === undefined)) {
    return { ok: false, message: `update needs at least one field to change: ${CRON_UPDATABLE_FIELDS.join(", ")}.` };
  }
  const type = input.type ?? current.type;
  const typeChanged = type !== current.type;
  const patch: { -readonly [K in keyof CronTaskPatch]: CronTaskPatch[K] } = {};
  if (input.name !== undefined) patch.name = checkText("name", input.name, CRON_LIMITS.nameMaxChars, issues);
  if (input.description !== undefined) patch.description = checkText("description", input.description, CRON_LIMITS.descriptionMaxChars, issues);
  if (input.cron !== undefined) patch.cron = checkCron(input.cron, context, issues);
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  if (input.remaining_executions !== undefined) {
    checkRemaining(input.remaining_executions, issues);
    patch.remainingExecutions = input.remaining_executions;
  }
  if (input.timeout_seconds !== undefined || typeChanged) {
    const timeoutSeconds = input.timeout_seconds ?? current.timeoutSeconds;
    checkTimeout(timeoutSeconds, type, input.timeout_seconds !== undefined, issues);
    if (input.timeout_seconds !== undefined) patch.timeoutSeconds = timeoutSeconds;
  }
  if (typeChanged) patch.type = type;
  checkTypeFields(input, type, issues);
  Object.assign(patch, checkOwnField(input, type, typeChanged, issues));
  if (type !== "http" && (input.workdir !== undefined || (typeChanged && current.workdir === undefined))) {
    patch.workdir = checkWorkdir(input.workdir, context, issues);
  }
  if (typeChanged && type === "prompt") Object.assign(patch, promptModel(context, issues));
  if (typeChanged) Object.assign(patch, clearedFieldsOf(current.type, type));
  return result<CronTaskPatch>(issues, patch);
}
