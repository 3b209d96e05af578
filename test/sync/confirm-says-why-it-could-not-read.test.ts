/**
 * The confirmation read after a run (confirm.ts confirmApplied), when it cannot read: a cancel, a refused key, or a
 * failure, each said as a sentence, with no row taken as overwritten. A scripted service; no workbook.
 */
import { SpendClient } from "../../src/api";
import type { RowResult } from "../../src/sync";
import { confirmApplied } from "../../src/sync/confirm";
import { fakeTransport, type Reply } from "../support/fake-transport";

const AT = new Date("2026-11-21T10:00:00Z");
const sent = { state: "accounted", accounted_id: "A-1", paid_id: "", paid_at: "" };
const applied: RowResult[] = [{ id: "e1", rows: [0], outcome: "applied", message: "", from: "approved", to: "accounted", at: AT, sent, server: sent }];

async function confirm(reply: Reply, signal?: AbortSignal) {
  const client = new SpendClient({ baseUrl: "https://spend.example", enterpriseId: "ent-1", apiKey: "sk_test_confirm_0123456789", transport: fakeTransport(() => reply).transport, retry: { retries: 0 } });
  const lines: unknown[] = [];
  const result = await confirmApplied(client, { resource: "expense", subsidiaryId: "sub-1" }, applied, (e) => lines.push(e), () => AT, signal);
  return { result, lines };
}

it("cancelled: nothing taken as overwritten, and the reason", async () => {
  const controller = new AbortController();
  controller.abort();
  expect(await confirm({ body: {} }, controller.signal)).toEqual({
    result: { overwritten: [], notConfirmed: [], failure: "Cancelled before the rows applied were read again to confirm them." }, lines: [],
  });
});

it("the key refused: nothing taken as overwritten, the client's words as a sentence", async () => {
  const { result, lines } = await confirm({ status: 403, body: { status: 403, error: "Invalid API key" } });
  expect(result.overwritten).toEqual([]);
  expect(result.failure).toMatch(/\.$/);
  expect(result.failure).not.toMatch(/could not be read again/);
  expect(lines).toEqual([]);
});

it("any other failure: nothing taken as overwritten, and what failed", async () => {
  const { result } = await confirm({ status: 500, body: { status: 500, error: "Internal error" } });
  expect(result.overwritten).toEqual([]);
  expect(result.failure).toMatch(/^The records this sync changed could not be read again to confirm them: .+\.$/);
});
