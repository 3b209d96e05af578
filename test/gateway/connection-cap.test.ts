/**
 * Rule: the connection cap closes the connection idle longest to let a newcomer in, never one with a request
 * in flight; only when every connection is busy does a newcomer go over the cap (to be answered 503, or its
 * health check), and past the overflow it is refused. (Real sockets cannot hold the overflow busy: an
 * over-cap request is answered at once. slow-peers.test.ts and node-server-answers-…test.ts drive the rest.)
 */
import { EventEmitter } from "node:events";
import { ConnectionCap } from "../../src/gateway/connection-cap";

/** What the cap uses of a socket: its close event and destroy. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  destroy(): void {
    this.destroyed = true;
    this.emit("close");
  }
}
const socket = () => new FakeSocket();

describe("the connection cap", () => {
  it("with every connection busy: over the cap, then past the overflow refused; a freed slot takes a newcomer again", () => {
    const cap = new ConnectionCap<FakeSocket>(2, 1);
    const busy = [socket(), socket(), socket()];
    const admitted = busy.map((s) => {
      const where = cap.admit(s);
      cap.busy(s); // its request arrives
      return where;
    });
    expect(admitted).toEqual(["served", "served", "overflow"]);
    expect(cap.admit(socket())).toBe("refused");
    expect(busy.some((s) => s.destroyed)).toBe(false);
    busy[0].destroy(); // it closes: the count goes down
    expect(cap.admit(socket())).toBe("overflow");
  });

  it("closes the connection idle longest, by when it became idle, not when it opened", () => {
    const cap = new ConnectionCap<FakeSocket>(2, 1);
    const [a, b] = [socket(), socket()];
    cap.admit(a);
    cap.admit(b);
    // a served a request after b opened: b is now idle longest.
    cap.busy(a);
    cap.rest(a);
    const c = socket();
    expect(cap.admit(c)).toBe("served");
    expect([a.destroyed, b.destroyed]).toEqual([false, true]);
  });

  it("a connection whose request is in flight is never closed for a newcomer", () => {
    const cap = new ConnectionCap<FakeSocket>(1, 0);
    const a = socket();
    cap.admit(a);
    cap.busy(a);
    expect(cap.admit(socket())).toBe("refused");
    expect(a.destroyed).toBe(false);
    cap.rest(a);
    expect(cap.admit(socket())).toBe("served");
    expect(a.destroyed).toBe(true);
  });
});
