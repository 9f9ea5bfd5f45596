/**
 * Attacks on the read-only uploads folder (`<dataDir>/uploads`), as a model
 * makes them through `executeToolCall` of a registry from
 * `buildBuiltinToolRegistry`: uploads are read by absolute path, never
 * changed, and never a way to the rest of the dataDir or outside.
 *
 * What worked before the fix: with the dataDir inside the workspace, Bash and
 * ManagedProcess accepted `.data/uploads` (or a workspace symlink to it) as
 * their working directory, and `touch` there wrote into uploads, although a
 * cwd in uploads is refused by absolute path.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-uploads-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A workspace, a dataDir (inside it when asked) whose uploads hold a file and links to the dataDir, /etc and the workspace. */
async function scene(label: string, dataInside: boolean) {
  const base = path.join(temporary, label);
  const workdir = path.join(base, "project");
  const dataDir = dataInside ? path.join(workdir, ".data") : path.join(base, "data");
  const uploads = path.join(dataDir, "uploads");
  fs.mkdirSync(workdir, { recursive: true });
  fs.mkdirSync(path.join(uploads, "sub"), { recursive: true });
  fs.writeFileSync(path.join(uploads, "report.txt"), "uploaded\n");
  fs.writeFileSync(path.join(dataDir, "private.txt"), "DATA-SECRET\n");
  fs.symlinkSync(dataDir, path.join(uploads, "data-link"));
  fs.symlinkSync(path.join(dataDir, "private.txt"), path.join(uploads, "private-link.txt"));
  fs.symlinkSync("/etc", path.join(uploads, "etc-link"));
  fs.symlinkSync(workdir, path.join(uploads, "workspace-link"));
  fs.symlinkSync(uploads, path.join(workdir, "inbox"));
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await registry.executeToolCall({ id: `${name}-${(calls += 1)}`, name, arguments: args });
    return { ...result, text: toolResultText(result, "") };
  };
  const listing = () => fs.readdirSync(uploads).sort();
  return { workdir, dataDir, uploads, registry, call, listing };
}

describe("attack: the read-only uploads folder", () => {
  it("refuses a working directory in uploads however the path reaches it (dataDir inside the workspace)", async () => {
    const s = await scene("cwd-inside", true);
    const before = s.listing();
    try {
      for (const cwd of [".data/uploads", ".data/uploads/sub", "inbox", "inbox/sub", s.uploads, `${s.uploads}/sub/`]) {
        const bash = await s.call("Bash", { command: "touch made-by-bash", cwd });
        expect(bash.details, `Bash cwd ${cwd}: ${bash.text}`).toMatchObject({ code: "permission_denied" });
        const managed = await s.call("ManagedProcess", { action: "start", command: "touch made-by-process", cwd });
        expect(managed.details, `ManagedProcess cwd ${cwd}: ${managed.text}`).toMatchObject({ code: "permission_denied" });
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(s.listing()).toEqual(before);
      expect(fs.existsSync(path.join(s.uploads, "sub", "made-by-bash"))).toBe(false);
      // The workspace itself (which holds the dataDir) stays a working directory.
      const ok = await s.call("Bash", { command: "pwd", cwd: "." });
      expect(ok.isError, ok.text).toBe(false);
    } finally {
      await s.registry.close();
    }
  }, 60_000);

  it.each([
    ["outside", false],
    ["inside", true],
  ] as const)(
    "reaches nothing but uploads through links, '..', file:// and case variants (dataDir %s the workspace)",
    async (label, inside) => {
      const s = await scene(`reach-${label}`, inside);
      const before = s.listing();
      try {
        const read = await s.call("Read", { path: `file://${s.uploads}/./report.txt/` });
        expect(read.isError, read.text).toBe(false);
        expect(read.text).toContain("uploaded");
        for (const target of [
          "private-link.txt",
          "data-link/private.txt",
          "data-link/agent-tools.sqlite",
          "etc-link/passwd",
          "workspace-link/.data/private.txt",
        ]) {
          const result = await s.call("Read", { path: path.join(s.uploads, target) });
          expect(result.isError, `Read ${target}: ${result.text}`).toBe(true);
          expect(result.text).not.toContain("DATA-SECRET");
          expect(result.text).not.toContain("root:");
        }
        expect((await s.call("Read", { path: `${s.uploads}/../private.txt` })).isError).toBe(true);
        const upper = await s.call("Read", { path: path.join(s.uploads.toUpperCase(), "REPORT.TXT") });
        expect(upper.isError).toBe(true);
        const searched = [
          await s.call("Grep", { pattern: "DATA-SECRE[T]|roo[t]:", path: s.uploads }),
          await s.call("Glob", { pattern: "../*", path: s.uploads }),
          await s.call("Glob", { pattern: "**/*", path: s.uploads }),
          await s.call("List", { path: s.uploads, depth: 5 }),
          await s.call("List", { path: path.join(s.uploads, "data-link") }),
          await s.call("Glob", { pattern: "**/*", path: path.join(s.uploads, "etc-link") }),
        ];
        for (const result of searched) {
          expect(result.text).not.toContain("DATA-SECRET");
          expect(result.text).not.toContain("private.txt");
          expect(result.text).not.toContain("passwd");
        }
        const writes = [
          await s.call("Write", { path: path.join(s.uploads, "sub", "new.txt"), content: "x" }),
          await s.call("Write", { path: `${s.uploads}/report.txt/.`, content: "x" }),
          await s.call("Edit", { path: path.join(s.uploads, "workspace-link", "inbox", "report.txt"), old_string: "uploaded", new_string: "changed" }),
          await s.call("Delete", { path: path.join(s.uploads, "sub") }),
          await s.call("Delete", { path: path.join(s.uploads, "data-link") }),
          await s.call("Write", { path: "inbox/new.txt", content: "x" }),
          await s.call("Edit", { path: "inbox/report.txt", old_string: "uploaded", new_string: "changed" }),
        ];
        for (const result of writes) expect(result.isError, result.text).toBe(true);
        expect(s.listing()).toEqual(before);
        expect(fs.readFileSync(path.join(s.uploads, "report.txt"), "utf8")).toBe("uploaded\n");
        if (inside) {
          const deleteData = await s.call("Delete", { path: ".data" });
          expect(deleteData.details, deleteData.text).toMatchObject({ code: "permission_denied" });
          expect(fs.existsSync(s.uploads)).toBe(true);
        }
      } finally {
        await s.registry.close();
      }
    },
    60_000,
  );
});
