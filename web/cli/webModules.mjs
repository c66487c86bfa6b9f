// The web app's TypeScript modules only `import`, `analyze` and `--format perfetto` need, loaded
// on first use (through the loader hooks tlbscope.mjs registers).
/**
 * @typedef {typeof import('../src/recording/parse') &
 *   typeof import('../src/recording/report') &
 *   typeof import('../src/export/perfetto') &
 *   typeof import('../src/trace/trace') &
 *   typeof import('../src/model/flushAnalysis') &
 *   typeof import('../src/model/flushBreakdown') &
 *   typeof import('../src/model/flushScan') &
 *   typeof import('../src/model/recordedCosts') &
 *   typeof import('../src/model/modelOfRecording')} WebModules
 */

/** @type {Promise<WebModules> | undefined} */
let loaded;

/** @returns {Promise<WebModules>} */
export function webModules() {
  loaded ??= (async () => {
    const parts = await Promise.all([
      import('../src/recording/parse'),
      import('../src/recording/report'),
      import('../src/export/perfetto'),
      import('../src/trace/trace'),
      import('../src/model/flushAnalysis'),
      import('../src/model/flushBreakdown'),
      import('../src/model/flushScan'),
      import('../src/model/recordedCosts'),
      import('../src/model/modelOfRecording'),
    ]);
    return /** @type {WebModules} */ (Object.assign({}, ...parts));
  })();
  return loaded;
}
