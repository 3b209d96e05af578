/**
 * The dev server answers the demo data's ids at /demo-ids.json (webpack.config.js) from what npm start gives it in
 * SPEND_DEMO_IDS, and 404 with a JSON error when it was given none. A real webpack-dev-server with the project's
 * devServer options (a one-line bundle instead of the add-in); a production build has no dev server at all.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import webpack from "webpack";
import WebpackDevServer from "webpack-dev-server";
import { ROOT } from "../support/process";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, "webpack.config.js"));

jest.setTimeout(60_000);

const DEMO = { enterprises: [{ id: "e1", subsidiaries: [{ id: "s1", name: "Andes Logistics Chile (CLP)" }], cards: [] }] };

/** A dev server started with `demo` as SPEND_DEMO_IDS (unset when undefined); its base URL and stop. */
async function devServer(demo: string | undefined): Promise<{ base: string; stop(): Promise<void> }> {
  const probe = createServer();
  const port = await new Promise<number>((resolve) => probe.listen(0, "127.0.0.1", () => resolve((probe.address() as AddressInfo).port)));
  await new Promise((r) => probe.close(r));
  const saved = { ...process.env };
  Object.assign(process.env, { SPEND_SERVICE_URL: "http://127.0.0.1:9", SPEND_DEV_PORT: String(port), SPEND_DEV_HOST: "127.0.0.1", SPEND_HTTPS: "0" });
  if (demo === undefined) delete process.env.SPEND_DEMO_IDS;
  else process.env.SPEND_DEMO_IDS = demo;
  const options = await config({ WEBPACK_SERVE: true }, { mode: "development" });
  process.env = saved;
  const dir = mkdtempSync(join(tmpdir(), "spend-dev-"));
  writeFileSync(join(dir, "tiny.js"), "console.log(1);\n");
  const compiler = webpack({ mode: "development", context: dir, entry: { tiny: join(dir, "tiny.js") }, output: { path: join(dir, "out") }, devtool: false });
  const dev = new WebpackDevServer({ ...options.devServer, hot: false, liveReload: false, client: false }, compiler);
  await dev.start();
  return { base: `http://127.0.0.1:${port}`, stop: () => dev.stop() };
}

it("answers the demo ids npm start handed it, as JSON, never cached", async () => {
  const dev = await devServer(JSON.stringify(DEMO));
  try {
    const answer = await fetch(`${dev.base}/demo-ids.json`);
    expect([answer.status, answer.headers.get("content-type"), answer.headers.get("cache-control")]).toEqual([200, "application/json", "no-store"]);
    expect(await answer.json()).toEqual(DEMO);
    // The rest of the dev server is as it was: its files are still served.
    expect((await fetch(`${dev.base}/tiny.js`)).status).toBe(200);
  } finally {
    await dev.stop();
  }
});

it("without them (a dev server npm start did not start), 404 with a JSON error saying so", async () => {
  const dev = await devServer(undefined);
  try {
    const answer = await fetch(`${dev.base}/demo-ids.json`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ status: 404, error: "No demo data: this dev server was not started by npm start." });
  } finally {
    await dev.stop();
  }
});
