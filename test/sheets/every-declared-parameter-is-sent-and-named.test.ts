/**
 * A resource's parameters are declared once (src/sheets/resources/params.ts); a declared filter the list call
 * forgets to send, or the table name forgets to say, compiles. This holds every declaration to both: a query that
 * differs from the plain one in one parameter asks the service for something else under that parameter's wire
 * name, and gets a table (and a sheet) of its own.
 */
import { SpendClient } from "../../src/api";
import { RESOURCE_KINDS, formOf, type ParamDecl } from "../../src/sheets";
import { listFunctionOf } from "../../src/sheets/resources";
import { sheetNameOf, sourceOf, tableNameOf, type LoadParams } from "../../src/sheets/load/params";
import { declaredParams } from "../support/declarations";
import { fakeTransport } from "../support/fake-transport";

const ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

/** A value of a parameter other than what leaving it out gives. */
function sampleOf(p: ParamDecl): unknown {
  switch (p.type) {
    case "id": return ID;
    case "choice": return p.values[p.values.length - 1];
    case "expand": return [p.values[0]];
    case "boolean": return p.default === undefined ? true : !p.default;
    case "date": return "2026-01-15";
  }
}

/** The plain query of a kind: its ids given, nothing else. */
function plain(kind: (typeof RESOURCE_KINDS)[number]): Record<string, unknown> {
  const ids = declaredParams(kind).filter((p) => p.type === "id").map((p) => [p.name, ID]);
  return { resource: kind, enterpriseId: "ent-1", ...Object.fromEntries(ids) };
}

/** The first request a load of `params` sends. */
async function firstUrl(params: LoadParams): Promise<URL> {
  const wire = fakeTransport(() => ({ body: { count: 0, next: null, previous: null, results: [] } }));
  const client = new SpendClient({ baseUrl: "https://spend.example.com", enterpriseId: "ent-1", apiKey: "key-abc-123", transport: wire.transport });
  await sourceOf(params).list(client, {}).pages().next();
  return new URL(wire.requests[0].url);
}

const cases = RESOURCE_KINDS.flatMap((kind) => declaredParams(kind).filter((p) => p.type !== "id").map((p) => [kind, p.name, p] as const));

it.each(cases)("%s: a query with %s set is sent with it and gets a table of its own", async (kind, _name, p) => {
  const base = plain(kind) as LoadParams;
  const withIt = { ...plain(kind), [p.name]: sampleOf(p) } as LoadParams;
  expect(tableNameOf(withIt)).not.toBe(tableNameOf(base));
  expect(sheetNameOf(withIt)).not.toBe(sheetNameOf(base));
  const [sent, plainSent] = [await firstUrl(withIt), await firstUrl(base)];
  expect(sent.searchParams.getAll(p.wire).join(",")).not.toBe(plainSent.searchParams.getAll(p.wire).join(","));
});

it("every kind declares parameters, each offered the same way by the form and by its =SPEND function", () => {
  expect(cases.length).toBeGreaterThanOrEqual(8);
  for (const kind of RESOURCE_KINDS) {
    const form = formOf(kind);
    const inForm = [...form.fields, ...(form.expand ? [form.expand] : [])].map((p) => p.name).sort();
    const inFunction = listFunctionOf(kind).args.map((a) => a.param).sort();
    expect(inFunction).toEqual(inForm);
  }
});
