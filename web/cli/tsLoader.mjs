// Node module hooks that let the CLI import the web app's pure TypeScript modules (the
// simulator's run path, the recording importer, the Perfetto export) instead of keeping
// JavaScript copies of them: `.ts` files are transpiled with the TypeScript compiler already
// used for type checking, and extensionless relative imports resolve to `.ts` as Vite and
// Vitest resolve them. Registered by tlbscope.mjs before anything else loads.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (parent && specifier.startsWith('.') && !/\.[cm]?[jt]sx?$/.test(specifier)) {
    const url = new URL(`${specifier}.ts`, parent);
    if (existsSync(fileURLToPath(url))) return { url: url.href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      resolveJsonModule: true,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
