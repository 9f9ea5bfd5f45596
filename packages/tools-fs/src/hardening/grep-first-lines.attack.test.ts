/**
 * Attacks on Grep's files page of a plain literal with ripgrep (issue 34):
 * one `rg --count` run, then each page file's first matching line is found
 * in process by opening the path ripgrep printed (grep-ripgrep-first-lines.ts),
 * and what is not found there goes to one `rg --max-count 1` run.
 *
 * The race is made deterministic with a wrapper around the real ripgrep: it
 * runs ripgrep, then, after the `--count` run (before the in-process read) or
 * before the `--max-count` run, runs a prepared hook once that rearranges the
 * tree as a concurrent process could (symlinks to a secret outside the
 * workspace, a parent directory swapped for a symlink, a FIFO, a device, a
 * deleted file). Every case checks that no line of the outside secret is
 * stated, that the call ends, and (where the tree is left alone) that the
 * lines are ripgrep's.
 */
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../__fixtures__/workspace.js";
import { renderGrep } from "../search/grep-format.js";
import { type GrepQuery, grepWithRipgrep } from "../search/grep-ripgrep.js";
import { grepWithRipgrepPaged } from "../search/grep-ripgrep-paged.js";
import { locateRipgrep } from "../search/ripgrep.js";

const rgPath = locateRipgrep();
const isRoot = process.getuid?.() === 0;

/** The secret outside the workspace: its literal is on line 3 (no workspace file has it there). */
const SECRET = "outside 1\noutside 2\nneedle SECRET\n";

interface Arena {
  root: string;
  outside: string;
  ws: TestWorkspace;
  /** Arguments of every ripgrep run, one line each. */
  runs(): string[];
}

let arena: Arena | undefined;
afterEach(() => {
  if (arena && existsSync(path.join(arena.root, "writer.pid"))) {
    // The appender the hook started (its own process group, see the test); it also ends itself once its folder is removed.
    try {
      process.kill(-Number(readFileSync(path.join(arena.root, "writer.pid"), "utf8")), "SIGKILL");
    } catch {
      // already gone
    }
  }
  arena?.ws.cleanup();
  if (arena) rmSync(arena.root, { recursive: true, force: true });
  arena = undefined;
});

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/**
 * A workspace holding `files`, searched through a ripgrep wrapper that runs
 * `hook` (shell commands, cwd the workspace) once: after the `--count` run
 * (`when: "count"`), before the `--max-count` run (`when: "fallback"`) or
 * before any run over named page files (`when: "rerun"`).
 */
function setUp(files: Record<string, string | Buffer>, hook: string, when: "count" | "fallback" | "rerun" = "count"): Arena {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "grep-first-lines-")));
  const outside = path.join(root, "outside");
  const dir = path.join(root, "ws");
  mkdirSync(outside);
  mkdirSync(dir);
  writeFileSync(path.join(outside, "secret.txt"), SECRET);
  const hookFile = path.join(root, "hook.sh");
  const log = path.join(root, "runs.log");
  writeFileSync(hookFile, `cd ${quote(dir)} || exit 1\n${hook}\nrm -f ${quote(hookFile)}\n`);
  chmodSync(hookFile, 0o755);
  const runHook = `[ -f ${quote(hookFile)} ] && sh ${quote(hookFile)}`;
  const wrapper = path.join(root, "rg");
  writeFileSync(
    wrapper,
    [
      "#!/bin/sh",
      `echo "$*" >> ${quote(log)}`,
      `case " $* " in *" --max-count "*) ${when === "fallback" ? runHook : ":"} ;; esac`,
      `case " $* " in *" --with-filename "*) ${when === "rerun" ? runHook : ":"} ;; esac`,
      `${quote(rgPath!)} "$@"`,
      "rc=$?",
      `case " $* " in *" --count "*) ${when === "count" ? runHook : ":"} ;; esac`,
      "exit $rc",
      "",
    ].join("\n"),
  );
  chmodSync(wrapper, 0o755);
  const ws = createTestWorkspace(files, { dir, ripgrepPath: wrapper });
  return {
    root,
    outside,
    ws,
    runs: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []),
  };
}

