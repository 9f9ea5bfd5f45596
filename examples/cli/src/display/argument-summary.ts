/**
 * One-line summaries of tool arguments, as a person wants to see them next to
 * the tool name: `Read src/a.ts:10-40`, `Grep /discount/ in src`, `Bash $ npm test`.
 * Pure (no Node imports): the terminal display and the web example's chat
 * page both use it.
 */

type Arguments = Record<string, unknown>;

/**
 * Summarises a call's arguments in one line of at most `width` characters.
 * Unknown tools show their arguments as compact JSON.
 *
 * @example
 * summarizeArguments("Read", { path: "src/a.ts", start_line: 10, limit: 31 }); // "src/a.ts:10-40"
 */
export function summarizeArguments(toolName: string, args: unknown, width = 100): string {
  if (typeof args === "string") return truncate(`(malformed arguments) ${oneLine(args)}`, width);
  if (args === null || typeof args !== "object" || Array.isArray(args)) return truncate(JSON.stringify(args) ?? "", width);
  const a = args as Arguments;
  const summary = knownSummary(toolName, a) ?? compactJson(a);
  return truncate(oneLine(summary), width);
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
    case "Delete":
    case "Image":
      return str("path") ?? compactJson(a);
    case "List":
      return `${str("path") ?? "."}${num("depth") !== undefined ? ` depth=${num("depth")}` : ""}`;
    case "Glob":
      return `${str("pattern") ?? "?"}${str("path") ? ` in ${str("path")}` : ""}`;
    case "Grep": {
      const where = str("path") ? ` in ${str("path")}` : "";
      const files = str("file_pattern") ? ` (${str("file_pattern")})` : "";
      const mode = str("output_mode") && str("output_mode") !== "content" ? ` [${str("output_mode")}]` : "";
      return `/${str("pattern") ?? "?"}/${where}${files}${mode}`;
    }
    case "Bash":
      return `$ ${str("command") ?? "?"}${str("cwd") ? `  (in ${str("cwd")})` : ""}`;
    case "ProcessWait":
    case "ProcessStop":
      return `session ${str("session_id") ?? "?"}${num("cursor") !== undefined ? ` from byte ${num("cursor")}` : ""}`;
    case "ManagedProcess":
      return `${str("action") ?? "?"} ${str("command") ?? str("process_id") ?? ""}`.trim();
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

function compactJson(value: Arguments): string {
  const entries = Object.entries(value);
  if (entries.length === 0) return "";
  return entries.map(([key, item]) => `${key}=${JSON.stringify(item)}`).join(" ");
}

/** Collapses whitespace runs (newlines included) into single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts `text` to `width` characters with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (width <= 1) return text.slice(0, Math.max(0, width));
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
