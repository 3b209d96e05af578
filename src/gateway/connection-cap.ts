/**
 * The connections a Node gateway holds at once, and which one gives way when every slot is taken. A
 * connection with no request in flight (opened and silent, still sending its head, or kept alive between
 * requests) holds nothing a caller is waiting for: when a new connection finds the cap reached, the one idle
 * longest is closed to make room (nginx does the same with its keep-alive connections when it runs out). So
 * idle sockets can never fill the gateway: a load balancer's `/healthz` probe, and any caller, always gets a
 * slot. Only when every connection is busy with a request is a newcomer let in over the cap, to be answered
 * 503 (or its health check), and past OVERFLOW more, refused as it opens.
 */
/** What the cap uses of a connection (a Node socket; typed by shape, as this folder imports no Node module outside node-server.ts). */
interface CappedSocket {
  readonly destroyed: boolean;
  destroy(): void;
  once(event: "close", listener: () => void): unknown;
}

/** Where a new connection goes. */
type Admission = "served" | "overflow" | "refused";

export class ConnectionCap<Socket extends CappedSocket = CappedSocket> {
  private readonly open = new Set<Socket>();
  /** The open connections with no request in flight, longest idle first (a Set keeps insertion order). */
  private readonly idle = new Set<Socket>();

  constructor(private readonly cap: number, private readonly overflow: number) {}

  /**
   * Takes a new connection: "served", "overflow" (let in only to be answered) or "refused" (to be answered
   * 503 and closed, and not counted). At the cap, the longest-idle connection is closed first.
   */
  admit(socket: Socket): Admission {
    if (this.open.size >= this.cap) {
      const [longestIdle] = this.idle;
      if (longestIdle) {
        this.forget(longestIdle);
        longestIdle.destroy();
      }
    }
    if (this.open.size >= this.cap + this.overflow) return "refused";
    this.open.add(socket);
    this.idle.add(socket);
    socket.once("close", () => this.forget(socket));
    return this.open.size > this.cap ? "overflow" : "served";
  }

  /** A request arrived on `socket`: it is not closed for a newcomer until its answer is done. */
  busy(socket: Socket): void {
    this.idle.delete(socket);
  }

  /** The answer on `socket` is done: it waits for its next request, idle from now. */
  rest(socket: Socket): void {
    if (!this.open.has(socket) || socket.destroyed) return;
    this.idle.delete(socket);
    this.idle.add(socket);
  }

  private forget(socket: Socket): void {
    this.open.delete(socket);
    this.idle.delete(socket);
  }
}
