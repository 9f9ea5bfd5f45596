import os from "node:os";
import { ToolError } from "../errors.js";
import { quoteForMessage, shortenForMessage } from "../quote.js";

/**
 * Longest path input accepted, in characters. Linux refuses paths of 4096
 * bytes or more (PATH_MAX) and macOS of 1024, so a longer input can never
 * name a file; refusing it early also keeps every later message short.
 */
export const MAX_PATH_INPUT_CHARS = 4096;

/** The syntactic form of a path input, before any file-system access. */
export type ParsedPathInput =
  | { kind: "workspace"; segments: string[] }
  | { kind: "root"; alias: string; segments: string[] }
  | { kind: "skill"; skillName: string; segments: string[] }
  | { kind: "absolute"; absolutePath: string; segments: string[] };

/**
 * Parses every accepted path form: workspace-relative, absolute, `~/`,
 * `file://`, `root://alias/...`, `skill://name/...` and the legacy
 * `workspace:` / `skill:` prefixes. Normalises `\` to `/` and refuses `..`
 * segments, segments containing `:`, NUL bytes and UNC paths. Unicode is kept
 * as given: the path policy matches each segment against the names on disk
 * in any normal form (NFC or NFD). Messages quote at most a short prefix of
 * the input.
 *
 * @param label how the message names the input, e.g. `Read path`.
 */
export function parsePathInput(raw: string, label = "path"): ParsedPathInput {
  if (typeof raw !== "string") throw invalid(`${label} must be a string.`);
  if (raw.includes("\0")) throw invalid(`${label} contains a NUL byte; pass a plain path.`);
  // A file:// URL may percent-encode every byte (3 characters each).
  const maxChars = /^\s*file:/i.test(raw.slice(0, 64)) ? 3 * MAX_PATH_INPUT_CHARS : MAX_PATH_INPUT_CHARS;
  if (raw.length > maxChars) {
    throw invalid(
      `${label} is ${raw.length} characters long (${quoteForMessage(raw, 80)}); no file path is longer than ${maxChars} characters. Pass the file's real path.`,
    );
  }
  let input = raw.trim().replace(/\\/g, "/");
  if (input === "") throw invalid(`${label} is empty; pass a workspace-relative path such as "src/index.ts".`);

  const lower = input.toLowerCase();
  if (lower.startsWith("root://")) {
    const rest = input.slice("root://".length);
    const slash = rest.indexOf("/");
    const alias = (slash === -1 ? rest : rest.slice(0, slash)).toLowerCase();
    if (alias === "") throw invalid(`${label} ${quoteForMessage(raw)} names no root: use root://<alias>/<path>.`);
    return { kind: "root", alias, segments: splitSegments(slash === -1 ? "" : rest.slice(slash + 1), raw, label) };
  }
  if (lower.startsWith("skill://") || lower.startsWith("skill:")) {
    const rest = input.slice(lower.startsWith("skill://") ? "skill://".length : "skill:".length).replace(/^\/+/, "");
    const slash = rest.indexOf("/");
    const skillName = slash === -1 ? rest : rest.slice(0, slash);
    if (skillName === "") throw invalid(`${label} ${quoteForMessage(raw)} names no skill: use skill://<skill>/<path>.`);
    return { kind: "skill", skillName, segments: splitSegments(slash === -1 ? "" : rest.slice(slash + 1), raw, label) };
  }
  if (lower.startsWith("workspace:")) {
    input = input.slice("workspace:".length).replace(/^\/+/, "");
    return { kind: "workspace", segments: splitSegments(input, raw, label) };
  }
  if (lower.startsWith("file:")) {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw invalid(`${label} ${quoteForMessage(raw)} is not a valid file:// URL.`);
    }
    if (url.hostname !== "" && url.hostname.toLowerCase() !== "localhost") {
      throw invalid(`${label} ${quoteForMessage(raw)} points to another host (${shortenForMessage(url.hostname)}); only local file:// URLs are accepted.`);
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(url.pathname);
    } catch {
      throw invalid(`${label} ${quoteForMessage(raw)} has invalid percent-encoding.`);
    }
    if (decoded.includes("\0")) throw invalid(`${label} contains a NUL byte; pass a plain path.`);
    if (decoded.startsWith("//")) throw invalid(`${label} ${quoteForMessage(raw)} is a UNC path; UNC paths are not accepted.`);
    const segments = splitSegments(decoded, raw, label);
    return { kind: "absolute", absolutePath: `/${segments.join("/")}`, segments };
  }
  if (input.startsWith("//")) throw invalid(`${label} ${quoteForMessage(raw)} is a UNC path; UNC paths are not accepted.`);
  if (input === "~" || input.startsWith("~/")) {
    const home = os.homedir().replace(/\\/g, "/");
    const segments = [...splitSegments(home, home, "home directory"), ...splitSegments(input.slice(1), raw, label)];
    return { kind: "absolute", absolutePath: `/${segments.join("/")}`, segments };
  }
  if (input.startsWith("/")) {
    const segments = splitSegments(input, raw, label);
    return { kind: "absolute", absolutePath: `/${segments.join("/")}`, segments };
  }
  return { kind: "workspace", segments: splitSegments(input, raw, label) };
}

function splitSegments(value: string, raw: string, label: string): string[] {
  const segments: string[] = [];
  for (const segment of value.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      throw invalid(`${label} ${quoteForMessage(raw)} contains a ".." segment; pass the path without "..", relative to the workspace or a granted root.`);
    }
    if (segment.includes(":")) {
      throw invalid(`${label} ${quoteForMessage(raw)} has a segment containing ":" (${quoteForMessage(segment)}); such names are not accepted.`);
    }
    segments.push(segment);
  }
  return segments;
}

function invalid(message: string): ToolError {
  return new ToolError("invalid_path", message);
}
