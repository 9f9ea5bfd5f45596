/**
 * Skills on a non-local workspace keep the "nothing local" rule for the
 * workspace's files: the scenario (a memory workspace rooted at a decoy path
 * of this disk, skills on) runs in a child process under strace, which
 * records every file and exec syscall. The skills are read from the
 * dataDir; the workspace's path on this disk is never touched; nothing is
 * written outside the dataDir; no process starts (Grep on skill:// runs
 * the pure TypeScript engine, not this host's ripgrep); and List, Glob and
 * Grep on skill:// look for ignore files only inside the skills folder,
 * never in the folders above it.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { type TracedAccess, tracedAfter, within } from "./__fixtures__/strace-log.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-skills-strace-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const scenario = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "workspace-skills-registry-process.mjs");

describe("skills of a registry on a non-local workspace, watched by strace", () => {
  it("read the skills from the dataDir, start no process, read no ignore file above the skills folder, touch nothing at the workspace's path on this disk and write nothing outside the dataDir", async () => {
    const strace = ["/usr/bin/strace", "/bin/strace"].find((candidate) => fs.existsSync(candidate));
    expect(strace, "strace is missing: scripts/setup.sh installs it (Debian package strace)").toBeDefined();
    const root = path.join(temporary, "root");
    fs.mkdirSync(path.join(root, "src"), { recursive: true });
    for (const file of ["README.md", "src/a.ts"]) fs.writeFileSync(path.join(root, file), "decoy on the local disk\n");
    const data = path.join(temporary, "data");
    fs.mkdirSync(data, { recursive: true });
    const marker = `/__agent_tools_skills_scenario_${process.pid}__`;
    const traceFile = path.join(temporary, "trace.txt");
    const { stdout } = await promisify(execFile)(
      strace as string,
      [
        "-f",
        "-qq",
        "-e",
        "trace=file,process",
        "-o",
        traceFile,
        process.execPath,
        "--import",
        "tsx",
        "--conditions=@agent-tools/source",
        scenario,
        root,
        data,
        marker,
      ],
      { cwd: repositoryRoot, timeout: 180_000, env: { ...process.env, TSX_DISABLE_CACHE: "1" } },
    );
    const { results } = JSON.parse(stdout.trim().split("\n").at(-1) as string) as {
      results: Array<{ name: string; isError: boolean; code?: string; engine?: string; text: string }>;
    };
    // Every skill and workspace call answered; the skill script was refused.
    expect(results.filter((result) => result.isError).map((result) => `${result.name}: ${result.code}`)).toEqual(["Bash: permission_denied"]);
    expect(results.find((result) => result.name === "Read")?.text).toContain("name: skills-creator");
    expect(results.filter((result) => result.name === "Read")[1]?.text).toContain("# Remote");

    const { accesses, execs } = tracedAfter(fs.readFileSync(traceFile, "utf8"), marker, repositoryRoot);
    expect(accesses.length).toBeGreaterThan(0);
    // The skills were read from the dataDir (the host's data).
    expect(accesses.some((access) => within(path.join(data, "skills"), access.path) && access.during.endsWith(".Read"))).toBe(true);
    // No process at all: Grep on skill:// ran the TypeScript engine on this host, the workspace's Grep ran in memory.
    expect(execs, "processes started").toEqual([]);
    expect(results.filter((result) => result.name === "Grep").map((result) => result.engine)).toEqual(["typescript", "typescript"]);
    expect(results.find((result) => result.name === "Grep")?.text).toContain("SKILL.md");
    const nodePrefix = path.resolve(path.dirname(process.execPath), "..");
    const readable = [data, repositoryRoot, "/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/proc", "/sys", "/dev", nodePrefix];
    const ancestorOfAllowed = (target: string) => [data, repositoryRoot].some((allowed) => within(target, allowed));
    const loaderProbe = (access: TracedAccess) =>
      access.call === "access" && access.path !== repositoryRoot && access.path.toLowerCase() === repositoryRoot.toLowerCase();
    const show = (list: TracedAccess[]) => list.map((access) => `${access.during}: ${access.call} ${access.path}`);
    expect(show(accesses.filter((access) => within(root, access.path))), "the workspace's path on the local disk was touched").toEqual([]);
    expect(
      show(accesses.filter((access) => access.writes && !within(data, access.path) && access.path !== "/dev/null")),
      "local writes outside the dataDir",
    ).toEqual([]);
    expect(
      show(
        accesses.filter(
          (access) => !access.writes && !readable.some((prefix) => within(prefix, access.path)) && !ancestorOfAllowed(access.path) && !loaderProbe(access),
        ),
      ),
      "local reads outside the dataDir and the code",
    ).toEqual([]);
    // List, Glob and Grep on skill:// honour the ignore files of the skills folder and below, none above it (not even
    // in the dataDir): a skill never inherits the host's ignore files.
    const skillsRoot = path.join(data, "skills");
    const ignoreName = /\/(?:\.gitignore|\.ignore|\.rgignore|\.git(?:\/info\/exclude)?|\.jj)$/;
    expect(
      show(accesses.filter((access) => /\.(List|Glob|Grep)$/.test(access.during) && ignoreName.test(access.path) && !within(skillsRoot, access.path))),
      "ignore files looked up above the skills folder",
    ).toEqual([]);
    expect(
      accesses.some((access) => /\.(List|Glob|Grep)$/.test(access.during) && within(path.join(skillsRoot, "skills-creator"), access.path)),
      "the skill's folder was walked",
    ).toBe(true);
  }, 240_000);
});
