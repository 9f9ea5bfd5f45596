import { SdkError } from "../errors.js";
import type { JsonSchemaObject, ToolSchema } from "../types.js";

/** Options every provider format takes. */
export interface ProviderToolsOptions {
  /**
   * What to do with a tool the provider would reject (a name outside its
   * pattern, a schema it refuses): `throw` (default) an `SdkError`, or `skip`
   * it and report it through `onSkip`. `skip` suits MCP tools, which a host
   * does not control. `skip` also covers a provider's tool-count limit: the
   * first tools up to the limit are kept and the rest reported through `onSkip`.
   */
  invalidTools?: "throw" | "skip";
  /** Called for each skipped tool with the reason. */
  onSkip?(toolName: string, reason: string): void;
}

/** The rules of one provider. */
export interface ProviderToolRules {
  /** Shown in messages, e.g. `OpenAI`. */
  provider: string;
  /** Names the provider accepts. */
  namePattern: RegExp;
  /**
   * Most tools one request may carry, when the provider has a limit. Past it
   * the call throws `SdkError("invalid_options")`, or with `invalidTools:
   * "skip"` keeps the first `maxTools` and reports the rest through `onSkip`.
   */
  maxTools?: number;
  /**
   * Rewrites each accepted tool's (already copied) schema for the provider,
   * e.g. to OpenAI's strict subset; returns the schema, or a `problem` when
   * the provider could not take this tool (handled like any other rejection).
   */
  adaptSchema?(schema: JsonSchemaObject): { schema: JsonSchemaObject; problem?: undefined } | { schema?: undefined; problem: string };
}

/** Tool names OpenAI accepts. */
export const OPENAI_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Tool names Anthropic accepts. */
export const ANTHROPIC_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const TOP_LEVEL_COMBINATORS = ["oneOf", "anyOf", "allOf", "not", "enum", "const"] as const;

/** Why `schema` would be rejected as a tool's input schema, or undefined when it is fine. */
export function inputSchemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return "its input schema is not a JSON object";
  const record = schema as Record<string, unknown>;
  if (record.type !== "object") return `its input schema has type ${JSON.stringify(record.type)} at the top level; it must be "object"`;
  const combinator = TOP_LEVEL_COMBINATORS.find((key) => key in record);
  if (combinator) return `its input schema uses "${combinator}" at the top level, which providers reject`;
  if (record.properties !== undefined && (record.properties === null || typeof record.properties !== "object" || Array.isArray(record.properties))) {
    return "its input schema's properties is not an object";
  }
  try {
    JSON.stringify(schema);
  } catch (error) {
    return `its input schema cannot be serialised to JSON (${(error as Error).message})`;
  }
  return undefined;
}

/**
 * The tools of `tools` that satisfy `rules`, in order, each with a deep
 * copy of its schema that has `properties` set. Throws `SdkError("invalid_tool_definition")`
 * for a rejected tool unless `invalidTools` is `skip`; past `rules.maxTools`
 * throws `SdkError("invalid_options")`, or with `skip` keeps the first
 * `maxTools` and reports the others through `onSkip`.
 */
export function selectProviderTools(tools: readonly ToolSchema[], rules: ProviderToolRules, options: ProviderToolsOptions = {}): ToolSchema[] {
  const selected: ToolSchema[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    let problem: string | undefined;
    if (typeof tool.name !== "string" || !rules.namePattern.test(tool.name)) {
      problem = `its name must match ${rules.namePattern}`;
    } else if (seen.has(tool.name)) {
      problem = "another tool has the same name";
    } else if (typeof tool.description !== "string") {
      problem = "it has no description";
    } else {
      problem = inputSchemaProblem(tool.inputSchema);
    }
    // A deep copy: hosts may adjust what they send without changing the registry.
    let schema: JsonSchemaObject | undefined;
    if (!problem) {
      const copy = JSON.parse(JSON.stringify(tool.inputSchema)) as JsonSchemaObject;
      const adapted = rules.adaptSchema
        ? rules.adaptSchema({ ...copy, properties: copy.properties ?? {} })
        : { schema: { ...copy, properties: copy.properties ?? {} } };
      if (adapted.problem !== undefined) problem = adapted.problem;
      else schema = adapted.schema;
    }
    if (problem || !schema) {
      const message = `${rules.provider} would reject tool ${JSON.stringify(tool.name)}: ${problem}.`;
      if (options.invalidTools !== "skip") throw new SdkError("invalid_tool_definition", message, { toolName: tool.name, provider: rules.provider });
      options.onSkip?.(String(tool.name), message);
      continue;
    }
    seen.add(tool.name);
    selected.push({ name: tool.name, description: tool.description, inputSchema: schema });
  }
  if (rules.maxTools !== undefined && selected.length > rules.maxTools) {
    const message = `${rules.provider} accepts at most ${rules.maxTools} tools in one request; the registry offers ${selected.length}.`;
    if (options.invalidTools !== "skip") {
      throw new SdkError("invalid_options", `${message} Deny or hide some tools.`, { provider: rules.provider, count: selected.length });
    }
    // Registry order is the host's order of preference (built-in bundles first), so the tail goes.
    for (const dropped of selected.splice(rules.maxTools)) {
      options.onSkip?.(dropped.name, `${message} Tool ${JSON.stringify(dropped.name)} is past the limit.`);
    }
  }
  return selected;
}

/** Anything with the tools a model should see, e.g. a `ToolRegistry`. */
export interface ToolSchemaSource {
  readonly tools: readonly ToolSchema[];
}

/** What the provider formats accept: a registry (anything with `tools`) or its `tools` array itself. */
export type ToolSchemaInput = ToolSchemaSource | readonly ToolSchema[];

/** The tool schemas of a {@link ToolSchemaInput}. */
export function toolSchemasOf(source: ToolSchemaInput): readonly ToolSchema[] {
  return Array.isArray(source) ? (source as readonly ToolSchema[]) : (source as ToolSchemaSource).tools;
}
