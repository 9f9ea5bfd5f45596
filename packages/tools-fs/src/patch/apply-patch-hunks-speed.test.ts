/**
 * A bench-like check (printed, never asserted): a 50,000-line file with 20
 * hunks, exact and indentation-perturbed (the looser passes build their
 * views of the whole file), and the unified diff of the result.
 */
import type { PatchHunk } from "@agent-tools/core/patch";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { applyPatchHunks } from "./apply-patch-hunks.js";
import { formatUnifiedDiff } from "./unified-diff.js";

const LINES = 50_000;
const HUNKS = 20;

function fixture(shift: string) {
  const lines = Array.from({ length: LINES }, (_, index) => (index % 7 === 0 ? "}" : `    const value${index} = compute(${index % 97});`));
  const hunks: PatchHunk[] = [];
  const expected = [...lines];
  for (let hunk = HUNKS - 1; hunk >= 0; hunk -= 1) {
    const at = Math.floor(((hunk + 0.5) * LINES) / HUNKS);
    hunks.unshift({
      anchors: [],
      endOfFile: false,
      patchLine: 1,
      lines: [
        { kind: "context", text: shift + lines[at - 2]! },
        { kind: "context", text: shift + lines[at - 1]! },
        { kind: "remove", text: shift + lines[at]! },
        { kind: "add", text: `${shift}    const changed${hunk} = true;` },
        { kind: "context", text: shift + lines[at + 1]! },
      ],
    });
    expected.splice(at, 1, `    const changed${hunk} = true;`);
  }
  return { content: Buffer.from(`${lines.join("\n")}\n`), hunks, expected: `${expected.join("\n")}\n` };
}

function median(run: () => void): { median: number; min: number; max: number } {
  const times: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((left, right) => left - right);
  return { median: times[3]!, min: times[0]!, max: times[6]! };
}

describe(`${LINES}-line file, ${HUNKS} hunks`, () => {
  for (const [name, shift] of [
    ["exact", ""],
    ["indentation (every line shifted)", "  "],
  ] as const) {
    it(name, () => {
      const { content, hunks, expected } = fixture(shift);
      let output = Buffer.alloc(0);
      const timing = median(() => {
        output = Buffer.concat(applyPatchHunks(content, hunks, { displayPath: "big.ts" }).pieces);
      });
      expect(output.toString()).toBe(expected);
      const diff = median(() => formatUnifiedDiff("big.ts", content, output));
      console.log(
        `applyPatchHunks ${name}: median ${timing.median.toFixed(1)} ms (range ${timing.min.toFixed(1)}-${timing.max.toFixed(1)}); formatUnifiedDiff: median ${diff.median.toFixed(1)} ms (range ${diff.min.toFixed(1)}-${diff.max.toFixed(1)})`,
      );
    });
  }
});
