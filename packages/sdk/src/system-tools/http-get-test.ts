import { ToolError, defineTool } from "@agent-tools/core";
import { z } from "zod";

/** Default wait for the response, headers and body together. */
export const HTTP_GET_TEST_DEFAULT_TIMEOUT_MS = 15_000;
/** The largest `timeout_ms` a call may ask for. */
export const HTTP_GET_TEST_MAX_TIMEOUT_MS = 60_000;
/** Bytes of the body read at most; the rest is not downloaded. */
export const HTTP_GET_TEST_MAX_BODY_BYTES = 64 * 1024;

/** HttpGetTest's input. */
export const httpGetTestInputSchema = z.object({
  url: z.string().describe("Absolute http:// or https:// URL to GET, e.g. https://example.com/health."),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(HTTP_GET_TEST_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Timeout in ms for the whole request, body included; default ${HTTP_GET_TEST_DEFAULT_TIMEOUT_MS}, max ${HTTP_GET_TEST_MAX_TIMEOUT_MS}.`),
});

/** What a UI gets of an HttpGetTest call. */
export interface HttpGetTestDetails {
  url: string;
  /** The URL answered after redirects. */
  finalUrl: string;
  status: number;
  statusText: string;
  contentType: string | null;
  /** Bytes of the body read (at most {@link HTTP_GET_TEST_MAX_BODY_BYTES}). */
  bytesRead: number;
  /** True when the body was longer than what was read. */
  truncated: boolean;
  /** True when the body was summarised instead of shown. */
  binary: boolean;
  durationMs: number;
}

const description = `Sends one HTTP GET request and reports the status, the content type and the body. For checking that a URL or endpoint answers (health checks, API smoke tests), not for browsing.
- Only http:// and https:// URLs; redirects are followed. No custom headers, no request body.
- Timeout: timeout_ms, default ${HTTP_GET_TEST_DEFAULT_TIMEOUT_MS}, max ${HTTP_GET_TEST_MAX_TIMEOUT_MS}, for the whole request.
- A text body is shown up to ${HTTP_GET_TEST_MAX_BODY_BYTES / 1024} KiB, with a note when it was cut; a binary body (images, archives, ...) is summarised (size, first bytes), not shown.
- An HTTP error status (404, 500, ...) is a normal result: read the status line. Read-only: it changes nothing here (the server decides what a GET does).`;

const TEXT_TYPE =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|x-ndjson|yaml|x-yaml|toml|graphql|problem\+json)\b)|[+/](json|xml|yaml)\b/i;

/**
 * HttpGetTest, the first of the selectable system tools: one GET with a
 * timeout, a capped body and errors that say what to try next.
 */
export const HttpGetTest = defineTool<typeof httpGetTestInputSchema, HttpGetTestDetails>({
  name: "HttpGetTest",
  description,
  inputSchema: httpGetTestInputSchema,
  metadata: { groupId: "system", kind: "http_get", isReadOnly: true, displayCategory: "system", annotations: { readOnly: true, listedInPlanMode: true } },
  scopes: ["chat", "cron"],
  loopKey: (input) => input.url,
  async execute({ url, timeout_ms: timeoutMs = HTTP_GET_TEST_DEFAULT_TIMEOUT_MS }, context) {
    const target = parseTarget(url);
    // The request leaves from the host, not from a confined command: the registry's network rule applies to it as to Bash.
    const sandbox = context.ports.sandbox;
    if (sandbox !== undefined && sandbox.settings.allowNetwork !== true) {
      throw new ToolError(
        "permission_denied",
        `GET ${target.href} was not sent: this registry's sandbox has no network (allowNetwork is off), and HttpGetTest follows the same rule as confined commands. Do not retry; ask the user to allow the network if the request is needed.`,
        { details: { url: target.href, sandboxNetwork: false }, recoverable: false },
      );
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    // The caller's abort and the timeout both end the request and close the socket.
    const signal = AbortSignal.any([context.signal, timeout]);
    const started = Date.now();
    const failed = (error: unknown): never => {
      if (context.signal.aborted) throw error;
      if (timeout.aborted) {
        throw new ToolError(
          "timeout",
          `GET ${target.href} did not finish within ${timeoutMs} ms. The server may be slow or not answering; retry with a larger timeout_ms (max ${HTTP_GET_TEST_MAX_TIMEOUT_MS}) or check that the service is up.`,
          { details: { url: target.href, timeoutMs } },
        );
      }
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      const reason = typeof cause?.code === "string" ? cause.code : String(cause?.message ?? (error as Error).message ?? error);
      throw new ToolError(
        "unavailable",
        `Could not GET ${target.href}: ${reason}. Check the host name and port, that the server is running and reachable from here, and for https that its certificate is valid.`,
        { details: { url: target.href, reason } },
      );
    };
    const response = await fetch(target, { method: "GET", redirect: "follow", signal, headers: { accept: "*/*" } }).catch(failed);
    const { bytes, truncated } = await readCapped(response, HTTP_GET_TEST_MAX_BODY_BYTES).catch(failed);
    const contentType = response.headers.get("content-type");
    const binary = isBinary(contentType, bytes);
    const details: HttpGetTestDetails = {
      url: target.href,
      finalUrl: response.url || target.href,
      status: response.status,
      statusText: response.statusText,
      contentType,
      bytesRead: bytes.byteLength,
      truncated,
      binary,
      durationMs: Date.now() - started,
    };
    const lines = [`GET ${target.href} -> ${response.status} ${response.statusText}`.trimEnd()];
    if (response.redirected) lines.push(`Redirected to: ${details.finalUrl}`);
    lines.push(`Content-Type: ${contentType ?? "(none)"}`);
    const size = truncated ? `more than ${bytes.byteLength} bytes (only the first ${bytes.byteLength} were read)` : `${bytes.byteLength} bytes`;
    if (bytes.byteLength === 0) {
      lines.push("", "(empty body)");
    } else if (binary) {
      lines.push("", `Binary body of ${size}, not shown. First bytes (hex): ${hex(bytes.subarray(0, 16))}`);
    } else {
      lines.push(`Body: ${size}`, "", decode(bytes, contentType, truncated));
      if (truncated) lines.push("", `[Body cut at ${HTTP_GET_TEST_MAX_BODY_BYTES / 1024} KiB; the rest was not downloaded.]`);
    }
    return { content: lines.join("\n"), details };
  },
});

