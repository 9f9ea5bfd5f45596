import { describe, expect, it } from "vitest";
import { validateCronRequests } from "./cron-request-input.js";
import { type CronTaskFieldsInput, type CronTaskInputContext, validateCronTaskPatch, validateNewCronTask } from "./cron-task-input.js";
import { testTask } from "../__fixtures__/cron-test-tasks.js";
import type { CronTask } from "./cron-types.js";

const NOW = Date.UTC(2026, 0, 1, 10, 0, 0);
const CONTEXT: CronTaskInputContext = { workdir: "/repo", currentModelId: "model-a", now: NOW };
const BASH: CronTaskFieldsInput = { name: "backup", cron: "0 0 3 * * *", type: "bash", script: "./backup.sh" };
const HTTP: CronTaskFieldsInput = { name: "ping", cron: "0 */5 * * * *", type: "http", requests: [{ url: "https://example.com/hook" }] };
const PROMPT: CronTaskFieldsInput = { name: "digest", cron: "0 0 9 * * MON-FRI", type: "prompt", prompt: "Summarise the open issues." };

function ok<T>(check: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!check.ok) throw new Error(`expected ok, got: ${check.message}`);
  return check.value;
}

function failure(check: { ok: boolean; message?: string }): string {
  expect(check.ok).toBe(false);
  return check.message ?? "";
}

/** A stored task of the given fields (the shared fixture's defaults otherwise). */
function stored(fields: Partial<CronTask> & Pick<CronTask, "type">): CronTask {
  return testTask({ id: "cron_1", ...fields });
}

