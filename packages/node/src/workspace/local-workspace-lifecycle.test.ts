import { readFileSync, realpathSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Workspace } from "@agent-tools/core/workspace";
import { ExecaProcessRunner, createLocalWorkspace } from "../index.js";
import { crashLocalWriteMidway } from "./__fixtures__/crash-during-write.js";
import { killFixture, startFixture } from "./__fixtures__/spawn-fixture.js";
import { expectCode, rejection, sidecars } from "./__fixtures__/test-helpers.js";

let dir: string;
const opened: Workspace[] = [];
const open = async (root = dir) => {
  const workspace = await createLocalWorkspace({ root });
  opened.push(workspace);
  return workspace;
};

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "local-workspace-")));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((workspace) => workspace.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("createLocalWorkspace: locks", () => {
  it("excludes a second client until release, times out with locked, stops waiting on abort, and close() drops held locks", async () => {
    const first = await open();
    const second = await open();
    const target = path.join(dir, "shared.txt");
    const held = await first.fs.lock(target);
    await expectCode(() => second.fs.lock(target, { timeoutMs: 150 }), "locked");
    const controller = new AbortController();
    const waiting = second.fs.lock(target, { signal: controller.signal, timeoutMs: 60_000 });
    setTimeout(() => controller.abort(), 50);
    expect(((await rejection(() => waiting)) as Error).name).toBe("AbortError");
    await held.release();
    await held.release();
    const next = await second.fs.lock(target, { timeoutMs: 1_000 });
    await second.close();
    const after = await first.fs.lock(target, { timeoutMs: 1_000 });
    await after.release();
    await next.release();
    expect(sidecars(dir)).toEqual([]);
  });

  it("is held across processes and broken once its holder is SIGKILLed", async () => {
    const { fs } = await open();
    const target = path.join(dir, "cross.txt");
    const holder = await startFixture("local-lock-child.ts", [dir, target], "locked");
    try {
      await expectCode(() => fs.lock(target, { timeoutMs: 200 }), "locked");
    } finally {
      await killFixture(holder);
    }
    const lock = await fs.lock(target, { timeoutMs: 10_000 });
    await lock.release();
  });
});

describe("createLocalWorkspace: crash and close", () => {
  it("a writer SIGKILLed mid-write leaves the old or the new file, and the next write succeeds", async () => {
    const workspace = await open();
    const file = path.join(dir, "crash.bin");
    const old = Buffer.alloc(64 * 1024, 7);
    const replacement = Buffer.alloc(32 * 1024 * 1024, 11);
    await workspace.fs.writeFileAtomic(file, old);
    for (let round = 0; round < 3; round += 1) {
      await crashLocalWriteMidway(workspace, file, replacement);
      const after = readFileSync(file);
      expect(after.equals(old) || after.equals(replacement), `torn file of ${after.length} bytes`).toBe(true);
    }
    // The writers died inside a write: their temporary files are left, hidden by the sidecar naming.
    expect(sidecars(dir).some((name) => name.endsWith(".tmp"))).toBe(true);
    await workspace.fs.writeFileAtomic(file, Buffer.from("small\n"));
    expect(readFileSync(file, "utf8")).toBe("small\n");
  });

  it("runs processes in the workspace; close() ends its own runner and refuses every later call with closed", async () => {
    const workspace = await createLocalWorkspace({ root: dir });
    const processes = workspace.processes;
    if (!processes) throw new Error("no processes");
    const pwd = processes.spawn({ command: "pwd", cwd: dir });
    const output: Buffer[] = [];
    pwd.onOutput((chunk) => output.push(chunk.data));
    expect((await pwd.exited).exitCode).toBe(0);
    await pwd.outputClosed;
    expect(Buffer.concat(output).toString().trim()).toBe(dir);
    const sleeper = processes.spawn({ command: "sleep 600 & sleep 600; wait", shell: true, cwd: dir });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sleeper.isTreeAlive()).toBe(true);
    await workspace.close();
    await workspace.close();
    expect(sleeper.isTreeAlive()).toBe(false);
    expect(() => processes.spawn({ command: "true", cwd: dir })).toThrow(/closed/);
    await expectCode(() => workspace.fs.stat(dir), "closed");
    await expectCode(() => workspace.fs.writeFileAtomic(path.join(dir, "x"), Buffer.from("x")), "closed");
    await expectCode(() => workspace.fs.lock(path.join(dir, "x")), "closed");
    await expectCode(async () => {
      for await (const _chunk of workspace.fs.readStream(path.join(dir, "x"))) break;
    }, "closed");
  });

  it("leaves a host's processRunner open when the workspace closes", async () => {
    const runner = new ExecaProcessRunner();
    try {
      const workspace = await createLocalWorkspace({ root: dir, processRunner: runner });
      await workspace.close();
      expect(() => workspace.processes?.spawn({ command: "true", cwd: dir })).toThrow(/closed/);
      const child = runner.spawn({ command: "true", cwd: dir });
      expect((await child.exited).exitCode).toBe(0);
    } finally {
      await runner.close();
    }
  });
});
