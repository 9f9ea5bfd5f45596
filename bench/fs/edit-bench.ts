/** The Edit figures of the file-tools benchmark (see fs-bench.ts). */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/core";
import { createFsToolBundle, findEditMatches } from "@agent-tools/tools-fs";
import { type BenchSettings, call, format, measure, median, ratio, row } from "./bench-util.js";

/** Realistic text: the tracked sources concatenated up to `bytes`. */
function sourceText(repository: string, bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (size >= bytes) return;
      if (entry.name === "node_modules" || entry.name === ".git") continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|js|md)$/.test(entry.name)) {
        const text = readFileSync(full, "utf8")
          .replace(/\r/g, "")
          .replace(/[ \t]+$/gm, "");
        parts.push(text);
        size += text.length;
      }
    }
  };
  while (size < bytes) walk(repository);
  return parts.join("\n").slice(0, bytes);
}

/**
 * Edit of a 10, 20 and 50 MB file, each pass (exact, line-endings,
 * trailing-whitespace, indentation), end to end through one long-lived
 * registry on files it has not seen, against a plain read + write.
 */
export async function benchEdit(repository: string, settings: BenchSettings): Promise<void> {
  const { runs, quick } = settings;
  const directory = mkdtempSync(path.join(os.tmpdir(), "agent-tools-bench-edit-"));
  const file = path.join(directory, "big.ts");
  try {
    for (const megabytes of quick ? [10] : [10, 20, 50]) {
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
        writeFileSync(file, item.content);
        const size = statSync(file).size;
        const plain = await measure(runs, async () => {
          const bytes = await readFile(file);
          await writeFile(file, bytes);
        });
        const bytes = Buffer.from(item.content);
        const matchTimes: number[] = [];
        for (let run = 0; run < runs; run += 1) {
          const start = performance.now();
          const result = findEditMatches(bytes, item.oldString, item.newString);
          matchTimes.push(performance.now() - start);
          if (result?.strategy !== item.pass) throw new Error(`expected ${item.pass}, got ${result?.strategy}`);
        }
        const match = median(matchTimes);
        // One long-lived registry, as in a host; each run edits a file it has
        // not seen (no file state: Edit reads and checks it itself).
        const registry = createToolRegistry({
          workdir: directory,
          dataDir: path.join(os.tmpdir(), "agent-tools-bench-data"),
          bundles: [createFsToolBundle()],
          loopBreaker: false,
        });
        const times: number[] = [];
        for (let run = -1; run < runs; run += 1) {
          const name = `big-${item.pass}-${run + 1}.ts`;
          writeFileSync(path.join(directory, name), item.content);
          // Let the write of the test file settle, as the peer's runs follow no such write.
          await new Promise((resolve) => setTimeout(resolve, 100));
          const start = performance.now();
          const result = await call(registry, "Edit", { path: name, old_string: item.oldString, new_string: item.newString });
          if (run >= 0) times.push(performance.now() - start); // run -1 is the warm-up
          if ((result.details as { matchStrategy: string }).matchStrategy !== item.pass) throw new Error("wrong strategy");
          rmSync(path.join(directory, name));
        }
        await registry.close();
        const tool = median(times);
        const mb = size / 1024 / 1024;
        row(
          `${megabytes} MB file`,
          `Edit ${item.pass}`,
          `read+write ${format(plain)}`,
          `tool ${format(tool)} ${ratio(tool, plain)}`,
          `match ${(match / mb).toFixed(2)} ms/MB`,
        );
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
