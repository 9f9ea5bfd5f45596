import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InMemoryCheckpointStore } from "@agent-tools/checkpoints";
import { SdkError, toolResultText } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { openFileCheckpoints } from "./checkpoint-wiring.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-checkpoints-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function directories(name: string): { workdir: string; dataDir: string; at: (relative: string) => string } {
  const workdir = path.join(temporary, name, "project");
  fs.mkdirSync(workdir, { recursive: true });
  return { workdir, dataDir: path.join(temporary, name, "data"), at: (relative) => path.join(workdir, relative) };
}

const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 10, 26, 10, 0, 255, 254, 0]);
const modeOf = (file: string) => fs.lstatSync(file).mode & 0o7777;

/** Every entry below `root` (relative paths, sorted), with each file's bytes in hex and its mode. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (directory: string) => {
    for (const name of fs.readdirSync(directory).sort()) {
      const full = path.join(directory, name);
      const info = fs.lstatSync(full);
      const key = path.relative(root, full);
      if (info.isDirectory()) {
        out[key] = `dir ${(info.mode & 0o7777).toString(8)}`;
        walk(full);
      } else if (info.isSymbolicLink()) out[key] = `link ${fs.readlinkSync(full)}`;
      else out[key] = `file ${(info.mode & 0o7777).toString(8)} ${fs.readFileSync(full).toString("hex")}`;
    }
  };
  walk(root);
  return out;
}

describe("buildBuiltinToolRegistry with a checkpoint", () => {
  it("records Write, Edit and Delete through executeToolCall; a rewind restores exact bytes and modes, removes created files, reports an outside change", async () => {
    const { workdir, dataDir, at } = directories("turn");
    fs.writeFileSync(at("notes-crlf.txt"), "alpha\r\nbeta\r\ngamma\r\n");
    fs.writeFileSync(at("run.sh"), "#!/bin/sh\necho one\n");
    fs.chmodSync(at("run.sh"), 0o755);
    fs.writeFileSync(at("image.bin"), BINARY);
    fs.chmodSync(at("image.bin"), 0o755);
    fs.mkdirSync(at("old/nested"), { recursive: true });
    fs.writeFileSync(at("old/nested/keep.txt"), "kept\n");
    fs.chmodSync(at("old/nested/keep.txt"), 0o640);
    fs.writeFileSync(at("shared.txt"), "original\n");
    const before = snapshot(workdir);

    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, checkpoints: { id: "conversation-1:turn-1" } });
    try {
      const calls: Array<[string, Record<string, unknown>]> = [
        ["Write", { path: "src/new.ts", content: "export const x = 1;\n" }],
        ["Write", { path: "run.sh", content: "#!/bin/sh\necho two\n" }],
        ["Edit", { path: "notes-crlf.txt", old_string: "beta", new_string: "BETA" }],
        ["Delete", { path: "image.bin" }],
        ["Delete", { path: "old" }],
        ["Write", { path: "shared.txt", content: "by the agent\n" }],
      ];
      for (const [index, [name, args]] of calls.entries()) {
        const result = await registry.executeToolCall({ id: `call-${index}`, name, arguments: args });
        expect(result.isError, `${name} ${JSON.stringify(args)}: ${toolResultText(result)}`).toBe(false);
      }
      expect(fs.readFileSync(at("notes-crlf.txt"), "utf8")).toBe("alpha\r\nBETA\r\ngamma\r\n");
      expect(modeOf(at("run.sh"))).toBe(0o755);
    } finally {
      await registry.close();
    }
    // Someone else changes a file after the agent's change.
    fs.writeFileSync(at("shared.txt"), "edited by the user\n");

    const checkpoints = openFileCheckpoints({ dataDir });
    try {
      expect(await checkpoints.listCheckpoints()).toEqual([expect.objectContaining({ checkpointId: "conversation-1:turn-1", files: 8, rewound: 0 })]);
      const report = await checkpoints.rewindCheckpoint("conversation-1:turn-1");
      expect(report.removed).toEqual([at("src/new.ts")]);
      expect(report.restored).toEqual(["image.bin", "notes-crlf.txt", "old", "old/nested", "old/nested/keep.txt", "run.sh"].map(at));
      expect(report.conflicts).toEqual([{ path: at("shared.txt"), reason: expect.stringMatching(/^changed after the checkpoint's last change/) }]);
      expect(fs.readFileSync(at("shared.txt"), "utf8")).toBe("edited by the user\n");
      // Everything else is back byte for byte, mode for mode; the directory Write created for src/new.ts stays, empty.
      const after = snapshot(workdir);
      expect(after.src).toMatch(/^dir /);
      delete after.src;
      expect(after).toEqual({ ...before, "shared.txt": after["shared.txt"] });
      expect(fs.readFileSync(at("image.bin")).equals(BINARY)).toBe(true);
      expect(modeOf(at("image.bin"))).toBe(0o755);
    } finally {
      await checkpoints.close();
    }
  });

  it("rewinds two turns (a call's own checkpointId) in reverse order", async () => {
    const { workdir, dataDir, at } = directories("two-turns");
    fs.writeFileSync(at("a.txt"), "v0\n");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      const run = async (id: string, name: string, args: Record<string, unknown>, checkpointId: string) => {
        const result = await registry.executeToolCall({ id, name, arguments: args }, { checkpointId });
        expect(result.isError, toolResultText(result)).toBe(false);
      };
      await run("1", "Edit", { path: "a.txt", old_string: "v0", new_string: "v1" }, "turn-1");
      await run("2", "Write", { path: "b.txt", content: "b1\n" }, "turn-1");
      await run("3", "Edit", { path: "a.txt", old_string: "v1", new_string: "v2" }, "turn-2");
      await run("4", "Delete", { path: "b.txt" }, "turn-2");
    } finally {
      await registry.close();
    }
    const checkpoints = openFileCheckpoints({ dataDir });
    try {
      expect(await checkpoints.rewindCheckpoint("turn-2")).toMatchObject({ restored: [at("a.txt"), at("b.txt")], conflicts: [] });
      expect(fs.readFileSync(at("a.txt"), "utf8")).toBe("v1\n");
      expect(fs.readFileSync(at("b.txt"), "utf8")).toBe("b1\n");
      expect(await checkpoints.rewindCheckpoint("turn-1")).toMatchObject({ restored: [at("a.txt")], removed: [at("b.txt")], conflicts: [] });
      expect(fs.readdirSync(workdir)).toEqual(["a.txt"]);
      expect(fs.readFileSync(at("a.txt"), "utf8")).toBe("v0\n");
    } finally {
      await checkpoints.close();
    }
  });

  it("uses the host's store; a store that cannot open refuses the change; the cron scope records nothing", async () => {
    const { workdir, dataDir, at } = directories("stores");
    const store = new InMemoryCheckpointStore();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, checkpoints: { id: "t", store } });
    try {
      await registry.executeToolCall({ id: "1", name: "Write", arguments: { path: "x.txt", content: "x" } });
    } finally {
      await registry.close();
    }
    const host = openFileCheckpoints({ store });
    expect((await host.rewindCheckpoint("t")).removed).toEqual([at("x.txt")]);
    await host.close();

    const broken = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      memory: false,
      checkpoints: { id: "t", store: () => Promise.reject(new Error("database unreachable")) },
    });
    try {
      const result = await broken.executeToolCall({ id: "2", name: "Write", arguments: { path: "y.txt", content: "y" } });
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "unavailable" });
      expect(toolResultText(result)).toContain("database unreachable");
      expect(fs.existsSync(at("y.txt"))).toBe(false);
    } finally {
      await broken.close();
    }

    const cron = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, runtimeScope: "cron", checkpoints: { id: "t" } });
    try {
      expect(cron.ports.fileCheckpoints).toBeUndefined();
      expect((await cron.executeToolCall({ id: "3", name: "Write", arguments: { path: "z.txt", content: "z" } })).isError).toBe(false);
    } finally {
      await cron.close();
    }
    const shared = openFileCheckpoints({ dataDir });
    expect(await shared.listCheckpoints()).toEqual([]);
    await shared.close();

    await expect(buildBuiltinToolRegistry({ workdir, dataDir, checkpoints: { id: "" } })).rejects.toBeInstanceOf(SdkError);
  });
});
