import { shortenForMessage } from "../quote.js";
import { toolResultText } from "../tool-result-text.js";
import type { ToolCall, ToolResult } from "../types.js";

import type { ChildSpanOptions, TelemetryAttributeValue, TelemetrySpan, TelemetryTracer, ToolCallTelemetry } from "./telemetry-types.js";

export type { ChildSpanOptions, TelemetryAttributeValue, TelemetrySpan, TelemetryTracer, ToolCallTelemetry } from "./telemetry-types.js";

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

/** The parts of `@opentelemetry/api` used here, typed structurally. */
interface TraceApi {
  getTracer(name: string): TelemetryTracer;
  /** `trace.setSpan(context, span)` and `context.active()` / `context.with()`. */
  setSpan(context: unknown, span: TelemetrySpan): unknown;
  activeContext(): unknown;
  withContext<T>(context: unknown, fn: () => T): T;
}

/**
 * The optional peer, imported once per process (a cache of a module, not
 * per-registry state). undefined: not looked for yet; null: not installed
 * (or failed to load).
 */
let traceApi: TraceApi | null | undefined;
let loadingTraceApi: Promise<TraceApi | null> | undefined;

function loadTraceApi(): Promise<TraceApi | null> {
  loadingTraceApi ??= import("@opentelemetry/api").then(
    (api) => {
      traceApi = {
        getTracer: (name) => api.trace.getTracer(name) as unknown as TelemetryTracer,
        setSpan: (context, span) => api.trace.setSpan(context as never, span as never),
        activeContext: () => api.context.active(),
        withContext: (context, fn) => api.context.with(context as never, fn),
      };
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
  const hostTracer = telemetry?.tracer;
  if (hostTracer) {
    // The API is still wanted for parenting child spans; looked for once.
    return traceApi === undefined ? loadTraceApi().then(() => hostTracer) : hostTracer;
  }
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
  /** What the tool gets as `context.telemetry`. */
  readonly telemetry: ToolCallTelemetry;
  /** Runs `fn` with the call's span active (OpenTelemetry context), so instrumentation below it is parented. */
  runInContext<T>(fn: () => T): T;
  end(result: ToolResult | undefined): void;
}

const NO_SPAN_OBJECT: TelemetrySpan = { setAttribute: () => undefined, setStatus: () => undefined, end: () => undefined };
const NO_TELEMETRY: ToolCallTelemetry = { enabled: false, recordArguments: false, startSpan: () => NO_SPAN_OBJECT };
const NO_SPAN: ToolCallSpan = { telemetry: NO_TELEMETRY, runInContext: (fn) => fn(), end() {} };

/** Wraps a span so that none of its methods throws. */
function safeSpan(span: TelemetrySpan): TelemetrySpan {
  return {
    setAttribute(key, value) {
      try {
        span.setAttribute(key, value);
      } catch {
        // Telemetry never breaks a call.
      }
    },
    setStatus(status) {
      try {
        span.setStatus(status);
      } catch {
        // As above.
      }
    },
    end() {
      try {
        span.end();
      } catch {
        // As above.
      }
    },
  };
}

function childTelemetry(tracer: TelemetryTracer, parent: TelemetrySpan, recordArguments: boolean): ToolCallTelemetry {
  let parentContext: unknown;
  const contextOfParent = () => {
    if (parentContext === undefined && traceApi) {
      try {
        parentContext = traceApi.setSpan(traceApi.activeContext(), parent);
      } catch {
        parentContext = null;
      }
    }
    return parentContext ?? undefined;
  };
  let enabled: boolean;
  try {
    enabled = parent.isRecording?.() ?? true;
  } catch {
    enabled = true;
  }
  return {
    enabled,
    recordArguments,
    startSpan(name, options = {}) {
      try {
        return safeSpan(tracer.startSpan(name, { kind: options.kind ?? SPAN_KIND_INTERNAL, attributes: options.attributes }, contextOfParent()));
      } catch {
        return NO_SPAN_OBJECT;
      }
    },
  };
}

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
  const telemetry = childTelemetry(tracer, span, recordArguments);
  return {
    telemetry,
    runInContext(fn) {
      const api = traceApi;
      if (!api) return fn();
      let active: unknown;
      try {
        active = api.setSpan(api.activeContext(), span);
      } catch {
        return fn();
      }
      return api.withContext(active, fn);
    },
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

/**
 * Runs `fn` inside a child span of the current tool call (`context.telemetry`)
 * and ends the span: status error with `error.type` set to the error's
 * `code` when `fn` throws (the error is rethrown). Without telemetry it just
 * runs `fn`.
 *
 * @example
 * const result = await traceChildSpan(context.telemetry, "mcp tools/call search", { kind: 2 }, () => client.callTool(...));
 */
export async function traceChildSpan<T>(
  telemetry: ToolCallTelemetry | undefined,
  name: string,
  options: ChildSpanOptions,
  fn: (span: TelemetrySpan) => Promise<T>,
): Promise<T> {
  if (!telemetry?.enabled) return fn(NO_SPAN_OBJECT);
  const span = telemetry.startSpan(name, options);
  try {
    return await fn(span);
  } catch (error) {
    const code =
      error !== null && typeof error === "object" && typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : "_OTHER";
    span.setAttribute(TOOL_SPAN_ATTRIBUTES.errorType, code);
    span.setStatus({ code: SPAN_STATUS_ERROR, message: telemetry.recordArguments && error instanceof Error ? shortenForMessage(error.message, 1_000) : code });
    throw error;
  } finally {
    span.end();
  }
}
