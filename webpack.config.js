// Builds the add-in for the web: the shared-runtime page (taskpane.html: taskpane, ribbon commands and custom
// functions in one runtime), functions.js + functions.json for the CustomFunctions extension point, the
// assets, and manifest.xml. A production build rewrites every development URL (https://localhost:3000) in the
// manifest to ADDIN_URL.
//
// The workbench page (the product beside an in-memory Excel) and source maps are development only: dist/ is
// served on the add-in's origin, where the API key is stored. ProductionLeakCheck fails a production build
// that would ship them, the sandbox or test code. `--env workbench` builds the workbench in production mode
// for the browser tests (never to be hosted); that build is not checked.
const path = require("node:path");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const { ProductionLeakCheck } = require("./tools/production-leak-check");
const { FunctionsDataTypes } = require("./tools/functions-metadata");
const { productionManifest } = require("./tools/production-manifest");


/**
 * Where a production build will be hosted. `npm run build` (webpack-cli's build, `env.WEBPACK_BUILD`) without
 * ADDIN_URL refuses (issue 43): a manifest pointing at a made-up host installs and then shows nothing. Builds
 * made by tests and tools (knip reads this file) and the workbench's browser-test build are never hosted.
 */
function addinUrl(hosted) {
  const url = process.env.ADDIN_URL;
  if (url) return url.replace(/\/?$/, "/");
  if (!hosted) return "https://spendsync.example.com/";
  throw new Error("Set ADDIN_URL to the https address dist/ will be served from, e.g. ADDIN_URL=https://addin.example.com/ npm run build (docs/deploy.md). Nothing was built.");
}

/**
 * The dev server: https with the Office dev certificates when they are installed (`npx office-addin-dev-certs
 * install`), else plain http on loopback (the workbench needs nothing more). SPEND_HTTPS=1/0 decides outright.
 */
async function serverOptions() {
  if (process.env.SPEND_HTTPS === "0") return { type: "http" };
  try {
    const certs = require("office-addin-dev-certs");
    if (process.env.SPEND_HTTPS !== "1" && !certs.isCaCertificateInstalled()) return { type: "http" };
    return { type: "https", options: await certs.getHttpsServerOptions() };
  } catch {
    return { type: "http" };
  }
}

/**
 * The dev server's answer to the add-in's service calls through /proxy: only the add-in's own origin may use
 * it (a page elsewhere in the same browser must not reach the service through it), and the service's own
 * CORS headers (perhaps `*`) are replaced by that origin. Static files keep `*`: Office fetches functions.json
 * and the scripts from its own origin.
 */
function proxyOptions(service, ownOrigin) {
  const isProxy = (url = "") => url === "/proxy" || url.startsWith("/proxy/") || url.startsWith("/proxy?");
  return {
    headers: (req) => (isProxy(req.url) ? { "Access-Control-Allow-Origin": ownOrigin, Vary: "Origin" } : { "Access-Control-Allow-Origin": "*" }),
    setupMiddlewares: (middlewares) => {
      middlewares.unshift({
        name: "proxy-own-origin-only",
        middleware: (req, res, next) => {
          const origin = req.headers.origin;
          if (!isProxy(req.url) || origin === undefined || origin === ownOrigin) return next();
          res.writeHead(403, { "Content-Type": "application/json", Vary: "Origin" });
          res.end(JSON.stringify({ status: 403, error: `The dev proxy answers only the add-in's own origin (${ownOrigin}).` }));
        },
      });
      return middlewares;
    },
    proxy: [{
      context: ["/proxy"], target: service, changeOrigin: true, pathRewrite: { "^/proxy": "" },
      onProxyRes: (proxyRes) => {
        for (const name of Object.keys(proxyRes.headers)) if (name.startsWith("access-control-")) delete proxyRes.headers[name];
        proxyRes.headers["access-control-allow-origin"] = ownOrigin;
        proxyRes.headers.vary = proxyRes.headers.vary ? `${proxyRes.headers.vary}, Origin` : "Origin";
      },
    }],
  };
}

/**
 * The demo data's ids and names for the workbench's pickers (issue 43), as npm start hands them over in
 * SPEND_DEMO_IDS (tools/demo-ids.ts: no key in it). The dev server only: a production build has none, so nothing
 * of it ships. Without them (a dev server npm start did not start) it answers 404 and the pickers offer no demo.
 */
