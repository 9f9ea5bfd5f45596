import { ToolError, defineTool, type ResolvedPath, type ToolContext } from "@agent-tools/core";
import { z } from "zod";
import { type PreparedTemporary, prepareTemporary } from "@agent-tools/file-io";
import { preview } from "../shared/text-preview.js";
import { ownedArrayBuffer } from "../fast-io/hash-worker.js";
import { notFoundError, onResolvedPath } from "../shared/fs-errors.js";
import type { LineEndingCounts } from "../shared/line-ending-count.js";
import { type MutationHashOptions, writeMutation } from "../shared/mutation-write.js";
import type { PooledRead } from "../fast-io/read-buffer-pool.js";
import { assertNotStale } from "../shared/staleness.js";
import type { AnchoredTarget } from "../shared/anchored-target.js";
import { openTarget, withFileMutation } from "../shared/file-mutation.js";
import { assertRegularFile } from "../shared/regular-file.js";
import { withCheckpointRecording } from "../shared/checkpoint-recording.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { looksBinary } from "../read/text-window.js";
import { editedLineCount, lineFeedsFromLines } from "./edit-line-count.js";
import { type MatchStrategy, editPieces, findEditMatches } from "./edit-match.js";

/** Edit's input schema. */
export const editInputSchema = z.object({
  path: z.string().describe("Existing file: workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace."),
  old_string: z.string().describe("Exact text to replace, copied from Read output without the line-number prefix."),
  new_string: z.string().describe("Replacement text; may be empty."),
  expected_replacements: z.number().int().min(1).optional().describe("Fail unless exactly this many replacements are made."),
  replace_all: z.boolean().default(false).describe("Replace every occurrence."),
});

/** Details of an Edit result. */
export interface EditDetails {
  kind: "edit";
  path: string;
  absolutePath: string;
  replacements: number;
  replaceAll: boolean;
  matchStrategy: MatchStrategy;
  expectedReplacements: number | null;
  mtimeMs: number;
  /**
   * FNV-1a 64 of the new content (16 hex characters). Absent when the content
   * was above `inlineHashLimitBytes` and is hashed off the main thread after
   * the write: the file state records it when it arrives.
   */
  contentHash?: string;
  totalLines: number;
  oldPreview: string;
  newPreview: string;
  autoRead: boolean;
}

const DESCRIPTION = `Replaces text in an existing file; never creates one (use Write).
- old_string must occur exactly once unless replace_all=true: add surrounding lines to make it unique. If it does not match exactly, Edit retries ignoring line endings (CRLF/LF, BOM), then trailing whitespace, then a uniform indentation shift, and says which matched.
- If the file changed on disk since your last Read, Edit refuses (stale_file): Read it again, then retry. An unread file is read automatically (autoRead=full); chained edits need no re-read.`;

const NOTES: Record<MatchStrategy, string> = {
  exact: "",
  "line-endings": "Note: old_string matched after normalising line endings (CRLF/LF, BOM); the file's original line-ending style was preserved.",
  "trailing-whitespace": "Note: old_string matched ignoring per-line trailing whitespace; the replaced lines were written as given in new_string.",
  indentation: "Note: old_string matched with a uniform indentation shift; the replacement was re-indented to the file's actual indentation.",
};

/** Creates the Edit tool for one bundle. */
export function createEditTool(environment: FsToolEnvironment, options: MutationHashOptions = {}) {
  return defineTool<typeof editInputSchema, EditDetails>({
    name: "Edit",
    description: DESCRIPTION,
    inputSchema: editInputSchema,
    metadata: {
      groupId: "fs",
      kind: "edit",
      isReadOnly: false,
      displayCategory: "file",
      annotations: { readOnly: false, destructive: true, openWorld: false, listedInPlanMode: false },
    },
    async execute(input, context) {
      return onResolvedPath("Edit", input.path, "edit", context, (resolved) => editResolved(input, resolved, context, environment, options));
    },
  });
}

async function editResolved(
  input: z.output<typeof editInputSchema>,
  resolved: ResolvedPath,
  context: ToolContext,
  environment: FsToolEnvironment,
  options: MutationHashOptions,
) {
  if (input.old_string === "") {
    throw new ToolError(
      "invalid_arguments",
      "Edit needs a non-empty old_string. To create a file use Write; to add text, include an existing neighbouring line in old_string and repeat it in new_string.",
    );
  }
  if (!resolved.exists) throw notFoundError("Edit", resolved, context);
  return withFileMutation(resolved, context, environment, { toolName: "Edit", followLeaf: true }, async (target) => {
    if (!target.stats) throw notFoundError("Edit", resolved, context);
    assertRegularFile("Edit", resolved.displayPath, target.stats);
    // The write's temporary file is created on the thread pool while the
    // file is opened, read and matched (removed again if the edit fails).
    const temporary = prepareTemporary(target.directory, target.name, Number(target.stats.mode) & 0o7777);
    try {
      return await editTarget(input, resolved, context, environment, options, target, temporary);
    } finally {
      await temporary.discard();
    }
  });
}

