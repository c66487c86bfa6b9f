// The layering check of web/eslint.config.js, shown failing on probe files: an import up the
// layers, a loop between two files, and an import of App.tsx. (`npm run lint` runs the same
// rules over the real tree, which must come out clean.)
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ overrideConfigFile: 'web/eslint.config.js' });

async function ruleIds(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the web app layering', { timeout: 60_000 }, () => {
  it('refuses an import from a higher layer, naming both', async () => {
    const found = await ruleIds(
      'web/src/trace/probe.ts',
      "import { trackOf } from '../viz/columns';\nexport const probe = trackOf;\n",
    );
    expect(found.join('\n')).toMatch(
      /import-x\/no-restricted-paths: .*trace\/ is below viz\/ \(web\/eslint.config.js LAYERS\)/,
    );
  });

  it('refuses two files that import each other', async () => {
    const text = readFileSync('web/src/trace/trace.ts', 'utf8');
    const found = await ruleIds(
      'web/src/trace/trace.ts',
      `${text}import { trackOf } from '../viz/columns';\nexport const probe = trackOf;\n`,
    );
    expect(found).toContain('import-x/no-cycle: Dependency cycle detected');
  });

  it('refuses an import of App.tsx from below it', async () => {
    const found = await ruleIds(
      'web/src/components/Probe.tsx',
      "import { App } from '../App';\nexport const probe = App;\n",
    );
    expect(found.join('\n')).toMatch(/App.tsx and main.tsx are the top/);
  });

  it('keeps the CLI off the page: no import of app/ from web/cli/', async () => {
    const found = await ruleIds(
      'web/cli/probe.mjs',
      "import { useRun } from '../src/app/useRun';\nexport const probe = useRun;\n",
    );
    expect(found.join('\n')).toMatch(/the CLI shares web\/src\/ up to export\/, not app\//);
  });

  it('lets a layer import the layers below it', async () => {
    const found = await ruleIds(
      'web/src/viz/probe.ts',
      "import { kindName } from '../trace/trace';\nexport const probe = kindName;\n",
    );
    expect(found).toEqual([]);
  });
});
