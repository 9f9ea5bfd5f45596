import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type TestWorkspace, createTestWorkspace } from "../__fixtures__/workspace.js";

let ws: TestWorkspace;
afterEach(async () => {
  await ws?.registry.close();
  ws?.cleanup();
});

function canMknod(): boolean {
  try {
    execFileSync("mknod", ["--help"], { stdio: "ignore" });
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== "linux")("special files (FIFO, socket, device)", () => {
  it("refuses a FIFO in Read, Edit and Write at once, and other calls keep working", async () => {
    ws = createTestWorkspace({ "plain.txt": "hello\n" });
    for (let index = 0; index < 4; index += 1) execFileSync("mkfifo", [path.join(ws.dir, `pipe${index}`)]);
    // Four at once used to occupy every libuv pool thread with a blocked open.
    const calls = [0, 1, 2, 3].map((index) => ws.call("Edit", { path: `pipe${index}`, old_string: "a", new_string: "b" }));
    calls.push(ws.call("Read", { path: "pipe0" }), ws.call("Write", { path: "pipe1", content: "x" }), ws.call("Image", { path: "pipe2" }));
    const results = await Promise.all(calls);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "unsupported_target" });
      expect(result.text).toContain("named pipe (FIFO)");
    }
    const read = await ws.call("Read", { path: "plain.txt" });
    expect(read.isError).toBe(false);
    expect(read.text).toContain("hello");
  });

  it("refuses a socket", async () => {
    ws = createTestWorkspace();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(ws.dir, "sock"), resolve));
    try {
      for (const [tool, args] of [
        ["Read", {}],
        ["Edit", { old_string: "a", new_string: "b" }],
        ["Write", { content: "x" }],
      ] as const) {
        const result = await ws.call(tool, { path: "sock", ...args });
        expect(result.isError).toBe(true);
        expect(result.text).toContain("a socket");
      }
    } finally {
      server.close();
    }
  });

  it.skipIf(!canMknod())("refuses a character device", async () => {
    ws = createTestWorkspace();
    execFileSync("mknod", [path.join(ws.dir, "null-device"), "c", "1", "3"]);
    for (const [tool, args] of [
      ["Read", {}],
      ["Edit", { old_string: "a", new_string: "b" }],
      ["Write", { content: "x" }],
    ] as const) {
      const result = await ws.call(tool, { path: "null-device", ...args });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("a character device");
    }
  });

  it("Delete refuses a FIFO too (only files, directories and symlinks)", async () => {
    ws = createTestWorkspace();
    execFileSync("mkfifo", [path.join(ws.dir, "pipe")]);
    const result = await ws.call("Delete", { path: "pipe" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("named pipe (FIFO)");
  });
});

describe("staleness check with ctime and inode", () => {
  it("refuses a Write after an external same-size change that restored the exact mtime", async () => {
    ws = createTestWorkspace({ "a.txt": "version one\n" });
    expect((await ws.call("Read", { path: "a.txt" })).isError).toBe(false);
    const file = path.join(ws.dir, "a.txt");
    const reference = path.join(ws.dir, "reference");
    execFileSync("cp", ["--preserve=timestamps", file, reference]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(file, "version two\n"); // same size
    execFileSync("touch", ["-m", "-r", reference, file]); // mtime restored to the nanosecond
    const write = await ws.call("Write", { path: "a.txt", content: "model's version\n" });
    expect(write.isError).toBe(true);
    expect(write.details).toMatchObject({ code: "stale_file" });
    expect(readFileSync(file, "utf8")).toBe("version two\n");
    const edit = await ws.call("Edit", { path: "a.txt", old_string: "version", new_string: "v" });
    expect(edit.details).toMatchObject({ code: "stale_file" });
  });

  it("still accepts a file that was only touched", async () => {
    ws = createTestWorkspace({ "a.txt": "same\n" });
    await ws.call("Read", { path: "a.txt" });
    execFileSync("touch", [path.join(ws.dir, "a.txt")]);
    const write = await ws.call("Write", { path: "a.txt", content: "new\n" });
    expect(write.isError).toBe(false);
  });
});
