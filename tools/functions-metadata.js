// functions.json as Excel needs it. custom-functions-metadata generates it from the JSDoc of
// src/functions/functions.ts; two things it cannot say are written here:
// - the top-level `allowCustomDataForDataTypeAny`, which lets the functions return formatted numbers and entity
//   values (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts);
// - a list function's parameters: its JSDoc takes `...args`, and its resource's declarations
//   (tools/functions-parameters.ts) list them, so a parameter is declared in one place and Excel is told of it.
const { Compilation, sources } = require("webpack");

/** The generated metadata with data types allowed. */
function withDataTypes(metadataJson) {
  const metadata = JSON.parse(metadataJson);
  return JSON.stringify({ allowCustomDataForDataTypeAny: true, ...metadata }, null, 4);
}

/**
 * The generated metadata with each list function's parameters as declared. A list function the declarations do
 * not know, or a declared one functions.ts lacks, or one whose JSDoc does not take `...args`, fails the build.
 */
function withDeclaredParameters(metadataJson, declared) {
  const metadata = JSON.parse(metadataJson);
  const ids = metadata.functions.map((fn) => fn.id);
  const missing = declared.filter((d) => !ids.includes(d.id)).map((d) => d.id);
  if (missing.length > 0) throw new Error(`functions.ts has no function ${missing.join(", ")}, which a resource declares.`);
  const functions = metadata.functions.map((fn) => {
    const own = declared.find((d) => d.id === fn.id);
    if (!own) return fn;
    if (fn.parameters.length !== 1 || !fn.parameters[0].repeating) {
      throw new Error(`${fn.id} takes its parameters from its resource's declarations: its JSDoc must take ...args, not ${fn.parameters.map((p) => p.name).join(", ")}.`);
    }
    return { ...fn, parameters: own.parameters };
  });
  return JSON.stringify({ ...metadata, functions }, null, 4);
}

/**
 * The declarations, read from their TypeScript source at build time: tsx in a process of its own, as the tools run
 * (its in-process require does not work where the build is itself loaded by a test runner's module system).
 */
function loadDeclaredParameters() {
  const { execFileSync } = require("node:child_process");
  const path = require("node:path");
  const { pathToFileURL } = require("node:url");
  const root = path.join(__dirname, "..");
  const source = pathToFileURL(path.join(__dirname, "functions-parameters.ts")).href;
  const code = "const m = await import(process.argv[1]); const own = m.declaredParameters ?? m.default.declaredParameters; " +
    "process.stdout.write(JSON.stringify(own()));";
  return JSON.parse(execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code, source], { cwd: root, encoding: "utf8" }));
}

/** Rewrites the emitted functions.json (after CustomFunctionsMetadataPlugin has added it). */
class FunctionsDataTypes {
  /** The rewrites themselves: the tests hand the in-memory Excel the metadata the build emits. */
  static withDataTypes = withDataTypes;
  static withDeclaredParameters = withDeclaredParameters;

  apply(compiler) {
    compiler.hooks.thisCompilation.tap("FunctionsDataTypes", (compilation) => {
      compilation.hooks.processAssets.tap({ name: "FunctionsDataTypes", stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONS }, () => {
        const asset = compilation.getAsset("functions.json");
        if (!asset) return;
        try {
          const declared = withDeclaredParameters(asset.source.source().toString(), loadDeclaredParameters());
          compilation.updateAsset("functions.json", new sources.RawSource(withDataTypes(declared)));
        } catch (error) {
          compilation.errors.push(new compiler.webpack.WebpackError(`functions.json: ${error.message}`));
        }
      });
    });
  }
}

module.exports = { FunctionsDataTypes };
