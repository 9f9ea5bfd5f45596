/**
 * Our appliers on buffers, no registry, no disk: a V4A patch through
 * `parseV4APatch` and `applyPatchHunks` (what ApplyPatch runs per file), Edit
 * pairs through Edit's planner one call after the other, and the same pairs as
 * one multi-edit call through the multi-edit planner. A `ToolError` is a
 * refusal; anything else thrown is a crash.
 */
import { type ToolContext, ToolError } from "@agent-tools/core";
import { parseV4APatch } from "@agent-tools/core/patch";
import { applyPatchHunks } from "@agent-tools/tools-fs/internal";
import { type EditTarget, planEdit } from "../../../packages/tools-fs/src/edit/edit-plan.js";
import { planMultiEdit } from "../../../packages/tools-fs/src/edit/multi-edit-plan.js";
import { countLineEndings } from "../../../packages/tools-fs/src/shared/line-ending-count.js";
import type { EditPair } from "../formats/to-edit-pairs.js";
import type { EngineOutcome, FormatEngine } from "./outcome.js";

/** Edit pairs with the file expected after each. */
export interface PairsInput {
  readonly pairs: readonly EditPair[];
  readonly expected: readonly Buffer[];
}

function refusalOrCrash(error: unknown): EngineOutcome {
  if (error instanceof ToolError) return { kind: "refused", reason: error.code };
  return { kind: "crashed", error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/** A file Edit's planner reads: never read before (so no stale check), its line endings counted on demand. */
function target(displayPath: string): EditTarget<{ mtimeMs: number; size: number }> {
  return {
    displayPath,
    recorded: () => ({ fullText: undefined, latest: undefined }),
    assertUnchanged: async () => {},
    countLineEndings: (bytes) => countLineEndings(bytes),
  };
}

function context(): ToolContext {
  // The planners read only the abort signal of the context.
  return { signal: new AbortController().signal } as ToolContext;
}

/** The V4A applier: the patch parsed, its one update operation's hunks applied. */
export const oursV4A: FormatEngine<string> = {
  name: "ours",
  async apply(oldBytes, patchText) {
    try {
      const parsed = parseV4APatch(patchText);
      const operation = parsed.operations[0];
      if (parsed.operations.length !== 1 || operation?.kind !== "update") return { kind: "crashed", error: "the parser did not return one update operation" };
      const patched = applyPatchHunks(oldBytes, operation.hunks, { displayPath: operation.path });
      return { kind: "applied", bytes: Buffer.concat(patched.pieces) };
    } catch (error) {
      return refusalOrCrash(error);
    }
  },
};

/** Edit pairs as one Edit call each, in order; a pair leaving another file than expected stops the case as wrong. */
export const oursEditPairs: FormatEngine<PairsInput> = {
  name: "ours",
  async apply(oldBytes, input) {
    let bytes = oldBytes;
    for (const [index, pair] of input.pairs.entries()) {
      try {
        const plan = await planEdit({
          input: { ...pair, replace_all: false },
          file: target("file"),
          content: { bytes, stats: { mtimeMs: 0, size: bytes.length } },
          context: context(),
        });
        bytes = Buffer.concat(plan.pieces);
      } catch (error) {
        return refusalOrCrash(error);
      }
      const expected = input.expected[index] as Buffer;
      if (!bytes.equals(expected)) return { kind: "wrong-step", step: index + 1, bytes, expected };
    }
    return { kind: "applied", bytes };
  },
};

/** The same pairs as one multi-edit Edit call (`edits`). */
export const oursMultiEdit: FormatEngine<PairsInput> = {
  name: "ours",
  async apply(oldBytes, input) {
    try {
      const plan = await planMultiEdit({
        edits: input.pairs,
        file: target("file"),
        content: { bytes: oldBytes, stats: { mtimeMs: 0, size: oldBytes.length } },
        context: context(),
      });
      return { kind: "applied", bytes: Buffer.concat(plan.pieces) };
    } catch (error) {
      return refusalOrCrash(error);
    }
  },
};
