/** Paths <-> `file://` URIs on the workspace's own (POSIX) namespace, and extensions. */

/** `file://` URI of an absolute POSIX path (each segment percent-encoded). */
export function uriOfFilePath(path: string): string {
  return `file://${path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/")}`;
}

/** The absolute path of a `file://` URI, or undefined for another scheme or a malformed one. */
export function pathOfFileUri(uri: string): string | undefined {
  const match = /^file:\/\/(?:localhost)?(\/[^?#]*)$/i.exec(uri);
  if (!match) return undefined;
  try {
    const path = decodeURIComponent(match[1] as string);
    return path.includes("\u0000") ? undefined : path;
  } catch {
    return undefined;
  }
}

/** The lowercase extension with its dot (`.ts`), or undefined. */
export function extensionOf(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : undefined;
}

/** One spelling of a `file://` URI (servers percent-encode differently: `(` or `%28`), for use as a map key. */
export function normalizeFileUri(uri: string): string {
  const path = pathOfFileUri(uri);
  return path === undefined ? uri : uriOfFilePath(path);
}
