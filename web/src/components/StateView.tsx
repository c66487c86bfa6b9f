// The machine at the cursor: per CPU what is loaded, its PCID slots against each mm's
// tlb_gen, its TLB (stale translations listed first), pending IPIs; per mm the tlb_gen and
// mm_cpumask; locked csds; on arm64 the ASID allocator. Marks use words, not colour alone.
import { memo } from 'react';
import { slotLag, type Snapshot } from '../model/snapshot';
import { formatNs } from '../viz/scales';

const MAX_CPUS_SHOWN = 16;

/** `run`: in an A/B comparison, which run the state is of (always A: B is not re-run). */
export const StateView = memo(function StateView({ snap, run }: { snap: Snapshot; run?: string }) {
  const arm = snap.arch === 'arm64';
  return (
    <div className="state-view" data-state-time={snap.time_ns}>
      <h3>
        Machine state{run ? ` of run ${run}` : ''} at {formatNs(snap.time_ns)}
      </h3>
      <table className="state-cpus">
        <thead>
          <tr>
            <th scope="col">CPU</th>
            <th scope="col">Running</th>
            <th scope="col">Loaded mm / {arm ? 'ASID' : 'slot'}</th>
            <th scope="col">Flags</th>
            {!arm && <th scope="col">PCID slots: slot → mm @ gen</th>}
            <th scope="col">TLB</th>
          </tr>
        </thead>
        <tbody>
          {snap.cpus.slice(0, MAX_CPUS_SHOWN).map((c) => (
            <tr key={c.cpu} data-state-cpu={c.cpu}>
              <th scope="row">{c.cpu}</th>
              <td>{c.task ?? 'idle'}</td>
              <td>
                {c.loaded_mm === 0 ? 'init_mm' : `mm ${c.loaded_mm}`} / {c.loaded_asid}
                {c.switching_to !== null && (
                  <span
                    className="muted"
                    data-state-switching={c.switching_to}
                    title="Between switch_mm_irqs_off()'s publishing and its CR3 write: the kernel's cpu_tlbstate.loaded_mm reads LOADED_MM_SWITCHING; CR3 still points at the mm shown"
                  >
                    {' '}
                    → mm {c.switching_to} (loaded_mm = LOADED_MM_SWITCHING)
                  </span>
                )}
              </td>
              <td>
                {[
                  c.lazy && 'lazy',
                  c.switch_buffered && 'switch stores buffered',
                  c.irqs_off && 'irqs off',
                  c.preempt_count > 0 && `preempt ${c.preempt_count}`,
                  c.ipi_pending && 'IPI pending',
                  c.queued_from.length > 0 && `queued from ${c.queued_from.join(',')}`,
                ]
                  .filter(Boolean)
                  .join(', ') || '—'}
              </td>
              {!arm && (
                <td>
                  {c.slots
                    .filter((s) => s.mm !== null)
                    .map((s) => {
                      const lag = slotLag(snap, s);
                      return (
                        <span key={s.slot} className={lag ? 'lagging' : undefined}>
                          #{s.slot} → mm {s.mm} @ {s.tlb_gen}
                          {lag ? ` (${lag} behind)` : ''}
                          <br />
                        </span>
                      );
                    })}
                </td>
              )}
              <td data-state-stale={c.stale_entries}>
                {c.tlb_entries} entries
                {c.stale_entries > 0 && (
                  <strong className="stale">
                    , {c.stale_entries} STALE:{' '}
                    {c.entries
                      .filter((e) => e.stale)
                      .slice(0, 4)
                      .map((e) => `mm ${e.mm} page ${e.vpn} (v${e.version})`)
                      .join('; ')}
                  </strong>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {snap.cpus.length > MAX_CPUS_SHOWN && (
        <p className="muted">
          {snap.cpus.length - MAX_CPUS_SHOWN} more CPUs not listed;{' '}
          {snap.cpus.slice(MAX_CPUS_SHOWN).reduce((n, c) => n + c.stale_entries, 0)} stale entries
          among them.
        </p>
      )}
      <ul className="state-mms">
        {snap.mms.map((m) => (
          <li key={m.mm} data-state-mm={m.mm}>
            mm {m.mm}: tlb_gen <strong>{m.tlb_gen}</strong>,{' '}
            {arm ? 'stale-ASID mask' : 'mm_cpumask'} {'{'}
            {m.cpumask.join(', ')}
            {'}'}
            {m.asid !== null &&
              `, ASID ${m.asid} (generation ${m.asid_generation}), nr_active_mm ${m.nr_active_mm}`}
          </li>
        ))}
      </ul>
      <p className="muted">
        Locked csds (sender→target):{' '}
        {snap.locked_csds.length
          ? snap.locked_csds.map(([s, t]) => `${s}→${t}`).join(', ')
          : 'none'}
        {snap.arm64 &&
          ` · ASID generation ${snap.arm64.generation}; active ASIDs [${snap.arm64.active_asids.join(', ')}]; reserved [${snap.arm64.reserved_asids.join(', ')}]; local flush pending on {${snap.arm64.flush_pending.join(', ')}}`}
      </p>
    </div>
  );
});
