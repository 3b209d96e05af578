/**
 * Each query gets its own table and sheet, named for it (src/sheets/load/params.ts, pure: plain calls, no Excel):
 * the plain query of a scope keeps its short name; filters and a partial expand add readable words; every expand is
 * the one word "names"; a sheet name that would pass Excel's 31 characters keeps its start and ends in a short tag
 * of the words, so two queries never share a table or a sheet. Allowances and expenses are the synced resources.
 */
import { Query, nameTag, sheetNameOf, tableNameOf, type LoadParams } from "../../src/sheets/load/params";
import { isTracked } from "../support/declarations";
import { withCurrencyExpand } from "../../src/sheets/resources/allowances";

const E = "ent_1";
const names = (p: LoadParams) => [tableNameOf(p), sheetNameOf(p)];
/** FNV-1a over UTF-16 code units in base 36, padded to 7 and cut to 6: written again here from its definition. */
function fnvTag(text: string): string {
  let hash = 0x811c9dc5n;
  for (const ch of text) hash = ((hash ^ BigInt(ch.charCodeAt(0))) * 0x01000193n) & 0xffffffffn;
  return hash.toString(36).padStart(7, "0").slice(0, 6);
}

describe("table and sheet names", () => {
  it("cards: plain, every expand as \"names\", one expand by its own name", () => {
    expect(names({ resource: "cards", enterpriseId: E })).toEqual(["SpendCards", "Corporate cards"]);
    expect(names({ resource: "cards", enterpriseId: E, expand: ["user", "bank"] })).toEqual(["SpendCards_names", "Corporate cards names"]);
    expect(names({ resource: "cards", enterpriseId: E, expand: ["user"] })).toEqual(["SpendCards_xuser", "Corporate cards xuser"]);
  });

  it("movements: the card and period ids shortened to eight letters and digits; the type and reconciled filters as words", () => {
    const base = { resource: "movements", enterpriseId: E, cardId: "card-1234-5678-9", billingPeriodId: "bp_2026_03" } as const;
    expect(names(base)).toEqual(["SpendMovements_card1234_bp202603", "Movements card1234 bp202603"]);
    expect(tableNameOf({ ...base, type: "expense", reconciled: true })).toBe("SpendMovements_card1234_bp202603_expense_reconciled");
    expect(tableNameOf({ ...base, reconciled: false, reconciliation: false })).toBe("SpendMovements_card1234_bp202603_unreconciled_norecon");
    expect(Query.parse({ ...base, reconciliation: true }).words).toEqual([]);
  });

  it("allowances and expenses: the state, the creation dates and the expand as words, in that order", () => {
    expect(names({ resource: "allowances", enterpriseId: E, subsidiaryId: "sub-1", state: "approved", expand: ["documents", "beneficiary", "allowance_segments"] }))
      .toEqual(["SpendAllowances_sub1_approved_names", "Allowances sub1 approved names"]);
    expect(tableNameOf({ resource: "allowances", enterpriseId: E, subsidiaryId: "s", expand: ["documents", "beneficiary"] })).toBe("SpendAllowances_s_xbeneficiaryxdocuments");
    expect(tableNameOf({ resource: "expenses", enterpriseId: E, subsidiaryId: "s", state: "paid", createdFrom: "2026-01-01", createdTo: "2026-03-31", expand: ["cost_center"] }))
      .toBe("SpendExpenses_s_paid_from20260101_to20260331_xcostcenter");
    expect(names({ resource: "expenses", enterpriseId: E, subsidiaryId: "s" })).toEqual(["SpendExpenses_s", "Expenses s"]);
  });

  it("a sheet name of 31 characters is kept whole; one character more and it is the scope's name (24 characters at most) and the words' tag", () => {
    const exact = sheetNameOf({ resource: "expenses", enterpriseId: E, subsidiaryId: "ab", state: "approved", createdTo: "2026-03-31" });
    expect(exact).toBe("Expenses ab approved to20260331");
    expect(exact).toHaveLength(31);
    const longer = sheetNameOf({ resource: "expenses", enterpriseId: E, subsidiaryId: "abc", state: "approved", createdTo: "2026-03-31" });
    expect(longer).toBe(`Expenses abc ${fnvTag("approved to20260331")}`);
    const movements = sheetNameOf({ resource: "movements", enterpriseId: E, cardId: "card-1234-5678-9", billingPeriodId: "bp_2026_03", type: "payment" });
    expect(movements).toBe(`Movements card1234 bp202 ${fnvTag("payment")}`);
    expect(movements).toHaveLength(31);
  });

  it("the tag is FNV-1a of the text in base 36, six characters (padded), a chosen length when asked", () => {
    for (const text of ["approved to20260331", "", "a", "expense unreconciled norecon", "ñandú €"]) expect([text, nameTag(text)]).toEqual([text, fnvTag(text)]);
    expect(nameTag("approved to20260331", 3)).toBe(fnvTag("approved to20260331").slice(0, 3));
    expect(nameTag("x", 7)).toHaveLength(7);
  });
});

describe("what a query fetches", () => {
  it("allowances and expenses carry the synced columns; cards and movements do not", () => {
    expect((["allowances", "expenses", "cards", "movements"] as const).map(isTracked)).toEqual([true, true, false, false]);
  });

  it("an allowance query always asks for the segments (they name the converted amount's currency), once, last", () => {
    expect(withCurrencyExpand([])).toEqual(["allowance_segments"]);
    expect(withCurrencyExpand(["documents", "beneficiary"])).toEqual(["documents", "beneficiary", "allowance_segments"]);
    expect(withCurrencyExpand(["allowance_segments", "documents"])).toEqual(["allowance_segments", "documents"]);
  });
});
