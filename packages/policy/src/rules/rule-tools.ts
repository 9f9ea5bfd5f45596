/**
 * Which tools a rule name covers and what its specifier means: command
 * patterns for the shell tools, path globs for the file tools, `domain:`
 * hosts for WebFetch, nothing for every other tool.
 */
import type { PathIntent, ToolMetadata } from "@agent-tools/core";
import { patchTargetsOf } from "@agent-tools/core/patch";

/** What a rule's specifier is, by the tool it names. */
export type SpecifierKind = "command" | "path" | "domain" | "none";

/** Tools whose specifier is a command pattern, and where their command is. */
const SHELL_TOOLS: ReadonlySet<string> = new Set(["Bash", "ManagedProcess"]);

/** The intent each file tool resolves its path with. */
const FILE_TOOL_INTENTS: Readonly<Record<string, PathIntent>> = Object.freeze({
  Read: "read",
  Image: "image",
  List: "list",
  Glob: "search",
  Grep: "search",
  Write: "write",
  Edit: "edit",
  ApplyPatch: "edit",
  NotebookEdit: "edit",
  Delete: "delete",
  // LSP reads the file it asks about (and shows lines of the files its answers point into).
  LSP: "read",
});

/** `Read(...)` covers every tool that reads a path; each other name covers itself. */
const READ_FAMILY: ReadonlySet<string> = new Set(["Read", "Image", "List", "Glob", "Grep", "LSP"]);

/** The file tools that change files; `Edit(...)` covers them and any later tool of a file-changing kind. */
const EDIT_FAMILY: ReadonlySet<string> = new Set(["Write", "Edit", "ApplyPatch", "NotebookEdit", "Delete"]);

/** How ApplyPatch resolves each path of its patch: an added file and a move destination as Write, an updated file as Edit, a deleted one as Delete. */
const PATCH_TARGET_INTENTS: Readonly<Record<string, PathIntent>> = Object.freeze({ add: "write", update: "edit", delete: "delete" });

const FILE_CHANGING_KINDS: ReadonlySet<string> = new Set(["write", "edit", "delete"]);

/** Tools that walk a directory (a deny below it denies the walk). */
const WALK_TOOLS: ReadonlySet<string> = new Set(["List", "Glob", "Grep"]);

/** What the specifier of a rule naming `toolName` is. */
export function specifierKindOf(toolName: string): SpecifierKind {
  if (SHELL_TOOLS.has(toolName)) return "command";
  if (Object.hasOwn(FILE_TOOL_INTENTS, toolName)) return "path";
  if (toolName === "WebFetch") return "domain";
  return "none";
}

/** The tool names a rule name stands for when they differ from the name itself (`Read`, `Edit`). */
export function familyOf(ruleTool: string): readonly string[] {
  if (ruleTool === "Read") return [...READ_FAMILY];
  if (ruleTool === "Edit") return [...EDIT_FAMILY];
  return [ruleTool];
}

/** True when a call of a tool that changes files (by name, or by a file-changing kind for tools that arrive later). */
export function isFileChangingTool(toolName: string, metadata: ToolMetadata | undefined): boolean {
  if (EDIT_FAMILY.has(toolName)) return true;
  return metadata !== undefined && metadata.groupId === "fs" && FILE_CHANGING_KINDS.has(metadata.kind);
}

/** True when a rule naming `ruleTool` (a file tool) covers a call of `toolName`. */
export function fileRuleCovers(ruleTool: string, toolName: string, metadata: ToolMetadata | undefined): boolean {
  if (ruleTool === toolName) return true;
  if (ruleTool === "Read") return READ_FAMILY.has(toolName);
  if (ruleTool === "Edit") return isFileChangingTool(toolName, metadata);
  return false;
}

/**
 * True for a file-changing tool whose answers show the content of the files
 * it changes (ApplyPatch: a failed hunk's closest lines, a moved file's
 * content at its new path): `Read(...)` deny and ask rules judge its paths too.
 */
export function readsWhatItChanges(toolName: string): boolean {
  return toolName === "ApplyPatch";
}

/** The path intent a file tool resolves with; undefined for a tool that takes no path. */
export function pathIntentOf(toolName: string, metadata: ToolMetadata | undefined): PathIntent | undefined {
  if (Object.hasOwn(FILE_TOOL_INTENTS, toolName)) return FILE_TOOL_INTENTS[toolName];
  if (isFileChangingTool(toolName, metadata)) return metadata?.kind === "delete" ? "delete" : "write";
  return undefined;
}

