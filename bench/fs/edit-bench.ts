/** The Edit figures of the file-tools benchmark (see fs-bench.ts). */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/core";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { findEditMatches } from "@agent-tools/tools-fs/internal";
import { TARGETS } from "./bench-targets.js";
import { type FsBenchSettings, call, format, median, ratio, row } from "./bench-util.js";
import { sourceText } from "./source-text.js";

/** Waits `ms` milliseconds. */
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Edit of a 10 MB file of real text (`repository`'s sources concatenated;
 * other sizes with `--edit-mb=10,20,50`), each pass (exact, line-endings,
 * trailing-whitespace, indentation), end to end through one long-lived
 * registry on files it has not seen, against two peers:
 * - read+write: a plain `readFile` + `writeFile` (node:fs/promises) of the
 *   same path, the peer the target is set against;
 * - floor: `readSync` into a reused buffer + `writeFileSync`, the bare cost
 *   of the system calls (no thread-pool round trips, no fresh memory), a
 *   stricter reference than any asynchronous tool can reach on a busy machine.
 *
 * All sides are measured the same way, interleaved run by run (the order
 * rotates): each run writes a fresh copy of the file, lets it settle for
 * 100 ms, times one Edit (or one read + write) of it, then deletes it. So all
 * see the same page-cache state (a freshly written, still dirty file) and the
 * same background writeback; the deletion waits for the pages under
 * writeback, so one run's writeback does not spill into the next. The
 * figures are medians of `runs` runs after one warm-up run of each side.
 */
export async function benchEdit(repository: string, settings: FsBenchSettings): Promise<void> {
  const { runs } = settings;
  const directory = mkdtempSync(path.join(os.tmpdir(), "agent-tools-bench-edit-"));
  // One long-lived registry, as in a host; each run edits a file it has not
  // seen (no file state: Edit reads and checks it itself).
  const registry = createToolRegistry({
    workdir: directory,
    dataDir: path.join(os.tmpdir(), "agent-tools-bench-data"),
    bundles: [createFsToolBundle()],
    loopBreaker: false,
  });
  let fresh = 0;
  try {
    for (const megabytes of settings.editMegabytes) {
      const body = sourceText(repository, megabytes * 1024 * 1024);
      const half = body.lastIndexOf("\n", body.length / 2) + 1;
      const cases: Array<{ pass: string; content: string; oldString: string; newString: string }> = [
        {
          pass: "exact",
          content: `${body.slice(0, half)}const benchMarker = 1;\n${body.slice(half)}`,
          oldString: "const benchMarker = 1;",
          newString: "const benchMarker = 2;",
        },
        {
          pass: "line-endings",
          content: `${body.slice(0, half)}alphaMarker();\nbetaMarker();\n${body.slice(half)}`.replace(/\n/g, "\r\n"),
          oldString: "alphaMarker();\nbetaMarker();\n",
          newString: "gammaMarker();\n",
        },
        {
          pass: "trailing-whitespace",
          content: `${body.slice(0, half)}alphaMarker();   \nbetaMarker();\t\n${body.slice(half)}`,
          oldString: "alphaMarker();\nbetaMarker();\n",
          newString: "gammaMarker();\n",
        },
        {
          pass: "indentation",
          content: `${body.slice(0, half)}        alphaMarker();\n        betaMarker();\n${body.slice(half)}`,
          oldString: "alphaMarker();\nbetaMarker();",
          newString: "gammaMarker();",
        },
      ];
      for (const item of cases) {
        const bytes = Buffer.from(item.content);
        const reused = Buffer.alloc(bytes.length + 65536);
        const matchTimes: number[] = [];
        for (let run = 0; run < runs; run += 1) {
          const start = performance.now();
          const result = findEditMatches(bytes, item.oldString, item.newString);
          matchTimes.push(performance.now() - start);
          if (result?.strategy !== item.pass) throw new Error(`expected ${item.pass}, got ${result?.strategy}`);
        }
        const match = median(matchTimes);
        // A new name per run: the registry has never seen the file.
        let name = "";
        let file = "";
        /** Times `fn` on a fresh copy of the file, then deletes it. */
        const timeFresh = async (fn: () => Promise<void>): Promise<number> => {
          name = `big-${item.pass}-${++fresh}.ts`;
          file = path.join(directory, name);
          writeFileSync(file, bytes);
          await settle(100);
          const start = performance.now();
          await fn();
          const elapsed = performance.now() - start;
          rmSync(file);
          return elapsed;
        };
        const edit = async () => {
          const result = await call(registry, "Edit", { path: name, old_string: item.oldString, new_string: item.newString });
          if ((result.details as { matchStrategy: string }).matchStrategy !== item.pass) throw new Error("wrong strategy");
        };
        const plain = async () => {
          const read = await readFile(file);
          await writeFile(file, read);
        };
        const floor = async () => {
          const fd = openSync(file, "r");
          let filled = 0;
          try {
            for (let got = 1; got > 0; filled += got) got = readSync(fd, reused, filled, reused.length - filled, filled);
          } finally {
            closeSync(fd);
          }
          writeFileSync(file, reused.subarray(0, filled));
        };
        const sides = [edit, plain, floor];
        const times = sides.map((): number[] => []);
        for (let run = -1; run < runs; run += 1) {
          // run -1 is the warm-up of every side
          for (let step = 0; step < sides.length; step += 1) {
            const side = (step + Math.max(0, run)) % sides.length;
            const elapsed = await timeFresh(sides[side]!);
            if (run >= 0) times[side]!.push(elapsed);
          }
        }
        const [tool, peer, bare] = times.map(median) as [number, number, number];
        const mb = bytes.length / 1024 / 1024;
        if (megabytes === 10) settings.targets.add(TARGETS.edit10m, tool / peer, `10 MB, Edit ${item.pass}`);
        row(
          `${megabytes} MB file`,
          `Edit ${item.pass}`.padEnd(24),
          `tool ${format(tool)}`,
          `read+write ${format(peer)} ${ratio(tool, peer)}`,
          `floor ${format(bare)} ${ratio(tool, bare)}`,
          `match ${(match / mb).toFixed(2)} ms/MB`,
        );
      }
    }
  } finally {
    await registry.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
