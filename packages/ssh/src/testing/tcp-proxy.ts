import { createConnection, createServer, type Socket } from "node:net";

/** A TCP forwarder to a test server whose connections a test can drop (see {@link startTcpProxy}). */
export interface TcpProxy {
  readonly host: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Destroys every open connection (both sides): to the client, the server dropped it. */
  dropAll(): void;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

/**
 * Forwards 127.0.0.1:<free port> to `target`, so a test can drop a live SSH
 * connection the way a network failure does, without hooks in the client.
 *
 * @example
 * const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port });
 * // connect through proxy.port, then proxy.dropAll()
 */
export async function startTcpProxy(target: { readonly host: string; readonly port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let accepted = 0;
  const server = createServer((inbound) => {
    accepted += 1;
    const outbound = createConnection(target.port, target.host);
    const pair: [Socket, Socket] = [inbound, outbound];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on("error", end).on("close", end);
    outbound.on("error", end).on("close", end);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const dropAll = () => {
    for (const [inbound, outbound] of [...pairs]) {
      inbound.destroy();
      outbound.destroy();
    }
    pairs.clear();
  };
  return {
    host: "127.0.0.1",
    port,
    get accepted() {
      return accepted;
    },
    dropAll,
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        server.close(() => resolve());
      }),
  };
}
