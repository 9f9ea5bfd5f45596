/**
 * Attacks on ApplyPatch with hostile sizes, each call run in its own host
 * process (`edit-formats-host.mjs`) so that a call blocking the event loop
 * shows as a host that does not answer within the case's limit (then it is
 * killed): many hunks on a large file (each hunk's place must be proved
 * unique, so a search over the rest of the file per hunk grows with hunks x
 * lines), hunks whose `@@` anchors match nothing, 10,000 files in one
 * patch (one nested hold each), and 200,000 header lines judged by the
 * permission rules (each path resolved with synchronous file system calls
 * before the tool's own limit refuses the patch). Each must be applied or
 * refused with a clear error, never hold the host.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(new URL(import.meta.url).pathname);
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-edit-formats-sizes-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** How long a call may take in its host before it counts as holding the host (generous: the machine may be loaded). */
const ANSWER_WITHIN_MS = 60_000;

let cases = 0;

/** Runs one call in a host process; resolves with its answer, or `held` when it gave none within the limit after the registry was ready. */
function hostCall(
  workdir: string,
  name: string,
  args: Record<string, unknown>,
  options: Record<string, unknown> = {},
): Promise<{ isError: boolean; text: string } | "held"> {
  const argumentsFile = path.join(temporary, `args-${(cases += 1)}.json`);
  fs.writeFileSync(argumentsFile, JSON.stringify(args));
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, "edit-formats-host.mjs"), workdir, name, argumentsFile, JSON.stringify(options)],
      { cwd: here, maxBuffer: 16 * 1024 * 1024 },
    );
    let output = "";
    let timer: NodeJS.Timeout | undefined;
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const lines = output.split("\n").filter(Boolean);
      if (timer === undefined && lines.some((line) => line.includes('"ready":true'))) {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve("held");
        }, ANSWER_WITHIN_MS);
      }
      const answer = lines.find((line) => line.startsWith('{"isError"'));
      if (answer !== undefined) {
        clearTimeout(timer);
        resolve(JSON.parse(answer) as { isError: boolean; text: string });
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (!output.includes('{"isError"')) {
        clearTimeout(timer);
        reject(new Error(`the host exited (${code}) without an answer: ${output.slice(0, 500)}`));
      }
    });
  });
}

function project(lines: number): { workdir: string; file: string; content: string } {
  const workdir = path.join(temporary, `case-${(cases += 1)}`);
  fs.mkdirSync(workdir);
  const content = Array.from({ length: lines }, (_, index) => `line ${index}\n`).join("");
  const file = path.join(workdir, "big.txt");
  fs.writeFileSync(file, content);
  return { workdir, file, content };
}

const patchText = (lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("ApplyPatch: hostile sizes answer without holding the host", () => {
  it("100,000 one-line hunks on a 200,000-line file (2 MB patch): applied or refused, not a host held for minutes", async () => {
    const { workdir, file, content } = project(200_000);
    const lines = ["*** Update File: big.txt"];
    for (let index = 0; index < 100_000; index += 1) lines.push("@@", `-line ${index}`, `+LINE ${index}`);
    const answer = await hostCall(workdir, "ApplyPatch", { patch: patchText(lines) });
    expect(answer, "the host gave no answer: the call held its event loop").not.toBe("held");
    if (answer !== "held" && answer.isError) expect(fs.readFileSync(file, "utf8")).toBe(content);
  }, 180_000);

  it("20,000 hunks whose `@@` anchor matches nothing on a 200,000-line file", async () => {
    const { workdir, file, content } = project(200_000);
    const lines = ["*** Update File: big.txt"];
    for (let index = 0; index < 20_000; index += 1) {
      const at = index * 10;
      lines.push(`@@ no such anchor ${at}`, `-line ${at}`, `+LINE ${at}`);
    }
    const answer = await hostCall(workdir, "ApplyPatch", { patch: patchText(lines) });
    expect(answer, "the host gave no answer: the call held its event loop").not.toBe("held");
    if (answer !== "held" && answer.isError) expect(fs.readFileSync(file, "utf8")).toBe(content);
  }, 180_000);

  it("10,000 added files in one patch (one nested hold each): all written or none", async () => {
    const { workdir } = project(1);
    const lines: string[] = [];
    for (let index = 0; index < 10_000; index += 1) lines.push(`*** Add File: d${index % 50}/f${index}.txt`, `+${index}`);
    const answer = await hostCall(workdir, "ApplyPatch", { patch: patchText(lines) });
    expect(answer, "the host gave no answer").not.toBe("held");
    const written = fs.readdirSync(workdir, { recursive: true }).filter((name) => String(name).endsWith(".txt") && String(name) !== "big.txt").length;
    expect([0, 10_000]).toContain(written);
    if (answer !== "held") expect(written === 10_000).toBe(!answer.isError);
  }, 180_000);

  it("200,000 header lines under permission rules: refused without resolving every path first", async () => {
    const { workdir } = project(1);
    const lines: string[] = [];
    for (let index = 0; index < 200_000; index += 1) lines.push(`*** Delete File: d${index % 100}/deep/er/f${index}.txt`);
    const answer = await hostCall(
      workdir,
      "ApplyPatch",
      { patch: patchText(lines) },
      { permissions: { deny: ["Edit(secret/**)"] }, approval: { defaultDecision: "allow" } },
    );
    expect(answer, "the host gave no answer: the rules held its event loop").not.toBe("held");
    if (answer !== "held") expect(answer.isError).toBe(true);
  }, 180_000);

  it("1,000 hunks (the limit) whose `@@` anchors match nothing, on a 4,000,000-line file (50 MB)", async () => {
    const { workdir, file, content } = project(4_000_000);
    const lines = ["*** Update File: big.txt"];
    for (let index = 0; index < 1_000; index += 1) {
      const at = index * 4_000;
      lines.push(`@@ no such anchor ${at}`, `-line ${at}`, `+LINE ${at}`);
    }
    const answer = await hostCall(workdir, "ApplyPatch", { patch: patchText(lines) });
    expect(answer, "the host gave no answer: the call held its event loop").not.toBe("held");
    if (answer !== "held" && answer.isError) expect(fs.readFileSync(file, "utf8")).toBe(content);
  }, 180_000);

  it("a 120 MB patch of 10,000,000 hunks: refused with an answer, the host not ended by running out of memory", async () => {
    const { workdir, file, content } = project(1);
    const lines = ["*** Update File: big.txt"];
    for (let index = 0; index < 10_000_000; index += 1) lines.push("@@", "-line 0", "+LINE 0");
    const answer = await hostCall(workdir, "ApplyPatch", { patch: patchText(lines) });
    expect(answer, "the host gave no answer").not.toBe("held");
    if (answer !== "held") expect(answer.isError).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe(content);
  }, 240_000);
});
