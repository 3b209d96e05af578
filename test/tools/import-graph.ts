/**
 * The add-in's structure as its imports draw it: every relative import of every file of src/, read with the
 * TypeScript compiler's own import scanner (`import type` and `export … from` count: a circle of types is still a
 * circle a reader must hold in their head), and the two checks the house keeps: no circle, no arrow up the layers.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** File (relative to src/, `/`-separated) -> the files it imports. */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** The graph of `root`'s TypeScript files; a relative import that names no file is an error (a scan gone wrong must not pass). */
export function importGraph(root: string): ImportGraph {
  const name = (path: string) => relative(root, path).split("\\").join("/");
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    graph.set(name(file), importedFiles.filter((i) => i.fileName.startsWith(".")).map(({ fileName }) => {
      const base = resolve(dirname(file), fileName);
      const target = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts"), base].find(isFile);
      if (!target) throw new Error(`${name(file)} imports ${fileName}, which names no file`);
      return name(target);
    }));
  }
  return graph;
}

/** Every circle: the strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function circles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next); low.set(file, next); next++;
    stack.push(file); onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) { visit(to); low.set(file, Math.min(low.get(file)!, low.get(to)!)); }
      else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do { member = stack.pop()!; onStack.delete(member); component.push(member); } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/**
 * The layers of DESIGN.md as eslint.config.mjs enforces them, by the first folder (or root file) of a path:
 * a file may import its own layer and those of a lower floor. Layers on one floor stand side by side (the hosts).
 * The sandbox and the gateway stand beside the add-in: the sandbox imports domain/ only, the gateway nothing.
 */
const FLOORS: Record<string, number> = {
  domain: 0, "requirements.ts": 0,
  api: 1,
  sheets: 2, "guarded-storage.ts": 2,
  sync: 3,
  functions: 4, commands: 4, taskpane: 4,
  // The workbench is a page that hosts the other hosts (eslint lets it import them); the shared runtime wires them.
  workbench: 5, "shared-runtime.ts": 5,
};
const BESIDE: Record<string, string[]> = { sandbox: ["domain"], gateway: [] };

const layerOf = (file: string) => file.split("/")[0];

/** Every import that points up or sideways across the layers, as "from -> to"; a file of no known layer is one too. */
export function arrowsUp(graph: ImportGraph): string[] {
  const wrong: string[] = [];
  for (const [file, imports] of graph) {
    const from = layerOf(file);
    for (const target of imports) {
      const to = layerOf(target);
      if (to === from) continue;
      const allowed = from in BESIDE ? BESIDE[from].includes(to) : from in FLOORS && to in FLOORS && FLOORS[to] < FLOORS[from];
      if (!allowed) wrong.push(`${file} -> ${target}`);
    }
  }
  return wrong;
}
