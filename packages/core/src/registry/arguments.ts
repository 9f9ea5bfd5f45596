import type { ZodError, ZodType } from "zod";
import { ToolError } from "../errors.js";
import type { JsonSchemaObject } from "../types.js";
import { describeType, previewForMessage, shortenForMessage } from "../quote.js";

/** Most validation problems one message lists; the rest are counted. */
const MAX_LISTED_ISSUES = 10;

/** Parses the arguments of a call: an object, a JSON string of one, or nothing (`undefined`, `null`, `""`, the JSON text `null`). */
export function parseArguments(toolName: string, raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  let value = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return {};
    try {
      value = JSON.parse(raw);
    } catch (error) {
      if (error instanceof RangeError) {
        // A JSON text nested so deeply that the parser ran out of stack.
        throw new ToolError(
          "invalid_arguments",
          `${toolName} received JSON arguments nested too deeply to parse (${raw.length} characters). Send one flat JSON object matching the tool's schema.`,
        );
      }
      throw new ToolError(
        "invalid_arguments",
        `${toolName} received malformed JSON arguments (${shortenForMessage((error as Error).message)}). Send the arguments as one JSON object matching the tool's schema.`,
      );
    }
    if (value === null) return {};
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ToolError("invalid_arguments", `${toolName} arguments must be a JSON object, not ${Array.isArray(value) ? "an array" : typeof value}.`);
  }
  return value as Record<string, unknown>;
}

/** Rejects keys the schema does not declare, naming them and the allowed ones. */
export function rejectUnknownKeys(toolName: string, args: Record<string, unknown>, schema: JsonSchemaObject): void {
  const allowed = Object.keys(schema.properties ?? {});
  const unknown = Object.keys(args).filter((key) => !allowed.includes(key));
  if (unknown.length === 0) return;
  const listed = unknown.slice(0, MAX_LISTED_ISSUES).map((key) => shortenForMessage(key, 60));
  const more = unknown.length > listed.length ? ` and ${unknown.length - listed.length} more` : "";
  throw new ToolError(
    "invalid_arguments",
    `${toolName} received unsupported argument(s): ${listed.join(", ")}${more}. Allowed arguments: ${allowed.join(", ") || "(none)"}.`,
    { details: { unsupported: listed, unsupportedCount: unknown.length } },
  );
}

/** Validates with zod and phrases failures for the model. */
export function validateArguments<T>(toolName: string, args: Record<string, unknown>, schema: ZodType<T>): T {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  throw new ToolError(
    "invalid_arguments",
    `${toolName} received invalid arguments: ${describeZodError(parsed.error, args)}. Fix them and call ${toolName} again.`,
  );
}

function describeZodError(error: ZodError, args: Record<string, unknown>): string {
  const more = error.issues.length > MAX_LISTED_ISSUES ? `; and ${error.issues.length - MAX_LISTED_ISSUES} more problem(s)` : "";
  return (
    error.issues
      .slice(0, MAX_LISTED_ISSUES)
      .map((issue) => {
        const where = issue.path.length ? `\`${shortenForMessage(issue.path.map(String).join("."), 120)}\`` : "arguments";
        const given = issue.path.length ? lookup(args, issue.path as PropertyKey[]) : args;
        switch (issue.code) {
          case "invalid_type":
            return given === undefined
              ? `${where} is required (${issue.expected})`
              : `${where} must be ${article(issue.expected)} (got ${describeType(given)})`;
          case "too_small":
            return `${where} ${issue.origin === "string" ? "must have at least" : issue.origin === "array" ? "must have at least" : "must be >="} ${String(issue.minimum)}${issue.origin === "string" ? " character(s)" : issue.origin === "array" ? " item(s)" : ""} (got ${preview(given)})`;
          case "too_big":
            return `${where} ${issue.origin === "string" || issue.origin === "array" ? "must have at most" : "must be <="} ${String(issue.maximum)}${issue.origin === "string" ? " character(s)" : issue.origin === "array" ? " item(s)" : ""} (got ${preview(given)})`;
          case "invalid_value":
            return `${where} must be one of ${issue.values.map((v) => previewForMessage(v, 60)).join(", ")} (got ${preview(given)})`;
          case "unrecognized_keys":
            return `unsupported key(s) ${issue.keys
              .slice(0, MAX_LISTED_ISSUES)
              .map((key) => shortenForMessage(key, 60))
              .join(", ")}`;
          default:
            return `${where}: ${shortenForMessage(issue.message)}`;
        }
      })
      .join("; ") + more
  );
}

function lookup(value: unknown, path: PropertyKey[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function preview(value: unknown): string {
  return previewForMessage(value, 60);
}