describe("validateNewCronTask", () => {
  it("fills the defaults of a bash task and pins the current workspace", () => {
    expect(ok(validateNewCronTask(BASH, CONTEXT))).toEqual({
      name: "backup",
      description: "",
      cron: "0 0 3 * * *",
      enabled: true,
      remainingExecutions: null,
      timeoutSeconds: 300,
      type: "bash",
      script: "./backup.sh",
      workdir: "/repo",
    });
  });

  it("keeps given values, trims the name and normalises the schedule's spacing; stores the time zone", () => {
    const task = ok(
      validateNewCronTask(
        {
          ...BASH,
          name: "  backup  ",
          cron: " 0  0 3 * *\t* ",
          enabled: false,
          remaining_executions: 0,
          timeout_seconds: 600,
          workdir: "/srv/data",
          description: "d",
        },
        { ...CONTEXT, timeZone: "Europe/Berlin" },
      ),
    );
    expect(task).toMatchObject({
      name: "backup",
      cron: "0 0 3 * * *",
      enabled: false,
      remainingExecutions: 0,
      timeoutSeconds: 600,
      workdir: "/srv/data",
      description: "d",
      timeZone: "Europe/Berlin",
    });
  });

  it("resolves an empty workdir to the current workspace and accepts Windows absolute paths", () => {
    expect(ok(validateNewCronTask({ ...BASH, workdir: "" }, CONTEXT)).workdir).toBe("/repo");
    expect(ok(validateNewCronTask({ ...BASH, workdir: "   " }, CONTEXT)).workdir).toBe("/repo");
    expect(ok(validateNewCronTask({ ...BASH, workdir: "C:\\work" }, CONTEXT)).workdir).toBe("C:\\work");
    expect(failure(validateNewCronTask({ ...BASH, workdir: "relative/dir" }, CONTEXT))).toContain('workdir "relative/dir" is not an absolute path');
    expect(failure(validateNewCronTask(BASH, { ...CONTEXT, workdir: "here" }))).toContain("not an absolute path");
  });

  it("builds an http task: no workdir, ids assigned, POST by default, method case-insensitive", () => {
    const task = ok(
      validateNewCronTask(
        {
          ...HTTP,
          requests: [
            { url: "https://example.com/a" },
            { url: " http://127.0.0.1:8080/b ", method: "get", headers: { "X-Token": "t" } },
            { url: "https://example.com/c", method: "PUT", body: "{}" },
          ],
        },
        CONTEXT,
      ),
    );
    expect(task.workdir).toBeUndefined();
    expect(task.requests).toEqual([
      { id: "req-1", url: "https://example.com/a", method: "POST" },
      { id: "req-2", url: "http://127.0.0.1:8080/b", method: "GET", headers: { "X-Token": "t" } },
      { id: "req-3", url: "https://example.com/c", method: "PUT", body: "{}" },
    ]);
    expect(failure(validateNewCronTask({ ...HTTP, workdir: "" }, CONTEXT))).toContain("workdir is not used by http tasks; remove it.");
    expect(failure(validateNewCronTask({ ...HTTP, workdir: "/x" }, CONTEXT))).toContain("workdir is not used by http tasks");
  });

  it("pins the current model with reasoning medium on prompt tasks and refuses them without one", () => {
    const task = ok(validateNewCronTask(PROMPT, CONTEXT));
    expect(task).toMatchObject({ type: "prompt", prompt: "Summarise the open issues.", selectedModel: "model-a", reasoning: "medium", workdir: "/repo" });
    expect(ok(validateNewCronTask({ ...PROMPT, timeout_seconds: 3600 }, CONTEXT)).timeoutSeconds).toBe(3600);
    for (const currentModelId of [undefined, " "]) {
      expect(failure(validateNewCronTask(PROMPT, { ...CONTEXT, currentModelId }))).toContain("none is selected; select a model");
    }
  });

  it("requires name, cron and type, listing every missing one", () => {
    const message = failure(validateNewCronTask({}, CONTEXT));
    expect(message).toContain("name is required");
    expect(message).toContain("cron is required");
    expect(message).toContain("type is required; use bash");
    expect(failure(validateNewCronTask({ ...BASH, name: "  " }, CONTEXT))).toContain("name is empty");
    expect(failure(validateNewCronTask({ ...BASH, name: "n".repeat(201) }, CONTEXT))).toContain("name has 201 characters; shorten it to at most 200");
    expect(failure(validateNewCronTask({ ...BASH, description: "d".repeat(2001) }, CONTEXT))).toContain("description has 2001 characters");
  });

  it("refuses an unknown time zone of the host", () => {
    expect(failure(validateNewCronTask(BASH, { ...CONTEXT, timeZone: "Mars/Olympus" }))).toContain('the schedule\'s time zone "Mars/Olympus" is unknown');
  });

  it("refuses invalid and never-firing schedules", () => {
    expect(failure(validateNewCronTask({ ...BASH, cron: "*/5 * * * *" }, CONTEXT))).toContain("has 5 fields");
    expect(failure(validateNewCronTask({ ...BASH, cron: "0 0 0 31 2 *" }, CONTEXT))).toContain("never fires");
  });

  it("checks remaining_executions and timeout_seconds per type", () => {
    for (const value of [-1, 1.5]) {
      expect(failure(validateNewCronTask({ ...BASH, remaining_executions: value }, CONTEXT))).toContain("remaining_executions must be a whole number >= 0");
    }
    expect(ok(validateNewCronTask({ ...BASH, remaining_executions: null }, CONTEXT)).remainingExecutions).toBeNull();
    expect(ok(validateNewCronTask({ ...BASH, remaining_executions: 5 }, CONTEXT)).remainingExecutions).toBe(5);
    for (const [fields, max] of [
      [{ ...BASH, timeout_seconds: 601 }, 600],
      [{ ...HTTP, timeout_seconds: 601 }, 600],
      [{ ...PROMPT, timeout_seconds: 3601 }, 3600],
      [{ ...BASH, timeout_seconds: 0 }, 600],
      [{ ...BASH, timeout_seconds: 2.5 }, 600],
    ] as const) {
      expect(failure(validateNewCronTask(fields, CONTEXT))).toContain(`from 1 to ${max}`);
    }
    expect(ok(validateNewCronTask({ ...HTTP, timeout_seconds: 1 }, CONTEXT)).timeoutSeconds).toBe(1);
  });

  it("requires each type's own field and refuses the fields of other types", () => {
    expect(failure(validateNewCronTask({ ...BASH, script: undefined }, CONTEXT))).toContain("a bash task needs script");
    expect(failure(validateNewCronTask({ ...BASH, script: " \n" }, CONTEXT))).toContain("script is empty");
    expect(failure(validateNewCronTask({ ...HTTP, requests: undefined }, CONTEXT))).toContain("an http task needs requests");
    expect(failure(validateNewCronTask({ ...PROMPT, prompt: "" }, CONTEXT))).toContain("prompt is empty");
    expect(failure(validateNewCronTask({ ...BASH, prompt: "x" }, CONTEXT))).toContain("prompt belongs to prompt tasks, not bash tasks; remove it.");
    expect(failure(validateNewCronTask({ ...PROMPT, requests: [{ url: "https://e.com" }] }, CONTEXT))).toContain(
      "requests belongs to http tasks, not prompt tasks",
    );
    expect(failure(validateNewCronTask({ ...HTTP, script: "x" }, CONTEXT))).toContain("script belongs to bash tasks, not http tasks");
  });
});

