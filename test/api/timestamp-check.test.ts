/**
 * isTimestamp (the zod Timestamp's refine) checks the domain rule with isValidTimestamp; it must answer
 * exactly as it did with `normalizeTimestamp(value) !== null`, over the spec's strict shape.
 */
import { isTimestamp, listExpenses, SchemaError, SpendClient } from "../../src/api";
import { normalizeTimestamp } from "../../src/domain";
import { fakeTransport } from "../support/fake-transport";
import { Random } from "../../src/sandbox/random";

const TIMESTAMP_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const before = (value: string) => TIMESTAMP_SHAPE.test(value) && normalizeTimestamp(value) !== null;

/** The same strings on every run (the sandbox's seeded PRNG). */
function seeded(seed: number): () => number {
  const random = new Random(seed, "timestamps");
  return () => random.next();
}

describe("isTimestamp answers as TIMESTAMP_SHAPE and normalizeTimestamp did", () => {
  it("over edges, the space separator, +hhmm offsets, padding and 20,000 seeded strings", () => {
    const corpus = [
      "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+00:01", "0000-12-31T23:59-00:01", "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999-00:01",
      "2024-02-29T12:00:00Z", "2025-02-29T12:00:00Z", "2100-02-29T12:00:00Z", "2000-02-29T12:00:00Z", "2026-03-31T24:00:00Z", "2026-03-31T23:60:00Z",
      "2026-03-31T12:00:00+24:00", "2026-03-31T12:00:00-23:59", "2026-03-31T12:00:00+0530", "2026-03-31 12:00:00Z", "2026-03-31t12:00:00z",
      " 2026-03-31T12:00:00Z", "2026-03-31T12:00:00Z ", "2026-03-31T12:00:00", "10000-01-01T00:00:00Z", "2026-03-31T12:00:00.1234567891Z",
    ];
    const random = seeded(99);
    const int = (n: number) => Math.floor(random() * n);
    const pad = (n: number, w: number) => String(n).padStart(w, "0");
    const noise = "0123456789-:.+Tt Zz";
    for (let i = 0; i < 20_000; i++) {
      let value = `${pad(random() < 0.3 ? [0, 1, 9999][int(3)] : int(10000), 4)}-${pad(1 + int(13), 2)}-${pad(1 + int(31), 2)}` +
        `${["T", "t", " "][int(3)]}${pad(int(25), 2)}:${pad(int(61), 2)}${random() < 0.7 ? `:${pad(int(61), 2)}` : ""}` +
        `${random() < 0.3 ? `.${"1234567890".slice(0, 1 + int(10))}` : ""}${["Z", "z", "", `+${pad(int(25), 2)}:${pad(int(61), 2)}`, `-${pad(int(24), 2)}${pad(int(60), 2)}`][int(5)]}`;
      if (random() < 0.2) {
        const at = int(value.length + 1);
        value = value.slice(0, at) + noise[int(noise.length)] + value.slice(at + int(2));
      }
      corpus.push(value);
    }
    const wrong = corpus.filter((v) => isTimestamp(v) !== before(v));
    // How many and the first five: a broken rule disagrees on thousands, and a failure listing them all is unreadable.
    expect({ count: wrong.length, first: wrong.slice(0, 5) }).toEqual({ count: 0, first: [] });
    expect(corpus.filter(before).length).toBeGreaterThan(2000);
  });

  it("a created_at out of range after its offset still fails the page, naming the field", async () => {
    const expense = {
      id: "e1", description: "", expense_type: "", currency: "USD", amount: 1, usd_amount: 1, state: "approved", date: "2026-01-01",
      expense_number: 1, content_type: "", is_active: true, created_at: "9999-12-31T23:59:59.999-00:01", url: "", document_id: "",
      expense_document_type: "", provider: "", payment_method: "", net_amount: 1, tax_amount: 0, tax_rate: 0, subsidiary_currency: "USD",
      subsidiary_expense_amount: 1, accounted_id: null, paid_id: null, paid_at: null,
    };
    const fake = fakeTransport(() => ({ body: { count: 1, next: null, previous: null, results: [expense] } }));
    const client = new SpendClient({ baseUrl: "https://api.example.test", enterpriseId: "ent", apiKey: "k", transport: fake.transport });
    const error = await listExpenses(client, "s1").all().catch((e) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(error.path).toBe("results[0].created_at");
    const fine = fakeTransport(() => ({ body: { count: 1, next: null, previous: null, results: [{ ...expense, created_at: "9999-12-31T23:59:59.999Z" }] } }));
    const ok = new SpendClient({ baseUrl: "https://api.example.test", enterpriseId: "ent", apiKey: "k", transport: fine.transport });
    expect(await listExpenses(ok, "s1").all()).toHaveLength(1);
  });
});
