/**
 * Grep, Glob and List on `skill://` give the same answer on a registry whose
 * workspace is not local (a memory tree) as on a local registry over the
 * same dataDir: the skill is the host's folder, walked on this disk in this
 * process, with the ignore files of the skills folder and below it and none
 * of the folders above it (those hold the host's data, not the skill).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-skills-grep-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

/** The calls compared, each on the skill and on one of its folders. */
const CALLS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["Grep", { pattern: "needle", path: "skill://finder" }],
  ["Grep", { pattern: "needle", path: "skill://finder", context: 1 }],
  ["Grep", { pattern: "NEEDLE", path: "skill://finder", output_mode: "files", ignore_case: false }],
  ["Grep", { pattern: "needle", path: "skill://finder", output_mode: "count" }],
  ["Grep", { pattern: "needle", path: "skill://finder/reference" }],
  ["Grep", { pattern: "ne+dle \\d", path: "skill://finder", file_pattern: "*.md|*.txt" }],
  ["Glob", { pattern: "**", path: "skill://finder" }],
  ["List", { path: "skill://finder", depth: 3 }],
];

interface Answer {
  readonly text: string;
  readonly isError: boolean;
  readonly engine?: string;
}

async function answers(registry: Registry): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const [index, [name, args]] of CALLS.entries()) {
    const result = await registry.executeToolCall({ id: `call-${index}`, name, arguments: args });
    out.push({ text: toolResultText(result, ""), isError: result.isError === true, engine: (result.details as { engine?: string } | undefined)?.engine });
  }
  return out;
}

/**
 * A dataDir inside a folder whose ignore files (above the skills folder) would hide most of the skill, and a skill
 * `finder` with a needle in files the skill's own ignore files hide or keep.
 */
function hostWithSkill(): { data: string; workdir: string } {
  const base = path.join(temporary, "host");
  const data = path.join(base, "data");
  const skill = path.join(data, "skills", "finder");
  const workdir = path.join(temporary, "project");
  for (const folder of [path.join(skill, "reference"), path.join(skill, "build"), path.join(skill, "scripts"), path.join(base, ".git", "info"), workdir]) {
    fs.mkdirSync(folder, { recursive: true });
  }
  // The host's folders above the skills folder: none of these rules applies to a skill.
  fs.writeFileSync(path.join(base, ".gitignore"), "*.txt\nreference/\n");
  fs.writeFileSync(path.join(base, ".git", "info", "exclude"), "scripts/\n");
  fs.writeFileSync(path.join(data, ".ignore"), "*.md\nfinder/\n");
  fs.writeFileSync(path.join(data, ".rgignore"), "*\n");
  // The skills folder's and the skill's own ignore files do apply.
  fs.writeFileSync(path.join(data, "skills", ".gitignore"), "*.log\n");
  fs.writeFileSync(path.join(skill, ".gitignore"), "build/\n");
  fs.writeFileSync(path.join(skill, "SKILL.md"), "---\nname: finder\ndescription: Finds things.\n---\n\n# Finder\n\nneedle 1 in the instructions\n");
  fs.writeFileSync(path.join(skill, "notes.txt"), "first line\nneedle 2 in the notes\nlast line\n");
  fs.writeFileSync(path.join(skill, "reference", "guide.md"), "# Guide\n\nNEEDLE 3 in the guide\n");
  fs.writeFileSync(path.join(skill, "scripts", "run.sh"), "#!/bin/sh\necho needle 4\n");
  fs.writeFileSync(path.join(skill, "debug.log"), "needle 5 in a log the skills folder ignores\n");
  fs.writeFileSync(path.join(skill, "build", "out.txt"), "needle 6 in a build the skill ignores\n");
  return { data, workdir };
}

describe("Grep, Glob and List on skill:// on a non-local workspace", () => {
  it("answer as on a local registry (same text), with the skill's own ignore files and none above the skills folder", async () => {
    const { data, workdir } = hostWithSkill();
    const localRegistry = await buildBuiltinToolRegistry({ workdir, dataDir: data, memory: false, skills: {} });
    let local: Answer[];
    try {
      local = await answers(localRegistry);
    } finally {
      await localRegistry.close();
    }
    const workspace = createMemoryWorkspace({ root: "/ws", files: { "notes.txt": "needle in the workspace\n" } });
    const remoteRegistry = await buildBuiltinToolRegistry({ workspace, dataDir: data, memory: false, skills: {} });
    let remote: Answer[];
    try {
      remote = await answers(remoteRegistry);
    } finally {
      await remoteRegistry.close();
      await workspace.close();
    }

    expect(remote.map((answer) => answer.text)).toEqual(local.map((answer) => answer.text));
    expect(remote.map((answer) => answer.isError)).toEqual(CALLS.map(() => false));
    // Both searched in this process (no ripgrep over the host's folder, whose walk reads the ignore files above it).
    expect(remote.slice(0, 6).map((answer) => answer.engine)).toEqual(Array(6).fill("typescript"));
    expect(local.slice(0, 6).map((answer) => answer.engine)).toEqual(Array(6).fill("typescript"));

    const [content, withContext, files, count, inFolder, filtered, glob, list] = remote as [Answer, Answer, Answer, Answer, Answer, Answer, Answer, Answer];
    for (const line of [
      "skill://finder/SKILL.md:8: needle 1 in the instructions",
      "skill://finder/notes.txt:2: needle 2 in the notes",
      "skill://finder/reference/guide.md:3: NEEDLE 3 in the guide",
      "skill://finder/scripts/run.sh:2: echo needle 4",
    ]) {
      expect(content.text).toContain(line);
    }
    expect(content.text).not.toContain("needle 5");
    expect(content.text).not.toContain("needle 6");
    expect(content.text).not.toContain("in the workspace");
    expect(withContext.text).toContain("first line");
    expect(files.text).toContain("skill://finder/reference/guide.md");
    expect(files.text).not.toContain("notes.txt");
    expect(count.text).toBe("matches=4\nfiles=4");
    expect(inFolder.text).toContain("skill://finder/reference/guide.md:3: NEEDLE 3 in the guide");
    expect(filtered.text).toContain("notes.txt");
    expect(filtered.text).not.toContain("run.sh");
    for (const file of ["SKILL.md", "notes.txt", "reference/guide.md", "scripts/run.sh", ".gitignore"]) expect(glob.text).toContain(`skill://finder/${file}`);
    expect(glob.text).not.toContain("debug.log");
    expect(glob.text).not.toContain("out.txt");
    expect(list.text).toContain("reference/guide.md");
    expect(list.text).not.toContain("debug.log");
    expect(list.text).not.toContain("build");
  });
});
