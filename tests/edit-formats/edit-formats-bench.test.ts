// The edit-format benchmark of bench/edit-formats on a slice: a corpus built by its builder from a
// real git repository made here (three commits changing JavaScript, Python, Go and a CRLF file), run
// through our appliers (V4A, Edit pairs, the multi-edit form) with every perturbation; and the
// benchmark's command line on that corpus without the peer. The full corpus (1,500 files of six
// public repositories) is a generated cache the bench builds; see bench/edit-formats/README.md.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCorpus } from "../../bench/edit-formats/build-corpus.js";
import { type Tally, runEditFormatsBench, tallyKey } from "../../bench/edit-formats/run-bench.js";

const work = mkdtempSync(path.join(os.tmpdir(), "edit-formats-bench-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const repository = path.join(work, "repo");

function git(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], {
    cwd: repository,
    encoding: "utf8",
  });
}

const js = (version: number) =>
  [
    "'use strict';",
    "",
    "function parse(text) {",
    "  const lines = text.split('\\n');",
    version > 0 ? "  const kept = lines.filter((line) => line !== '');" : "  const kept = lines;",
    "  return kept.map((line) => line.trim());",
    "}",
    "",
    "function render(items) {",
    "  let out = '';",
    "  for (const item of items) {",
    "    out += item + '\\n';",
    "  }",
    ...(version > 1 ? ["  if (out === '') {", '    return "(empty)";', "  }"] : []),
    "  return out;",
    "}",
    "",
    "module.exports = { parse, render };",
    "",
  ].join("\n");

const py = (version: number) =>
  [
    "class Session:",
    "    def __init__(self, url):",
    "        self.url = url",
    version > 0 ? "        self.retries = 3" : "        self.retries = 0",
    "",
    "    def get(self, path):",
    "        return self.request('GET', path)",
    "",
    "    def request(self, method, path):",
    ...(version > 1 ? ["        if not path.startswith('/'):", "            path = '/' + path"] : []),
    "        return (method, self.url + path)",
    "",
  ].join("\n");

const go = (version: number) =>
  [
    "package main",
    "",
    "func run(args []string) error {",
    "\tfor _, arg := range args {",
    version > 1 ? '\t\tif arg == "" {\n\t\t\tcontinue\n\t\t}' : "\t\t_ = arg",
    "\t}",
    "\treturn nil",
    "}",
    "",
  ].join("\n");

const crlf = (version: number) => ["# Notes", "", version > 0 ? "- first, revised" : "- first", "- second", "- third", ""].join("\r\n");

function commit(version: number): void {
  writeFileSync(path.join(repository, "lib.js"), js(version));
  writeFileSync(path.join(repository, "session.py"), py(version));
  writeFileSync(path.join(repository, "main.go"), go(version));
  writeFileSync(path.join(repository, "NOTES.md"), crlf(version));
  git("add", "-A");
  git("commit", "-q", "-m", `version ${version}`);
}

execFileSync("git", ["init", "-q", "-b", "main", repository]);
for (const version of [0, 1, 2]) commit(version);
const corpusDir = path.join(work, "corpus");
const { manifest, cases } = buildCorpus({
  repositories: [{ repo: "local/fixture", gitDir: path.join(repository, ".git") }],
  files: 20,
  seed: 37,
  outDir: corpusDir,
  perCommit: 10,
});

describe("edit-formats benchmark (a slice)", () => {
  it("builds the corpus from the repository's commits: old text, new text, diff and a manifest", () => {
    // Version 1 changed lib.js, session.py and NOTES.md; version 2 lib.js, session.py and main.go.
    expect(cases).toHaveLength(6);
    expect(manifest.repositories).toEqual([expect.objectContaining({ repo: "local/fixture", files: 6 })]);
    expect(manifest.repositories[0]?.commits).toHaveLength(2);
    const notes = cases.find((item) => item.path === "NOTES.md");
    expect(notes?.oldText).toBe(crlf(0));
    expect(notes?.newText).toBe(crlf(1));
    expect(notes?.diff).toContain("@@ -1,5 +1,5 @@\n # Notes\r\n");
    expect(readFileSync(path.join(corpusDir, "cases.jsonl"), "utf8").trim().split("\n")).toHaveLength(6);
  });

  it("our appliers: every unperturbed case reproduced exactly, no wrong result under any perturbation", async () => {
    const report = await runEditFormatsBench({ cases });
    expect(report.cases).toBe(6);
    const tally = (format: "v4a" | "edit-pairs" | "multi-edit", perturbation: Parameters<typeof tallyKey>[1]): Tally | undefined =>
      report.tallies.get(tallyKey(format, perturbation, "ours"));
    for (const format of ["v4a", "edit-pairs", "multi-edit"] as const) {
      expect(tally(format, "none")).toMatchObject({ cases: 6, exact: 6 });
      // The tolerant passes at work: old lines with trailing spaces are still found.
      expect(tally(format, "trailing-spaces")?.exact).toBe(tally(format, "trailing-spaces")?.cases);
    }
    // V4A: a CRLF patch applies to LF and CRLF files alike; the hunk is found again without an @@ anchor
    // that names nothing, and through curly quotes.
    expect(tally("v4a", "crlf")).toMatchObject({ cases: 6, exact: 6 });
    expect(tally("v4a", "unknown-anchor")).toMatchObject({ cases: 6, exact: 6 });
    expect(tally("v4a", "curly-quotes")?.exact).toBeGreaterThan(0);
    const wrong = report.findings.filter((finding) => finding.result === "wrong");
    expect(wrong).toEqual([]);
  });

  it("the command line prints the table and runs without the peer", () => {
    const output = execFileSync(
      process.execPath,
      [path.resolve("node_modules/tsx/dist/cli.mjs"), "--conditions=@agent-tools/source", "bench/edit-formats/edit-formats-bench.ts", `--corpus=${corpusDir}`],
      { encoding: "utf8", env: { ...process.env, AGENT_TOOLS_CODEX_BIN: path.join(work, "no-codex") } },
    );
    expect(output).toContain("peer: not available");
    expect(output).toContain("| v4a | none | 6 | 100.0% | 0.0% | 0 | 0 |");
    expect(output).toContain("wrong results: ours 0");
  });
});
