/**
 * Runs the saved minimal cases of bench/edit-formats/cases/ (each a file, a
 * V4A patch or Edit pairs, what a correct applier gives, and what ours gave
 * when the case was saved) through our appliers again and prints, per case,
 * whether the result is now the expected one:
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/edit-formats/check-cases.ts
 *
 * `expected: "(refusal)"` means the applier should refuse.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { oursEditPairs, oursV4A } from "./engines/ours.js";
import type { EditPair } from "./formats/to-edit-pairs.js";

interface SavedCase {
  readonly name: string;
  readonly finding: string;
  readonly file: string;
  readonly patch?: string;
  readonly pairs?: EditPair[];
  readonly expected: string;
}

const directory = path.join(import.meta.dirname, "cases");
let open = 0;
for (const name of readdirSync(directory).filter((entry) => entry.endsWith(".json"))) {
  const saved = JSON.parse(readFileSync(path.join(directory, name), "utf8")) as SavedCase;
  const file = Buffer.from(saved.file, "utf8");
  const outcome = saved.patch
    ? await oursV4A.apply(file, saved.patch)
    : await oursEditPairs.apply(file, { pairs: saved.pairs ?? [], expected: [Buffer.from(saved.expected, "utf8")] });
  const got = outcome.kind === "applied" || outcome.kind === "wrong-step" ? outcome.bytes.toString("utf8") : "(refusal)";
  const fixed = got === saved.expected;
  if (!fixed) open++;
  console.log(`${fixed ? "fixed" : "open "} ${saved.name}: ${fixed ? "" : JSON.stringify(got).slice(0, 160)}`);
}
console.log(`${open} open`);
