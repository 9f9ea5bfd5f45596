/**
 * The conversions git makes between a file in a work tree and its blob
 * (`text`/`eol=crlf`/`core.autocrlf`: CRLF to LF; `ident`: `$Id: … $` to
 * `$Id$`). A worktree's patch is in blob form (its blob ids and hunks
 * describe the converted content), while the apply reads raw files: to
 * compare them, both sides are converted the same way, the way the child's
 * own file needs to match the blob id git gave it.
 */
import { blobIdMatches } from "./worktree-file-changes.js";

/** A file's raw bytes to the form git hashes. */
export type CheckoutConversion = (bytes: Buffer) => Buffer;

/** No conversion: the bytes are the blob. */
export const RAW: CheckoutConversion = (bytes) => bytes;

const crlfToLf: CheckoutConversion = (bytes) => (bytes.includes(13) ? Buffer.from(bytes.toString("latin1").replace(/\r\n/g, "\n"), "latin1") : bytes);
// As git's ident_to_git: `$Id:` up to the next `$` on the same line becomes `$Id$`.
const collapseIdent: CheckoutConversion = (bytes) =>
  bytes.includes("$Id:") ? Buffer.from(bytes.toString("latin1").replace(/\$Id:[^$\n]*\$/g, "$$Id$$"), "latin1") : bytes;

/** Every conversion tried, the raw bytes first. */
export const CHECKOUT_CONVERSIONS: readonly CheckoutConversion[] = [RAW, crlfToLf, collapseIdent, (bytes) => collapseIdent(crlfToLf(bytes))];

/**
 * The conversion under which `bytes` (a file as read from a work tree) are
 * the blob `oid`; undefined when none is. The raw bytes come first, so a
 * file git does not convert is compared byte for byte.
 *
 * @example
 * conversionMatching(Buffer.from("a\r\n"), oidOf("a\n")); // the CRLF to LF conversion
 */
export function conversionMatching(bytes: Buffer, oid: string): CheckoutConversion | undefined {
  return CHECKOUT_CONVERSIONS.find((conversion) => blobIdMatches(conversion(bytes), oid));
}
