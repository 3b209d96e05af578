import { refreshData, syncStates } from "../../src/commands/commands";

it("Refresh data shows the taskpane, then runs its Refresh All (every table, then the formulas)", async () => {
  const order: string[] = [];
  await refreshData(async () => void order.push("show"), async () => void order.push("refresh all"));
  expect(order).toEqual(["show", "refresh all"]);
});

it("Refresh data refreshes even where Excel will not show the taskpane", async () => {
  const order: string[] = [];
  await refreshData(async () => { throw new Error("showAsTaskpane is not supported here"); }, async () => void order.push("refresh all"));
  expect(order).toEqual(["refresh all"]);
});

it("Sync states shows the taskpane, then its preview", async () => {
  const order: string[] = [];
  await syncStates(async () => void order.push("show"), async () => void order.push("preview"));
  expect(order).toEqual(["show", "preview"]);
});
