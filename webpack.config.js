// Builds the add-in for the web: the shared-runtime page (taskpane.html: taskpane, ribbon commands and custom
// functions in one runtime), functions.js + functions.json for the CustomFunctions extension point, the
// workbench page (the product beside an in-memory Excel), the assets, and manifest.xml. A production build
// rewrites every development URL (https://localhost:3000) in the manifest to ADDIN_URL.
const path = require("node:path");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");

const DEV_ORIGIN = "https://localhost:3000";
const DEFAULT_PRODUCTION_URL = "https://spendsync.example.com/";

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

module.exports = async (env = {}, argv = {}) => {
  const mode = argv.mode ?? "production";
  const dev = mode === "development";
  const productionUrl = (process.env.ADDIN_URL ?? DEFAULT_PRODUCTION_URL).replace(/\/?$/, "/");
  const service = process.env.SPEND_SERVICE_URL ?? "http://127.0.0.1:3000";
  const config = {
    mode,
    target: ["web", "es2020"],
    devtool: "source-map",
    entry: {
      "spend-api": { import: "./src/api/index.ts", library: { name: "SpendApi", type: "umd" } },
      functions: "./src/functions/functions.ts",
      taskpane: "./src/shared-runtime.ts",
      workbench: "./src/workbench/page.ts",
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
      new HtmlWebpackPlugin({ filename: "taskpane.html", template: "./src/taskpane/taskpane.html", chunks: ["taskpane"] }),
      new HtmlWebpackPlugin({ filename: "workbench.html", template: "./src/workbench/workbench.html", chunks: ["workbench"] }),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets", to: "assets" },
          { from: "src/taskpane/taskpane.css", to: "taskpane.css" },
          { from: "src/workbench/workbench.css", to: "workbench.css" },
          {
            from: "manifest.xml",
            to: "manifest.xml",
            // Every development URL, with or without a path (AppDomain has none), moves to ADDIN_URL.
            transform: (content) => (dev ? content : content.toString().split(`${DEV_ORIGIN}/`).join(productionUrl).split(DEV_ORIGIN).join(productionUrl.replace(/\/$/, ""))),
          },
        ],
      }),
    ],
    performance: { hints: false },
  };
  if (dev && env.WEBPACK_SERVE) {
    config.devServer = {
      host: process.env.SPEND_DEV_HOST ?? "localhost",
      port: Number(process.env.SPEND_DEV_PORT ?? 3000),
      server: await serverOptions(),
      headers: { "Access-Control-Allow-Origin": "*" },
      static: false,
      // The add-in reaches a service that sends no CORS headers through here: base URL <dev server>/proxy.
      proxy: [{ context: ["/proxy"], target: service, changeOrigin: true, pathRewrite: { "^/proxy": "" } }],
      client: { overlay: false },
    };
  }
  return config;
};
