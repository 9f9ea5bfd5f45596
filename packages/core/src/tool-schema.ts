/**
 * The shapes a model sees of a tool, in a leaf file (no imports) so the
 * port interfaces can use them without an import circle through types.ts.
 */

/** A JSON Schema object as handed to model providers. */
export interface JsonSchemaObject {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean | Record<string, unknown>;
  [key: string]: unknown;
}

/** A tool as offered to a model. */
export interface ToolSchema {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
}
