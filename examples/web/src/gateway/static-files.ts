/**
 * Serves the built page: `GET /` is `<pageDir>/index.html`, every other path
 * a file under `pageDir`. Paths are decoded, resolved and checked to stay
 * inside `pageDir` (no `..`, no symlink out, no dotfiles); anything else is 404.
 */
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** The content type for a file name (`application/octet-stream` when unknown). */
export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[path.extname(fileName).toLowerCase()] ?? "application/octet-stream";
}

/**
 * The file a request path names inside `root` (an absolute, canonical
 * directory), or undefined when the path is malformed or leaves `root`.
 * Symlinks are checked by the caller with `realpath`.
 */
export function resolvePagePath(root: string, requestPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
  const relative = decoded === "/" || decoded === "" ? "index.html" : decoded.replace(/^\/+/, "");
  if (relative.split("/").some((part) => part === ".." || part.startsWith("."))) return undefined;
  const full = path.resolve(root, relative);
  return full.startsWith(root + path.sep) ? full : undefined;
}

/**
 * The page's Content-Security-Policy: its own scripts, styles and sockets
 * only, no inline script, no image but its own and `data:` (the favicon),
 * no frames, forms or `<base>`. A second wall behind the Markdown sanitiser:
 * should model text ever reach the DOM as HTML, it could neither run script
 * nor make the browser fetch a URL that carries the page token out.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function send(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  response.end(text);
}

/**
 * Answers one HTTP request from `pageDir`.
 *
 * @example
 * http.createServer((request, response) => void servePageFile(request, response, "/abs/dist/page"));
 */
export async function servePageFile(request: IncomingMessage, response: ServerResponse, pageDir: string): Promise<void> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("allow", "GET, HEAD");
    return send(response, 405, "Only GET and HEAD are served here.\n");
  }
  const url = new URL(request.url ?? "/", "http://gateway.invalid");
  let root: string;
  try {
    root = await realpath(pageDir);
  } catch {
    return send(
      response,
      503,
      `The page is not built (no ${pageDir}): run \`pnpm exec vite build --config examples/web/vite.config.ts\` or start with scripts/web.sh.\n`,
    );
  }
  const file = resolvePagePath(root, url.pathname);
  if (file === undefined) return send(response, 404, "Not found.\n");
  let real: string;
  try {
    real = await realpath(file);
    if (!real.startsWith(root + path.sep) || !(await stat(real)).isFile()) return send(response, 404, "Not found.\n");
  } catch {
    const missingIndex = url.pathname === "/" || url.pathname === "/index.html";
    return missingIndex
      ? send(response, 503, `The page is not built (no index.html in ${pageDir}): run \`pnpm exec vite build --config examples/web/vite.config.ts\`.\n`)
      : send(response, 404, "Not found.\n");
  }
  response.writeHead(200, {
    "content-type": contentTypeOf(real),
    "x-content-type-options": "nosniff",
    "content-security-policy": PAGE_CONTENT_SECURITY_POLICY,
    // The page's URL holds its token: no request it makes names that URL.
    "referrer-policy": "no-referrer",
    // index.html carries no secret but must pick up a rebuilt page; hashed assets may be cached.
    "cache-control": real.endsWith(".html") ? "no-store" : "public, max-age=3600",
  });
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  createReadStream(real)
    .on("error", () => response.destroy())
    .pipe(response);
}
