/**
 * Edit's scan during the read: a large file is read in chunks, and while the
 * thread pool reads the next chunk the main thread searches the last one for
 * old_string's probe (the bytes every matcher pass's needle contains) and for
 * a CR byte, so the matcher's one full scan overlaps the read instead of
 * following it. The matcher then works from the collected hits
 * ({@link PrescannedContent}); its results are those of a scan after the read.
 */
import { ProbeHitCollector, createSearchContext } from "../shared/fast-index-of.js";
import { type PrescannedContent, editProbeText, toByteString } from "./edit-match.js";

/**
 * One Edit's scan of the chunks of its file as they arrive; pass
 * {@link EditPrescan.onChunk} to the read, then ask {@link EditPrescan.result}
 * for the bytes the read returned.
 *
 * @example
 * const prescan = new EditPrescan(input.old_string);
 * const content = await file.readWhole((prefix) => prescan.onChunk(prefix));
 * findEditMatches(content.bytes, oldString, newString, { prescanned: prescan.result(content.bytes) });
 */
export class EditPrescan {
  /** Made on the first chunk (a small file, read whole, never pays for it). */
  private probe: ProbeHitCollector | undefined;
  /** Offset below which no CR was found (-1: a CR was found). */
  private crFreeUpTo = 0;
  /** The last prefix scanned, or null once scanning stopped (a failure, or a prefix that did not grow). */
  private last: Buffer | undefined | null;

  constructor(private readonly oldString: string) {}

  /** Scans the new bytes of `prefix`: the file's first bytes read so far, a longer prefix of the same memory each call. Never throws. */
  onChunk(prefix: Buffer): void {
    const last = this.last;
    if (last === null) return;
    if (last && (prefix.buffer !== last.buffer || prefix.byteOffset !== last.byteOffset || prefix.length < last.length)) {
      this.last = null;
      return;
    }
    try {
      this.probe ??= new ProbeHitCollector(editProbeText(toByteString(this.oldString)));
      this.probe.advance(prefix);
      if (this.crFreeUpTo !== -1) this.crFreeUpTo = prefix.indexOf(13, this.crFreeUpTo) === -1 ? prefix.length : -1;
      this.last = prefix;
    } catch {
      this.last = null;
    }
  }

  /** What the scan learnt of `content`, when it scanned exactly those bytes (the same memory, to its end). */
  result(content: Buffer): PrescannedContent | undefined {
    const last = this.last;
    if (!last || last.buffer !== content.buffer || last.byteOffset !== content.byteOffset || last.length !== content.length) return undefined;
    const collected = this.probe?.collected(content.length);
    if (!collected) return undefined;
    return { search: createSearchContext(content, collected), hasCr: this.crFreeUpTo === -1 };
  }
}
