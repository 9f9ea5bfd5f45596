import type { Readable } from "node:stream";
import { ToolError } from "@agent-tools/core";
import { SaxesParser, type SaxesTagNS } from "saxes";
import yauzl, { type Entry, type ZipFile } from "yauzl";

/**
 * The container side of Read's Office extraction: a zip opened with yauzl
 * under caps that hold against hostile files, and its XML parts streamed
 * through saxes. Nothing here trusts a size a header declares: the bytes
 * that actually come out of the inflater are counted.
 */

/** Caps of one Office read. Exceeding one fails the read with `too_large`. */
export const OFFICE_LIMITS = {
  /** Size of the file itself (compressed). */
  maxFileBytes: 50 * 1024 * 1024,
  /** Entries in the zip's central directory. */
  maxEntries: 10_000,
  /** Bytes decompressed from all the parts one read opens, counted as they come out. */
  maxDecompressedBytes: 256 * 1024 * 1024,
  /** Worksheet cells (`<c>` elements, empty or not), over all sheets. */
  maxCells: 1_000_000,
  /** Worksheet rows (and document lines), over all sheets. */
  maxRows: 1_000_000,
  /** Characters of extracted text. */
  maxChars: 32 * 1024 * 1024,
  /** Elements open at once in one XML part (the parser's namespace lookups walk them, so deeper nesting costs time per tag). */
  maxDepth: 256,
  /** Attributes of one XML element. */
  maxAttributes: 1_000,
} as const;

const MB = 1024 * 1024;

/** What an extractor needs from the file: its name for messages, the format and the caps' advice. */
export interface OfficeFileLabel {
  /** Display path. */
  display: string;
  /** Extension without the dot (docx, xlsx, ...). */
  format: string;
  signal?: AbortSignal;
}

/** Advice appended to a `too_large` error. */
export function tooLargeAdvice(format: string): string {
  return format === "docx"
    ? "Convert it with Bash instead (for example: pandoc -t plain file.docx | head -n 400, or libreoffice --headless --convert-to txt)."
    : "Convert it with Bash instead (for example: libreoffice --headless --convert-to csv, or unzip -p file.xlsx xl/worksheets/sheet1.xml | head -c 200000).";
}

/** A `too_large` error for an Office file. */
export function officeTooLarge(label: OfficeFileLabel, what: string, details: Record<string, unknown> = {}): ToolError {
  return new ToolError("too_large", `Read failed: ${label.display} ${what}. ${tooLargeAdvice(label.format)}`, { details: { path: label.display, ...details } });
}

/** An `unsupported_target` error for an Office file that cannot be parsed. */
export function officeDamaged(label: OfficeFileLabel, what: string): ToolError {
  return new ToolError(
    "unsupported_target",
    `Read failed: ${label.display} is not a readable .${label.format} file (${what}). It may be damaged, password-protected or another format under this name; check it with Bash (file, unzip -l).`,
  );
}

/** Handlers of one streamed XML part (namespace-aware tags). */
export interface XmlHandlers {
  open?(tag: SaxesTagNS): void;
  close?(tag: SaxesTagNS): void;
  text?(text: string): void;
}

