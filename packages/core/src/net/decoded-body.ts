/**
 * An HTTP response's body as a stream, decompressed by its
 * `content-encoding` (gzip, deflate, br), for readers that cap what they
 * keep after decompression.
 */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/**
 * The body stream of `response`, decompressed when the server used gzip
 * (or x-gzip), deflate or br; the response itself for any other encoding.
 * An error on the response destroys the decompressor with it, so a reader
 * sees the failure.
 *
 * @example
 * for await (const chunk of decodedBody(response)) size += (chunk as Buffer).length;
 */
export function decodedBody(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return response;
  response.on("error", (error) => decoder.destroy(error));
  return response.pipe(decoder);
}
