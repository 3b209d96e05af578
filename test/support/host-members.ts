/**
 * An Excel that behaves otherwise for one kind of object: `withMembers(RangeObject, patch, body)` runs `body` with the
 * members (properties and methods) of every in-memory Excel object of that class passed through `patch`, then puts
 * them back, whether `body` passed or threw.
 */
import type { Members } from "../../src/workbench/fake-excel/protocol/host-object";

export async function withMembers<R>(kind: { prototype: object }, patch: (own: Members) => Members, body: () => Promise<R>): Promise<R> {
  const members: (this: object) => Members = Reflect.get(kind.prototype, "members");
  const spy = jest.spyOn(kind.prototype as { members: () => Members }, "members").mockImplementation(function (this: object) {
    return patch(members.call(this));
  });
  try {
    return await body();
  } finally {
    spy.mockRestore();
  }
}