/** An opened Office zip: its entries by lower-cased part name, read under a shared decompression budget. */
export class OfficeZip {
  private decompressed = 0;

  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
    readonly label: OfficeFileLabel,
  ) {}

  /** Opens `bytes` as a zip; fails with `too_large` past the entry cap, `unsupported_target` when it is not a zip. */
  static async open(bytes: Buffer, label: OfficeFileLabel): Promise<OfficeZip> {
    let zip: ZipFile;
    try {
      zip = await new Promise<ZipFile>((resolve, reject) =>
        yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (error, opened) =>
          error ? reject(error) : resolve(opened),
        ),
      );
    } catch (error) {
      throw officeDamaged(label, `not a zip: ${(error as Error).message}`);
    }
    if (zip.entryCount > OFFICE_LIMITS.maxEntries) {
      zip.close();
      throw officeTooLarge(label, `has ${zip.entryCount} entries; Read opens Office files of up to ${OFFICE_LIMITS.maxEntries} entries`, {
        entries: zip.entryCount,
        limit: OFFICE_LIMITS.maxEntries,
      });
    }
    const entries = new Map<string, Entry>();
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on("entry", (entry: Entry) => {
          if (entries.size >= OFFICE_LIMITS.maxEntries) return reject(officeTooLarge(label, `has more than ${OFFICE_LIMITS.maxEntries} entries`));
          entries.set(entry.fileName.replace(/^\/+/, "").toLowerCase(), entry);
          zip.readEntry();
        });
        zip.once("end", () => resolve());
        zip.once("error", reject);
        zip.readEntry();
      });
    } catch (error) {
      zip.close();
      if (error instanceof ToolError) throw error;
      throw officeDamaged(label, (error as Error).message);
    }
    return new OfficeZip(zip, entries, label);
  }

  /** True when the part exists. */
  has(partName: string): boolean {
    return this.entries.has(normalisePart(partName));
  }

  /**
   * Streams a part through a namespace-aware XML parser. Returns false when
   * the part does not exist. Handlers may throw to stop (a cap reached).
   */
  async parse(partName: string, handlers: XmlHandlers): Promise<boolean> {
    const name = normalisePart(partName);
    const entry = this.entries.get(name);
    if (!entry) return false;
    if (this.decompressed + entry.uncompressedSize > OFFICE_LIMITS.maxDecompressedBytes) {
      throw officeTooLarge(
        this.label,
        `would decompress to more than ${OFFICE_LIMITS.maxDecompressedBytes / MB} MB (its part ${name} alone declares ${entry.uncompressedSize} bytes); Read decompresses at most ${OFFICE_LIMITS.maxDecompressedBytes / MB} MB of an Office file`,
        { part: name, declaredBytes: entry.uncompressedSize, limit: OFFICE_LIMITS.maxDecompressedBytes },
      );
    }
    if (entry.isEncrypted()) throw officeDamaged(this.label, `its part ${name} is encrypted`);
    if (!entry.canDecodeFileData()) throw officeDamaged(this.label, `its part ${name} uses compression method ${entry.compressionMethod}`);
    const parser = new SaxesParser({ xmlns: true });
    this.guardShape(parser, name, handlers);
    if (handlers.text) {
      parser.on("text", handlers.text);
      parser.on("cdata", handlers.text);
    }
    const stream = await this.openStream(entry, name);
    const decoder = new TextDecoder("utf-8");
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        this.decompressed += chunk.length;
        if (this.decompressed > OFFICE_LIMITS.maxDecompressedBytes) {
          throw officeTooLarge(this.label, `decompresses past ${OFFICE_LIMITS.maxDecompressedBytes / MB} MB (while reading its part ${name})`, {
            part: name,
            limit: OFFICE_LIMITS.maxDecompressedBytes,
          });
        }
        if (this.label.signal?.aborted) throw this.label.signal.reason ?? new Error("aborted");
        this.write(parser, decoder.decode(chunk, { stream: true }), name);
      }
      this.write(parser, decoder.decode(), name);
      try {
        parser.close();
      } catch (error) {
        throw officeDamaged(this.label, `malformed XML in ${name}: ${(error as Error).message}`);
      }
    } catch (error) {
      throw this.classify(error, name, entry);
    } finally {
      stream.destroy();
    }
    return true;
  }

  /** Closes the zip. */
  close(): void {
    this.zip.close();
  }

  /**
   * Registers the handlers behind the nesting and attribute caps: hostile
   * XML nested millions deep (each tag's namespace lookup walks the open
   * tags) or with millions of attributes on one element would otherwise
   * take minutes and gigabytes before any other cap is reached.
   */
  private guardShape(parser: SaxesParser<{ xmlns: true }>, name: string, handlers: XmlHandlers): void {
    let depth = 0;
    let attributes = 0;
    parser.on("opentagstart", () => {
      attributes = 0;
      depth += 1;
      if (depth > OFFICE_LIMITS.maxDepth) {
        throw officeDamaged(this.label, `its part ${name} nests XML elements more than ${OFFICE_LIMITS.maxDepth} deep`);
      }
    });
    parser.on("attribute", () => {
      attributes += 1;
      if (attributes > OFFICE_LIMITS.maxAttributes) {
        throw officeDamaged(this.label, `an XML element of its part ${name} has more than ${OFFICE_LIMITS.maxAttributes} attributes`);
      }
    });
    parser.on("opentag", (tag) => handlers.open?.(tag));
    parser.on("closetag", (tag) => {
      depth -= 1;
      handlers.close?.(tag);
    });
  }

  private write(parser: SaxesParser<{ xmlns: true }>, text: string, name: string): void {
    if (!text) return;
    try {
      parser.write(text);
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw officeDamaged(this.label, `malformed XML in ${name}: ${(error as Error).message}`);
    }
  }

  private openStream(entry: Entry, name: string): Promise<Readable> {
    return new Promise((resolve, reject) =>
      this.zip.openReadStream(entry, (error, stream) => (error ? reject(officeDamaged(this.label, `cannot open ${name}: ${error.message}`)) : resolve(stream))),
    );
  }

  private classify(error: unknown, name: string, entry: Entry): unknown {
    if (error instanceof ToolError || this.label.signal?.aborted) return error;
    const message = (error as Error).message ?? String(error);
    if (/too many bytes in the stream/.test(message)) {
      return officeTooLarge(
        this.label,
        `is a zip bomb or damaged: its part ${name} decompresses to more than the ${entry.uncompressedSize} bytes its header declares`,
        {
          part: name,
          declaredBytes: entry.uncompressedSize,
        },
      );
    }
    return officeDamaged(this.label, `${name}: ${message}`);
  }
}

