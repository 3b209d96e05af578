/** Whether a port can be listened on, asked before npm start starts anything that needs it. */
import { createServer } from "node:net";

/**
 * The error code of listening on `port` at `host` ("EADDRINUSE" when another program holds it), or null when
 * it is free there. A host that does not exist on this machine (no IPv6: "::1") is free by definition.
 */
function listenError(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? "EUNKNOWN";
      resolve(code === "EADDRNOTAVAIL" || code === "EAFNOSUPPORT" ? null : code);
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/**
 * The first error of listening on `port` at each of `hosts`. The dev server listens on "localhost", which a
 * browser may reach over 127.0.0.1 or ::1: a program on either would take its place, so both are asked.
 */
export async function portProblem(port: number, hosts: string[]): Promise<string | null> {
  for (const host of hosts) {
    const code = await listenError(port, host);
    if (code) return code;
  }
  return null;
}
