import { Session, memoryStorage } from "../../src/api";
import { refreshData, syncStates } from "../../src/commands/commands";

it("Refresh data forgets every cached formula result, then recalculates", async () => {
  const session = new Session(memoryStorage());
  await session.governor.run("k", async () => 1);
  const order: string[] = [];
  await refreshData(session, async () => {
    order.push(session.governor.peek("k") === undefined ? "recalculated after clearing" : "recalculated with a stale cache");
  });
  expect(order).toEqual(["recalculated after clearing"]);
});

it("Sync states shows the taskpane, then its preview", async () => {
  const order: string[] = [];
  await syncStates(async () => void order.push("show"), async () => void order.push("preview"));
  expect(order).toEqual(["show", "preview"]);
});
