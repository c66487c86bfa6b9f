// @ts-check
// `--help` / `-h` for the scripts under bench/ and web/scripts/: each one's usage is the comment
// at the top of its file (what it does and how to call it), printed without doing any of the
// script's work. A helper so that a script run to see its options cannot start a long job.
import { readFileSync, realpathSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/**
 * The leading `//` comment of a script, without `#!`, `@ts-check` and the comment markers.
 * @param {string} text
 */
export function usageOf(text) {
  const lines = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#!') || line.trim() === '// @ts-check') continue;
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return `${lines.join('\n').trim()}\n`;
}

/**
 * Prints the script's usage and exits 0 when it was started with --help or -h. Does nothing when
 * the script is imported rather than run, or asked for anything else.
 * @param {string} url the script's `import.meta.url`
 * @param {string[]} [argv]
 */
export function exitIfHelp(url, argv = process.argv) {
  const path = fileURLToPath(url);
  const main = argv[1] !== undefined && realpath(argv[1]) === realpath(path);
  if (!main || !argv.slice(2).some((a) => a === '--help' || a === '-h')) return;
  process.stdout.write(usageOf(readFileSync(path, 'utf8')));
  process.exit(0);
}

/** @param {string} p */
function realpath(p) {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
