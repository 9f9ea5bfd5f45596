import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolEvent } from "@agent-tools/core";
import { createHarness, detailsOf, textOf } from "./__fixtures__/harness.js";

let harness: ReturnType<typeof createHarness>;
afterEach(async () => {
  await harness?.cleanup();
});

describe("Bash (resumable) and ProcessWait", () => {
  it("offers Bash, ProcessWait, ProcessStop and ManagedProcess in chat, and only the synchronous Bash in cron", async () => {
    harness = createHarness("chat");
    expect(harness.registry.tools.map((tool) => tool.name)).toEqual(["Bash", "ProcessWait", "ProcessStop", "ManagedProcess"]);
    const bash = harness.registry.tools[0]!.inputSchema;
    expect(Object.keys(bash.properties ?? {})).toEqual(["command", "cwd", "timeout_ms", "yield_time_ms"]);
    expect(bash.additionalProperties).toBe(false);
    expect(harness.registry.metadataByName.ProcessWait).toMatchObject({ groupId: "shell", isReadOnly: true });
    const cron = createHarness("cron");
    expect(cron.registry.tools.map((tool) => tool.name)).toEqual(["Bash"]);
    expect(Object.keys(cron.registry.tools[0]!.inputSchema.properties ?? {})).toEqual(["command", "cwd", "timeout_ms"]);
    await cron.cleanup();
  });

  it("returns a finished command with separate stdout and stderr", async () => {
    harness = createHarness();
    const result = await harness.call("Bash", { command: "echo out; echo err >&2; exit 0" });
    const details = detailsOf(result);
    expect(result.isError).toBe(false);
    expect(details).toMatchObject({
      status: "completed",
      exit_code: 0,
      output_truncated: false,
      has_more: false,
      yield_time_ms: 10_000,
      timeout_ms: null,
      max_timeout_ms: 600_000,
    });
    expect(details.session_id).toMatch(/^bash-[0-9a-f-]{36}$/);
    const text = textOf(result);
    expect(text).toContain("# Shell Session\nstatus: completed");
    expect(text).toMatch(/stdout:\nout\n/);
    expect(text).toMatch(/stderr:\nerr\n/);
    expect(text).toMatch(/session_duration_ms: \d+/);
    expect(text).not.toMatch(/^duration_ms:/m);
  });

  it("reports a non-zero exit as failed (an error) with its exit code", async () => {
    harness = createHarness();
    const result = await harness.call("Bash", { command: "echo nope >&2; exit 7" });
    expect(result.isError).toBe(true);
    expect(detailsOf(result)).toMatchObject({ status: "failed", exit_code: 7 });
    expect(textOf(result)).toContain("exit_code: 7");
  });

  it("pages 70 KiB as 65536 + 6144 bytes through ProcessWait", async () => {
    harness = createHarness();
    const first = await harness.call("Bash", { command: "head -c 71680 /dev/zero | tr '\\0' x" });
    const details = detailsOf(first);
    expect(details.cursor).toBe(65_536);
    expect(details.output[0].text).toBe("x".repeat(65_536));
    expect(textOf(first)).toContain(`ProcessWait(session_id="${details.session_id}", cursor=65536)`);
    if (details.status === "completed") expect(details.has_more).toBe(true);
    const second = await harness.call("ProcessWait", { session_id: details.session_id, cursor: 65_536 });
    expect(detailsOf(second)).toMatchObject({ status: "completed", cursor: 71_680, has_more: false, output_truncated: false });
    expect(detailsOf(second).output).toEqual([{ stream: "stdout", text: "x".repeat(6144) }]);
  });

  it("sets output_truncated when the history the caller asked for was evicted", async () => {
    harness = createHarness();
    const first = await harness.call("Bash", { command: "head -c 3000000 /dev/zero | tr '\\0' y; echo; echo tail-marker" });
    let details = detailsOf(first);
    expect(details.cursor).toBe(65_536);
    let latest = first;
    while (detailsOf(latest).status === "running") {
      latest = await harness.call("ProcessWait", { session_id: details.session_id, cursor: detailsOf(latest).next_cursor });
    }
    const evicted = await harness.call("ProcessWait", { session_id: details.session_id, cursor: details.cursor });
    expect(detailsOf(evicted).output_truncated).toBe(true);
    expect(detailsOf(evicted).cursor).toBe(3_000_013 - 1024 * 1024 + 65_536);
    expect(textOf(evicted)).toContain("output_truncated: true");
    details = detailsOf(evicted);
    const tail = await harness.call("ProcessWait", { session_id: details.session_id, cursor: details.next_cursor - 12 });
    expect(detailsOf(tail).output_truncated).toBe(false);
    expect(detailsOf(tail).output[0].text).toBe("tail-marker\n");
    const old = await harness.call("ProcessWait", { session_id: details.session_id, cursor: 10 });
    expect(detailsOf(old).output_truncated).toBe(true);
  });

  it("returns a command that never prints at its yield time, and ProcessWait too", async () => {
    harness = createHarness();
    const first = await harness.call("Bash", { command: "tail -f /dev/null", yield_time_ms: 1 });
    const details = detailsOf(first);
    expect(details).toMatchObject({ status: "running", cursor: 0, output: [], exit_code: null, yield_time_ms: 250 });
    expect(first.isError).toBe(false);
    expect(textOf(first)).toContain(`Continue with ProcessWait(session_id="${details.session_id}", cursor=0). Do not call Bash sleep`);
    const waited = await harness.call("ProcessWait", { session_id: details.session_id, cursor: 0, yield_time_ms: 10 });
    expect(detailsOf(waited)).toMatchObject({ status: "running", cursor: 0, yield_time_ms: 5_000 });
    expect(detailsOf(waited).duration_ms).toBeGreaterThanOrEqual(details.duration_ms);
    const stopped = await harness.call("ProcessStop", { session_id: details.session_id });
    expect(stopped.isError).toBe(false);
    expect(detailsOf(stopped).status).toBe("cancelled");
  });

  it("clamps ProcessWait's yield to 300000 and floors the cursor", async () => {
    harness = createHarness();
    const first = await harness.call("Bash", { command: "printf abcdef" });
    const waited = await harness.call("ProcessWait", { session_id: detailsOf(first).session_id, cursor: 2.7, yield_time_ms: 999_999 });
    expect(detailsOf(waited)).toMatchObject({ yield_time_ms: 300_000, cursor: 6, status: "completed" });
    expect(detailsOf(waited).output[0].text).toBe("cdef");
    const negative = await harness.call("ProcessWait", { session_id: detailsOf(first).session_id, cursor: -1 });
    expect(negative.isError).toBe(true);
  });

  it("clamps the hard timeout to at least 1000 ms and reports timed_out as an error", async () => {
    harness = createHarness();
    const first = await harness.call("Bash", { command: "tail -f /dev/null", timeout_ms: 5, yield_time_ms: 250 });
    expect(detailsOf(first).timeout_ms).toBe(1_000);
    let result = first;
    while (detailsOf(result).status === "running") {
      result = await harness.call("ProcessWait", { session_id: detailsOf(first).session_id, cursor: detailsOf(result).cursor });
    }
    expect(detailsOf(result)).toMatchObject({ status: "timed_out", exit_code: -1, timeout_ms: 1_000 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("timeout_ms: 1000");
  });

  it("refuses a leading sleep, a bare background job and an unknown session with guidance", async () => {
    harness = createHarness();
    const sleep = await harness.call("Bash", { command: "sleep 5 && ls" });
    expect(sleep.isError).toBe(true);
    expect(textOf(sleep)).toMatch(/ProcessWait/);
    const background = await harness.call("Bash", { command: "tail -f /dev/null &" });
    expect(background.isError).toBe(true);
    expect(textOf(background)).toMatch(/nohup/);
    const missing = await harness.call("ProcessWait", { session_id: "bash-unknown" });
    expect(textOf(missing)).toContain("shell session not found or expired: bash-unknown");
    const uuid = await harness.call("ProcessStop", { session_id: "0b6f3e8c-1d2a-4b5c-8d9e-0f1a2b3c4d5e" });
    expect(textOf(uuid)).toContain('ManagedProcess(action="wait"|"read_log"|"stop", process_id="0b6f3e8c');
    const invalid = await harness.call("ProcessWait", { session_id: "bash id with spaces" });
    expect(textOf(invalid)).toMatch(/session_id must be 1-128 characters/);
    const extra = await harness.call("Bash", { command: "true", shell: "zsh" });
    expect(textOf(extra)).toMatch(/shell/);
    expect(extra.isError).toBe(true);
  });

  it("runs in cwd (workspace-relative or absolute) and refuses a missing one", async () => {
    harness = createHarness();
    const result = await harness.call("Bash", { command: "pwd", cwd: "." });
    expect(detailsOf(result).output[0].text.trim()).toBe(harness.workdir);
    const missing = await harness.call("Bash", { command: "pwd", cwd: "no/such/dir" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/does not exist/);
  });

  it("streams output deltas through onUpdate while the command runs", async () => {
    harness = createHarness();
    const events: ToolEvent[] = [];
    const result = await harness.call("Bash", { command: "for i in 1 2 3; do echo line$i; sleep 0.2; done" }, { onEvent: (event) => events.push(event) });
    expect(detailsOf(result).status).toBe("completed");
    const deltas = events.filter((event) => event.type === "tool-output-delta");
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    const streamed = deltas.map((event) => (event.type === "tool-output-delta" ? event.update.text : "")).join("");
    expect(streamed).toBe("line1\nline2\nline3\n");
    expect(events.at(-1)!.type).toBe("tool-call-end");
  });

  it("a session id stays readable after the command ended, with a frozen duration", async () => {
    harness = createHarness();
    const first = await harness.call("Bash", { command: "echo done" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await harness.call("ProcessWait", { session_id: detailsOf(first).session_id, cursor: 0 });
    expect(detailsOf(again).duration_ms).toBe(detailsOf(first).duration_ms);
    expect(detailsOf(again).output[0].text).toBe("done\n");
  });

  it("keeps a multi-byte character whole across chunks and streams", async () => {
    harness = createHarness();
    const script = path.join(harness.workdir, "split.js");
    writeFileSync(
      script,
      "const b = Buffer.from('€'); process.stdout.write(b.subarray(0, 1)); setTimeout(() => { process.stderr.write('E'); process.stdout.write(b.subarray(1)); }, 100);\n",
    );
    const result = await harness.call("Bash", { command: `${JSON.stringify(process.execPath)} split.js` });
    expect(detailsOf(result).output).toEqual([
      { stream: "stderr", text: "E" },
      { stream: "stdout", text: "€" },
    ]);
  });
});
