/**
 * The operations of the before/after comparison of the local file tools
 * (local-vs-before.ts): each one tool call through
 * `registry.executeToolCall` on a copy of rules-3k, with untimed work
 * before it where the call needs it (the Read an Edit or an overwrite
 * needs, the file a Delete removes, no file where Write creates one, a new
 * modification time for a Read that must read the file). Every
 * operation leaves the tree as it found it, so the order of the operations
 * and of the sides does not change what the next call sees.
 */
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ToolRegistry, ToolResult } from "@agent-tools/core";
import { callTool, EDIT_LINE, EditToggle, grepPatterns, LARGE_FILE, SOURCE_FILE } from "./operations.js";

/** The folder (not in rules-3k, no `.ts` file, no Grep pattern's text) that Write and Delete work in. */
export const SCRATCH_FOLDER = "bench-local-vs-before";

/** One timed operation. */
export interface Operation {
  /** Short id for `--only` and the JSON. */
  readonly id: string;
  /** What the table prints. */
  readonly label: string;
  /** Untimed work before each timed call. */
  readonly prepare?: () => Promise<unknown> | unknown;
  /** The timed call. */
  readonly run: () => Promise<ToolResult | undefined>;
}

/** About 5 KB of text lines that no Grep pattern of the bench matches. */
function scratchText(variant: number): string {
  const lines: string[] = [];
  for (let index = 0; lines.join("\n").length < 5_000; index += 1)
    lines.push(`line ${index} of variant ${variant}: the quick brown fox jumps over the lazy dog`);
  return `${lines.join("\n")}\n`;
}

/** The operations on the tree at `root` through `registry` (one set per registry: the Edit and Write toggles are its own). */
export function localOperations(registry: ToolRegistry, root: string): Operation[] {
  const scratch = path.join(root, SCRATCH_FOLDER);
  mkdirSync(scratch, { recursive: true });
  const texts = [scratchText(0), scratchText(1)];
  const created = `${SCRATCH_FOLDER}/created.txt`;
  const overwritten = `${SCRATCH_FOLDER}/overwritten.txt`;
  const deleted = `${SCRATCH_FOLDER}/deleted.txt`;
  writeFileSync(path.join(root, overwritten), texts[0]!);
  let overwrites = 0;
  // A new modification time per Read: the file counts as changed, so Read answers its text and not the
  // "unchanged since the previous Read" note it gives for a range it has already shown.
  let touches = 0;
  const touch = (file: string) => {
    const when = new Date(Date.UTC(2026, 0, 1) + ++touches * 1_000);
    utimesSync(path.join(root, file), when, when);
  };
  const edits = new EditToggle();
  // A 10 MB text file: copies of the 5 KB source file without the edited line, then the file itself.
  const largeEdits = new EditToggle();
  const largeEdit = `${SCRATCH_FOLDER}/large-edit.txt`;
  const source = readFileSync(path.join(root, SOURCE_FILE), "utf8");
  const copy = source.replace(EDIT_LINE, " * (a line the edit does not touch)");
  writeFileSync(path.join(root, largeEdit), copy.repeat(Math.ceil(10_000_000 / copy.length)) + source);
  const operations: Operation[] = [
    {
      id: "read-small",
      label: `Read first page of ${SOURCE_FILE} (5 KB, changed since the last Read)`,
      prepare: () => touch(SOURCE_FILE),
      run: () => callTool(registry, "Read", { path: SOURCE_FILE }),
    },
    {
      id: "read-large",
      label: `Read first page of ${LARGE_FILE} (0.8 MB, changed since the last Read)`,
      prepare: () => touch(LARGE_FILE),
      run: () => callTool(registry, "Read", { path: LARGE_FILE }),
    },
    {
      id: "read-small-again",
      label: "Read the 5 KB file again, unchanged (the short note)",
      run: () => callTool(registry, "Read", { path: SOURCE_FILE }),
    },
    {
      id: "write-new",
      label: "Write a new 5 KB file",
      prepare: () => rmSync(path.join(root, created), { force: true }),
      run: () => callTool(registry, "Write", { path: created, content: texts[0]! }),
    },
    {
      id: "write-over",
      label: "Write over a 5 KB file, after a Read (untimed)",
      prepare: () => callTool(registry, "Read", { path: overwritten }),
      run: () => callTool(registry, "Write", { path: overwritten, content: texts[++overwrites % 2]! }),
    },
    {
      id: "edit",
      label: "Edit one line of the 5 KB file, after a Read (untimed)",
      prepare: () => callTool(registry, "Read", { path: SOURCE_FILE }),
      run: async () => {
        const { oldString, newString } = edits.next();
        const result = await callTool(registry, "Edit", { path: SOURCE_FILE, old_string: oldString, new_string: newString });
        edits.done();
        return result;
      },
    },
    {
      id: "edit-10mb",
      label: "Edit one line of a 10 MB file, after a Read (untimed)",
      prepare: () => callTool(registry, "Read", { path: largeEdit }),
      run: async () => {
        const { oldString, newString } = largeEdits.next();
        const result = await callTool(registry, "Edit", { path: largeEdit, old_string: oldString, new_string: newString });
        largeEdits.done();
        return result;
      },
    },
    { id: "glob", label: "Glob **/*.ts", run: () => callTool(registry, "Glob", { pattern: "**/*.ts" }) },
  ];
  for (const [kind, pattern] of grepPatterns(false)) {
    for (const mode of ["content", "files"] as const) {
      operations.push({
        id: `grep-${kind.replace(" ", "-")}-${mode}`,
        label: `Grep ${kind} ${mode}`,
        run: () => callTool(registry, "Grep", { pattern, output_mode: mode }),
      });
    }
  }
  operations.push(
    { id: "list", label: "List the root (depth 2)", run: () => callTool(registry, "List", {}) },
    { id: "list-deep", label: "List packages/ai (depth 4)", run: () => callTool(registry, "List", { path: "packages/ai", depth: 4 }) },
    {
      id: "delete",
      label: "Delete a 5 KB file (written untimed)",
      prepare: () => writeFileSync(path.join(root, deleted), texts[0]!),
      run: () => callTool(registry, "Delete", { path: deleted }),
    },
  );
  return operations;
}

/** The numbers of a result's details (counts, lines, sizes), so the sides are seen to do the same work. */
export function resultSummary(result: ToolResult | undefined): string {
  if (!result) return "";
  const details = (result.details ?? {}) as Record<string, unknown>;
  const numbers = Object.entries(details)
    .filter(([key, value]) => typeof value === "number" && !key.startsWith("mtime"))
    .map(([key, value]) => `${key} ${value}`);
  const text = result.content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
  return [...numbers, `${text.length} chars`].join(", ");
}
