// Module hook for the fuzzer's worker (registered after web/cli/tsLoader.mjs, which loads the
// web app's TypeScript): `lz-string` resolves to its ES module wrapper.
/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, next) {
  if (specifier === 'lz-string') {
    return { url: new URL('./lzString.mjs', import.meta.url).href, shortCircuit: true };
  }
  return next(specifier, context);
}
