/**
 * The card-close matcher scored against the sandbox's hidden truth (never in an answer), at three seeds: no
 * wrong proposal, nine true links in ten proposed, every tie ambiguous, every fee, payment and refund explained.
 * The figures are printed, as docs/reconciliation.md quotes them.
 */
import { generateDemoData } from "../../src/sandbox/demo-data";
import { describeFigures, scoreAgainstTruth } from "../support/card-close-truth";
import { ANCHOR } from "../support/sandbox";

describe.each([1, 2, 3])("seed %i, 150 movements in the first close card's period", (seed) => {
  const { figures: f } = scoreAgainstTruth(generateDemoData({ seed, scale: 1, anchor: ANCHOR, cardClose: { movements: 150 } }));

  it("proposes no wrong link and at least 90% of the true ones; every tie, fee, payment and refund is explained", () => {
    process.stdout.write(`${describeFigures(`card close, seed ${seed}`, f)}\n`);
    expect(f.trueLinks).toBeGreaterThan(100);
    expect(f.wrong).toBe(0);
    expect(f.right / f.trueLinks).toBeGreaterThanOrEqual(0.9);
    expect(f.ties).toBeGreaterThan(0);
    expect(f.tiesAmbiguous).toBe(f.ties);
    expect(f.feesExplained).toBe(f.feesAndPayments);
    expect(f.refunds).toBeGreaterThan(0);
    expect(f.refundsExplained).toBe(f.refunds);
    expect(f.unfiledChased).toBe(f.unfiled);
    expect(f.neverPostedListed).toBe(f.neverPosted);
  });

  it("proposes links of every pattern it can tell apart", () => {
    for (const pattern of ["plain", "foreign", "tip", "split", "installment", "refund"]) {
      expect(f.byPattern[pattern]?.proposed ?? 0).toBeGreaterThan(0);
    }
    expect(f.byPattern.twin.proposed).toBe(0);
  });
});
