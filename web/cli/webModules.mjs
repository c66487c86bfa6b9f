// The web app's TypeScript modules only `import` and `--format perfetto` need, loaded on first
// use (through the loader hooks tlbscope.mjs registers).
let loaded;

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
