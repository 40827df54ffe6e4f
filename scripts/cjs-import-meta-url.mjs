// Injected into CommonJS bundles whose dependencies read import.meta.url (esbuild leaves it empty in CommonJS
// output): the URL of the bundle file itself, which is what an ES module would see.
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
