// The web app's TypeScript modules only `import` and `--format perfetto` need, loaded on first
// use (through the loader hooks tlbscope.mjs registers).
/**
 * @typedef {typeof import('../src/recording/parse') &
 *   typeof import('../src/recording/report') &
 *   typeof import('../src/export/perfetto') &
 *   typeof import('../src/trace/trace')} WebModules
 */

/** @type {Promise<WebModules> | undefined} */
let loaded;

/** @returns {Promise<WebModules>} */
export function webModules() {
  loaded ??= (async () => {
    const [recording, report, perfetto, trace] = await Promise.all([
      import('../src/recording/parse'),
      import('../src/recording/report'),
      import('../src/export/perfetto'),
      import('../src/trace/trace'),
    ]);
    return { ...recording, ...report, ...perfetto, ...trace };
  })();
  return loaded;
}
