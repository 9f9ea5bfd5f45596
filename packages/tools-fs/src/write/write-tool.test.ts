import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { contentHash } from "../shared/content-hash.js";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";

let ws: TestWorkspace;
afterEach(() => ws?.cleanup());

describe("Write", () => {
  it("creates a file and its parents", async () => {
    ws = createTestWorkspace();
    const result = await ws.call("Write", { path: "deep/er/new.md", content: "# Title\n" });
    expect(result.isError).toBe(false);
    expect(result.text).toBe("File created successfully at: deep/er/new.md");
    expect(readFileSync(`${ws.dir}/deep/er/new.md`, "utf8")).toBe("# Title\n");
    expect(result.details).toMatchObject({
      kind: "write",
      existedBefore: false,
      bytesWritten: 8,
      totalLines: 1,
      contentHash: contentHash(Buffer.from("# Title\n")),
      preview: "# Title\n",
      autoRead: false,
    });
  });

  it("auto-reads an existing file it has not read, then updates it atomically keeping its mode", async () => {
    ws = createTestWorkspace({ "script.sh": "echo old\n" });
    chmodSync(`${ws.dir}/script.sh`, 0o750);
    const result = await ws.call("Write", { path: "script.sh", content: "echo new\n" });
    expect(result.text).toBe("File updated successfully at: script.sh\nautoRead=full");
    expect(result.details).toMatchObject({ existedBefore: true, autoRead: true });
    expect(readFileSync(`${ws.dir}/script.sh`, "utf8")).toBe("echo new\n");
    expect(statSync(`${ws.dir}/script.sh`).mode & 0o777).toBe(0o750);
    expect(readdirSync(ws.dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("needs no auto-read after a full Read, and chained writes need no re-read", async () => {
    ws = createTestWorkspace({ "a.txt": "1\n" });
    await ws.call("Read", { path: "a.txt" });
    const first = await ws.call("Write", { path: "a.txt", content: "2\n" });
    expect(first.text).toBe("File updated successfully at: a.txt");
    const second = await ws.call("Write", { path: "a.txt", content: "3\n" });
    expect(second.isError).toBe(false);
    expect(readFileSync(`${ws.dir}/a.txt`, "utf8")).toBe("3\n");
  });

  it("refuses a stale file changed after the last Read", async () => {
    ws = createTestWorkspace({ "a.txt": "original\n" });
    await ws.call("Read", { path: "a.txt" });
    writeFileSync(`${ws.dir}/a.txt`, "changed elsewhere\n");
    const result = await ws.call("Write", { path: "a.txt", content: "mine\n" });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "stale_file" });
    expect(result.text).toContain("changed on disk after your last Read");
    expect(readFileSync(`${ws.dir}/a.txt`, "utf8")).toBe("changed elsewhere\n");
  });

  it("accepts a touched but unchanged file (hash decides)", async () => {
    ws = createTestWorkspace({ "a.txt": "same\n" });
    await ws.call("Read", { path: "a.txt" });
    const later = new Date(Date.now() + 5000);
    const { utimesSync } = await import("node:fs");
    utimesSync(`${ws.dir}/a.txt`, later, later);
    expect((await ws.call("Write", { path: "a.txt", content: "new\n" })).isError).toBe(false);
  });

  it("requires a full Read for files over 5000 lines", async () => {
    const content = Array.from({ length: 6000 }, (_, index) => `l${index}`).join("\n");
    ws = createTestWorkspace({ "long.txt": content });
    const result = await ws.call("Write", { path: "long.txt", content: "short\n" });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "requires_full_read", totalLines: 6000 });
    expect(result.text).toContain('Call Read with path="long.txt" and limit=6000');
    await ws.call("Read", { path: "long.txt", limit: 6000 });
    expect((await ws.call("Write", { path: "long.txt", content: "short\n" })).isError).toBe(false);
  });

  it("refuses a known-large file without auto-reading", async () => {
    const content = Array.from({ length: 5200 }, (_, index) => `l${index}`).join("\n");
    ws = createTestWorkspace({ "long.txt": content });
    await ws.call("Read", { path: "long.txt", limit: 10 });
    const result = await ws.call("Write", { path: "long.txt", content: "x" });
    expect(result.text).toContain("exceeds the automatic full-read limit (5000)");
  });

  it("guides when the target is a directory", async () => {
    ws = createTestWorkspace({ "docs/a.md": "x" });
    const result = await ws.call("Write", { path: "docs", content: "x" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('path="docs/notes.md"');
  });

  it("refuses paths outside the workspace and .. segments", async () => {
    ws = createTestWorkspace();
    const outside = await ws.call("Write", { path: "/etc/agent-tools-test.txt", content: "x" });
    expect(outside.details).toMatchObject({ code: "out_of_bounds" });
    const dotdot = await ws.call("Write", { path: "../escape.txt", content: "x" });
    expect(dotdot.details).toMatchObject({ code: "invalid_path" });
    expect(existsSync(`${ws.dir}/../escape.txt`)).toBe(false);
  });

  it("requires path and content and rejects unknown keys, ignoring the legacy mode", async () => {
    ws = createTestWorkspace();
    expect((await ws.call("Write", { path: "a.txt" })).isError).toBe(true);
    expect((await ws.call("Write", { content: "x" })).isError).toBe(true);
    const unknown = await ws.call("Write", { path: "a.txt", content: "x", colour: "red" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("colour");
    expect((await ws.call("Write", { path: "a.txt", content: "x", mode: "rewrite" })).isError).toBe(false);
  });

  it("shortens the preview of long content", async () => {
    ws = createTestWorkspace();
    const result = await ws.call("Write", { path: "long.txt", content: "z".repeat(800) });
    expect((result.details as { preview: string }).preview).toBe(`${"z".repeat(500)}...(800 chars total)...`);
  });
});
