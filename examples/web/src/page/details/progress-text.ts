/**
 * One line of text for a running tool's newest structured progress (the
 * `data` of its `onUpdate` updates), whatever the tool: a string as it is; an
 * object by its `message` / `summary` / `text` when it has one, else its
 * plain fields (`scanned: 12 · matches: 3`); anything else as short JSON.
 */

/** Longest progress line shown. */
export const MAX_PROGRESS_CHARS = 300;

const MESSAGE_KEYS = ["message", "summary", "text", "label"] as const;

/**
 * The progress line, or undefined when there is nothing to show.
 *
 * @example
 * progressText({ message: "scanned 12 files, 3 matches" }); // "scanned 12 files, 3 matches"
 * progressText({ filesScanned: 12, matches: 3 }); // "filesScanned: 12 · matches: 3"
 */
export function progressText(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  if (typeof data === "string") return cap(data.trim()) || undefined;
  if (typeof data === "number" || typeof data === "boolean") return String(data);
  if (typeof data !== "object") return undefined;
  if (!Array.isArray(data)) {
    const record = data as Record<string, unknown>;
    for (const key of MESSAGE_KEYS) {
      const value = record[key];
      if (typeof value === "string" && value.trim() !== "") return cap(value.trim());
    }
    const plain = Object.entries(record).filter(([, value]) => ["string", "number", "boolean"].includes(typeof value));
    if (plain.length > 0) return cap(plain.map(([key, value]) => `${key}: ${String(value)}`).join(" · "));
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    return undefined;
  }
  return json === undefined || json === "{}" || json === "[]" ? undefined : cap(json);
}

function cap(text: string): string {
  return text.length <= MAX_PROGRESS_CHARS ? text : `${text.slice(0, MAX_PROGRESS_CHARS - 1)}…`;
}
