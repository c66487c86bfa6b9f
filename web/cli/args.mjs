// Command-line parsing for the tlbscope CLI. Every mistake is a UsageError naming the argument.
export class UsageError extends Error {}

export const USAGE = `usage:
  tlbscope list
  tlbscope run <scenario file|id> [--set key=value ...] [--seed N] [--format json|csv]
  tlbscope sweep <scenario file|id> --vary key=v1,v2,... [--vary ...] [--set key=value ...]
                 [--seed N] [--format csv|json]

Settings use the simulator's vocabulary, e.g. --set flush_info=stack --set preempt=preemptible_wait
--set cpus=16 --set costs.ipi_delivery_ns=800. A sweep runs every combination of its --vary lists.
`;

export function parseArgs(argv) {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    return { command: 'help' };
  }
  if (!['list', 'run', 'sweep'].includes(command)) {
    throw new UsageError(`unknown command \`${command}\``);
  }
  const out = { command, scenario: undefined, set: [], vary: [], seed: 1, format: undefined };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--set') {
      const v = value();
      if (!v.includes('=')) throw new UsageError(`--set ${v}: expected key=value`);
      out.set.push(v);
    } else if (a === '--vary') {
      const v = value();
      const [key, list] = v.split('=', 2);
      if (!key || !list) throw new UsageError(`--vary ${v}: expected key=v1,v2,...`);
      out.vary.push({ key, values: list.split(',').filter(Boolean) });
    } else if (a === '--seed') {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n >= 2 ** 32) {
        throw new UsageError(`--seed ${v}: expected an integer from 0 to 4294967295`);
      }
      out.seed = n;
    } else if (a === '--format') {
      const v = value();
      if (v !== 'json' && v !== 'csv') throw new UsageError(`--format ${v}: expected json or csv`);
      out.format = v;
    } else if (a.startsWith('--')) {
      throw new UsageError(`unknown option ${a}`);
    } else if (out.scenario === undefined && command !== 'list') {
      out.scenario = a;
    } else {
      throw new UsageError(`unexpected argument \`${a}\``);
    }
  }
  if (command !== 'list' && out.scenario === undefined) {
    throw new UsageError(`${command} needs a scenario file or id`);
  }
  if (command === 'sweep' && out.vary.length === 0) {
    throw new UsageError('sweep needs at least one --vary key=v1,v2,...');
  }
  out.format ??= command === 'sweep' ? 'csv' : 'json';
  return out;
}
