/**
 * One-line summaries of tool arguments for the head of a tool card:
 * `src/a.ts:10-40` for Read, `$ npm test` for Bash, `key="value"` pairs for
 * tools it does not know.
 */

type Arguments = Record<string, unknown>;

/**
 * Summarises a call's arguments in at most `width` characters.
 *
 * @example
 * summarizeArguments("Read", { path: "src/a.ts", start_line: 10, limit: 31 }); // "src/a.ts:10-40"
 */
export function summarizeArguments(toolName: string, args: unknown, width = 160): string {
  if (args === undefined) return "";
  if (typeof args === "string") return truncate(`(malformed arguments) ${oneLine(args)}`, width);
  if (args === null || typeof args !== "object" || Array.isArray(args)) return truncate(JSON.stringify(args) ?? "", width);
  const record = args as Arguments;
  return truncate(oneLine(knownSummary(toolName, record) ?? pairs(record)), width);
}

function knownSummary(toolName: string, a: Arguments): string | undefined {
  const str = (key: string) => (typeof a[key] === "string" ? (a[key] as string) : undefined);
  const num = (key: string) => (typeof a[key] === "number" ? (a[key] as number) : undefined);
  switch (toolName) {
    case "Read": {
      const path = str("path") ?? "?";
      const start = num("start_line");
      const limit = num("limit");
      if (start === undefined && limit === undefined) return path;
      const from = start ?? 1;
      return limit === undefined ? `${path}:${from}-` : `${path}:${from}-${from + limit - 1}`;
    }
    case "Write": {
      const content = str("content") ?? "";
      const lines = content === "" ? 0 : content.split("\n").length;
      return `${str("path") ?? "?"} (${lines} line${lines === 1 ? "" : "s"})`;
    }
    case "Edit":
      return `${str("path") ?? "?"}${a.replace_all === true ? " (replace all)" : ""}`;
    case "Glob":
      return `${str("pattern") ?? "?"}${str("path") ? ` in ${str("path")}` : ""}`;
    case "Grep":
      return `/${str("pattern") ?? "?"}/${str("path") ? ` in ${str("path")}` : ""}${str("file_pattern") ? ` (${str("file_pattern")})` : ""}`;
    case "Bash":
      return `$ ${str("command") ?? "?"}${str("cwd") ? `  (in ${str("cwd")})` : ""}`;
    case "ProcessWait":
    case "ProcessStop":
      return `session ${str("session_id") ?? "?"}${num("cursor") !== undefined ? ` from byte ${num("cursor")}` : ""}`;
    case "TaskCreate":
      return `"${str("subject") ?? "?"}"`;
    case "TaskUpdate": {
      const changes = Object.keys(a).filter((key) => key !== "taskId" && key !== "status");
      return `#${String(a.taskId ?? "?")}${str("status") ? ` → ${str("status")}` : ""}${changes.length ? ` (${changes.join(", ")})` : ""}`;
    }
    case "TaskList":
      return "";
    default:
      return undefined;
  }
}

function pairs(value: Arguments): string {
  return Object.entries(value)
    .map(([key, item]) => `${key}=${JSON.stringify(item)}`)
    .join(" ");
}

/** Collapses whitespace runs (newlines included) into single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts `text` to `width` characters with an ellipsis. */
export function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}
