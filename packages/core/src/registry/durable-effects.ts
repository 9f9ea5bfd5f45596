import { createHash } from "node:crypto";
import type { ToolDefinition, ToolEffects } from "../types.js";
import { TOOL_EFFECTS } from "./call-ledger.js";
import { resolveToolAnnotations } from "./tool-annotations.js";

/**
 * What running this call again would do: the tool's declared `effects`
 * (a function decides per input; one that throws or answers something else
 * counts as `unsafe`), else `none` for a read-only tool (as the fail-closed
 * annotations say) and `unsafe` for every other.
 *
 * @example
 * resolveToolEffects(bashTool, { command: "ls" }); // "unsafe"
 */
export function resolveToolEffects(tool: ToolDefinition, input: unknown): ToolEffects {
  const declared = tool.effects;
  if (typeof declared === "function") {
    try {
      const answer: unknown = declared(input);
      return isToolEffects(answer) ? answer : "unsafe";
    } catch {
      return "unsafe";
    }
  }
  if (declared !== undefined) return isToolEffects(declared) ? declared : "unsafe";
  return resolveToolAnnotations(tool.metadata).readOnly ? "none" : "unsafe";
}

/** True for one of {@link TOOL_EFFECTS}. */
export function isToolEffects(value: unknown): value is ToolEffects {
  return typeof value === "string" && (TOOL_EFFECTS as readonly string[]).includes(value);
}

/**
 * SHA-256 (hex) of a value as canonical JSON: object keys sorted at every
 * depth, so two spellings of the same arguments hash alike. Async for
 * callers that may move it off the thread; Node's hash is sync and about
 * twenty times cheaper than Web Crypto's for a call's arguments.
 */
export async function argumentsHashOf(value: unknown): Promise<string> {
  return createHash("sha256").update(canonicalJson(value), "utf8").digest("hex");
}

/**
 * The `argumentsHash` a durable call is recorded under: the SHA-256 of the
 * registry's scope (its workdir) and the call's arguments, as canonical
 * JSON. Two projects sharing a ledger and reusing a run id and call id
 * then meet as a conflict, never as one answering the other's call.
 */
export function callIdentityHash(scope: string, args: unknown): Promise<string> {
  return argumentsHashOf({ arguments: args, scope });
}

/**
 * The key a provider's call id is recorded under: the id itself when every
 * ledger can store it (1-200 characters, no NUL, no lone surrogate), else
 * `sha256:` and the hex digest of its UTF-16 code units (a long or odd id
 * from a provider or a local model never crashes the host's loop).
 */
export function ledgerCallIdOf(callId: string, storable: (value: string) => boolean): string {
  if (storable(callId)) return callId;
  // UTF-16LE keeps every code unit, lone surrogates included: two different ids never share a digest's input.
  return `sha256:${createHash("sha256").update(Buffer.from(callId, "utf16le")).digest("hex")}`;
}

/**
 * JSON with object keys sorted at every depth; `undefined` members left out
 * as JSON.stringify does. An own `__proto__` member (JSON.parse makes one)
 * is written like any other key: the sorted copy has no prototype, so
 * assigning it defines the member instead of setting the copy's prototype
 * (which would drop it, and two different calls would hash alike).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== "object" || Array.isArray(member)) return member;
    const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key];
    return sorted;
  });
}
