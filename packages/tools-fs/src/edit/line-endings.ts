/** The file's dominant line ending: CRLF when CRLF endings are at least as common as lone LF (and present). */
export function dominantEol(text: string): "\r\n" | "\n" {
  let crlf = 0;
  let lf = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf += 1;
    else lf += 1;
  }
  return crlf > 0 && crlf >= lf ? "\r\n" : "\n";
}

/** `text` with CRLF collapsed to LF, then rendered in `eol`. */
export function renderEol(text: string, eol: "\r\n" | "\n"): string {
  const lf = text.replace(/\r\n/g, "\n");
  return eol === "\n" ? lf : lf.replace(/\n/g, "\r\n");
}

/**
 * {@link renderEol} that asks for the line ending only when `text` has a line
 * break (without one the result is `text` either way), so the file's line
 * endings need not be counted for a single-line replacement.
 */
export function renderEolLazy(text: string, eolOf: () => "\r\n" | "\n"): string {
  return text.includes("\n") ? renderEol(text, eolOf()) : text;
}
