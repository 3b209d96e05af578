// Builds the browser side of the add-in. For now: the API client as the Office webview will load it
// (target "web", no Node built-ins), which proves src/api runs there. The taskpane, commands and custom
// functions join this config when they are built.
const path = require("node:path");

module.exports = (_env, argv = {}) => ({
  mode: argv.mode ?? "production",
  target: ["web", "es2020"],
  devtool: "source-map",
  entry: { "spend-api": "./src/api/index.ts" },
  output: {
    path: path.resolve(__dirname, "dist"),
    filename: "[name].js",
    library: { name: "SpendApi", type: "umd" },
    clean: true,
  },
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
  performance: { hints: false },
});
