// A step that asks the reader to follow ASID (or PCID slot) numbers gets them drawn: its
// highlighted marks that carry an ASID (an mm switch, an ASID allocation) are labelled with
// it on their lane, since the number is otherwise only in the inspector. Pure.
import type { Step } from '../sim/scenario';
import { EventKind, type Trace } from '../trace/trace';

// The `asid` field, or ASIDs / PCIDs / slots followed by a number ("slots 3, 4, 5", "ASIDs 1 to
// 7"); a mere mention ("the generation its PCID slot records") asks no number to be followed.
const NAMES_ASIDS = /`asid`|\b(?:ASID|PCID|slot)s?\s+\d/;

/** Whether the step's words ask the reader to follow ASID or PCID slot numbers. */
export function namesAsids(step: Pick<Step, 'title' | 'text' | 'question'>): boolean {
  return NAMES_ASIDS.test([step.title, step.text, step.question ?? ''].join('\n'));
}

/** The kinds whose `asid` column is the ASID (arm64) or PCID slot (x86) the row used. */
const CARRY_ASID: readonly number[] = [EventKind.SwitchMm, EventKind.AsidAllocated];

export interface RowLabel {
  row: number;
  text: string;
}

/** A label for each of `rows` that carries an ASID: "asid 3", the field the steps quote. */
export function asidLabels(
  trace: Pick<Trace, 'kind' | 'asid'>,
  rows: readonly number[],
): RowLabel[] {
  return rows
    .filter((r) => CARRY_ASID.includes(trace.kind[r]))
    .map((row) => ({ row, text: `asid ${trace.asid[row]}` }));
}
