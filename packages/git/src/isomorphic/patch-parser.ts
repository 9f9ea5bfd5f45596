import { type BinaryHunk, decodeBinaryHunk } from "./git-binary-patch.js";
import { readPatchPath, stripPatchPrefix } from "@agent-tools/core/internal";

/** One `@@` hunk of a text patch, as old and new lines (each with its line end, if any). */
export interface TextHunk {
  oldStart: number;
  oldLines: string[];
  newLines: string[];
}

/** The patch of one file. */
export interface FilePatch {
  /** Path before (null for a new file). */
  oldPath: string | null;
  /** Path after (null for a deleted file). */
  newPath: string | null;
  oldMode?: string;
  newMode?: string;
  /** Blob ids of the `index` line, when present. */
  oldOid?: string;
  newOid?: string;
  hunks: TextHunk[];
  /** For binary patches: the forward hunk and, when present, the reverse one. */
  binary?: { forward: BinaryHunk; reverse?: BinaryHunk };
}

/** Thrown for a patch that cannot be read. */
export class PatchParseError extends Error {
  override readonly name = "PatchParseError";
}

/** Parses the output of `git diff` (text and `--binary` patches, no renames or copies). */
export function parsePatch(patch: string): FilePatch[] {
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: FilePatch[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (!line.startsWith("diff --git ")) {
      index += 1;
      continue;
    }
    const first = readPatchPath(line.slice("diff --git ".length));
    const second = readPatchPath(first.rest);
    const file: FilePatch = { oldPath: stripPatchPrefix(first.path), newPath: stripPatchPrefix(second.path), hunks: [] };
    index += 1;
    for (; index < lines.length && !lines[index]!.startsWith("diff --git "); ) {
      const header = lines[index]!;
      if (header.startsWith("new file mode ")) {
        file.newMode = header.slice("new file mode ".length);
        file.oldPath = null;
      } else if (header.startsWith("deleted file mode ")) {
        file.oldMode = header.slice("deleted file mode ".length);
        file.newPath = null;
      } else if (header.startsWith("old mode ")) file.oldMode = header.slice("old mode ".length);
      else if (header.startsWith("new mode ")) file.newMode = header.slice("new mode ".length);
      else if (header.startsWith("index ")) {
        const match = /^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: (\d+))?$/.exec(header);
        if (match) {
          file.oldOid = match[1];
          file.newOid = match[2];
          if (match[3]) file.oldMode ??= match[3];
          if (match[3]) file.newMode ??= match[3];
        }
      } else if (/^(rename|copy) (from|to) |^similarity index |^dissimilarity index /.test(header)) {
        throw new PatchParseError(`renames and copies are not supported (${header}); create the patch with --no-renames`);
      } else if (header.startsWith("Binary files ")) {
        throw new PatchParseError(`the patch of ${file.newPath ?? file.oldPath} has no binary data; create it with --binary`);
      } else if (header.startsWith("--- ")) {
        file.oldPath = stripPatchPrefix(readPatchPath(header.slice(4).replace(/\t.*$/, "")).path);
      } else if (header.startsWith("+++ ")) {
        file.newPath = stripPatchPrefix(readPatchPath(header.slice(4).replace(/\t.*$/, "")).path);
      } else if (header.startsWith("@@ ")) {
        index = readTextHunk(lines, index, file);
        continue;
      } else if (header === "GIT binary patch") {
        index = readBinary(lines, index + 1, file);
        continue;
      }
      index += 1;
    }
    files.push(file);
  }
  return files;
}

function readTextHunk(lines: string[], start: number, file: FilePatch): number {
  const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[start]!);
  if (!match) throw new PatchParseError(`malformed hunk header: ${lines[start]}`);
  let oldCount = match[2] === undefined ? 1 : Number(match[2]);
  let newCount = match[4] === undefined ? 1 : Number(match[4]);
  const hunk: TextHunk = { oldStart: Number(match[1]), oldLines: [], newLines: [] };
  let index = start + 1;
  let last: "old" | "new" | "both" | undefined;
  while (index < lines.length && (oldCount > 0 || newCount > 0 || lines[index]!.startsWith("\\"))) {
    const line = lines[index]!;
    const marker = line[0];
    const text = `${line.slice(1)}\n`;
    if (marker === " " || line === "") {
      hunk.oldLines.push(line === "" ? "\n" : text);
      hunk.newLines.push(line === "" ? "\n" : text);
      oldCount -= 1;
      newCount -= 1;
      last = "both";
    } else if (marker === "-") {
      hunk.oldLines.push(text);
      oldCount -= 1;
      last = "old";
    } else if (marker === "+") {
      hunk.newLines.push(text);
      newCount -= 1;
      last = "new";
    } else if (marker === "\\") {
      // "\ No newline at end of file": the previous line has no line end.
      const strip = (list: string[]) => (list[list.length - 1] = list[list.length - 1]!.slice(0, -1));
      if (last === "old" || last === "both") strip(hunk.oldLines);
      if (last === "new" || last === "both") strip(hunk.newLines);
    } else {
      break;
    }
    index += 1;
  }
  if (oldCount > 0 || newCount > 0) throw new PatchParseError(`truncated hunk in the patch of ${file.newPath ?? file.oldPath}`);
  file.hunks.push(hunk);
  return index;
}

function readBinary(lines: string[], start: number, file: FilePatch): number {
  const hunks: BinaryHunk[] = [];
  let index = start;
  while (index < lines.length && hunks.length < 2) {
    const header = /^(literal|delta) (\d+)$/.exec(lines[index]!);
    if (!header) break;
    index += 1;
    const body: string[] = [];
    while (index < lines.length && lines[index] !== "") body.push(lines[index++]!);
    index += 1;
    try {
      hunks.push(decodeBinaryHunk(header[1] as "literal" | "delta", Number(header[2]), body));
    } catch (error) {
      throw new PatchParseError(`corrupt binary patch of ${file.newPath ?? file.oldPath}: ${(error as Error).message}`);
    }
  }
  if (hunks.length === 0) throw new PatchParseError(`empty binary patch of ${file.newPath ?? file.oldPath}`);
  file.binary = { forward: hunks[0]!, reverse: hunks[1] };
  return index;
}
