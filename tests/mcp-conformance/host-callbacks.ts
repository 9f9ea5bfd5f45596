/**
 * The host side of the conformance driver: what a user would do in each
 * interactive step, done without one. The scenarios' authorization endpoints
 * approve at once and redirect; elicitation requests are accepted so that the
 * runtime fills in the schema's defaults; sampling answers with a scripted
 * model after an approval that always says yes.
 */

/**
 * Opens the authorization URL as a browser would, without following the
 * redirect: the scenario's authorization endpoint answers with a redirect to
 * the client's redirect URI carrying the code (or an error), which is what a
 * local redirect listener would have received.
 */
export async function authorizeWithoutUser(authorizationUrl: URL | string): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  await response.body?.cancel();
  if (!location) throw new Error(`The authorization endpoint answered ${response.status} without a redirect; expected a redirect to the redirect URI.`);
  return new URL(location, authorizationUrl);
}

/** The client credentials a scenario hands over in `MCP_CONFORMANCE_CONTEXT` (pre-registration, client credentials). */
export interface ConformanceContext {
  name: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  [key: string]: unknown;
}

/** Parses `MCP_CONFORMANCE_CONTEXT`, or undefined when the scenario gives none. */
export function readConformanceContext(env: NodeJS.ProcessEnv = process.env): ConformanceContext | undefined {
  const raw = env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return undefined;
  return JSON.parse(raw) as ConformanceContext;
}