describe("validateCronRequests", () => {
  it("refuses empty lists, too many requests, bad URLs, methods, header names and bodies on GET/HEAD", () => {
    const issues: string[] = [];
    expect(validateCronRequests([], issues)).toBeUndefined();
    expect(
      validateCronRequests(
        Array.from({ length: 21 }, () => ({ url: "https://e.com" })),
        issues,
      ),
    ).toBeUndefined();
    expect(
      validateCronRequests(
        Array.from({ length: 20 }, () => ({ url: "https://e.com" })),
        [],
      ),
    ).toHaveLength(20);
    expect(
      validateCronRequests(
        [
          { url: "/relative" },
          { url: "ftp://e.com/x" },
          { url: "https://e.com", method: "TRACE" },
          { url: "https://e.com", headers: { "Bad Header": "x" } },
          { url: "https://e.com", method: "GET", body: "x" },
          { url: "https://e.com", method: "head", body: "" },
        ],
        issues,
      ),
    ).toBeUndefined();
    expect(issues).toEqual([
      'requests is empty; give at least one request, e.g. [{"url": "https://example.com/hook"}].',
      "requests has 21 entries; an http task sends at most 20. Split them over several tasks.",
      'requests[1].url "/relative" is not an absolute URL; give one such as "https://example.com/hook".',
      'requests[2].url must use http or https (got "ftp").',
      'requests[3].method "TRACE" is not supported; use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (default POST).',
      'requests[4].headers has invalid header name(s) "Bad Header"; use token characters only (e.g. "Content-Type").',
      "requests[5].body cannot be sent with GET; remove the body or use POST, PUT or PATCH.",
      "requests[6].body cannot be sent with HEAD; remove the body or use POST, PUT or PATCH.",
    ]);
  });
});

