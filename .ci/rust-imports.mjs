// Fails when two files of sim-wasm/src import each other in a loop (directly or through
// others). A file's imports are the modules its non-test code names: `crate::a::b`, `super::`,
// `self::` and, in a mod.rs / lib.rs, its child modules by name. Prints each loop it finds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';
import console from 'node:console';
import { URL } from 'node:url';

const root = new URL('../sim-wasm/src/', import.meta.url).pathname;

/** Module path of a file: arch/x86/mod.rs → arch::x86, lib.rs → '' */
function moduleOf(file) {
  const rel = relative(root, file).replace(/\.rs$/, '');
  if (rel === 'lib') return '';
  return rel.replace(/\/mod$/, '').replaceAll('/', '::');
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.rs')) out.push(p);
  }
  return out;
}

const files = walk(root);
const sources = new Map(
  files.map((f) => [moduleOf(f), { file: f, text: readFileSync(f, 'utf8') }]),
);
const modules = new Set(sources.keys());
const parentOf = (m) => (m.includes('::') ? m.slice(0, m.lastIndexOf('::')) : '');
const join2 = (a, b) => (a ? `${a}::${b}` : b);

/** The longest module that is a prefix of `path`. */
function resolve(path) {
  const parts = path.split('::');
  for (let i = parts.length; i > 0; i--) {
    const m = parts.slice(0, i).join('::');
    if (modules.has(m)) return m;
  }
  return undefined;
}

const graph = new Map();
for (const [m, { file, text }] of sources) {
  let code = text.replace(/\/\/.*$/gm, '');
  const test = code.indexOf('#[cfg(test)]');
  if (test >= 0) code = code.slice(0, test);
  const isDirModule = /(^|\/)(mod|lib)\.rs$/.test(file);
  const self = m;
  const superOf = parentOf(m);
  const deps = new Set();
  const add = (target) => {
    if (target !== undefined && target !== m) deps.add(target);
  };
  for (const [, p] of code.matchAll(/\bcrate::((?:\w+::)*\w+)/g)) add(resolve(p));
  for (const [, p] of code.matchAll(/\bsuper::((?:\w+::)*\w+)/g)) add(resolve(join2(superOf, p)));
  if (/\bsuper::\{/.test(code)) add(superOf);
  for (const [, p] of code.matchAll(/\bself::((?:\w+::)*\w+)/g)) add(resolve(join2(self, p)));
  if (isDirModule) {
    for (const child of modules) {
      if (parentOf(child) !== m || child === m) continue;
      const name = child.slice(child.lastIndexOf(':') + 1);
      if (new RegExp(`(?<![:\\w])${name}::|\\buse ${name}\\b`).test(code)) add(child);
    }
  }
  graph.set(m, deps);
}

// Tarjan's strongly connected components: any with more than one module is a loop.
let index = 0;
const idx = new Map();
const low = new Map();
const stack = [];
const on = new Set();
const loops = [];
function visit(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  on.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) loops.push(scc.sort());
  }
}
for (const v of graph.keys()) if (!idx.has(v)) visit(v);

if (loops.length) {
  for (const l of loops)
    console.error(`sim-wasm/src files import each other in a loop: ${l.join(', ')}`);
  process.exit(1);
}
console.log(`no import loops among ${modules.size} files of sim-wasm/src`);
