// The structural OpenTelemetry types of this package (no imports, so the
// tool context in types.ts can name them without an import circle).

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
  /** False for a no-op span (no SDK registered, or not sampled). */
  isRecording?(): boolean;
}

/**
 * The subset of an OpenTelemetry `Tracer` this package uses; a tracer from
 * `@opentelemetry/api` (`trace.getTracer(...)`, `provider.getTracer(...)`)
 * fits it.
 */
export interface TelemetryTracer {
  /** `context`: the parent context (OpenTelemetry's `Context`), when the span is a child. */
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, TelemetryAttributeValue> }, context?: unknown): TelemetrySpan;
}

/** Options of a child span a tool starts. */
export interface ChildSpanOptions {
  /** OpenTelemetry's `SpanKind`: 0 internal (default), 2 client. */
  kind?: number;
  attributes?: Record<string, TelemetryAttributeValue>;
}

/**
 * Tracing inside one tool call (`context.telemetry`): spans a tool starts
 * here are children of the call's `execute_tool` span. A no-op when the
 * call is not traced. Never throws.
 */
export interface ToolCallTelemetry {
  /** True when the call's span records (a tracer is present, an SDK behind it, and the span sampled). */
  readonly enabled: boolean;
  /** Whether the host opted into recording argument values and error messages. */
  readonly recordArguments: boolean;
  /** Starts a child span of the call's span; end it yourself (see {@link traceChildSpan}). */
  startSpan(name: string, options?: ChildSpanOptions): TelemetrySpan;
}