function demoIdsMiddleware(json) {
  const body = json ? JSON.stringify(JSON.parse(json)) : null;
  return {
    name: "demo-ids",
    path: "/demo-ids.json",
    middleware: (req, res) => {
      const status = body === null ? 404 : 200;
      res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(body ?? JSON.stringify({ status, error: "No demo data: this dev server was not started by npm start." }));
    },
  };
}

module.exports = async (env = {}, argv = {}) => {
  const mode = argv.mode ?? "production";
  const dev = mode === "development";
  // The workbench page and the in-memory Excel: development, or a browser-test build asked for by name.
  const workbench = dev || env.workbench === true || env.workbench === "true";
  const productionUrl = dev ? "" : addinUrl(Boolean(env.WEBPACK_BUILD) && !workbench);
  const service = process.env.SPEND_SERVICE_URL ?? "http://127.0.0.1:3000";
  const config = {
    mode,
    target: ["web", "es2020"],
    devtool: dev ? "source-map" : false,
    // functions.js is what the manifest's CustomFunctions Script names, and the shared-runtime page loads it
    // too: the page's own entry depends on it, so the functions and what they share with the page ship once.
    entry: {
      functions: "./src/functions/functions.ts",
      taskpane: { import: "./src/shared-runtime.ts", dependOn: "functions" },
      // The sign-in window's way back (MSAL's redirect bridge), loaded only by that window.
      "sign-in-done": "./src/taskpane/sign-in-done.ts",
      ...(workbench ? { workbench: "./src/workbench/page.ts" } : {}),
    },
    output: { path: path.resolve(__dirname, "dist"), filename: "[name].js", clean: true },
    resolve: {
      extensions: [".ts", ".js"],
      // No Node polyfills: a Node-only import in the browser layers fails the build.
      fallback: {},
    },
    module: {
      rules: [
        {
          test: /\.ts$/,
          loader: "ts-loader",
          exclude: /node_modules/,
          options: { transpileOnly: true, compilerOptions: { module: "esnext", moduleResolution: "bundler" } },
        },
      ],
    },
    plugins: [
      new CustomFunctionsMetadataPlugin({ output: "functions.json", input: "./src/functions/functions.ts" }),
      new FunctionsDataTypes(),
      new HtmlWebpackPlugin({ filename: "taskpane.html", template: "./src/taskpane/taskpane.html", chunks: ["functions", "taskpane"], chunksSortMode: "manual" }),
      new HtmlWebpackPlugin({ filename: "sign-in-done.html", template: "./src/taskpane/sign-in-done.html", chunks: ["sign-in-done"] }),
      ...(workbench ? [new HtmlWebpackPlugin({ filename: "workbench.html", template: "./src/workbench/workbench.html", chunks: ["workbench"] })] : []),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets", to: "assets" },
          { from: "src/taskpane/taskpane.css", to: "taskpane.css" },
          ...(workbench ? [
            { from: "src/workbench/workbench.css", to: "workbench.css" },
            // Microsoft's Office.js client for the workbench's in-memory Excel (src/workbench/office-js): never
            // in a production build, where Excel loads Office.js from Microsoft's CDN (ProductionLeakCheck).
            { from: require.resolve("@microsoft/office-js/dist/excel-web-16.00.js"), to: "office-js/excel-web-16.00.js" },
          ] : []),
          {
            from: "manifest.xml",
            to: "manifest.xml",
            // Every development URL, with or without a path (AppDomain has none), moves to ADDIN_URL; the
            // gateway's origin (GATEWAY_URL) joins the AppDomains.
            transform: (content) => (dev ? content : productionManifest(content.toString(), productionUrl, process.env.GATEWAY_URL)),
          },
        ],
      }),
      ...(dev || workbench ? [] : [new ProductionLeakCheck()]),
    ],
    performance: { hints: false },
  };
  if (dev && env.WEBPACK_SERVE) {
    const host = process.env.SPEND_DEV_HOST ?? "localhost";
    const port = Number(process.env.SPEND_DEV_PORT ?? 3000);
    const server = await serverOptions();
    const ownOrigin = `${server.type}://${host.includes(":") ? `[${host}]` : host}:${port}`;
    const proxy = proxyOptions(service, ownOrigin);
    const demoIds = demoIdsMiddleware(process.env.SPEND_DEMO_IDS);
    config.devServer = {
      host,
      port,
      server,
      static: false,
      // The add-in reaches a service that sends no CORS headers through here: base URL <dev server>/proxy.
      ...proxy,
      setupMiddlewares: (middlewares) => proxy.setupMiddlewares([demoIds, ...middlewares]),
      client: { overlay: false },
    };
  }
  return config;
};
