// Fails a production build that would ship what must stay at home: the workbench page, the in-memory Excel
// (src/workbench), the sandbox (src/sandbox), test code, source maps, or the npm copy of Microsoft's Office.js
// (@microsoft/office-js predates ExcelApi 1.16: Excel loads Office.js from Microsoft's CDN, never from us). dist/ is served on the add-in's
// origin, where the API key is stored: a demo page or a fake Excel there is attack surface, and source maps
// hand out the whole source. Checked on what webpack actually emits, after every other plugin has run.
const path = require("node:path");
const { Compilation, WebpackError } = require("webpack");

const NAME = "ProductionLeakCheck";
const ROOT = path.join(__dirname, "..");
// Relative to the repository: a package in node_modules may well have a test/ folder of its own.
const FORBIDDEN_MODULE = /^(src[\\/](workbench|sandbox)|test|node_modules[\\/]@microsoft[\\/]office-js)[\\/]/;
const FORBIDDEN_ASSET = /(^|[\\/])(workbench|sandbox|fake-excel)[^\\/]*$|(^|[\\/])office-js[\\/]|\.map$/i;
const SOURCE_MAP_COMMENT = /[#@] sourceMappingURL=/;
const TEXT_ASSET = /\.(js|mjs|css|html|json|xml)$/i;

/**
 * The leaks in a build, as messages (empty when there is none).
 * @param {{ assets: { name: string, source: string }[], modules: string[] }} build what was emitted and
 *   the absolute paths of every module bundled
 * @returns {string[]}
 */
function findProductionLeaks({ assets, modules }) {
  const problems = [];
  for (const { name, source } of assets) {
    if (FORBIDDEN_ASSET.test(name)) problems.push(`${name}: a development file (workbench, sandbox, fake Excel, the npm copy of Office.js or source map) in a production build`);
    else if (TEXT_ASSET.test(name) && SOURCE_MAP_COMMENT.test(source)) problems.push(`${name}: points at a source map`);
  }
  for (const resource of new Set(modules)) {
    if (FORBIDDEN_MODULE.test(path.relative(ROOT, resource))) problems.push(`${resource}: workbench, sandbox, test code or the npm copy of Office.js bundled into a production build`);
  }
  return problems;
}

/** The files a module stands for; a concatenated module stands for every module inside it. */
function resourcesOf(module) {
  if (module.modules) return [...module.modules].flatMap(resourcesOf);
  return [module.resource ?? module.identifier()];
}

/** The webpack plugin: every leak becomes a compilation error, so `webpack --mode production` exits non-zero. */
class ProductionLeakCheck {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.processAssets.tap({ name: NAME, stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, (assets) => {
        const problems = findProductionLeaks({
          assets: Object.entries(assets).map(([name, asset]) => ({ name, source: TEXT_ASSET.test(name) ? asset.source().toString() : "" })),
          modules: [...compilation.modules].flatMap(resourcesOf),
        });
        for (const problem of problems) compilation.errors.push(new WebpackError(`${NAME}: ${problem}`));
      });
    });
  }
}

module.exports = { ProductionLeakCheck, findProductionLeaks };