/** A files page of `needle` (ends within 10 s or fails). */
async function filesPage(args: Record<string, unknown> = {}) {
  const result = await arena!.ws.call("Grep", { pattern: "needle", output_mode: "files", ...args }, { signal: AbortSignal.timeout(10_000) });
  return result;
}

/** No secret line stated and no ripgrep run given a page file again after the swap. */
function expectNoSecret(text: string) {
  expect(text).not.toContain("firstLine=3");
  expect(text).not.toContain("SECRET");
}

describe.skipIf(!rgPath || process.platform !== "linux")("Grep files page: swaps between ripgrep's count and the first-line read", () => {
  for (const ignoreCase of [true, false]) {
    const mode = ignoreCase ? "-i" : "case-sensitive";

    it(`${mode}: a matched file replaced by a symlink to an outside secret`, async () => {
      arena = setUp({ "a.txt": "needle\n" }, `rm a.txt && ln -s ${quote("../outside/secret.txt")} a.txt`);
      const result = await filesPage({ ignore_case: ignoreCase });
      expect(result.isError, result.text).toBeFalsy();
      expectNoSecret(result.text);
      expect(result.text).toContain("a.txt (1, firstLine=0)");
    });

    it(`${mode}: a PARENT directory swapped for a symlink to an outside folder with a file of the same name`, async () => {
      arena = setUp(
        { "sub/deeper/a.txt": "needle\n" },
        "mv sub sub.old && mkdir -p ../outside/deeper && cp ../outside/secret.txt ../outside/deeper/a.txt && ln -s ../outside sub",
      );
      const result = await filesPage({ ignore_case: ignoreCase });
      expect(result.isError, result.text).toBeFalsy();
      expectNoSecret(result.text);
    });

    it(`${mode}: the innermost parent directory swapped for a symlink`, async () => {
      arena = setUp(
        { "sub/deeper/a.txt": "needle\n" },
        "mv sub/deeper sub/deeper.old && mkdir -p ../outside/d && cp ../outside/secret.txt ../outside/d/a.txt && ln -s ../../outside/d sub/deeper",
      );
      const result = await filesPage({ ignore_case: ignoreCase });
      expect(result.isError, result.text).toBeFalsy();
      expectNoSecret(result.text);
    });
  }

  it("a large file (over the in-process limit) swapped for a symlink right before the --max-count run", async () => {
    // Its first match lies past the 8 MiB searched in process.
    const big = `${`${"x".repeat(99)}\n`.repeat(85_000)}needle\n`;
    arena = setUp({ "big.txt": big }, `rm big.txt && ln -s ${quote("../outside/secret.txt")} big.txt`, "fallback");
    const result = await filesPage();
    expect(result.isError, result.text).toBeFalsy();
    expectNoSecret(result.text);
    // ripgrep read the file opened before the swap, given as /proc/<pid>/fd/<fd>.
    expect(result.text).toContain("big.txt (1, firstLine=85001)");
    expect(arena.runs().find((run) => run.includes("--max-count"))).toMatch(/\/proc\/\d+\/fd\/\d+$/);
  });

  it("a UTF-16 file (left to ripgrep, which transcodes it) swapped for a symlink right before the --max-count run", async () => {
    // ripgrep reads the BOM and counts the match; the in-process read sees NUL bytes and leaves the file to ripgrep.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("x\nneedle\n", "utf16le")]);
    arena = setUp({ "wide.txt": utf16 }, `rm wide.txt && ln -s ${quote("../outside/secret.txt")} wide.txt`, "fallback");
    const result = await filesPage();
    expect(result.isError, result.text).toBeFalsy();
    expectNoSecret(result.text);
    expect(result.text).toContain("wide.txt (1, firstLine=2)");
  });

  it("a content page's file searched again, swapped for a symlink right before that run: no outside line", async () => {
    arena = setUp({ "a.txt": "x\nneedle here\n" }, `rm a.txt && ln -s ${quote("../outside/secret.txt")} a.txt`, "rerun");
    const query: GrepQuery = { pattern: "needle", ignoreCase: true, multiline: false, context: 0 };
    const options = { outputMode: "content" as const, offset: 0, headLimit: 200, context: 0, displayDirectory: ".", pattern: "needle" };
    // A run that keeps no file's lines: the page's files are searched again by a second run.
    const hits = await grepWithRipgrepPaged(
      { rgPath: path.join(arena.root, "rg"), directory: arena.ws.dir, query, filter: () => true },
      { outputMode: "content", offset: 0, headLimit: 200 },
      { retainBytes: 0 },
    );
    const text = renderGrep(hits, options).text;
    expect(text).not.toContain("SECRET");
    expect(text).toContain("a.txt:2: needle here");
    expect(arena.runs().some((run) => run.includes("--with-filename"))).toBe(true);
  });

  it("a matched file replaced by a FIFO: the call ends", async () => {
    arena = setUp({ "a.txt": "needle\n" }, "rm a.txt && mkfifo a.txt");
    const result = await filesPage();
    expect(result.isError, result.text).toBeFalsy();
    expect(result.text).toContain("a.txt (1, firstLine=0)");
  });

  it("a matched file replaced by a symlink to /dev/zero: the call ends", async () => {
    arena = setUp({ "a.txt": "needle\n" }, "rm a.txt && ln -s /dev/zero a.txt");
    const result = await filesPage();
    expect(result.isError, result.text).toBeFalsy();
    expect(result.text).toContain("a.txt (1, firstLine=0)");
  });

  it.skipIf(!isRoot)("a matched file replaced by a /dev/zero-like character device (root): the call ends", async () => {
    arena = setUp({ "a.txt": "needle\n" }, "rm a.txt && mknod a.txt c 1 5");
    const result = await filesPage();
    expect(result.isError, result.text).toBeFalsy();
    expect(result.text).toContain("a.txt (1, firstLine=0)");
  });

  it("a matched file deleted in between: an answer, not an error", async () => {
    arena = setUp({ "a.txt": "needle\n", "b.txt": "x\nneedle\n" }, "rm a.txt");
    const result = await filesPage();
    expect(result.isError, result.text).toBeFalsy();
    expect(result.text).toContain("b.txt (1, firstLine=2)");
  });

  it("a file growing forever (a writer appending meanwhile) is read up to its size when opened: the call ends", async () => {
    arena = setUp({ "a.txt": "x\nneedle\n" }, "setsid sh -c 'while echo grow >> a.txt; do :; done' </dev/null >/dev/null 2>&1 & echo $! > ../writer.pid");
    const result = await filesPage();
    expect(result.isError, result.text).toBeFalsy();
    expect(result.text).toContain("a.txt (1, firstLine=2)");
  });

  it("the searched folder itself swapped for a symlink after the count: no line of the outside file", async () => {
    arena = setUp({ "sub/a.txt": "needle\n" }, "mv sub sub.old && cp ../outside/secret.txt ../outside/a.txt && ln -s ../outside sub");
    const result = await filesPage({ path: "sub" });
    expect(result.isError, result.text).toBeFalsy();
    expectNoSecret(result.text);
    expect(result.text).toContain("a.txt (1, firstLine=0)");
  });

  it("a hard link to a file outside is a file of the workspace: stated as ripgrep states it", async () => {
    // Creating the link needs the right to the file already (fs.protected_hardlinks); ripgrep's own runs read it alike.
    arena = setUp({ "a.txt": "x\nneedle\n" }, ":");
    linkSync(path.join(arena.outside, "secret.txt"), path.join(arena.ws.dir, "hard.txt"));
    const result = await filesPage();
    expect(result.text).toContain("a.txt (1, firstLine=2)");
    expect(result.text).toContain("hard.txt (1, firstLine=3)");
  });

  it("no descriptor is left open by the pinned ripgrep run", async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("needle\n", "utf16le")]);
    arena = setUp({ "wide.txt": utf16, "big.txt": `${"x".repeat(1_100_000)}\nneedle\n`, "a.txt": "needle\n" }, ":");
    const fds = () => readdirSync("/proc/self/fd").length;
    await filesPage();
    const before = fds();
    const result = await filesPage();
    expect(result.text).toContain("big.txt (1, firstLine=2)");
    expect(result.text).toContain("wide.txt (1, firstLine=1)");
    expect(fds()).toBe(before);
  });
});

