// functions.json as Excel needs it for data types: custom-functions-metadata generates it from the JSDoc of
// src/functions/functions.ts, and has no tag for the top-level `allowCustomDataForDataTypeAny`, which lets
// the functions return formatted numbers and entity values
// (https://learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts).
const { Compilation, sources } = require("webpack");

/** The generated metadata with data types allowed. */
function withDataTypes(metadataJson) {
  const metadata = JSON.parse(metadataJson);
  return JSON.stringify({ allowCustomDataForDataTypeAny: true, ...metadata }, null, 4);
}

/** Rewrites the emitted functions.json (after CustomFunctionsMetadataPlugin has added it). */
class FunctionsDataTypes {
  /** The rewrite itself: the tests hand the in-memory Excel the metadata the build emits. */
  static withDataTypes = withDataTypes;

  apply(compiler) {
    compiler.hooks.thisCompilation.tap("FunctionsDataTypes", (compilation) => {
      compilation.hooks.processAssets.tap({ name: "FunctionsDataTypes", stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONS }, () => {
        const asset = compilation.getAsset("functions.json");
        if (!asset) return;
        compilation.updateAsset("functions.json", new sources.RawSource(withDataTypes(asset.source.source().toString())));
      });
    });
  }
}

module.exports = { FunctionsDataTypes };
