/**
 * The host-facing types of the MCP client features (elicitation, sampling,
 * roots): what the host's callbacks receive and answer. A leaf module, so the
 * handlers and the options can share them without an import cycle. Contracts
 * only: the handlers live in @agent-tools/mcp.
 */
import type { ModelClient, ModelMessage } from "../ports/model-client.js";

/** One field of an elicitation form: the MCP spec's restricted subset of JSON Schema (no nesting). */
export interface McpElicitationField {
  /** `array` only for a multi-select enum (`items.enum` or `items.anyOf`). */
  type: "string" | "number" | "integer" | "boolean" | "array";
  title?: string;
  description?: string;
  /** Strings: length bounds in characters. */
  minLength?: number;
  maxLength?: number;
  /** Strings: checked when the user's answer is validated. */
  format?: "email" | "uri" | "date" | "date-time";
  /** Numbers: inclusive bounds. */
  minimum?: number;
  maximum?: number;
  /** Single-select enum (strings). */
  enum?: string[];
  /** Display names of `enum` (legacy form). */
  enumNames?: string[];
  /** Single-select enum with display titles. */
  oneOf?: Array<{ const: string; title: string }>;
  /** Multi-select enum: the allowed values. */
  items?: { type?: "string"; enum?: string[]; anyOf?: Array<{ const: string; title: string }> };
  /** Multi-select enum: bounds of the number of selected values. */
  minItems?: number;
  maxItems?: number;
  /** Applied by the client when the accepted answer leaves the field out. */
  default?: string | number | boolean | string[];
}

/** The form a server asks for: a flat object of {@link McpElicitationField}s. */
export interface McpElicitationSchema {
  type: "object";
  properties: Record<string, McpElicitationField>;
  required?: string[];
}

/** A value of an accepted form. */
export type McpElicitationValue = string | number | boolean | string[];

/** What the host's `onElicitation` receives. */
export interface McpElicitationRequest {
  /** The id of the MCP server that asks. */
  readonly serverId: string;
  /** The server's question, to show to the user as is. */
  readonly message: string;
  /** The fields to ask for (already checked against the spec's subset). */
  readonly requestedSchema: McpElicitationSchema;
  /** Aborted when the server cancels the request or the connection closes: stop asking. */
  readonly signal: AbortSignal;
}

/**
 * The user's answer: `accept` with the values (fields left out get their
 * defaults), `decline` (the user said no), `cancel` (the user dismissed the
 * question without choosing).
 */
export type McpElicitationResult = { action: "accept"; content: Record<string, McpElicitationValue> } | { action: "decline" } | { action: "cancel" };

/** What the host's sampling `approve` receives: the request as the model would get it. */
export interface McpSamplingRequest {
  /** The id of the MCP server that asks for a completion. */
  readonly serverId: string;
  /** The conversation the model would see, the server's system prompt first. */
  readonly messages: readonly ModelMessage[];
  /** The server's upper bound of generated tokens. */
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  /** The server's model hints (names); a note only: the host's model is used. */
  readonly modelHints: readonly string[];
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

/** Sampling: servers may ask the host's model for a completion, each request approved by the host first. */
export interface McpSamplingOptions {
  /** The model that answers `sampling/createMessage` (text in, text out). */
  model: ModelClient;
  /**
   * Asked before every request; `true` runs it, `false` refuses it (the
   * server gets an error saying the user refused). Required: without it
   * sampling is not offered to servers.
   */
  approve(request: McpSamplingRequest): Promise<boolean> | boolean;
}

/** A root the client offers to servers (`roots/list`). */
export interface McpRoot {
  /** A `file://` URI of a directory. */
  uri: string;
  /** A display name, e.g. `workspace` or `docs (read-only)`. */
  name?: string;
}

/** The host's roots: read on every `roots/list`. */
export type McpRootsSource = () => readonly McpRoot[] | Promise<readonly McpRoot[]>;
