/**
 * Every spelling each =SPEND.* argument takes, as Excel hands it over (text in any case and with spaces,
 * numbers, booleans, empty cells, a one-cell range), and the whole message of each refusal: the #VALUE! text a
 * finance user reads to fix the formula.
 */
import { ArgumentError, optionalBoolean, optionalChoice, optionalDate, optionalExpand, requiredId, requiredText } from "../../src/functions/args";

const ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).name).toBe("ArgumentError");
    return (error as Error).message;
  }
  throw new Error("expected an ArgumentError, got a value");
}

describe("an empty argument", () => {
  const empties: unknown[] = [undefined, null, "", "   ", "\t", [[null]], [[""]], [["  "]]];

  it("is left out for every optional argument, whatever form the emptiness takes", () => {
    for (const empty of empties) {
      expect(optionalChoice("state", empty, ["paid", "accounted"])).toBeUndefined();
      expect(optionalBoolean("reconciled", empty)).toBeUndefined();
      expect(optionalDate("created_from", empty)).toBeUndefined();
      expect(optionalExpand("expand", empty, ["user", "bank"])).toEqual([]);
    }
  });

  it("is refused for a required one, naming the argument", () => {
    for (const empty of empties) {
      expect(refusal(() => requiredText("card_id", empty))).toBe("card_id is required.");
      expect(refusal(() => requiredId("subsidiary_id", empty))).toBe("subsidiary_id is required.");
    }
  });
});

describe("requiredText and requiredId", () => {
  it("take text and numbers, trimmed, and a one-cell range as its value", () => {
    expect(requiredText("x", "  abc ")).toBe("abc");
    expect(requiredText("x", 42)).toBe("42");
    expect(requiredText("x", [["  abc "]])).toBe("abc");
    expect(requiredText("x", 0)).toBe("0");
  });

  it("refuse a boolean or a range of several cells, quoting what came", () => {
    expect(refusal(() => requiredText("card_id", true))).toBe("card_id must be text; got true.");
    expect(refusal(() => requiredText("card_id", [["a", "b"]]))).toBe('card_id must be text; got [["a","b"]].');
    expect(refusal(() => requiredText("card_id", [["a"], ["b"]]))).toBe('card_id must be text; got [["a"],["b"]].');
  });

  it("an id is a UUID in either case, sent as written and only trimmed", () => {
    expect(requiredId("card_id", ` ${ID.toUpperCase()} `)).toBe(ID.toUpperCase());
    expect(requiredId("card_id", [[ID]])).toBe(ID);
  });

  it("anything else is not an id, with the whole explanation and a value cut at 40 characters", () => {
    const tail = "Table and sheet names show only an id's first 8 characters: copy the whole id from an ID column or the taskpane.";
    expect(refusal(() => requiredId("card_id", "1a2b3c4d"))).toBe(
      `card_id "1a2b3c4d" is not an id: an id is a UUID of 36 characters, like 3f2504e0-4f89-41d3-9a0c-0305e82c3301. ${tail}`,
    );
    const long = "x".repeat(41);
    expect(refusal(() => requiredId("expense_id", long))).toBe(`expense_id "${"x".repeat(39)}…" is not an id: an id is a UUID of 36 characters, like 3f2504e0-4f89-41d3-9a0c-0305e82c3301. ${tail}`);
    const forty = "y".repeat(40);
    expect(refusal(() => requiredId("expense_id", forty))).toContain(`expense_id "${forty}" is not an id`);
    expect(refusal(() => requiredId("card_id", `${ID}0`))).toContain(`card_id "${ID}0" is not an id`);
  });
});

describe("optionalChoice", () => {
  const states = ["approved", "accounted", "paid"] as const;

  it("takes each value in any case, with spaces around it", () => {
    expect(optionalChoice("state", "PAID", states)).toBe("paid");
    expect(optionalChoice("state", " Accounted ", states)).toBe("accounted");
    expect(optionalChoice("state", [["approved"]], states)).toBe("approved");
  });

  it("refuses anything else, listing what is allowed and quoting the value as typed", () => {
    expect(refusal(() => optionalChoice("state", "Payed", states))).toBe('state must be one of approved, accounted, paid; got "Payed".');
    expect(refusal(() => optionalChoice("type", 3, states))).toBe('type must be one of approved, accounted, paid; got "3".');
  });
});

describe("optionalBoolean", () => {
  it("takes TRUE/FALSE, and the words and digits people type for them, in any case", () => {
    for (const yes of [true, "TRUE", "true", " True ", "yes", "YES", "1", 1, [[true]]]) expect(optionalBoolean("reconciled", yes)).toBe(true);
    for (const no of [false, "FALSE", "false", " False ", "no", "No", "0", 0, [[false]]]) expect(optionalBoolean("reconciled", no)).toBe(false);
  });

  it("refuses anything else, saying TRUE or FALSE", () => {
    for (const bad of ["maybe", "2", 2, "y", "t", "on"]) {
      expect(refusal(() => optionalBoolean("reconciled", bad))).toBe(`reconciled must be TRUE or FALSE; got "${String(bad)}".`);
    }
  });
});

describe("optionalDate", () => {
  it("takes an Excel date (a serial, its time of day dropped) or text YYYY-MM-DD", () => {
    expect(optionalDate("created_from", 46023)).toBe("2026-01-01");
    expect(optionalDate("created_from", 46023.99)).toBe("2026-01-01");
    expect(optionalDate("created_from", 61)).toBe("1900-03-01");
    expect(optionalDate("created_from", " 2026-02-28 ")).toBe("2026-02-28");
    expect(optionalDate("created_from", [["2026-02-28"]])).toBe("2026-02-28");
  });

  it("refuses what is no date: zero, negatives, text in another order, an impossible day", () => {
    for (const [bad, shown] of [[0, "0"], [-5, "-5"], ["01/02/2026", "01/02/2026"], ["2026-02-30", "2026-02-30"], [" 2026-1-1 ", "2026-1-1"], [Infinity, "Infinity"], [true, "true"]] as const) {
      expect(refusal(() => optionalDate("created_to", bad))).toBe(`created_to must be an Excel date or text written YYYY-MM-DD; got "${shown}".`);
    }
  });
});

describe("optionalExpand", () => {
  const allowed = ["user", "bank"] as const;

  it("takes comma-separated values in any case, or a range of them, each once, in the order given", () => {
    expect(optionalExpand("expand", "user,bank", allowed)).toEqual(["user", "bank"]);
    expect(optionalExpand("expand", " BANK , User ", allowed)).toEqual(["bank", "user"]);
    expect(optionalExpand("expand", "user,,user, ", allowed)).toEqual(["user"]);
    expect(optionalExpand("expand", [["bank", null], ["user,bank", ""]], allowed)).toEqual(["bank", "user"]);
  });

  it("refuses a value that is not allowed, naming it and listing the allowed ones", () => {
    expect(refusal(() => optionalExpand("expand", "user,Banks", allowed))).toBe('expand takes user, bank (comma-separated); "banks" is not one of them.');
  });
});