describe.skipIf(!rgPath || process.platform !== "linux")("Grep files page on an untouched tree: ripgrep's counts and first lines", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  /** The files page of `pattern` under `root`, paged and in one ripgrep pass (the reference). */
  async function bothPages(pattern: string, ignoreCase: boolean, headLimit = 200) {
    const query: GrepQuery = { pattern, ignoreCase, multiline: false, context: 0 };
    const options = { outputMode: "files" as const, offset: 0, headLimit, context: 0, displayDirectory: ".", pattern };
    const paged = await grepWithRipgrepPaged({ rgPath: rgPath!, directory: root!, query, filter: () => true }, options);
    return { paged: renderGrep(paged, options).text, onePass: renderGrep(await grepWithRipgrep(rgPath!, root!, query), options).text };
  }

  it("names with a newline, a colon, a NUL-free control byte, and names that are not UTF-8 (one printed like a real U+FFFD name)", async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "grep-first-lines-names-")));
    writeFileSync(path.join(root, "new\nline:7:.txt"), "a\nb\nneedle\n");
    writeFileSync(path.join(root, "tab\tand\u0001.txt"), "needle\n");
    // "x\xff.txt" is printed as "x\uFFFD.txt", the name of the other file: the in-process read must not answer it from that one.
    writeFileSync(Buffer.from([...Buffer.from(path.join(root, "x")), 0xff, ...Buffer.from(".txt")]), "a\nb\nc\nneedle\n");
    writeFileSync(path.join(root, "x\uFFFD.txt"), "needle\n");
    for (const ignoreCase of [true, false]) {
      const { paged, onePass } = await bothPages("needle", ignoreCase);
      expect(paged).toBe(onePass);
      expect(paged).toContain("firstLine=4");
    }
  });

  it("-i with a literal U+FFFD: a byte that is not UTF-8 is no match", async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "grep-first-lines-fffd-")));
    writeFileSync(path.join(root, "a.txt"), Buffer.concat([Buffer.from("x\n"), Buffer.from([0xff]), Buffer.from("q\n\uFFFDq\n")]));
    const { paged, onePass } = await bothPages("\uFFFDq", true);
    expect(paged).toBe(onePass);
    expect(paged).toContain("firstLine=3");
  });

  it("more page files left to ripgrep than one pinned run takes (UTF-16 files), nested folders", async () => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "grep-first-lines-many-")));
    for (let index = 0; index < 300; index += 1) {
      const folder = path.join(root, `d${index % 7}`, `e${index % 3}`);
      mkdirSync(folder, { recursive: true });
      const lines = `${"x\n".repeat(index % 5)}Needle ${index}\n`;
      writeFileSync(path.join(folder, `w${index}.txt`), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines, "utf16le")]));
      writeFileSync(path.join(folder, `u${index}.txt`), lines);
    }
    for (const ignoreCase of [true, false]) {
      const { paged, onePass } = await bothPages("Needle", ignoreCase, 600);
      expect(paged).toBe(onePass);
      expect(paged).toContain("d5/e2/w299.txt (1, firstLine=5)");
    }
  });
});
