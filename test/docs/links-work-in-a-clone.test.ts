// Rule: what the README and docs/ point a newcomer at is in a clone of this repository (issue 43: the README linked
// ../shared/, which only the team's own checkout has): no ../shared/ path, and every relative link's file exists.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "../support/process";

const PAGES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

describe.each(PAGES)("%s", (page) => {
  const text = readFileSync(join(ROOT, page), "utf8");

  it("points outside the repository nowhere", () => {
    expect(text.match(/\.\.\/shared\/\S*/g) ?? []).toEqual([]);
  });

  it("links only to files a clone has", () => {
    const targets = [...text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/i.test(t));
    expect(targets.filter((t) => !existsSync(join(ROOT, dirname(page), t)))).toEqual([]);
  });
});
