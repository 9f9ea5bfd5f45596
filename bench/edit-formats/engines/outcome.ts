/** What an engine did with one case, before it is compared with the commit's new file. */
export type EngineOutcome =
  /** The engine produced this file. */
  | { readonly kind: "applied"; readonly bytes: Buffer }
  /** The engine refused (a ToolError, a non-zero exit), with its error code or first message line. */
  | { readonly kind: "refused"; readonly reason: string }
  /** An edit of a sequence applied and left a file other than the one expected after it. */
  | { readonly kind: "wrong-step"; readonly step: number; readonly bytes: Buffer; readonly expected: Buffer }
  /** The engine threw something that is not a refusal (a bug: counted as wrong). */
  | { readonly kind: "crashed"; readonly error: string };

/** An applier of one format. */
export interface FormatEngine<Input> {
  readonly name: string;
  apply(oldBytes: Buffer, input: Input): Promise<EngineOutcome>;
}
