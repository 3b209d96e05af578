/**
 * PGlite's CommonJS build loads Node's own modules with `await import("fs")`, which Jest (on Node 20, without
 * --experimental-vm-modules) cannot run. This rewrites each dynamic import into a require of the same module,
 * shaped like the module namespace import() gives (its exports, and `default`). The file's own `var require`
 * inside a function would shadow Jest's, so the module's require is captured once at the top.
 */
module.exports = {
  process(source) {
    const prelude = "const __requireAsImport = (name) => { const m = require(name); return Promise.resolve({ ...m, default: m }); };\n";
    return { code: prelude + source.replace(/\bimport\((?=["'`])/g, "__requireAsImport(") };
  },
  getCacheKey(source, path) {
    return `dynamic-import-transform-1:${path}:${source.length}`;
  },
};
