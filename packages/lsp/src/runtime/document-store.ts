/**
 * The documents one server has open: their text and version, least
 * recently used first. Invariant: a document's version only grows while it
 * stays open; reopening after a close starts at 1 again, as LSP allows.
 */

/** One open document. */
export interface OpenDocument {
  readonly path: string;
  readonly uri: string;
  readonly languageId: string;
  text: string;
  version: number;
}

/** What syncing a document needs to send. */
export type DocumentSync =
  | { readonly kind: "open"; readonly document: OpenDocument; readonly evicted: readonly OpenDocument[] }
  | { readonly kind: "change"; readonly document: OpenDocument }
  | { readonly kind: "unchanged"; readonly document: OpenDocument };

/** An LRU map of open documents. */
export class DocumentStore {
  private readonly documents = new Map<string, OpenDocument>();

  constructor(private readonly maxOpen: number) {}

  get size(): number {
    return this.documents.size;
  }

  get(path: string): OpenDocument | undefined {
    return this.documents.get(path);
  }

  /** Open documents, least recently used first. */
  list(): OpenDocument[] {
    return [...this.documents.values()];
  }

  /** Records `text` as the document's content; says whether to send didOpen (with the documents evicted to make room), didChange, or nothing. */
  sync(path: string, uri: string, languageId: string, text: string): DocumentSync {
    const existing = this.documents.get(path);
    if (existing) {
      this.documents.delete(path);
      this.documents.set(path, existing);
      if (existing.text === text) return { kind: "unchanged", document: existing };
      existing.text = text;
      existing.version += 1;
      return { kind: "change", document: existing };
    }
    const evicted: OpenDocument[] = [];
    for (const [oldPath, old] of this.documents) {
      if (this.documents.size < this.maxOpen) break;
      this.documents.delete(oldPath);
      evicted.push(old);
    }
    const document: OpenDocument = { path, uri, languageId, text, version: 1 };
    this.documents.set(path, document);
    return { kind: "open", document, evicted };
  }

  /** Forgets a document (the caller sends didClose); returns it when it was open. */
  remove(path: string): OpenDocument | undefined {
    const document = this.documents.get(path);
    this.documents.delete(path);
    return document;
  }

  clear(): void {
    this.documents.clear();
  }
}
