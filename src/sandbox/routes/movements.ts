/**
 * Spec 4.9 and 4.10: movements of a billing period. Both spellings of the base address are served
 * (`billing-periods`, `billing_periods`), and `reconciliation` is accepted for `renconciliation`.
 */
import { ENTERPRISE, ok, type SandboxApp } from "../env";
import { notFound } from "../http-errors";
import { requirePeriod } from "./lookups";
import type { MovementRec } from "../model";
import { LIMITS, paginate, parsePaging } from "../pagination";
import { parseBoolean, parseEnum, parseExpand } from "../query";
import type { Store } from "../store";
import { movementView } from "../views";

const EXPAND = ["renconciliation"] as const;
const EXPAND_ALIASES = { reconciliation: "renconciliation" };
const TYPES = ["payment", "expense", "associated_fee", "other_fee"] as const;

export function movementRoutes(app: SandboxApp, store: Store): void {
  for (const spelling of ["billing-periods", "billing_periods"] as const) {
    const base = `${ENTERPRISE}/corporate-cards/:card_id/${spelling}/:billing_period_id/movements`;

    app.get(base, (c) => {
      const p = c.req.param() as Record<string, string>;
      const period = requirePeriod(store, c.get("enterprise").id, p.card_id, p.billing_period_id);
      const expand = parseExpand(c.req.query("expand"), EXPAND, EXPAND_ALIASES);
      const type = parseEnum("type", c.req.query("type"), TYPES);
      const reconciled = parseBoolean("reconciled", c.req.query("reconciled"));
      const paging = parsePaging(new URL(c.req.url).searchParams, LIMITS.movements);
      const matches = (m: MovementRec) =>
        (type === undefined || m.type === type) &&
        (reconciled === undefined || (m.reconciliation !== null) === reconciled);
      const movements = store.movementsOf(period.id).filter(matches);
      return c.json(ok(paginate(c.req.url, movements, paging, (m) => movementView(store, m, expand))));
    });

    // 4.10: the spec does not say how a movement is identified; this path is our reading (DESIGN.md).
    app.get(`${base}/:movement_id`, (c) => {
      const p = c.req.param() as Record<string, string>;
      const period = requirePeriod(store, c.get("enterprise").id, p.card_id, p.billing_period_id);
      const expand = parseExpand(c.req.query("expand"), EXPAND, EXPAND_ALIASES);
      const movement = store.movement(period.id, p.movement_id);
      if (!movement) throw notFound("Movement", p.movement_id);
      return c.json(ok(movementView(store, movement, expand)));
    });
  }
}