describe("validateCronTaskPatch", () => {
  const bash = stored({ name: "backup", cron: "0 0 3 * * *", type: "bash", script: "./backup.sh", workdir: "/repo" });
  const http = stored({ name: "ping", cron: "0 */5 * * * *", type: "http", requests: [{ id: "req-1", url: "https://e.com", method: "POST" }] });
  const prompt = stored({
    name: "digest",
    cron: "0 0 9 * * *",
    type: "prompt",
    prompt: "p",
    selectedModel: "old-model",
    reasoning: "medium",
    workdir: "/repo",
    timeoutSeconds: 3600,
  });

  it("needs at least one field", () => {
    expect(failure(validateCronTaskPatch(bash, {}, CONTEXT))).toBe(
      "update needs at least one field to change: name, description, cron, type, enabled, remaining_executions, timeout_seconds, script, requests, prompt, workdir.",
    );
  });

  it("patches only the given fields", () => {
    expect(ok(validateCronTaskPatch(bash, { enabled: false }, CONTEXT))).toEqual({ enabled: false });
    expect(ok(validateCronTaskPatch(bash, { remaining_executions: null, name: " nightly ", cron: "0 0 4 * * *" }, CONTEXT))).toEqual({
      remainingExecutions: null,
      name: "nightly",
      cron: "0 0 4 * * *",
    });
    expect(ok(validateCronTaskPatch(bash, { script: "echo 2", timeout_seconds: 10, workdir: "" }, CONTEXT))).toEqual({
      script: "echo 2",
      timeoutSeconds: 10,
      workdir: "/repo",
    });
    expect(ok(validateCronTaskPatch(http, { requests: [{ url: "https://e.com/1" }, { url: "https://e.com/2", method: "DELETE" }] }, CONTEXT))).toEqual({
      requests: [
        { id: "req-1", url: "https://e.com/1", method: "POST" },
        { id: "req-2", url: "https://e.com/2", method: "DELETE" },
      ],
    });
    // The same type given again is not a type change.
    expect(ok(validateCronTaskPatch(bash, { type: "bash" }, CONTEXT))).toEqual({});
    // A type change clears what only the old type used (null: the store deletes the field).
    expect(ok(validateCronTaskPatch(bash, { type: "http", requests: [{ url: "https://e.com/h" }] }, CONTEXT))).toEqual({
      type: "http",
      requests: [{ id: "req-1", url: "https://e.com/h", method: "POST" }],
      script: null,
      workdir: null,
    });
    expect(ok(validateCronTaskPatch(prompt, { type: "bash", script: "echo", timeout_seconds: 60 }, CONTEXT))).toMatchObject({
      type: "bash",
      script: "echo",
      prompt: null,
      selectedModel: null,
      reasoning: null,
    });
    // A prompt change keeps the pinned model.
    expect(ok(validateCronTaskPatch(prompt, { prompt: "new" }, { ...CONTEXT, currentModelId: undefined }))).toEqual({ prompt: "new" });
  });

  it("validates every given field like create", () => {
    expect(failure(validateCronTaskPatch(bash, { cron: "* * * * *" }, CONTEXT))).toContain("has 5 fields");
    expect(failure(validateCronTaskPatch(bash, { name: "" }, CONTEXT))).toContain("name is empty");
    expect(failure(validateCronTaskPatch(bash, { remaining_executions: -2 }, CONTEXT))).toContain("remaining_executions");
    expect(failure(validateCronTaskPatch(bash, { timeout_seconds: 601 }, CONTEXT))).toContain("from 1 to 600");
    expect(ok(validateCronTaskPatch(prompt, { timeout_seconds: 3600 }, CONTEXT))).toEqual({ timeoutSeconds: 3600 });
    expect(failure(validateCronTaskPatch(bash, { script: "" }, CONTEXT))).toContain("script is empty");
    expect(failure(validateCronTaskPatch(bash, { workdir: "rel" }, CONTEXT))).toContain("not an absolute path");
    expect(failure(validateCronTaskPatch(http, { workdir: "/x" }, CONTEXT))).toContain("workdir is not used by http tasks");
    expect(failure(validateCronTaskPatch(bash, { requests: [{ url: "https://e.com" }] }, CONTEXT))).toContain("requests belongs to http tasks, not bash tasks");
    expect(failure(validateCronTaskPatch(http, { prompt: "x" }, CONTEXT))).toContain("prompt belongs to prompt tasks, not http tasks");
  });

  it("a type change must bring the new type's field and drops nothing silently", () => {
    expect(failure(validateCronTaskPatch(bash, { type: "http" }, CONTEXT))).toContain("an http task needs requests");
    expect(failure(validateCronTaskPatch(bash, { type: "http", requests: [{ url: "https://e.com" }], script: "x" }, CONTEXT))).toContain(
      "script belongs to bash tasks, not http tasks",
    );
    expect(ok(validateCronTaskPatch(bash, { type: "http", requests: [{ url: "https://e.com" }] }, CONTEXT))).toEqual({
      type: "http",
      requests: [{ id: "req-1", url: "https://e.com", method: "POST" }],
      script: null,
      workdir: null,
    });
    // http -> bash pins the current workspace unless a workdir is given.
    expect(ok(validateCronTaskPatch(http, { type: "bash", script: "ls" }, CONTEXT))).toEqual({ type: "bash", script: "ls", workdir: "/repo", requests: null });
    expect(ok(validateCronTaskPatch(http, { type: "bash", script: "ls", workdir: "/tmp" }, CONTEXT))).toMatchObject({ workdir: "/tmp" });
    // bash -> prompt pins the current model; without one it is refused.
    expect(ok(validateCronTaskPatch(bash, { type: "prompt", prompt: "hi" }, CONTEXT))).toEqual({
      type: "prompt",
      prompt: "hi",
      selectedModel: "model-a",
      reasoning: "medium",
      script: null,
    });
    expect(failure(validateCronTaskPatch(bash, { type: "prompt", prompt: "hi" }, { ...CONTEXT, currentModelId: undefined }))).toContain("none is selected");
  });

  it("checks the kept timeout against the new type's limit", () => {
    expect(failure(validateCronTaskPatch(prompt, { type: "bash", script: "ls" }, CONTEXT))).toContain(
      "the task's timeout_seconds 3600 is out of range for a bash task; give a whole number of seconds from 1 to 600.",
    );
    expect(ok(validateCronTaskPatch(prompt, { type: "bash", script: "ls", timeout_seconds: 60 }, CONTEXT))).toEqual({
      type: "bash",
      script: "ls",
      timeoutSeconds: 60,
      prompt: null,
      selectedModel: null,
      reasoning: null,
    });
  });
});