async function editTarget(
  input: z.output<typeof editInputSchema>,
  resolved: ResolvedPath,
  context: ToolContext,
  environment: FsToolEnvironment,
  options: MutationHashOptions,
  target: AnchoredTarget,
  temporary: PreparedTemporary,
) {
  const { handle, stats: current } = await openTarget("Edit", resolved.displayPath, target);
  let read: PooledRead;
  try {
    read = await environment.fastIo.readWholeFile(handle, current.size);
  } catch (error) {
    await handle.close();
    throw error;
  }
  // The descriptor is closed on the thread pool while the file is matched
  // (one round trip less before the write).
  const closing = handle.close().catch(() => undefined); // a read-only descriptor: nothing to lose
  // Pooled memory goes back to the pool when the edit is done, or once the
  // off-thread hash has copied what it reads.
  let handedOff = false;
  try {
    const { result, pendingHash } = await editBytes(input, resolved, context, environment, options, target, current, read, temporary);
    if (pendingHash && read.pooled) {
      handedOff = true;
      read.releaseWhen(pendingHash.released);
    }
    return result;
  } finally {
    if (!handedOff) read.release();
    await closing;
  }
}

async function editBytes(
  input: z.output<typeof editInputSchema>,
  resolved: ResolvedPath,
  context: ToolContext,
  environment: FsToolEnvironment,
  options: MutationHashOptions,
  target: AnchoredTarget,
  current: import("node:fs").Stats,
  read: PooledRead,
  temporary: PreparedTemporary,
) {
  const bytes = read.bytes;
  if (looksBinary(bytes))
    throw new ToolError("binary_file", `Edit refused: ${resolved.displayPath} is a binary file (it contains NUL bytes). Edit works on text files only.`);
  const key = target.canonicalPath;
  const fullText = environment.state.getLatestFullText(key);
  const expected = fullText ?? environment.state.getLatest(key);
  const autoRead = expected === undefined;
  if (expected)
    await assertNotStale(
      "Edit",
      resolved.displayPath,
      expected,
      current,
      () => bytes,
      environment.state.getPendingHash(key, expected),
      environment.fastIo.contentHash,
    );
  if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted this call before it finished.");

  // The file's line endings are counted at most once, and only when needed:
  // for the dominant EOL of a fuzzy pass, or for the new line count.
  let counts: LineEndingCounts | undefined;
  const lineEndingCounts = () => (counts ??= environment.fastIo.countLineEndings(bytes));
  const result = findEditMatches(bytes, input.old_string, input.new_string, { lineEndingCounts });
  const display = resolved.displayPath;
  if (!result) {
    throw new ToolError(
      "edit_no_match",
      `Edit failed: old_string was not found in ${display} (also tried ignoring line endings, trailing whitespace and indentation). Read the file again and copy old_string verbatim from the current content (without line-number prefixes), or locate it with Grep.`,
      { details: { path: display } },
    );
  }
  const found = result.matches.length;
  if (found > 1 && !input.replace_all) {
    throw new ToolError(
      "edit_ambiguous",
      `Edit failed: old_string matched ${found} locations in ${display}. Extend old_string with surrounding lines so it matches exactly one location, or set replace_all=true to replace all ${found}.`,
      { details: { path: display, matches: found, matchStrategy: result.strategy } },
    );
  }
  const replacements = input.replace_all ? found : 1;
  if (input.expected_replacements !== undefined && input.expected_replacements !== replacements) {
    throw new ToolError(
      "edit_count_mismatch",
      `Edit failed: expected ${input.expected_replacements} replacements but found ${replacements} in ${display}. Fix expected_replacements, or adjust old_string${input.replace_all ? "" : " (or set replace_all=true)"}.`,
      { details: { path: display, expected: input.expected_replacements, found: replacements } },
    );
  }
  const applied = input.replace_all ? result.matches : result.matches.slice(0, 1);
  const pieces = editPieces(bytes, applied, true);
  // The old line count is known when the recorded full snapshot is this very version.
  const knownLines = fullText && fullText.mtimeMs === current.mtimeMs && fullText.size === current.size ? fullText.totalLines : undefined;
  const oldLineFeeds = () =>
    knownLines !== undefined && bytes.length > 0 ? lineFeedsFromLines(knownLines, bytes.length, bytes[bytes.length - 1]!) : lineEndingCounts().lf;
  const { version, pendingHash } = await withCheckpointRecording(
    context,
    display,
    () => [key],
    () =>
      writeMutation(
        target.directory,
        target.name,
        pieces,
        Number(current.mode) & 0o7777,
        options,
        environment.fastIo,
        () => editedLineCount(bytes, applied, oldLineFeeds(), pieces),
        read.pooled ? undefined : ownedArrayBuffer(bytes),
        temporary,
      ),
  );
  environment.state.recordTextMutation(key, version, pendingHash);
  const { mtimeMs, contentHash: hash, totalLines } = version;
  const lines = [`Edit: ${display}`, `replacements=${replacements}`, `replaceAll=${input.replace_all}`];
  if (NOTES[result.strategy]) lines.push(NOTES[result.strategy]);
  if (autoRead) lines.push("autoRead=full");
  const output = {
    content: lines.join("\n"),
    details: {
      kind: "edit" as const,
      path: display,
      absolutePath: resolved.absolutePath,
      replacements,
      replaceAll: input.replace_all,
      matchStrategy: result.strategy,
      expectedReplacements: input.expected_replacements ?? null,
      mtimeMs,
      ...(pendingHash ? {} : { contentHash: hash }),
      totalLines,
      oldPreview: preview(input.old_string),
      newPreview: preview(input.new_string),
      autoRead,
    },
  };
  return { result: output, pendingHash };
}
