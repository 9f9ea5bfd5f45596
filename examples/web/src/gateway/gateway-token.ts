/**
 * The gateway's shared secret. A module of its own, with nothing but
 * `node:crypto`, so that `start-web --gateway-only` (also the gateway child
 * of the default mode) can make a token without loading the host, the
 * registry or the SDK.
 */
import { randomBytes } from "node:crypto";

/** A fresh random token for the gateway: 24 random bytes, base64url. */
export function createGatewayToken(): string {
  return randomBytes(24).toString("base64url");
}
