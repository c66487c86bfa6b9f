// Digests of the traces the WASM build exports, one line per run: every shipped scenario as
// written and with each of its [expect.cases] settings, hashed over every column getter the page
// and the CLI read (time, dur, cpu, kind, mm, asid, gen, addr, arg, parent, strings) and the
// summary. A change of data structures or event loop must leave this output byte-identical:
//   node bench/trace-digests.mjs > before.txt   …change…   node bench/trace-digests.mjs | diff before.txt -
// Optional arguments restrict it to some scenario ids.
import { createHash } from 'node:crypto';
import { loadWasm, readScenarioArg, scenarioIds } from '../web/cli/wasm.mjs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const COLUMNS = ['time', 'dur', 'cpu', 'kind', 'mm', 'asid', 'gen', 'addr', 'arg', 'parent'];

const m = await loadWasm();
const ids = process.argv.length > 2 ? process.argv.slice(2) : scenarioIds();

/**
 * @param {string} text
 * @param {string[]} set
 */
function digest(text, set) {
  const sim = new m.Simulator(text, set, 1);
  try {
    sim.run();
    const h = createHash('sha256');
    for (const c of COLUMNS) {
      const col = /** @type {ArrayBufferView} */ (sim[c]());
      h.update(c);
      h.update(new Uint8Array(col.buffer, col.byteOffset, col.byteLength));
    }
    h.update(JSON.stringify(sim.strings()));
    h.update(sim.summaryJson());
    return `${h.digest('hex').slice(0, 32)} ${sim.events} events ${sim.time().length} rows`;
  } finally {
    sim.free();
  }
}

for (const id of ids) {
  const { text } = readScenarioArg(id);
  const probe = new m.Simulator(text, [], 1);
  const expect = JSON.parse(probe.expectJson());
  probe.free();
  const sets = [[], ...expect.cases.map((/** @type {{ set: string[] }} */ c) => c.set)];
  for (const set of sets) console.log(`${id} [${set.join(' ')}] ${digest(text, set)}`);
}
