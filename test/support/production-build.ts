/**
 * The production build (with the workbench, or without it as users get it), built once per content of its inputs and shared by every browser
 * test file (each used to build its own: six builds of 40-90 s each in one `npm test`) and, for the users' build, by the build's own test
 * (test/build/production-build.test.ts reads its chunks and their modules from chunks.json beside it; it used to build it again). The key is a digest of
 * every file the build reads (src/, assets/, the build's own plugins in tools/*.js, webpack.config.js,
 * manifest.xml, tsconfig.json, package-lock.json), so a change to any of them builds anew; the folder is filled in a temporary place and
 * renamed into place whole, so a test never serves a half-written build.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import webpack from "webpack";
import { ROOT } from "./process";

/** What the build reads, relative to the project root (folders are read whole). */
const INPUTS = [
  "src", "assets", "tools/production-leak-check.js", "tools/functions-metadata.js", "tools/production-manifest.js",
  "webpack.config.js", "manifest.xml", "tsconfig.json", "package-lock.json",
];

const CACHE = join(ROOT, "node_modules", ".cache", "spend-workbench");

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => filesUnder(join(path, name)));
}

/** A digest of every input's path and bytes (and of the options the build is made with). */
function buildKey(options: Record<string, unknown>): string {
  const hash = createHash("sha256").update(JSON.stringify(options));
  for (const file of INPUTS.map((input) => join(ROOT, input)).filter(existsSync).flatMap(filesUnder)) {
    hash.update(relative(ROOT, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex").slice(0, 24);
}

async function compile(dist: string, workbench: boolean): Promise<webpack.Stats> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const config = require(join(ROOT, "webpack.config.js"));
  const base = await config(workbench ? { workbench } : {}, { mode: "production" });
  // The workbench build is the browser tests' own (never hosted): production mode, not minified. Terser took 48 of
  // its 66 CPU seconds; the users' build, which the gateway's browser test drives, is minified as shipped.
  const options = { ...base, context: ROOT, ...(workbench ? { devtool: false, optimization: { ...base.optimization, minimize: false } } : {}) };
  options.output = { ...options.output, path: dist };
  const stats = await new Promise<webpack.Stats>((resolve, reject) => webpack(options, (e, s) => (e ? reject(e) : resolve(s!))));
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
  return stats;
}

/** A chunk of a build and the modules in it (a module production concatenated counted as the modules it joined). */
export interface BuiltChunk {
  name: string;
  /** Each module's resource (or identifier) and its name relative to the project (./src/...). */
  modules: { resource: string; name: string }[];
}

function chunksOf({ chunks, chunkGraph, requestShortener }: webpack.Compilation): BuiltChunk[] {
  const joined = (m: webpack.Module): webpack.Module[] => ("modules" in m && Array.isArray(m.modules) ? (m.modules as webpack.Module[]) : [m]);
  return [...chunks].map((chunk) => ({
    name: chunk.name ?? "",
    modules: [...chunkGraph.getChunkModulesIterable(chunk)].flatMap(joined)
      .map((m) => ({ resource: m.nameForCondition() ?? m.identifier(), name: m.readableIdentifier(requestShortener) })),
  }));
}

/** The chunks of the build in `dist` (a folder productionBuild returned), kept beside it when it was built. */
export function productionBuildChunks(dist: string): BuiltChunk[] {
  return JSON.parse(readFileSync(join(dist, "..", "chunks.json"), "utf8"));
}

/**
 * The folder of the production build for today's files (with the workbench unless `workbench` is false): built
 * now, or the one an earlier test file built. Tests only read it.
 */
export async function productionBuild(workbench = true): Promise<string> {
  const addinUrl = "https://spendsync.example.com/";
  process.env.ADDIN_URL = addinUrl;
  // <key>/dist is the build, <key>/chunks.json its chunks (the layout is part of the key).
  const folder = join(CACHE, buildKey({ workbench, addinUrl, layout: "dist+chunks", minimized: !workbench }));
  const dist = join(folder, "dist");
  if (existsSync(folder)) return dist;
  mkdirSync(CACHE, { recursive: true });
  const building = mkdtempSync(join(CACHE, "building-"));
  try {
    const stats = await compile(join(building, "dist"), workbench);
    writeFileSync(join(building, "chunks.json"), JSON.stringify(chunksOf(stats.compilation)));
    renameSync(building, folder);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    // Another test process finished the same build first: its folder is as good as ours.
    if (!existsSync(folder)) throw error;
  }
  return dist;
}
