import { SdkError } from "../errors.js";
import { TOOL_KINDS, type ToolDisplayCategory, type ToolMetadata } from "../types.js";
import { closestName } from "./closest-name.js";
import { TOOL_ANNOTATION_KEYS } from "./tool-annotations.js";

const METADATA_KEYS: readonly (keyof ToolMetadata)[] = Object.freeze(["groupId", "kind", "isReadOnly", "displayCategory", "serverId", "annotations"]);
const DISPLAY_CATEGORIES: readonly ToolDisplayCategory[] = Object.freeze(["file", "search", "terminal", "system", "mcp", "other"]);

function refuse(toolName: string, message: string): never {
  throw new SdkError("invalid_tool_definition", `Tool ${toolName}: ${message}`);
}

function suggestion(value: string, candidates: readonly string[]): string {
  const closest = closestName(value, candidates);
  return closest === undefined ? "" : ` Did you mean "${closest}"?`;
}

function checkKeys(toolName: string, where: string, value: object, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) refuse(toolName, `unknown ${where} key "${key}".${suggestion(key, known)} Known keys: ${known.join(", ")}.`);
  }
}

function checkAnnotations(toolName: string, annotations: unknown, isReadOnly: boolean): void {
  if (annotations === null || typeof annotations !== "object" || Array.isArray(annotations)) {
    refuse(toolName, "metadata.annotations must be an object ({ readOnly, listedInPlanMode, destructive?, idempotent?, openWorld? }).");
  }
  checkKeys(toolName, "metadata.annotations", annotations, TOOL_ANNOTATION_KEYS);
  const declared = annotations as Record<string, unknown>;
  for (const key of ["readOnly", "listedInPlanMode"]) {
    if (typeof declared[key] !== "boolean") refuse(toolName, `metadata.annotations.${key} must be true or false.`);
  }
  for (const key of ["destructive", "idempotent", "openWorld"]) {
    if (declared[key] !== undefined && typeof declared[key] !== "boolean") refuse(toolName, `metadata.annotations.${key} must be true, false or left out.`);
  }
  if (declared.readOnly !== isReadOnly) {
    refuse(
      toolName,
      `metadata.annotations.readOnly (${String(declared.readOnly)}) and metadata.isReadOnly (${String(isReadOnly)}) disagree; give them the same value.`,
    );
  }
  if (declared.readOnly === true && declared.destructive === true) refuse(toolName, "a read-only tool cannot be destructive (metadata.annotations).");
}

/**
 * Checks the metadata `defineTool` was given, merged over the defaults,
 * fail-closed: known keys only, a kind of {@link TOOL_KINDS}, a known
 * display category, boolean `isReadOnly`, and annotations with known keys,
 * boolean values, `readOnly` equal to `isReadOnly` and no destructive
 * read-only tool. Throws `SdkError` (`invalid_tool_definition`) naming the
 * value and the closest known one.
 *
 * @example
 * checkToolMetadata("Deploy", { groupId: "custom", kind: "exec", isReadOnly: false, displayCategory: "other" });
 * // throws: unknown kind "exec". Did you mean "execute"?
 */
export function checkToolMetadata(toolName: string, given: Readonly<Record<string, unknown>>, merged: ToolMetadata): void {
  checkKeys(toolName, "metadata", given, METADATA_KEYS);
  if (!(TOOL_KINDS as readonly string[]).includes(merged.kind)) {
    const kind = String(merged.kind);
    refuse(toolName, `unknown kind "${kind}".${suggestion(kind, TOOL_KINDS)} Kinds: ${TOOL_KINDS.join(", ")}.`);
  }
  if (!DISPLAY_CATEGORIES.includes(merged.displayCategory)) {
    const category = String(merged.displayCategory);
    refuse(toolName, `unknown displayCategory "${category}".${suggestion(category, DISPLAY_CATEGORIES)} Categories: ${DISPLAY_CATEGORIES.join(", ")}.`);
  }
  if (typeof merged.isReadOnly !== "boolean") refuse(toolName, "metadata.isReadOnly must be true or false.");
  if (typeof merged.groupId !== "string" || merged.groupId === "") refuse(toolName, "metadata.groupId must be a non-empty string.");
  if (merged.annotations !== undefined) checkAnnotations(toolName, merged.annotations, merged.isReadOnly);
}
