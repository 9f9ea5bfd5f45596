/**
 * The operations both halves of the workspace benchmark time, on files of
 * the rules-3k tree: which files, which patterns, and the Edit that toggles
 * one line of a source file back and forth (so every run makes exactly one
 * replacement, whichever side made the previous one).
 */
import type { ToolRegistry, ToolResult } from "@agent-tools/core";

/** A source file of ordinary size (178 lines, 5 KB): its first page is the whole file. */
export const SOURCE_FILE = "packages/ai/src/agent/tool-loop-agent.ts";
/** The largest text file of the tree with ordinary lines (0.8 MB, 17,890 lines): Read shows its first page. */
export const LARGE_FILE = "packages/typedoc/dist/index.js";
/** A line of {@link SOURCE_FILE} found once in it, and the same line edited. */
export const EDIT_LINE = " * A tool loop agent is an agent that runs tools in a loop. In each step,";
const EDITED_LINE = " * A tool loop agent is an agent that runs tools in a loop (edited). In each step,";

/** Grep patterns: label and pattern (the tool's defaults: case-insensitive, every match counted). */
export function grepPatterns(quick: boolean): Array<readonly [string, string]> {
  const patterns: Array<readonly [string, string]> = [
    ["rare literal", "Levenshtein"],
    ["regex", "function\\s+\\w+\\("],
  ];
  if (!quick) patterns.push(["common literal", "return"]);
  return patterns;
}

/** ripgrep's flags for the same file set as the tools: dot-files, ignore files outside git, no .git, no user config. */
export const RG_WALK = ["--no-config", "--hidden", "--no-require-git", "--no-ignore-global", "-g", "!.git"];

/** Which way the next edit goes: each side flips it after its edit. */
export class EditToggle {
  private edited = false;
  /** The text to replace and its replacement for the next edit. */
  next(): { oldString: string; newString: string } {
    return this.edited ? { oldString: EDITED_LINE, newString: EDIT_LINE } : { oldString: EDIT_LINE, newString: EDITED_LINE };
  }
  /** Records a made edit. */
  done(): void {
    this.edited = !this.edited;
  }
  /** The file's text with the next edit applied (what a script does with sed); throws when the line is not there. */
  apply(text: string): string {
    const { oldString, newString } = this.next();
    const at = text.indexOf(oldString);
    if (at < 0 || text.indexOf(oldString, at + 1) >= 0) throw new Error(`the edit's line is not in ${SOURCE_FILE} exactly once`);
    return text.slice(0, at) + newString + text.slice(at + oldString.length);
  }
}

let callId = 0;
/** Calls a tool through the registry; throws when it answers with an error. */
export async function callTool(registry: ToolRegistry, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = await registry.executeToolCall({ id: `bench_${++callId}`, name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 2_000)}`);
  return result;
}

/** The Edit of {@link SOURCE_FILE} through a registry, flipping `toggle`. */
export async function toolEdit(registry: ToolRegistry, toggle: EditToggle): Promise<void> {
  const { oldString, newString } = toggle.next();
  await callTool(registry, "Edit", { path: SOURCE_FILE, old_string: oldString, new_string: newString });
  toggle.done();
}

/** Grep's totals from a result's details. */
export function grepTotals(result: ToolResult): { matchCount: number; fileCount: number; engine: string } {
  return result.details as { matchCount: number; fileCount: number; engine: string };
}
