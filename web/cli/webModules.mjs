// The web app's TypeScript modules the CLI shares (see tsLoader.mjs), loaded on first use.
import { register } from 'node:module';

let loaded;

export function webModules() {
  loaded ??= (async () => {
    register('./tsLoader.mjs', import.meta.url);
    const [recording, report, perfetto, trace] = await Promise.all([
      import('../src/recording/parse.ts'),
      import('../src/recording/report.ts'),
      import('../src/export/perfetto.ts'),
      import('../src/sim/trace.ts'),
    ]);
    return { ...recording, ...report, ...perfetto, ...trace };
  })();
  return loaded;
}
