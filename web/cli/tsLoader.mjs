// Node module hooks that let the CLI import the web app's pure TypeScript modules (the
// simulator's run path, the recording importer, the Perfetto export) instead of keeping
// JavaScript copies of them: `.ts` files are transpiled with the TypeScript compiler already
// used for type checking, and extensionless relative imports resolve to `.ts` as Vite and
// Vitest resolve them. Registered by tlbscope.mjs before anything else loads.
//
// Loading the compiler takes about half a second, longer than a whole `tlbscope run`: so each
// transpiled file is kept in node_modules/.cache/tlbscope-cli/ under the hash of its source
// and the compiler's version, and the compiler is loaded only when a file has changed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolvePath(dirname(fileURLToPath(import.meta.url)), '../..');
const cacheDir = resolvePath(repo, 'node_modules/.cache/tlbscope-cli');
const compilerVersion = JSON.parse(
  readFileSync(resolvePath(repo, 'node_modules/typescript/package.json'), 'utf8'),
).version;

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (parent && specifier.startsWith('.') && !/\.[cm]?[jt]sx?$/.test(specifier)) {
    const url = new URL(`${specifier}.ts`, parent);
    if (existsSync(fileURLToPath(url))) return { url: url.href, shortCircuit: true };
  }
  return next(specifier, context);
}

/** @type {import('node:module').LoadHook} */
export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const text = readFileSync(file, 'utf8');
  const key = createHash('sha256').update(`${compilerVersion}\0${file}\0${text}`).digest('hex');
  const cached = resolvePath(cacheDir, `${key}.mjs`);
  if (existsSync(cached)) {
    return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  }
  const { default: ts } = await import('typescript');
  const { outputText } = ts.transpileModule(text, {
    fileName: file,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      resolveJsonModule: true,
    },
  });
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cached, outputText);
  } catch {
    // A read-only checkout still runs: it transpiles every time.
  }
  return { format: 'module', source: outputText, shortCircuit: true };
}