function normalisePart(partName: string): string {
  return partName.replace(/^\/+/, "").toLowerCase();
}

const XMLNS_URI = "http://www.w3.org/2000/xmlns/";

/** The value of an attribute by local name (any namespace), or undefined. */
export function attribute(tag: SaxesTagNS, local: string): string | undefined {
  for (const attr of Object.values(tag.attributes)) {
    if (attr.local === local && attr.uri !== XMLNS_URI) return attr.value;
  }
  return undefined;
}

/** One relationship of a part's `.rels`. */
export interface Relationship {
  type: string;
  /** The target resolved to a part name (no leading slash), or the raw target for external ones. */
  target: string;
  external: boolean;
}

/** Reads the relationships of `partName` (for "" the package's), resolving targets against the part's folder. */
export async function readRelationships(zip: OfficeZip, partName: string): Promise<Map<string, Relationship>> {
  const slash = partName.lastIndexOf("/");
  const folder = slash === -1 ? "" : partName.slice(0, slash);
  const relsName = partName === "" ? "_rels/.rels" : `${folder ? `${folder}/` : ""}_rels/${partName.slice(slash + 1)}.rels`;
  const relationships = new Map<string, Relationship>();
  await zip.parse(relsName, {
    open(tag) {
      if (tag.local !== "Relationship") return;
      const id = attribute(tag, "Id");
      const type = attribute(tag, "Type") ?? "";
      const target = attribute(tag, "Target") ?? "";
      const external = attribute(tag, "TargetMode") === "External";
      if (id !== undefined) relationships.set(id, { type, target: external ? target : resolvePart(folder, target), external });
    },
  });
  return relationships;
}

/** The target of the first relationship whose type ends with `/<suffix>`. */
export function relationshipOfType(relationships: Map<string, Relationship>, suffix: string): string | undefined {
  for (const relationship of relationships.values()) if (!relationship.external && relationship.type.endsWith(`/${suffix}`)) return relationship.target;
  return undefined;
}

/** Resolves a relationship target against a folder: absolute ("/xl/a.xml") or relative ("../a.xml"). */
export function resolvePart(folder: string, target: string): string {
  const segments = target.startsWith("/") ? [] : folder.split("/").filter(Boolean);
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}
