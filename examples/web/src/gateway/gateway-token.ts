/**
 * The gateway's secrets. A module of its own, with nothing but `node:crypto`,
 * so that `start-web --gateway-only` (also the gateway child of the default
 * mode) can make tokens without loading the host, the registry or the SDK.
 *
 * There are two, with different powers: the page token (in the URL a user
 * opens, so it ends up in browser history, screenshots and shared links)
 * opens `/page` only; the host token opens `/host` only, and only the
 * executing host holds it. Whoever has the page's URL can chat and answer
 * approvals, but cannot become the host that asks for them.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A fresh random token: 24 random bytes, base64url. */
export function createGatewayToken(): string {
  return randomBytes(24).toString("base64url");
}

/** The two secrets of a gateway. */
export interface GatewayTokens {
  /** Opens `/page`: goes into the page's URL. */
  pageToken: string;
  /** Opens `/host`: only the executing host gets it. */
  hostToken: string;
}

/**
 * Two fresh, different random tokens.
 *
 * @example
 * const { pageToken, hostToken } = createGatewayTokens();
 * const gateway = await startGateway({ pageToken, hostToken });
 */
export function createGatewayTokens(): GatewayTokens {
  return { pageToken: createGatewayToken(), hostToken: createGatewayToken() };
}

/**
 * True when `given` equals `expected`, compared in constant time over their
 * SHA-256 digests (so not even the length leaks through timing).
 *
 * @example
 * tokenEquals(url.searchParams.get("token"), options.hostToken);
 */
export function tokenEquals(given: string | null | undefined, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  // Hash even a missing token, so a refusal takes as long as a comparison.
  return timingSafeEqual(digest(given ?? ""), digest(expected)) && typeof given === "string";
}
