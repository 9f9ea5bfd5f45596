import type { ToolRegistry } from "@agent-tools/core";

/** The text of a file of `count` numbered lines (`line-0007: old`). */
export function numberedLines(count: number): string {
  return Array.from({ length: count }, (_, index) => `${lineLabel(index)}: old\n`).join("");
}

/** The label of line `index`. */
export function lineLabel(index: number): string {
  return `line-${String(index).padStart(4, "0")}`;
}

/**
 * Edits every given line of `file` at the same time through `registry`
 * (`<label>: old` -> `<label>: <tag>`); returns the lines whose Edit
 * answered success.
 */
export async function editLines(registry: ToolRegistry, file: string, tag: string, lines: readonly number[]): Promise<number[]> {
  const results = await Promise.all(
    lines.map((line) =>
      registry.executeToolCall({
        id: `${tag}-${line}`,
        name: "Edit",
        arguments: { path: file, old_string: `${lineLabel(line)}: old`, new_string: `${lineLabel(line)}: ${tag}` },
      }),
    ),
  );
  return lines.filter((_, index) => !results[index]!.isError);
}
