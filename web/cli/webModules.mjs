// The web app's TypeScript modules only `import`, `analyze` and `--format perfetto` need, loaded
// on first use (through the loader hooks tlbscope.mjs registers).
/**
 * @typedef {typeof import('../src/recording/parse') &
 *   typeof import('../src/recording/report') &
 *   typeof import('../src/export/perfetto') &
 *   typeof import('../src/trace/trace') &
 *   typeof import('../src/model/flushAnalysis')} WebModules
 */

/** @type {Promise<WebModules> | undefined} */
let loaded;

/** @returns {Promise<WebModules>} */
export function webModules() {
  loaded ??= (async () => {
    const [recording, report, perfetto, trace, analysis] = await Promise.all([
      import('../src/recording/parse'),
      import('../src/recording/report'),
      import('../src/export/perfetto'),
      import('../src/trace/trace'),
      import('../src/model/flushAnalysis'),
    ]);
    return { ...recording, ...report, ...perfetto, ...trace, ...analysis };
  })();
  return loaded;
}
