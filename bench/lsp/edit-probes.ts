/**
 * The edits the language-server benchmark makes: each renames one use of a
 * class (chosen by bench/lsp/ground-truth.ts) to a name declared nowhere, so
 * the file gets exactly one new error, "Cannot find name '<Name>Missing'",
 * which a server and tsc must both report.
 */
import { readFileSync } from "node:fs";
import type { ClassGroundTruth } from "./ground-truth.js";

/** One edit: an Edit call's arguments and how to recognise the error it introduces. */
export interface EditProbe {
  readonly file: string;
  /** 1-based line of the change. */
  readonly line: number;
  /** The whole original line (unique in its file) and its replacement. */
  readonly oldString: string;
  readonly newString: string;
  /** The undeclared name the error message holds. */
  readonly missingName: string;
}

/** One probe per class, at its definition-test use; a use whose line is not unique in its file is skipped. */
export function editProbes(classes: readonly ClassGroundTruth[]): EditProbe[] {
  const probes: EditProbe[] = [];
  for (const item of classes) {
    const lines = readFileSync(item.usage.file, "utf8").split("\n");
    const oldString = lines[item.usage.line - 1] as string;
    if (lines.filter((line) => line === oldString).length !== 1) continue;
    const at = item.usage.character - 1;
    const missingName = `${item.name}Missing`;
    const newString = `${oldString.slice(0, at)}${missingName}${oldString.slice(at + item.name.length)}`;
    probes.push({ file: item.usage.file, line: item.usage.line, oldString, newString, missingName });
  }
  return probes;
}

/** Whether a diagnostic message is the probe's error. */
export function isProbeError(probe: EditProbe, message: string): boolean {
  return message.includes(`'${probe.missingName}'`);
}
