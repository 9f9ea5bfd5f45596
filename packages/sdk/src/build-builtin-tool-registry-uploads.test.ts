import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-uploads-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** A workspace, a dataDir (inside the workspace when asked) and `<dataDir>/uploads` holding what a user uploaded, plus a file outside both. */
function layout(name: string, dataInsideWorkspace = false) {
  const base = path.join(temporary, name);
  const workdir = path.join(base, "project");
  const dataDir = dataInsideWorkspace ? path.join(workdir, ".agent-data") : path.join(base, "data");
  const uploads = path.join(dataDir, "uploads");
  fs.mkdirSync(path.join(uploads, "batch"), { recursive: true });
  fs.mkdirSync(path.join(workdir, "src"), { recursive: true });
  fs.writeFileSync(path.join(uploads, "report.txt"), "quarterly numbers\nline two\n");
  fs.writeFileSync(path.join(uploads, "batch", "notes.md"), "# Notes\nuploaded note\n");
  fs.writeFileSync(path.join(uploads, "photo.png"), PNG);
  fs.writeFileSync(path.join(base, "secret.txt"), "outside uploads\n");
  fs.symlinkSync(path.join(base, "secret.txt"), path.join(uploads, "escape.txt"));
  fs.symlinkSync(base, path.join(uploads, "escape-dir"));
  return { base, workdir, dataDir, uploads };
}

const call = (registry: Awaited<ReturnType<typeof buildBuiltinToolRegistry>>, name: string, args: Record<string, unknown>) =>
  registry.executeToolCall({ id: `${name}-${Math.random()}`, name, arguments: args });

describe("buildBuiltinToolRegistry: <dataDir>/uploads is a read-only scope", () => {
  it("reads, lists, searches and shows uploads by absolute path (displayed absolute), and refuses every write there", async () => {
    const { base, workdir, dataDir, uploads } = layout("outside");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      const report = path.join(uploads, "report.txt");
      const read = await call(registry, "Read", { path: report });
      expect(read.isError, toolResultText(read, "")).toBe(false);
      expect(toolResultText(read, "")).toContain(`Read: ${report}`);
      expect(toolResultText(read, "")).toContain("quarterly numbers");

      const list = await call(registry, "List", { path: uploads });
      expect(list.isError, toolResultText(list, "")).toBe(false);
      expect(toolResultText(list, "")).toContain("report.txt");
      const glob = await call(registry, "Glob", { pattern: "**/*.md", path: uploads });
      expect(toolResultText(glob, "")).toContain(path.join(uploads, "batch", "notes.md"));
      const grep = await call(registry, "Grep", { pattern: "uploaded note", path: uploads });
      expect(grep.isError, toolResultText(grep, "")).toBe(false);
      expect(toolResultText(grep, "")).toContain("notes.md");
      const image = await call(registry, "Image", { path: path.join(uploads, "photo.png") });
      expect(image.isError, toolResultText(image, "")).toBe(false);
      expect(image.content.some((block) => block.type === "image")).toBe(true);

      // Every write intent is refused, before anything changes.
      const refusals = [
        await call(registry, "Write", { path: path.join(uploads, "new.txt"), content: "x\n" }),
        await call(registry, "Write", { path: report, content: "overwritten\n" }),
        await call(registry, "Edit", { path: report, old_string: "quarterly", new_string: "changed" }),
        await call(registry, "Delete", { path: report }),
        await call(registry, "Delete", { path: path.join(uploads, "batch") }),
        await call(registry, "Delete", { path: uploads }),
      ];
      for (const refusal of refusals) {
        expect(refusal.isError).toBe(true);
        expect(refusal.details).toMatchObject({ code: "permission_denied" });
        expect(toolResultText(refusal, "")).toMatch(/uploads/);
      }
      expect(toolResultText(refusals[0]!, "")).toContain("read-only uploads folder");
      expect(fs.existsSync(path.join(uploads, "new.txt"))).toBe(false);
      expect(fs.readFileSync(report, "utf8")).toBe("quarterly numbers\nline two\n");
      expect(fs.existsSync(path.join(uploads, "batch", "notes.md"))).toBe(true);

      // Symlinks inside uploads do not lead out.
      const escaped = await call(registry, "Read", { path: path.join(uploads, "escape.txt") });
      expect(escaped.details).toMatchObject({ code: "out_of_bounds" });
      const escapeDir = await call(registry, "Read", { path: path.join(uploads, "escape-dir", "secret.txt") });
      expect(escapeDir.details).toMatchObject({ code: "out_of_bounds" });
      expect(toolResultText(escaped, "")).not.toContain("outside uploads");
      const escapeImage = await call(registry, "Image", { path: path.join(uploads, "escape.txt") });
      expect(escapeImage.details).toMatchObject({ code: "out_of_bounds" });

      // The rest of the dataDir stays out of reach, and a working directory in uploads is refused.
      fs.writeFileSync(path.join(dataDir, "private.txt"), "not an upload\n");
      expect((await call(registry, "Read", { path: path.join(dataDir, "private.txt") })).details).toMatchObject({ code: "out_of_bounds" });
      const bash = await call(registry, "Bash", { command: "touch made-here", cwd: uploads });
      expect(bash.isError).toBe(true);
      expect(bash.details).toMatchObject({ code: "permission_denied" });
      expect(fs.existsSync(path.join(uploads, "made-here"))).toBe(false);
      expect(fs.readFileSync(path.join(base, "secret.txt"), "utf8")).toBe("outside uploads\n");
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("keeps uploads read-only when the dataDir lies inside the workspace, whatever path form reaches it", async () => {
    const { workdir, uploads } = layout("inside", true);
    fs.symlinkSync(uploads, path.join(workdir, "src", "inbox"));
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(workdir, ".agent-data"), memory: false });
    try {
      const read = await call(registry, "Read", { path: ".agent-data/uploads/report.txt" });
      expect(read.isError, toolResultText(read, "")).toBe(false);
      const refusals = [
        await call(registry, "Write", { path: ".agent-data/uploads/new.txt", content: "x\n" }),
        await call(registry, "Edit", { path: "src/inbox/report.txt", old_string: "quarterly", new_string: "changed" }),
        await call(registry, "Write", { path: path.join(uploads, "abs.txt"), content: "x\n" }),
        await call(registry, "Delete", { path: "src/inbox/report.txt" }),
        await call(registry, "Delete", { path: ".agent-data" }),
      ];
      for (const refusal of refusals) expect(refusal.details, toolResultText(refusal, "")).toMatchObject({ code: "permission_denied" });
      expect(fs.readdirSync(uploads).sort()).toEqual(["batch", "escape-dir", "escape.txt", "photo.png", "report.txt"]);
      expect(fs.readFileSync(path.join(uploads, "report.txt"), "utf8")).toBe("quarterly numbers\nline two\n");
      // The rest of the workspace stays writable.
      expect((await call(registry, "Write", { path: "src/ok.txt", content: "fine\n" })).isError).toBe(false);
    } finally {
      await registry.close();
    }
  }, 60_000);
});
