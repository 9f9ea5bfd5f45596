/**
 * Attacks on the OpenAI Responses API mappings of ApplyPatch
 * (`@agent-tools/core/patch`): an `apply_patch_call` is one operation on one
 * file, so no `path` or `diff` a model sends (a line break and a second
 * header in the path, `*** End Patch` / `*** Delete File:` / `*** Move to:`
 * lines in the diff, CR in the middle of a line) may turn into a patch of
 * more operations or another path; a custom tool call holding two patches
 * is refused whole.
 */
import { ToolError } from "@agent-tools/core";
import { applyPatchOperationToV4A, fromResponsesCustomToolCall, parseV4APatch, patchTargetsOf } from "@agent-tools/core/patch";
import { describe, expect, it } from "vitest";

type Operation = Parameters<typeof applyPatchOperationToV4A>[0];

/** The patch of `operation`, or undefined when the mapping refuses it (with a ToolError). */
function mapped(operation: Operation): string | undefined {
  try {
    return applyPatchOperationToV4A(operation);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return undefined;
  }
}

/** Asserts a mapped operation names one path, the operation's own, and parses (when it does) into one operation on it. */
function expectOneFile(operation: Operation): void {
  const text = mapped(operation);
  if (text === undefined) return;
  const targets = patchTargetsOf(text);
  expect(targets, JSON.stringify(operation)).toHaveLength(1);
  expect(targets[0]!.path).toBe(operation.path.trim());
  let operations: ReturnType<typeof parseV4APatch>["operations"] | undefined;
  try {
    operations = parseV4APatch(text).operations;
  } catch {
    return;
  }
  expect(operations.map((item) => item.path)).toEqual([operation.path.trim()]);
  expect(operations[0]!.kind === "update" && operations[0]!.moveTo !== undefined).toBe(false);
}

describe("apply_patch_call operations stay one operation on one file", () => {
  it("a path holding a line break and a second header is refused", () => {
    for (const path of ["a.txt\n*** Delete File: important", "a.txt\r*** Delete File: important", "a.txt\r\n*** Delete File: important", "a.txt\n"]) {
      expect(mapped({ type: "update_file", path, diff: "@@\n-a\n+b\n" })).toBeUndefined();
      expect(mapped({ type: "delete_file", path })).toBeUndefined();
    }
  });

  it("diffs holding headers, End Patch, Move to, or a CR in the middle of a line", () => {
    const diffs = [
      "@@\n-a\n+b\n*** End Patch\n*** Begin Patch\n*** Delete File: important\n",
      "@@\n-a\n+b\n*** Delete File: important\n",
      "*** Move to: elsewhere.txt\n@@\n-a\n+b\n",
      "@@\n-a\n+b\n*** End of File\n*** Update File: other.txt\n@@\n-x\n+y\n",
      "@@\n-a\n+b\r*** Delete File: important\n",
      "@@\n-a\n+b\n\r*** Delete File: important\n",
      "+x\n*** Add File: other.txt\n+y\n",
      "+x\r\n*** End Patch\r\n",
      "@@ *** Delete File: important\n-a\n+b\n",
      " *** Delete File: important\n-a\n+b\n",
    ];
    for (const diff of diffs) {
      for (const type of ["create_file", "update_file"] as const) expectOneFile({ type, path: "a.txt", diff });
    }
  });

  it("generated operations (seeded, 3000)", () => {
    const pieces = [
      "@@",
      "@@ x",
      "-a",
      "+b",
      " c",
      "",
      "\r",
      "*** End of File",
      "*** End Patch",
      "*** Delete File: z",
      "*** Move to: z",
      "+*** Delete File: z",
      "+x\r*** Add File: z",
    ];
    const paths = ["a.txt", " a.txt ", "a\u2028b.txt", "a\u0085.txt", "*** Delete File: z", "\ta.txt"];
    let seed = 4711;
    const next = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    const types = ["create_file", "update_file", "delete_file"] as const;
    for (let round = 0; round < 3000; round += 1) {
      const diff = Array.from({ length: 1 + next(6) }, () => pieces[next(pieces.length)]!).join(next(2) === 0 ? "\n" : "\r\n");
      expectOneFile({ type: types[next(3)]!, path: paths[next(paths.length)]!, diff });
    }
  });

  it("a custom tool call holding two patches is refused whole by the parser", () => {
    const two = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n*** Begin Patch\n*** Delete File: important\n*** End Patch";
    const call = fromResponsesCustomToolCall({ call_id: "c1", name: "ApplyPatch", input: two });
    expect(() => parseV4APatch(String(call.arguments.patch))).toThrow(ToolError);
    // The rules still judge every path it names.
    expect(patchTargetsOf(String(call.arguments.patch)).map((target) => target.path)).toEqual(["a.txt", "important"]);
  });
});
