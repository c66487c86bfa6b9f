// `npm run test:pack`: the npm package runs on a machine with Node alone. Packs the repository
// (prepack bundles the CLI), installs the tarball into an empty folder with no network and a
// PATH without cargo or the repository's node_modules, and runs the installed `tlbscope` the way
// a user would. Exits non-zero, naming the step, on the first thing that is not as expected.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'tlbscope-pack-'));
let failures = 0;

/** @param {string} what @param {boolean} ok @param {string} [detail] */
function expect(what, ok, detail = '') {
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${what}\n`);
  if (!ok) {
    failures++;
    if (detail) process.stdout.write(`${detail.slice(0, 2000)}\n`);
  }
}

// Only the directories of the system's tools and of node itself: no cargo, no rustc, no
// repository node_modules/.bin, so the package cannot lean on the build machine.
const nodeDir = dirname(process.execPath);
const path = [nodeDir, '/usr/local/bin', '/usr/bin', '/bin']
  .filter((d, i, all) => all.indexOf(d) === i)
  .filter((d) => !['cargo', 'rustc'].some((tool) => existsSync(join(d, tool))) || d === nodeDir)
  .join(delimiter);
const env = { PATH: path, HOME: work, npm_config_cache: join(work, 'npm-cache') };

try {
  execFileSync('npm', ['pack', '--pack-destination', work], { cwd: repo, stdio: 'pipe' });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  expect('npm pack wrote a tarball', tarball !== undefined);
  if (!tarball) throw new Error('no tarball');
  const app = join(work, 'app');
  execFileSync('mkdir', ['-p', app]);
  execFileSync('npm', ['init', '-y'], { cwd: app, env, stdio: 'pipe' });
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, tarball)], {
    cwd: app,
    env,
    stdio: 'pipe',
  });
  const installed = join(app, 'node_modules/tlbscope');
  expect(
    'cargo is not on the PATH the CLI runs with',
    spawnSync('cargo', { env }).error !== undefined,
  );
  expect('the package holds no TypeScript sources', !existsSync(join(installed, 'web/src')));
  expect(
    'the package pulls in no dependencies',
    readdirSync(join(app, 'node_modules'))
      .filter((d) => !d.startsWith('.'))
      .join() === 'tlbscope',
  );

  /** @param {string[]} args */
  const tlbscope = (...args) =>
    spawnSync('npx', ['--offline', 'tlbscope', ...args], { cwd: app, env, encoding: 'utf8' });

  const help = tlbscope('--help');
  expect(
    '--help prints the usage',
    help.status === 0 && /tlbscope run <scenario/.test(help.stdout),
    help.stderr,
  );

  const run = tlbscope('run', 'x86-munmap-shootdown');
  let summary;
  try {
    summary = JSON.parse(run.stdout);
  } catch {
    summary = undefined;
  }
  expect(
    'run of a guided scenario prints its summary',
    run.status === 0 && summary?.arch === 'x86' && summary.events > 0,
    run.stderr,
  );

  const sweep = tlbscope(
    'sweep',
    'x86-munmap-shootdown',
    '--vary',
    'flush_info=stack,percpu',
    '--format',
    'csv',
  );
  const rows = sweep.stdout.trim().split('\n');
  expect(
    'sweep writes a CSV row per variant and metric',
    sweep.status === 0 &&
      rows[0].startsWith('arch,machine,cpus,benchmark,variant') &&
      rows.some((r) => r.includes(',flush_info=stack,')) &&
      rows.some((r) => r.includes(',flush_info=percpu,')),
    sweep.stderr,
  );

  const recording = join(repo, 'tests/fixtures/recordings/tracefs.trace');
  const imp = tlbscope('import', recording);
  expect(
    'import reads a tracefs recording',
    imp.status === 0 && /tracefs text .* events on 2 CPUs/.test(imp.stdout),
    imp.stdout + imp.stderr,
  );

  const check = tlbscope('check', 'x86-r6-lazy-freed-tables', '--set', 'lazy_freed_tables=ipi');
  expect(
    'check proves the fixed scenario',
    check.status === 0 && /^holds in every interleaving \(\d+ states/.test(check.stdout),
    check.stdout + check.stderr,
  );
  const bad = tlbscope('run', 'no-such-scenario');
  expect(
    'an unknown scenario is named in the error',
    bad.status === 1 && /no scenario file or id `no-such-scenario`/.test(bad.stderr),
    bad.stderr,
  );
} catch (e) {
  expect(
    'pack and install',
    false,
    e instanceof Error ? `${e.message}\n${e.stderr ?? ''}` : String(e),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures > 0) {
  process.stderr.write(`test:pack: ${failures} failed\n`);
  process.exit(1);
}
process.stdout.write('test:pack: the packed CLI runs on Node alone\n');
