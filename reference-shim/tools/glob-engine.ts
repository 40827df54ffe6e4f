// The glob engine (tinyglobby, with picomatch and fdir): built into a file of its own next to the shim's bundle
// (dist/yume-shim-glob.cjs, scripts/build.mjs), which glob.ts loads the first time a turn globs.
export { glob } from 'tinyglobby';
