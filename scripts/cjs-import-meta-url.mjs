// Injected into CommonJS bundles whose dependencies read import.meta.url (esbuild leaves import.meta empty in
// CommonJS output): the URL of the bundle file itself, which is what an ES module would see. Worked out when
// first read, node:url included: a start that never needs it does not pay for it.
export const cjsImportMeta = {
  get url() {
    return process.getBuiltinModule('node:url').pathToFileURL(__filename).href;
  },
};
