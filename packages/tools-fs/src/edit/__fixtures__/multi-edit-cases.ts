/**
 * Edit's multi-edit form through `registry.executeToolCall`, held to one
 * answer on every workspace kind (the local disk, the memory workspace, the
 * SSH workspace): each case seeds a tree with a harness of
 * workspace-behaviour-cases.ts and checks the exact result text and the
 * bytes on disk.
 *
 * @example
 * runMultiEditCases("the local disk", localHarness);
 */
import { type ToolResult, toolResultText } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import type { BehaviourFactory, BehaviourHarness } from "../../__fixtures__/workspace-behaviour-cases.js";

let counter = 0;

async function call(harness: BehaviourHarness, args: Record<string, unknown>): Promise<ToolResult<any> & { text: string }> {
  const result = await harness.registry.executeToolCall({ id: `multi_edit_${++counter}`, name: "Edit", arguments: args });
  return { ...result, text: toolResultText(result) };
}

const SOURCE = "import a from 'a';\r\nconst one = 1;\r\nconst two = 2;\r\n  if (x) {\r\n    go();\r\n  }\r\nconst two = 2;\r\n";

interface MultiEditCase {
  readonly name: string;
  readonly files: Record<string, string | Buffer>;
  run(harness: BehaviourHarness): Promise<void>;
}

const CASES: readonly MultiEditCase[] = [
  {
    name: "three edits applied in order on a CRLF file: exact, replace_all, indentation, the details per edit",
    files: { "src/app.ts": SOURCE },
    async run(harness) {
      const result = await call(harness, {
        path: "src/app.ts",
        edits: [
          { old_string: "const one = 1;", new_string: "const one = 10;" },
          { old_string: "const two = 2;", new_string: "const two = 20;", replace_all: true },
          { old_string: "if (x) {\n  go();\n}", new_string: "if (y) {\n  stop();\n  go();\n}" },
        ],
      });
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toBe(
        "Edit: src/app.ts\nedits=3\nreplacements=4\nreplacementsPerEdit=1,2,1\nEdit 3: Note: old_string matched with a uniform indentation shift; the replacement was re-indented to the file's actual indentation.\nautoRead=full",
      );
      expect(result.details).toMatchObject({
        kind: "edit",
        path: "src/app.ts",
        replacements: 4,
        replaceAll: false,
        matchStrategy: "exact",
        expectedReplacements: null,
        totalLines: 8,
        oldPreview: "const one = 1;",
        edits: [
          { replacements: 1, matchStrategy: "exact" },
          { replacements: 2, matchStrategy: "exact" },
          { replacements: 1, matchStrategy: "indentation" },
        ],
      });
      expect((await harness.read("src/app.ts"))?.toString("latin1")).toBe(
        "import a from 'a';\r\nconst one = 10;\r\nconst two = 20;\r\n  if (y) {\r\n    stop();\r\n    go();\r\n  }\r\nconst two = 20;\r\n",
      );
    },
  },
  {
    name: "a third edit that matches nothing: nothing written, the error names edit 3",
    files: { "notes.md": "alpha\nbeta\ngamma\n" },
    async run(harness) {
      const before = await harness.read("notes.md");
      const result = await call(harness, {
        path: "notes.md",
        edits: [
          { old_string: "alpha", new_string: "ALPHA" },
          { old_string: "beta", new_string: "BETA" },
          { old_string: "delta", new_string: "DELTA" },
        ],
      });
      expect(result.isError).toBe(true);
      expect(result.text).toBe(
        "Edit failed: edit 3 of 3: old_string was not found in notes.md as edits 1-2 left it (also tried ignoring line endings, trailing whitespace and indentation). Nothing was written. Read the file again and copy that old_string verbatim from the current content (without line-number prefixes), or locate it with Grep.",
      );
      expect(result.details).toMatchObject({ code: "edit_no_match", path: "notes.md", edit: 3 });
      expect(await harness.read("notes.md")).toEqual(before);
      // The file is unchanged, so the model's corrected call goes through.
      const retried = await call(harness, {
        path: "notes.md",
        edits: [
          { old_string: "alpha", new_string: "ALPHA" },
          { old_string: "gamma", new_string: "GAMMA" },
        ],
      });
      expect(retried.text).toBe("Edit: notes.md\nedits=2\nreplacements=2\nautoRead=full");
      expect((await harness.read("notes.md"))?.toString()).toBe("ALPHA\nbeta\nGAMMA\n");
    },
  },
  {
    name: "an ambiguous second edit and an edit over an earlier edit's text are refused, nothing written",
    files: { "a.txt": "x = 1\ny = 2\nx = 1\n" },
    async run(harness) {
      const before = await harness.read("a.txt");
      const ambiguous = await call(harness, {
        path: "a.txt",
        edits: [
          { old_string: "y = 2", new_string: "y = 3" },
          { old_string: "x = 1", new_string: "x = 0" },
        ],
      });
      expect(ambiguous.text).toBe(
        "Edit failed: edit 2 of 2: old_string matched 2 locations in a.txt as edit 1 left it. Nothing was written. Extend that old_string with surrounding lines so it matches exactly one location, or set replace_all=true on that edit to replace all 2.",
      );
      expect(ambiguous.details).toMatchObject({ code: "edit_ambiguous", edit: 2, matches: 2 });
      const overlapping = await call(harness, {
        path: "a.txt",
        edits: [
          { old_string: "y = 2", new_string: "y = 3" },
          { old_string: "1\ny = 3", new_string: "1\ny = 4" },
        ],
      });
      expect(overlapping.text).toBe(
        "Edit failed: edit 2 of 2 overlaps edit 1: its old_string matches text edit 1 wrote (or joins text around what edit 1 deleted) in a.txt. Nothing was written. Merge the two into one edit, or give edit 2 an old_string outside edit 1's change.",
      );
      expect(overlapping.details).toMatchObject({ code: "conflict", edit: 2, overlapsEdit: 1 });
      expect(await harness.read("a.txt")).toEqual(before);
    },
  },
  {
    name: "both forms, or neither, are refused with what to send",
    files: { "a.txt": "one\n" },
    async run(harness) {
      const both = await call(harness, { path: "a.txt", old_string: "one", new_string: "two", edits: [{ old_string: "one", new_string: "two" }] });
      expect(both.details).toMatchObject({ code: "invalid_arguments" });
      expect(both.text).toContain("either old_string/new_string (one change) or edits (several changes), not both");
      const neither = await call(harness, { path: "a.txt" });
      expect(neither.text).toBe(
        "Edit needs old_string and new_string: send old_string and new_string (new_string may be empty) for one change, or edits: [{ old_string, new_string }, ...] for several changes to this file.",
      );
      expect((await harness.read("a.txt"))?.toString()).toBe("one\n");
    },
  },
];

/** Registers the multi-edit cases on workspaces made by `factory`. */
export function runMultiEditCases(label: string, factory: BehaviourFactory): void {
  describe(`Edit with several edits on ${label}`, () => {
    for (const testCase of CASES) {
      it(testCase.name, async () => {
        const harness = await factory(testCase.files);
        try {
          await testCase.run(harness);
        } finally {
          await harness.close();
        }
      });
    }
  });
}
