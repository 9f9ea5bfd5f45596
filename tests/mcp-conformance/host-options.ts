/**
 * The MCP host options the conformance driver gives `buildBuiltinToolRegistry`:
 * OAuth, elicitation, sampling and roots callbacks that act without a user.
 */
import { pathToFileURL } from "node:url";
import { ScriptedModelClient } from "../../packages/core/src/testing/index.js";
import type { BuiltinToolRegistryOptions } from "../../packages/sdk/src/index.js";
import { authorizeWithoutUser, readConformanceContext } from "./host-callbacks.js";

/** What the driver knows when it builds the options. */
export interface ConformanceHostContext {
  scenario: string;
  workdir: string;
  log(line: string): void;
}

type McpOptions = NonNullable<BuiltinToolRegistryOptions["mcp"]>;
type McpServerAuth = ReturnType<McpOptions["getSettings"]>["servers"][number]["auth"];

/**
 * The client ID metadata document URL the suite's CIMD scenario accepts (the
 * suite's own clients use it too); scenarios whose authorization server does
 * not support such documents register dynamically instead.
 */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * The server's `auth` settings of a scenario: the pre-registered client or
 * the machine client's credentials the scenario hands over in
 * `MCP_CONFORMANCE_CONTEXT`; undefined for the rest (the user's sign-in,
 * with a client ID metadata document or dynamic registration).
 */
export function conformanceServerAuth(scenario: string): McpServerAuth {
  const context = readConformanceContext();
  if (!context?.client_id) return undefined;
  if (scenario === "auth/client-credentials-basic") return { grant: "client_credentials", clientId: context.client_id, clientSecret: context.client_secret };
  if (scenario === "auth/pre-registration") return { clientId: context.client_id, clientSecret: context.client_secret };
  return undefined;
}

/**
 * The host callbacks of one scenario run (settings and load hooks are added
 * by the driver): the user's sign-in done by following the authorization
 * endpoint's redirect by hand (the scenarios approve at once); elicitation accepted with no values, so the runtime applies
 * the schema's defaults (what the SEP-1034 scenario checks); sampling through
 * a scripted model, approved; the workdir as the one root.
 */
export function conformanceHostOptions(context: ConformanceHostContext): Partial<McpOptions> {
  return {
    oauth: {
      onAuthorization: async (request) => {
        const callback = await authorizeWithoutUser(request.authorizationUrl);
        context.log(`authorization for ${request.serverId}: redirected with ${[...callback.searchParams.keys()].join(", ")}`);
        return { callbackUrl: callback.href };
      },
      clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    },
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
