// Small HTTP helpers and shared types of the OAuth test servers.
import { randomBytes } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";

export type ClientAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

export interface Client {
  id: string;
  secret?: string;
  method: ClientAuthMethod;
  redirectUris: string[];
}
export interface Grant {
  clientId: string;
  scope: string;
}

export const random = () => randomBytes(18).toString("base64url");

export async function readBody(request: http.IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of request) body += chunk;
  return body;
}

export function json(response: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers }).end(JSON.stringify(value));
}

export async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The test's `onAuthorization`: follows the authorization URL without a browser and returns the redirect's Location. */
export function autoApprove(calls: string[] = []) {
  return async ({ authorizationUrl }: { authorizationUrl: string }) => {
    calls.push(authorizationUrl);
    const response = await fetch(authorizationUrl, { redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status !== 302 || location === null) throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
    return { callbackUrl: location };
  };
}
