/**
 * Reads an HTTP response body as a stream and stops as soon as it grows past
 * a limit (a declared `content-length` over it is refused before reading),
 * so an endpoint cannot make the reader hold more than `maxBytes`.
 */

/**
 * The body's bytes, or `undefined` when it is (or says it is) larger than
 * `maxBytes`; the stream is cancelled then.
 *
 * @example
 * const body = await readCappedBody(await fetch(url), 1024 * 1024);
 * if (body === undefined) throw new Error("too large");
 */
export async function readCappedBody(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
