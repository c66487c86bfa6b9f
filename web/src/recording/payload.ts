// The printed fields of the events the importer understands. The kernel prints `key=value`
// (trace-cmd prints tlb_flush as `pages=1 reason=...`, tracefs as `pages:1 reason:...`).

/** `enum tlb_flush_reason` (include/linux/mm_types.h), in code order, as tracefs prints it. */
export const TLB_FLUSH_REASONS = [
  'flush on task switch',
  'remote shootdown',
  'local shootdown',
  'local MM shootdown',
  'remote IPI send',
  'remote wrong CPU',
] as const;

/** The kernel's enum names for the same codes. */
export const TLB_FLUSH_REASON_ENUM = [
  'TLB_FLUSH_ON_TASK_SWITCH',
  'TLB_REMOTE_SHOOTDOWN',
  'TLB_LOCAL_SHOOTDOWN',
  'TLB_LOCAL_MM_SHOOTDOWN',
  'TLB_REMOTE_SEND_IPI',
  'TLB_REMOTE_WRONG_CPU',
] as const;

export const REASON_SWITCH = 0;
export const REASON_REMOTE = 1;
export const REASON_SEND_IPI = 4;
export const REASON_WRONG_CPU = 5;

/** What `\s` matches (the value of a field ends at one, or at a comma). */
const SPACE = /\s/;
const space = (c: number) =>
  c === 32 || (c >= 9 && c <= 13) || (c >= 128 && SPACE.test(String.fromCharCode(c)));

/**
 * The value of `key=` or `key:` in an event's body: what `(?:^|[\s,])key[=:]\s*([^\s,]+)` finds,
 * found by searching for the key. A pattern per key was a tenth of a large import's time, as
 * each event asks for two or three fields.
 */
export function field(body: string, key: string): string | null {
  const n = body.length;
  for (let at = body.indexOf(key); at >= 0; at = body.indexOf(key, at + 1)) {
    const before = at > 0 ? body.charCodeAt(at - 1) : 32;
    if (before !== 44 /* , */ && !space(before)) continue;
    let i = at + key.length;
    const sep = body.charCodeAt(i);
    if (sep !== 61 /* = */ && sep !== 58 /* : */) continue;
    i++;
    while (i < n && space(body.charCodeAt(i))) i++;
    const from = i;
    while (i < n) {
      const c = body.charCodeAt(i);
      if (c === 44 || space(c)) break;
      i++;
    }
    if (i > from) return body.slice(from, i);
  }
  return null;
}

/** `/^-?\d+$/`, by hand: a pattern here ran for most events of a large import. */
export function isInteger(v: string): boolean {
  const from = v.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (v.length === from) return false;
  for (let i = from; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

export function intField(body: string, key: string): number | null {
  const v = field(body, key);
  return v !== null && isInteger(v) ? Number(v) : null;
}

export interface TlbFlush {
  /** -1 = the whole address space (TLB_FLUSH_ALL). */
  pages: number;
  reason: number;
}

export function parseTlbFlush(body: string): TlbFlush | string {
  const pages = intField(body, 'pages');
  if (pages === null) return 'tlb_flush without a pages field';
  const coded = /reason[=:]\s*(.*?)\s*\((\d+)\)\s*$/.exec(body);
  if (coded) return { pages, reason: Number(coded[2]) };
  const named = /reason[=:]\s*(.+?)\s*$/.exec(body);
  if (!named) return 'tlb_flush without a reason field';
  const i = TLB_FLUSH_REASONS.findIndex((r) => r.toLowerCase() === named[1].toLowerCase());
  if (i < 0) return `tlb_flush with an unknown reason '${named[1]}'`;
  return { pages, reason: i };
}

/** Reason code → the name tracefs prints (or `reason N` for codes this kernel list lacks). */
export function reasonName(code: number): string {
  return TLB_FLUSH_REASONS[code] ?? `reason ${code}`;
}

/**
 * CPUs of an `ipi_send_cpumask` cpumask: a CPU list (`0-3,8`), a hex bitmap in 32-bit groups
 * (`00000000,0000000f`, as `%*pb` prints), or perf's raw `ARRAY[0f, 00, ...]` bytes
 * (little-endian) when it cannot evaluate the print format. A single plain number is read as a
 * CPU list (what kernels since the cpumask field type print).
 */
export function parseCpumask(text: string): number[] | null {
  const arr = /^ARRAY\[([0-9a-fA-F, ]*)\]$/.exec(text);
  if (arr) {
    const out: number[] = [];
    arr[1]
      .split(',')
      .map((b) => parseInt(b.trim(), 16))
      .forEach((byte, i) => {
        for (let bit = 0; bit < 8; bit++) if ((byte >> bit) & 1) out.push(i * 8 + bit);
      });
    return out;
  }
  if (/^[0-9a-fA-F]{8}(,[0-9a-fA-F]{8})+$/.test(text)) {
    const out: number[] = [];
    text
      .split(',')
      .reverse()
      .forEach((group, g) => {
        const v = parseInt(group, 16);
        for (let bit = 0; bit < 32; bit++) if ((v >>> bit) & 1) out.push(g * 32 + bit);
      });
    return out;
  }
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(text)) return null;
  const out: number[] = [];
  for (const part of text.split(',')) {
    const [a, b] = part.split('-').map(Number);
    for (let c = a; c <= (b ?? a) && out.length < 4096; c++) out.push(c);
  }
  return out;
}

/** `ipi_send_cpumask`'s mask, read from the body (perf's ARRAY[...] contains spaces). */
export function cpumaskOf(body: string): number[] | null {
  const m = /cpumask=(ARRAY\[[^\]]*\]|\S+)/.exec(body);
  return m ? parseCpumask(m[1]) : null;
}

/** `/^(0x)?0+$/`, by hand: a null pointer as the kernel prints one. */
export function isZeroPointer(v: string): boolean {
  const from = v.length > 2 && v.charCodeAt(0) === 48 && v.charCodeAt(1) === 120 /* x */ ? 2 : 0;
  if (v.length === from) return false;
  for (let i = from; i < v.length; i++) if (v.charCodeAt(i) !== 48) return false;
  return true;
}

/** A csd pointer, or null for the local call (printed 0000000000000000 or (nil)). */
export function csdOf(body: string): string | null {
  const v = field(body, 'csd');
  if (v === null || v === '(nil)' || isZeroPointer(v)) return null;
  return v;
}

const FLUSH_TLB_FUNC = 'flush_tlb_func';

export function funcOf(body: string): string {
  const f = field(body, 'func') ?? '?';
  // The builder compares it with others and with this name: the same string compares at once.
  if (f === FLUSH_TLB_FUNC) return FLUSH_TLB_FUNC;
  return f.includes('+') ? f.replace(/\+0x[0-9a-f]+(\/0x[0-9a-f]+)?$/, '') : f;
}

/** Whether an IPI's callback runs queued cross-CPU calls (what a TLB shootdown sends). */
export function isCallFunctionIpi(body: string): boolean {
  return /callback=\S*call_function/.test(body);
}