function parseTarget(url: string): URL {
  let target: URL;
  try {
    target = new URL(url.trim());
  } catch {
    throw new ToolError("invalid_arguments", `${JSON.stringify(url)} is not an absolute URL. Pass a full URL with its scheme, e.g. https://example.com/path.`, {
      details: { url },
    });
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new ToolError(
      "unsupported_target",
      `${target.protocol}// URLs are refused: HttpGetTest only fetches http:// and https:// URLs. For local files use the file tools (Read) instead.`,
      { details: { url, protocol: target.protocol }, recoverable: false },
    );
  }
  return target;
}

/** Reads at most `limit` bytes, then cancels the stream so the rest is never downloaded. */
async function readCapped(response: Response, limit: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (response.body === null) return { bytes: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
    if (length > limit) {
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes: bytes.subarray(0, Math.min(length, limit)), truncated };
}

function isBinary(contentType: string | null, bytes: Uint8Array): boolean {
  if (contentType !== null && TEXT_TYPE.test(contentType)) return false;
  // A declared non-text type is binary; an undeclared one is sniffed.
  if (contentType !== null && contentType.trim() !== "") return true;
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return false;
  } catch {
    return true;
  }
}

function decode(bytes: Uint8Array, contentType: string | null, truncated: boolean): string {
  const charset = /charset=["']?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  // `stream` drops a character cut in half at the cap instead of showing U+FFFD.
  return decoderFor(charset).decode(bytes, { stream: truncated });
}

/** A decoder for a declared charset; UTF-8 when it is unknown. */
function decoderFor(charset: string | undefined) {
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(" ");
}
