/** Runs the gateway on Node's HTTP server (the CLI and the tests): the same fetch handler, behind @hono/node-server. */
import { getRequestListener } from "@hono/node-server";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createGateway } from "./app";
import type { GatewayConfig } from "./config";

export interface RunningGateway {
  /** `http://host:port`, the base URL to give the add-in. */
  baseUrl: string;
  close(): Promise<void>;
}

/** Listens on `host` (default 127.0.0.1) and `port` (0, the default, picks a free one). */
export async function startGateway(config: GatewayConfig, listen: { port?: number; host?: string } = {}): Promise<RunningGateway> {
  // Created first, so a configuration mistake throws before a port is taken.
  const gateway = createGateway(config);
  const server: Server = createServer(getRequestListener(gateway.fetch));
  const host = listen.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
