import { shortenForMessage } from "../quote.js";
import { toolResultText } from "../tool-result-text.js";
import type { ToolCall, ToolResult } from "../types.js";

/** An attribute value this package records on a span. */
export type TelemetryAttributeValue = string | number | boolean;

/**
 * The subset of an OpenTelemetry `Span` this package uses, typed
 * structurally so `@opentelemetry/api` stays an optional peer.
 */
export interface TelemetrySpan {
  setAttribute(key: string, value: TelemetryAttributeValue): unknown;
  /** `code`: 0 unset, 1 ok, 2 error (OpenTelemetry's `SpanStatusCode`). */
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/**
 * The subset of an OpenTelemetry `Tracer` this package uses; a tracer from
 * `@opentelemetry/api` (`trace.getTracer(...)`, `provider.getTracer(...)`)
 * fits it.
 */
export interface TelemetryTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, TelemetryAttributeValue> }): TelemetrySpan;
}

/** Tracing of tool calls: one span per call. */
export interface ToolTelemetryOptions {
  /**
   * Where spans go. Omitted: `trace.getTracer("@agent-tools/core")` of
   * `@opentelemetry/api` when that package is installed (a no-op until the
   * host registers an OpenTelemetry SDK), nothing when it is not.
   */
  tracer?: TelemetryTracer;
  /**
   * Record the call's arguments (`gen_ai.tool.call.arguments`, first 4 000
   * characters) and error messages; default false, as they may hold paths,
   * file contents or secrets.
   */
  recordArguments?: boolean;
}

/** Span and attribute names, after OpenTelemetry's GenAI semantic conventions plus our own `agent_tools.*`. */
export const TOOL_SPAN_ATTRIBUTES = {
  operationName: "gen_ai.operation.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  errorType: "error.type",
  status: "agent_tools.status",
  errorCode: "agent_tools.error.code",
  outputTruncated: "agent_tools.output.truncated",
  outputLength: "agent_tools.output.length",
} as const;

const SPAN_STATUS_ERROR = 2;
const SPAN_KIND_INTERNAL = 0;
const MAX_RECORDED_ARGUMENT_CHARS = 4_000;
const TRACER_NAME = "@agent-tools/core";

interface TraceApi {
  getTracer(name: string): TelemetryTracer;
}

/** undefined: not looked for yet; null: `@opentelemetry/api` is not installed (or failed to load). */
let traceApi: TraceApi | null | undefined;
let loadingTraceApi: Promise<TraceApi | null> | undefined;

function loadTraceApi(): Promise<TraceApi | null> {
  loadingTraceApi ??= import("@opentelemetry/api").then(
    (api) => {
      traceApi = api.trace as unknown as TraceApi;
      return traceApi;
    },
    () => {
      // Not installed is the normal case; any other load failure must not break tool calls either.
      traceApi = null;
      return null;
    },
  );
  return loadingTraceApi;
}

/**
 * The tracer for a call: the host's, else the global one of
 * `@opentelemetry/api` (imported once, lazily), else none. Synchronous once
 * the optional package has been looked for.
 */
export function resolveTracer(telemetry: ToolTelemetryOptions | undefined): TelemetryTracer | undefined | Promise<TelemetryTracer | undefined> {
  if (telemetry?.tracer) return telemetry.tracer;
  if (traceApi === null) return undefined;
  if (traceApi) return getGlobalTracer(traceApi);
  return loadTraceApi().then((api) => (api ? getGlobalTracer(api) : undefined));
}

function getGlobalTracer(api: TraceApi): TelemetryTracer | undefined {
  try {
    return api.getTracer(TRACER_NAME);
  } catch {
    return undefined;
  }
}

/** One call's span; `end` is idempotent and never throws. */
export interface ToolCallSpan {
  end(result: ToolResult | undefined): void;
}

const NO_SPAN: ToolCallSpan = { end() {} };

/**
 * Starts the span of one tool call (`execute_tool <name>`, kind internal).
 * Telemetry never breaks a call: a tracer or span that throws is ignored.
 */
export function startToolCallSpan(tracer: TelemetryTracer | undefined, toolName: string, call: ToolCall, recordArguments: boolean): ToolCallSpan {
  if (!tracer) return NO_SPAN;
  let span: TelemetrySpan;
  try {
    const attributes: Record<string, TelemetryAttributeValue> = {
      [TOOL_SPAN_ATTRIBUTES.operationName]: "execute_tool",
      [TOOL_SPAN_ATTRIBUTES.toolName]: toolName,
      [TOOL_SPAN_ATTRIBUTES.toolCallId]: call.id,
      [TOOL_SPAN_ATTRIBUTES.toolType]: "function",
    };
    if (recordArguments) attributes[TOOL_SPAN_ATTRIBUTES.toolCallArguments] = argumentsText(call.arguments);
    span = tracer.startSpan(`execute_tool ${toolName}`, { kind: SPAN_KIND_INTERNAL, attributes });
  } catch {
    return NO_SPAN;
  }
  let ended = false;
  return {
    end(result) {
      if (ended) return;
      ended = true;
      try {
        recordResult(span, result, recordArguments);
      } catch {
        // A span that rejects an attribute still has to end.
      }
      try {
        span.end();
      } catch {
        // Ignored: see above.
      }
    },
  };
}

function recordResult(span: TelemetrySpan, result: ToolResult | undefined, recordMessages: boolean): void {
  if (!result) {
    // The executor threw past its own error handling: should not happen, but the span still says so.
    span.setAttribute(TOOL_SPAN_ATTRIBUTES.status, "error");
    span.setAttribute(TOOL_SPAN_ATTRIBUTES.errorType, "internal");
    span.setStatus({ code: SPAN_STATUS_ERROR, message: "internal" });
    return;
  }
  const details = result.details !== null && typeof result.details === "object" ? (result.details as Record<string, unknown>) : {};
  const text = toolResultText(result);
  span.setAttribute(TOOL_SPAN_ATTRIBUTES.outputLength, text.length);
  span.setAttribute(TOOL_SPAN_ATTRIBUTES.outputTruncated, details.outputTruncated !== undefined && details.outputTruncated !== false);
  if (!result.isError) {
    span.setAttribute(TOOL_SPAN_ATTRIBUTES.status, "ok");
    return;
  }
  if (details.cancelled === true) {
    // The host aborted: not a failure of the tool, so the span status stays unset.
    span.setAttribute(TOOL_SPAN_ATTRIBUTES.status, "cancelled");
    span.setAttribute(TOOL_SPAN_ATTRIBUTES.errorCode, "cancelled");
    return;
  }
  const code = typeof details.code === "string" && details.code !== "" ? details.code : undefined;
  span.setAttribute(TOOL_SPAN_ATTRIBUTES.status, "error");
  if (code) span.setAttribute(TOOL_SPAN_ATTRIBUTES.errorCode, code);
  span.setAttribute(TOOL_SPAN_ATTRIBUTES.errorType, code ?? "_OTHER");
  // Error messages quote arguments (paths, values): only with recordArguments.
  span.setStatus({ code: SPAN_STATUS_ERROR, message: recordMessages ? shortenForMessage(text, 1_000) : (code ?? "tool_error") });
}

function argumentsText(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value ?? {}) ?? "";
    } catch {
      text = "[arguments JSON cannot express]";
    }
  }
  return shortenForMessage(text, MAX_RECORDED_ARGUMENT_CHARS);
}