/** True for the tools that walk a directory (List, Glob, Grep). */
export function isWalkTool(toolName: string): boolean {
  return WALK_TOOLS.has(toolName);
}

/** The leading bytes of the base64 image formats Image recognises in a free-form `source` (tools-fs `inferSourceType`). */
const BASE64_IMAGE_MAGIC = ["iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "Qk", "AAABAA", "PHN2Z", "PD94bWwg"];

/**
 * True when Image would read a free-form `source` value as a local file:
 * anything but an http(s) or data URL, base64 image data or inline SVG
 * (the same inference as tools-fs' Image; kept in step with it).
 */
export function isImagePathSource(value: string): boolean {
  const trimmed = value.trim();
  if (/^data:image\//i.test(trimmed) || /^https?:\/\//i.test(trimmed)) return false;
  if (BASE64_IMAGE_MAGIC.some((magic) => trimmed.startsWith(magic)) && /^[A-Za-z0-9+/=\s]+$/.test(trimmed.slice(0, 256))) return false;
  return !(/^<svg[\s>]/i.test(trimmed) || /^<\?xml/i.test(trimmed));
}

/**
 * The paths a file tool call names (`path`, Image's `paths`, and its
 * `source` / `sources` values that name a local file; the walkers default
 * to the workdir, `.`).
 */
export function targetPathsOf(toolName: string, input: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  if (typeof input.path === "string") out.push(input.path);
  if (Array.isArray(input.paths)) for (const item of input.paths) if (typeof item === "string") out.push(item);
  // Every path a header of the patch names, found even in a patch that does not parse (ApplyPatch would refuse it, but the rules judge it first).
  if (toolName === "ApplyPatch" && typeof input.patch === "string") for (const target of patchTargetsOf(input.patch)) out.push(target.path);
  if (toolName === "Image") {
    const sources = [input.source, ...(Array.isArray(input.sources) ? input.sources : [])];
    for (const item of sources) if (typeof item === "string" && isImagePathSource(item)) out.push(item);
  }
  if (out.length === 0 && WALK_TOOLS.has(toolName)) out.push(".");
  return out;
}

/**
 * The paths a file tool call names, each with the intent the tool resolves
 * it with: `intent` for all of them, but for ApplyPatch each path of the
 * patch by how the patch touches it (see {@link targetPathsOf}).
 */
export function callTargetsOf(toolName: string, input: Readonly<Record<string, unknown>>, intent: PathIntent): Array<{ path: string; intent: PathIntent }> {
  if (toolName === "ApplyPatch" && typeof input.patch === "string") {
    return patchTargetsOf(input.patch).map((target) => ({ path: target.path, intent: PATCH_TARGET_INTENTS[target.kind] ?? intent }));
  }
  return targetPathsOf(toolName, input).map((path) => ({ path, intent }));
}

/** The most paths of one ApplyPatch call the rules judge (the tool itself refuses a patch of more). */
export const MAX_PATCH_TARGETS = 256;

/**
 * How many paths an ApplyPatch call names when that is more than the rules
 * judge ({@link MAX_PATCH_TARGETS}); undefined otherwise. Each path is
 * resolved on the disk, so 200,000 of them would hold the host for minutes.
 */
export function excessPatchTargets(toolName: string, input: Readonly<Record<string, unknown>>): number | undefined {
  if (toolName !== "ApplyPatch" || typeof input.patch !== "string") return undefined;
  const count = patchTargetsOf(input.patch).length;
  return count > MAX_PATCH_TARGETS ? count : undefined;
}

/**
 * The command line a call runs, or undefined: a shell tool's `command`
 * (ManagedProcess only for `start`), and the `script` a CronTaskManager
 * `create` or `update` schedules (Bash runs it later, outside any call the
 * rules see: `Bash(...)` deny and ask rules judge it now).
 */
export function commandOf(toolName: string, input: Readonly<Record<string, unknown>>): string | undefined {
  if (toolName === "CronTaskManager") {
    return (input.action === "create" || input.action === "update") && typeof input.script === "string" ? input.script : undefined;
  }
  if (!SHELL_TOOLS.has(toolName)) return undefined;
  if (toolName === "ManagedProcess" && input.action !== "start") return undefined;
  return typeof input.command === "string" ? input.command : undefined;
}
