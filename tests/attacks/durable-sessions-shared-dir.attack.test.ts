/**
 * Durable shell sessions (issue 36) on a careless host configuration: `durableSessions.dir` in a place
 * another local user controls (a shared /tmp path someone created first, or a directory left group- or
 * world-writable). Whoever can write the directory can swap a session folder for one of theirs (a
 * forged state.json naming any process of the host's user for ProcessStop to kill) or read every
 * session's output. The host must refuse such a directory when the bundle is built.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-durable-shared-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

function workdir(name: string): string {
  const directory = path.join(temporary, name);
  fs.mkdirSync(directory);
  return directory;
}

describe("a sessions directory others can write", () => {
  it("a world-writable durableSessions.dir is refused (invalid_options), not used", async () => {
    const dir = path.join(temporary, "world-writable");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    await expect(buildBuiltinToolRegistry({ workdir: workdir("w1"), shell: { durableSessions: { dir } } })).rejects.toMatchObject({ code: "invalid_options" });
  });

  it("a group-writable durableSessions.dir is refused too", async () => {
    const dir = path.join(temporary, "group-writable");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o770);
    await expect(buildBuiltinToolRegistry({ workdir: workdir("w2"), shell: { durableSessions: { dir } } })).rejects.toMatchObject({ code: "invalid_options" });
  });

  it.runIf(process.geteuid?.() === 0)("a durableSessions.dir owned by another user is refused (as root: the directory is given to nobody)", async () => {
    const dir = path.join(temporary, "someone-elses");
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chownSync(dir, 65534, 65534);
    await expect(buildBuiltinToolRegistry({ workdir: workdir("w3"), shell: { durableSessions: { dir } } })).rejects.toMatchObject({ code: "invalid_options" });
  });

  it("a directory of the host's own user, not writable by others, is used (0755 from a common umask)", async () => {
    const dir = path.join(temporary, "own");
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    const registry = await buildBuiltinToolRegistry({ workdir: workdir("w4"), shell: { durableSessions: { dir } } });
    await registry.close();
  });
});
