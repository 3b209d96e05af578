/** functions.json as the build emits it (JSDoc and declarations); this snapshot makes a change of id or signature deliberate. */
import { builtMetadata } from "../support/functions-metadata";

it("the =SPEND.* metadata matches the snapshot, with no generator errors", async () => {
  const result = await builtMetadata();
  expect(result.errors).toEqual([]);
  const metadata = JSON.parse(result.metadataJson);
  expect(metadata.functions.map((fn: { id: string }) => fn.id)).toEqual(["CARDS", "MOVEMENTS", "ALLOWANCES", "EXPENSES", "CARD", "ALLOWANCE", "EXPENSE"]);
  expect(metadata).toMatchSnapshot();
});
