/** Spec 4.3, 4.4 and 4.5: allowances of a subsidiary, and their state changes. */
import { ALLOWANCE_STATES } from "../../domain";
import { readPatch } from "../body";
import { ENTERPRISE, ok, type SandboxApp } from "../env";
import { badRequest, notFound } from "../http-errors";
import { LIMITS, paginate, parsePaging } from "../pagination";
import { parseExpand, parseState } from "../query";
import type { Store } from "../store";
import { requireSubsidiary, savedOrFail } from "./lookups";
import { allowancePatchView, allowanceView } from "../views";

const EXPAND = ["beneficiary", "allowance_segments", "documents"] as const;

export function allowanceRoutes(app: SandboxApp, store: Store): void {
  const base = `${ENTERPRISE}/subsidiaries/:subsidiary_id/allowances`;

  app.get(base, (c) => {
    const sub = requireSubsidiary(store, c.get("enterprise").id, c.req.param("subsidiary_id"));
    const expand = parseExpand(c.req.query("expand"), EXPAND);
    const state = parseState(c.req.query("state"), ALLOWANCE_STATES);
    const paging = parsePaging(new URL(c.req.url).searchParams, LIMITS.allowances);
    const all = store.allowancesOf(sub.id);
    const items = state === undefined ? all : all.filter((a) => a.state === state);
    return c.json(ok(paginate(c.req.url, items, paging, (a) => allowanceView(store, a, expand))));
  });

  app.get(`${base}/:allowance_id`, (c) => {
    const sub = requireSubsidiary(store, c.get("enterprise").id, c.req.param("subsidiary_id"));
    const expand = parseExpand(c.req.query("expand"), EXPAND);
    const allowance = store.allowance(sub.id, c.req.param("allowance_id"));
    if (!allowance) throw notFound("Allowance", c.req.param("allowance_id"));
    return c.json(ok(allowanceView(store, allowance, expand)));
  });

  app.patch(`${base}/:allowance_id`, async (c) => {
    const sub = requireSubsidiary(store, c.get("enterprise").id, c.req.param("subsidiary_id"));
    const allowance = store.allowance(sub.id, c.req.param("allowance_id"));
    if (!allowance) throw notFound("Allowance", c.req.param("allowance_id"));
    const patch = await readPatch(c);
    // No await between the check and the write: applyPatch is atomic on Node's single thread.
    const outcome = store.applyPatch("allowance", allowance, patch);
    if (!outcome.ok) throw badRequest(outcome.message);
    await savedOrFail(outcome.saved);
    return c.json(ok(allowancePatchView(outcome.record)));
  });
}
