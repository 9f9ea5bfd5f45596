/** LSP shapes the runtime shares with the tool (raw LSP: 0-based positions, UTF-16 characters). */

/** A position in a document: 0-based line, 0-based UTF-16 character. */
export interface LspPosition {
  readonly line: number;
  readonly character: number;
}

/** A diagnostic as a server publishes it. */
export interface LspDiagnostic {
  readonly range: { readonly start: LspPosition; readonly end: LspPosition };
  /** 1 error, 2 warning, 3 information, 4 hint. */
  readonly severity?: 1 | 2 | 3 | 4;
  readonly message: string;
  readonly code?: string | number;
  readonly source?: string;
}
