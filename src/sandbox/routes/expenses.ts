/** Spec 4.6, 4.7 and 4.8: expenses of a subsidiary, and their state changes. */
import { EXPENSE_STATES } from "../../domain";
import { readPatch } from "../body";
import { ENTERPRISE, ok, type SandboxApp } from "../env";
import { badRequest, notFound } from "../http-errors";
import { LIMITS, paginate, parsePaging } from "../pagination";
import { parseDate, parseExpand, parseState } from "../query";
import type { Store } from "../store";
import { requireSubsidiary, savedOrFail } from "./lookups";
import { expenseView } from "../views";

const EXPAND = ["cost_center", "category", "user", "approved_by", "fund", "fare"] as const;

export function expenseRoutes(app: SandboxApp, store: Store): void {
  const base = `${ENTERPRISE}/subsidiaries/:subsidiary_id/expenses`;

  app.get(base, (c) => {
    const enterprise = c.get("enterprise");
    const sub = requireSubsidiary(store, enterprise.id, c.req.param("subsidiary_id"));
    const expand = parseExpand(c.req.query("expand"), EXPAND);
    const state = parseState(c.req.query("state"), EXPENSE_STATES);
    const from = parseDate("created_at_from", c.req.query("created_at_from"));
    const to = parseDate("created_at_to", c.req.query("created_at_to"));
    if (from !== undefined && to !== undefined && from > to) {
      throw badRequest(`created_at_from (${from}) is after created_at_to (${to}).`);
    }
    const paging = parsePaging(new URL(c.req.url).searchParams, LIMITS.expenses);
    // created_at is a UTC timestamp; its first ten characters are its UTC date, compared inclusively.
    // Unfiltered, the list is the store's own (read-only here): no pass over every expense for each page.
    const all = store.expensesOf(sub.id);
    const filtered = state !== undefined || from !== undefined || to !== undefined;
    const items = !filtered ? all : all.filter((e) => {
      const day = e.created_at.slice(0, 10);
      return (state === undefined || e.state === state) && (from === undefined || day >= from) && (to === undefined || day <= to);
    });
    const options = { expand, detail: false, additionalFiles: enterprise.additional_files_enabled };
    return c.json(ok(paginate(c.req.url, items, paging, (e) => expenseView(store, e, options))));
  });

  app.get(`${base}/:expense_id`, (c) => {
    const enterprise = c.get("enterprise");
    const sub = requireSubsidiary(store, enterprise.id, c.req.param("subsidiary_id"));
    const expand = parseExpand(c.req.query("expand"), EXPAND);
    const expense = store.expense(sub.id, c.req.param("expense_id"));
    if (!expense) throw notFound("Expense", c.req.param("expense_id"));
    return c.json(ok(expenseView(store, expense, { expand, detail: true, additionalFiles: enterprise.additional_files_enabled })));
  });

  app.patch(`${base}/:expense_id`, async (c) => {
    const enterprise = c.get("enterprise");
    const sub = requireSubsidiary(store, enterprise.id, c.req.param("subsidiary_id"));
    const expense = store.expense(sub.id, c.req.param("expense_id"));
    if (!expense) throw notFound("Expense", c.req.param("expense_id"));
    const patch = await readPatch(c);
    const outcome = store.applyPatch("expense", expense, patch);
    if (!outcome.ok) throw badRequest(outcome.message);
    await savedOrFail(outcome.saved);
    const options = { expand: new Set<string>(), detail: true, additionalFiles: enterprise.additional_files_enabled };
    return c.json(ok(expenseView(store, outcome.record, options)));
  });
}
