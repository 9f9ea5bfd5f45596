import { describe, expect, it } from "vitest";
import { CRON_HTTP_BODY_PREVIEW_CHARS, capRunOutput, describeHttpResults } from "./cron-run-output.js";
import { CRON_LIMITS } from "./cron-types.js";

describe("capRunOutput", () => {
  it("returns output up to the cap unchanged", () => {
    expect(capRunOutput("")).toBe("");
    const exact = "a".repeat(CRON_LIMITS.outputMaxChars);
    expect(capRunOutput(exact)).toBe(exact);
  });

  it("keeps the head and the tail around a marker counting the cut characters, within the cap", () => {
    const text = `${"h".repeat(30_000)}${"m".repeat(10_000)}${"t".repeat(30_000)}`;
    const capped = capRunOutput(text);
    expect(capped.length).toBeLessThanOrEqual(CRON_LIMITS.outputMaxChars);
    expect(capped.length).toBeGreaterThan(CRON_LIMITS.outputMaxChars - 10);
    const match = /^(h+)\n\.\.\.\[(\d+) characters truncated\]\.\.\.\n(t+)$/.exec(capped);
    expect(match).not.toBeNull();
    const [, head, cut, tail] = match!;
    expect(head!.length + Number(cut) + tail!.length).toBe(text.length);
    expect(Math.abs(head!.length - tail!.length)).toBeLessThanOrEqual(1);
  });

  it("honours a small cap, falling back to the head when even the marker does not fit", () => {
    const capped = capRunOutput("0123456789".repeat(10), 60);
    expect(capped.length).toBeLessThanOrEqual(60);
    expect(capped).toMatch(/^0123\d*\n\.\.\.\[\d+ characters truncated\]\.\.\.\n\d*789$/);
    expect(capRunOutput("0123456789".repeat(10), 5)).toBe("01234");
  });
});

describe("describeHttpResults", () => {
  it("prints one block per request: method, url, status, time and the body preview, or the error", () => {
    const text = describeHttpResults([
      { request: { method: "POST", url: "https://example.com/hook" }, status: 200, durationMs: 35, body: '{"ok":true}' },
      { request: { method: "HEAD", url: "https://example.com/" }, status: 404, durationMs: 4, body: "" },
      { request: { method: "GET", url: "http://127.0.0.1:9/x" }, durationMs: 5000, error: "connect ECONNREFUSED 127.0.0.1:9" },
      { request: { method: "GET", url: "http://127.0.0.1:9/y" }, durationMs: 1 },
    ]);
    expect(text).toBe(
      [
        "1. POST https://example.com/hook -> 200 (35 ms)",
        '{"ok":true}',
        "2. HEAD https://example.com/ -> 404 (4 ms)",
        "3. GET http://127.0.0.1:9/x -> failed (5000 ms): connect ECONNREFUSED 127.0.0.1:9",
        "4. GET http://127.0.0.1:9/y -> failed (1 ms): no response",
      ].join("\n"),
    );
  });

  it("shows the first 2048 characters of a long body, then the marker", () => {
    const body = `${"b".repeat(CRON_HTTP_BODY_PREVIEW_CHARS)}TAIL`;
    const text = describeHttpResults([{ request: { method: "GET", url: "https://e.com" }, status: 200, durationMs: 1, body }]);
    expect(text).toBe(`1. GET https://e.com -> 200 (1 ms)\n${"b".repeat(CRON_HTTP_BODY_PREVIEW_CHARS)}...[truncated]`);
    expect(describeHttpResults([])).toBe("No requests were sent.");
  });
});
