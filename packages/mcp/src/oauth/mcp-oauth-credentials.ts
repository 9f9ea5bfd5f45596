/**
 * The credential record of one server (client registration, tokens) and its
 * sealed form in a store: JSON, encrypted with AES-256-GCM when the host
 * gave a key. The record's key (server id and URL) is the cipher's
 * additional data, so a sealed record copied to another key does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { SdkError, ToolError } from "@agent-tools/core";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthStoreKey } from "./mcp-oauth-store.js";

/** What is stored for one server id and URL. */
export interface McpOAuthCredentials {
  /** A dynamic registration (or client ID metadata document URL) as the SDK saved it, issuer included. */
  clientInformation?: OAuthClientInformationMixed;
  /** The tokens as the SDK saved them, issuer included. */
  tokens?: OAuthTokens;
  /** When the access token expires (ms since the epoch), from `expires_in` at save time. */
  expiresAt?: number;
}

const PLAIN_PREFIX = "mcp-oauth:v1:json:";
const SEALED_PREFIX = "mcp-oauth:v1:aes-256-gcm:";

/** Checks and decodes a host's key: 32 bytes, as bytes, base64 or hex. */
export function parseEncryptionKey(key: Uint8Array | string): Buffer {
  let bytes: Buffer;
  if (typeof key === "string") bytes = /^[0-9a-f]{64}$/i.test(key) ? Buffer.from(key, "hex") : Buffer.from(key, "base64");
  else bytes = Buffer.from(key);
  if (bytes.length !== 32)
    throw new SdkError(
      "invalid_options",
      `oauth.encryptionKey must be 32 bytes (as bytes, base64 or hex), not ${bytes.length}; create one with crypto.randomBytes(32).`,
    );
  return bytes;
}

function additionalData(key: McpOAuthStoreKey): Buffer {
  return Buffer.from(JSON.stringify([key.serverId, key.serverUrl]), "utf8");
}

/** The stored form of `credentials`: encrypted when `encryptionKey` is given, else plain JSON. */
export function sealMcpOAuthCredentials(credentials: McpOAuthCredentials, key: McpOAuthStoreKey, encryptionKey: Buffer | undefined): string {
  const json = JSON.stringify(credentials);
  if (encryptionKey === undefined) return PLAIN_PREFIX + json;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey, iv);
  cipher.setAAD(additionalData(key));
  const body = Buffer.concat([cipher.update(json, "utf8"), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/**
 * Reads a stored value back. A plain record opens with or without a key (it
 * is sealed on the next save); a sealed one needs the key it was sealed with.
 */
export function openMcpOAuthCredentials(value: string, key: McpOAuthStoreKey, encryptionKey: Buffer | undefined): McpOAuthCredentials {
  if (value.startsWith(PLAIN_PREFIX)) return parseCredentials(value.slice(PLAIN_PREFIX.length), key);
  if (!value.startsWith(SEALED_PREFIX)) throw unreadable(key, "the stored record has an unknown format");
  if (encryptionKey === undefined) throw unreadable(key, "the stored record is encrypted and the host gave no oauth.encryptionKey");
  const raw = Buffer.from(value.slice(SEALED_PREFIX.length), "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", encryptionKey, raw.subarray(0, 12));
    decipher.setAAD(additionalData(key));
    decipher.setAuthTag(raw.subarray(12, 28));
    const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    return parseCredentials(json, key);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw unreadable(key, "the stored record does not decrypt with oauth.encryptionKey (the key changed, or the record was altered)");
  }
}

function parseCredentials(json: string, key: McpOAuthStoreKey): McpOAuthCredentials {
  try {
    const parsed = JSON.parse(json) as unknown;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as McpOAuthCredentials;
  } catch {
    // Reported below.
  }
  throw unreadable(key, "the stored record is not valid JSON");
}

function unreadable(key: McpOAuthStoreKey, reason: string): ToolError {
  return new ToolError(
    "unavailable",
    `The stored OAuth credentials of MCP server ${key.serverId} cannot be read: ${reason}. Run McpManager action=logout then action=login for this server, or give the key they were stored with.`,
    { details: { serverId: key.serverId }, recoverable: false },
  );
}
