/** Invoking a handler through a Restate server's HTTP ingress. */

/** Options of {@link invokeHandler}. */
export interface InvokeHandlerOptions {
  readonly service: string;
  readonly handler: string;
  /** Sent as JSON. */
  readonly input?: unknown;
  /** Restate's `idempotency-key` header: the same key attaches to the same invocation. */
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
}

/** The outcome of an invocation: the handler's JSON output, or its terminal failure. */
export type InvocationOutcome = { readonly ok: true; readonly output: unknown } | { readonly ok: false; readonly status: number; readonly body: string };

/**
 * Calls `<service>/<handler>` through the ingress and waits for the
 * invocation to finish, however many retries (killed endpoints) that takes.
 *
 * @example
 * ```ts
 * const outcome = await invokeHandler(server.ingressUrl, { service: "ToolLoop", handler: "run", input: { calls } });
 * ```
 */
export async function invokeHandler(ingressUrl: string, options: InvokeHandlerOptions): Promise<InvocationOutcome> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey;
  const response = await fetch(`${ingressUrl}/${encodeURIComponent(options.service)}/${encodeURIComponent(options.handler)}`, {
    method: "POST",
    headers,
    body: JSON.stringify(options.input ?? null),
    signal: options.signal,
  });
  const body = await response.text();
  if (!response.ok) return { ok: false, status: response.status, body };
  return { ok: true, output: body === "" ? undefined : JSON.parse(body) };
}
