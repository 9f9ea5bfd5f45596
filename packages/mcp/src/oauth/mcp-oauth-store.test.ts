import path from "node:path";
import { randomBytes } from "node:crypto";
import { openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { createStoreTestBackends } from "@agent-tools/storage/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type McpTestSetup, setupMcp, textOf } from "../__fixtures__/test-servers.js";
import { type OAuthTestServers, autoApprove, startOAuthTestServers } from "./__fixtures__/oauth-test-servers.js";
import { runMcpOAuthStoreContract } from "./__fixtures__/mcp-oauth-store-contract.js";
import { InMemoryMcpOAuthStore } from "./in-memory-mcp-oauth-store.js";
import { openMcpOAuthCredentials, parseEncryptionKey, sealMcpOAuthCredentials } from "./mcp-oauth-credentials.js";
import { KyselyMcpOAuthStore, MCP_OAUTH_TABLE } from "./kysely-mcp-oauth-store.js";

const backends = createStoreTestBackends("agent-tools-mcp-oauth-store-");
let counter = 0;
beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

runMcpOAuthStoreContract({ name: "in-memory", open: async () => ({ store: new InMemoryMcpOAuthStore(), close: async () => undefined }) });
for (const sqlite of backends.sqlite) {
  runMcpOAuthStoreContract({
    name: `Kysely on ${sqlite.label}`,
    async open() {
      counter += 1;
      const storage = await sqlite.open({ dataDir: path.join(backends.temporary, `sqlite-${counter}`) });
      return { store: await KyselyMcpOAuthStore.open(storage), close: () => storage.close() };
    },
  });
}
runMcpOAuthStoreContract({
  name: "Kysely on PostgreSQL (real server)",
  async open() {
    const storage = await openPostgresStorage({ connectionString: await backends.cluster().createDatabase("mcp_oauth") });
    return { store: await KyselyMcpOAuthStore.open(storage), close: () => storage.close() };
  },
});

describe("sealed credentials", () => {
  const key = { serverId: "remote", serverUrl: "https://a.example/mcp" };
  const credentials = { tokens: { access_token: "at-secret", token_type: "Bearer", refresh_token: "rt-secret" } };

  it("encrypts with the host's key, opens only with that key and that record key, and reads plain records too", () => {
    const encryptionKey = parseEncryptionKey(randomBytes(32));
    const sealed = sealMcpOAuthCredentials(credentials, key, encryptionKey);
    expect(sealed).not.toContain("secret");
    expect(openMcpOAuthCredentials(sealed, key, encryptionKey)).toEqual(credentials);
    expect(() => openMcpOAuthCredentials(sealed, key, parseEncryptionKey(randomBytes(32)))).toThrow(/does not decrypt with oauth.encryptionKey/);
    expect(() => openMcpOAuthCredentials(sealed, { ...key, serverUrl: "https://b.example/mcp" }, encryptionKey)).toThrow(/does not decrypt/);
    expect(() => openMcpOAuthCredentials(sealed, key, undefined)).toThrow(/encrypted and the host gave no oauth.encryptionKey/);
    expect(openMcpOAuthCredentials(sealMcpOAuthCredentials(credentials, key, undefined), key, encryptionKey)).toEqual(credentials);
  });

  it("refuses a key that is not 32 bytes, and takes base64 and hex", () => {
    expect(() => parseEncryptionKey(randomBytes(16))).toThrow(/must be 32 bytes/);
    const bytes = randomBytes(32);
    expect(parseEncryptionKey(bytes.toString("hex"))).toEqual(bytes);
    expect(parseEncryptionKey(bytes.toString("base64"))).toEqual(bytes);
  });
});

describe("tokens across registry restarts", () => {
  let servers: OAuthTestServers | undefined;
  let setup: McpTestSetup | undefined;
  afterEach(async () => {
    await setup?.close();
    await servers?.close();
  });

  it("signs in once, then a new registry on the same SQLite file connects with the stored, encrypted tokens; a changed URL signs in again", async () => {
    servers = await startOAuthTestServers();
    const dataDir = path.join(backends.temporary, "restart");
    const encryptionKey = randomBytes(32).toString("base64");
    const asked: string[] = [];
    const open = async () => {
      const storage = await openSqliteStorage({ dataDir });
      return { storage, store: await KyselyMcpOAuthStore.open(storage) };
    };
    const first = await open();
    setup = await setupMcp([{ id: "remote", transport: "http", url: servers.mcpUrl, timeoutMs: 20_000 }], {
      oauth: { onAuthorization: autoApprove(asked), redirectUrl: "http://127.0.0.1:9/cb", store: first.store, encryptionKey },
    });
    expect(asked).toHaveLength(1);
    const rows = await first.storage.db.selectFrom(MCP_OAUTH_TABLE).selectAll().execute();
    expect(rows).toHaveLength(1);
    for (const secret of servers.issuedSecrets) expect(JSON.stringify(rows)).not.toContain(secret);
    await setup.close();
    await first.storage.close();

    const second = await open();
    setup = await setupMcp([{ id: "remote", transport: "http", url: servers.mcpUrl, timeoutMs: 20_000 }], {
      oauth: { onAuthorization: autoApprove(asked), redirectUrl: "http://127.0.0.1:9/cb", store: () => Promise.resolve(second.store), encryptionKey },
    });
    expect(asked).toHaveLength(1);
    expect(textOf(await setup.registry.executeToolCall({ id: "t", name: "mcp_remote_whoami", arguments: {} }))).toContain("whoami: client dcr-");
    await setup.close();

    setup = await setupMcp([{ id: "remote", transport: "http", url: `${servers.mcpUrl}?moved=1`, timeoutMs: 20_000 }], {
      oauth: { onAuthorization: autoApprove(asked), redirectUrl: "http://127.0.0.1:9/cb", store: second.store, encryptionKey },
    });
    expect(asked).toHaveLength(2);
    await setup.close();
    setup = undefined;
    await second.storage.close();
  });
});
