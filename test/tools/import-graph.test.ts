/**
 * The house as its imports draw it (issue 44): no circle anywhere in src/, no import pointing up or sideways
 * across the layers of DESIGN.md, and the Workbook port owning its types (its Excel adapter depends on it, never
 * the other way). ESLint's layer rule sees one import at a time; a circle needs the whole graph, so it is here.
 */
import { join } from "node:path";
import { ROOT } from "../support/process";
import { arrowsUp, circles, importGraph, type ImportGraph } from "./import-graph";

const SRC = join(ROOT, "src");
const graph = importGraph(SRC);

/** A small graph written out by hand: file -> its imports. */
const drawn = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe("the checks themselves", () => {
  it("find a circle through three files and a file importing itself, and nothing in a graph that only points down", () => {
    const found = circles(drawn({
      "sheets/a.ts": ["sheets/b.ts"], "sheets/b.ts": ["sheets/c.ts", "api/x.ts"], "sheets/c.ts": ["sheets/a.ts"],
      "api/x.ts": ["api/x.ts"], "sync/d.ts": ["sheets/a.ts"],
    }));
    expect(found.sort()).toEqual([["api/x.ts"], ["sheets/a.ts", "sheets/b.ts", "sheets/c.ts"]]);
    expect(circles(drawn({ "sync/d.ts": ["sheets/a.ts", "api/x.ts"], "sheets/a.ts": ["api/x.ts"], "api/x.ts": [] }))).toEqual([]);
  });

  it("find an import up, one sideways between hosts, and the sandbox reaching past domain/; let the workbench use a host", () => {
    expect(arrowsUp(drawn({
      "api/client.ts": ["sheets/load/load.ts", "domain/rules.ts"],
      "taskpane/app.ts": ["functions/functions.ts", "sync/run.ts"],
      "sandbox/server.ts": ["api/index.ts", "domain/index.ts"],
      "gateway/index.ts": ["domain/index.ts"],
      "workbench/page.ts": ["taskpane/app.ts"],
      "tools.ts": ["api/client.ts"],
    }))).toEqual([
      "api/client.ts -> sheets/load/load.ts",
      "taskpane/app.ts -> functions/functions.ts",
      "sandbox/server.ts -> api/index.ts",
      "gateway/index.ts -> domain/index.ts",
      "tools.ts -> api/client.ts",
    ]);
  });

  it("read every relative import of the real sources, type-only ones included", () => {
    expect(graph.get("sheets/money-formats.ts")).toContain("sheets/port/workbook.ts"); // `import type` only
    expect(graph.get("sheets/index.ts")?.length).toBeGreaterThan(3); // `export … from`
    expect(graph.get("workbench/fake-excel/protocol/range.ts")).toContain("workbench/fake-excel/protocol/range-areas.ts"); // nested folders
    expect(graph.size).toBeGreaterThan(200);
  });
});

describe("src/", () => {
  it("has no import circle", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("has no import pointing up or sideways across the layers", () => {
    expect(arrowsUp(graph)).toEqual([]);
  });

  it("keeps the Workbook port's types its own: the port imports nothing of sheets/ but itself", () => {
    const port = [...graph].filter(([file]) => file.startsWith("sheets/port/"));
    expect(port.map(([file]) => file)).toContain("sheets/port/workbook.ts");
    expect(port.flatMap(([file, imports]) => imports.filter((to) => to.startsWith("sheets/") && !to.startsWith("sheets/port/")).map((to) => `${file} -> ${to}`))).toEqual([]);
  });

  it("crosses the Excel seam one way only: the adapter imports the port, nothing else of sheets/ imports the adapter", () => {
    const crossings = [...graph].flatMap(([file, imports]) => imports.map((to) => [file, to] as const))
      .filter(([file, to]) => file.startsWith("sheets/") && to.startsWith("sheets/") && file.startsWith("sheets/excel/") !== to.startsWith("sheets/excel/"));
    expect(crossings.length).toBeGreaterThan(10); // the adapter does stand on the port
    expect(crossings.filter(([file, to]) => !(file.startsWith("sheets/excel/") && to.startsWith("sheets/port/"))).map(([file, to]) => `${file} -> ${to}`)).toEqual([]);
  });
});
