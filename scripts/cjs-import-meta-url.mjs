// Injected into CommonJS bundles whose dependencies read import.meta.url (esbuild leaves import.meta empty in
// CommonJS output): the URL of the bundle file itself, which is what an ES module would see. A getter, so that
// a start that never needs it does not work it out.
import { pathToFileURL } from 'node:url';

export const cjsImportMeta = {
  get url() {
    return pathToFileURL(__filename).href;
  },
};
