/**
 * The MCP host options the conformance driver gives `buildBuiltinToolRegistry`:
 * OAuth, elicitation, sampling and roots callbacks that act without a user.
 */
import { pathToFileURL } from "node:url";
import { type BuiltinToolRegistryOptions, ScriptedModelClient } from "../../packages/sdk/src/index.js";

/** What the driver knows when it builds the options. */
export interface ConformanceHostContext {
  scenario: string;
  workdir: string;
  log(line: string): void;
}

type McpOptions = NonNullable<BuiltinToolRegistryOptions["mcp"]>;

/**
 * The host callbacks of one scenario run (settings and load hooks are added
 * by the driver): elicitation accepted with no values, so the runtime applies
 * the schema's defaults (what the SEP-1034 scenario checks); sampling through
 * a scripted model, approved; the workdir as the one root.
 */
export function conformanceHostOptions(context: ConformanceHostContext): Partial<McpOptions> {
  return {
    onElicitation: async (request) => {
      context.log(
        `elicitation from ${request.serverId}: ${request.message} (fields ${Object.keys(request.requestedSchema.properties).join(", ")}); accepted with the defaults`,
      );
      return { action: "accept", content: {} };
    },
    sampling: {
      model: new ScriptedModelClient({ respond: () => "A scripted answer from the conformance driver." }),
      approve: (request) => {
        context.log(`sampling request from ${request.serverId} approved`);
        return true;
      },
    },
    roots: () => [{ uri: pathToFileURL(context.workdir).href, name: "workspace" }],
  };
}
