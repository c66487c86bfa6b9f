// The landing page: the guided tour in order, each with its one-line hook and a thumbnail of
// its run, then every other scenario, and a way into the free sandbox.
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_SCENARIO, scenarios } from '../content/scenarios';
import { RunCancelled, SimSession } from '../workers/session';
import type { ScenarioInfo } from '../sim/scenario';
import type { Trace } from '../trace/trace';
import { renderPreview } from '../viz/preview';
import { withModel } from '../app/modelVersion';

// Leaving the page (or StrictMode's second mount) cancels the describe request.
function ignoreCancel(e: unknown) {
  if (!(e instanceof RunCancelled)) throw e;
}

interface Entry {
  id: string;
  info: ScenarioInfo;
}

interface Props {
  onOpen: (scenario: string, step: number | null) => void;
  onReady?: () => void;
}

export function Home({ onOpen, onReady }: Props) {
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [previews, setPreviews] = useState<Record<string, Trace>>({});
  const session = useRef<SimSession | null>(null);

  useEffect(() => {
    const s = (session.current = new SimSession());
    let live = true;
    s.describe(scenarios.map((x) => x.text)).then(async (infos) => {
      if (!live) return;
      const all = scenarios.map((x, i) => ({ id: x.id, info: infos[i] }));
      setEntries(all);
      // Thumbnails run one after another in the worker, capped so each stays quick.
      for (const e of all.filter((x) => x.info.guide > 0).sort(byGuide)) {
        const text = scenarios.find((x) => x.id === e.id)?.text ?? '';
        const first = e.info.steps[0]?.set ?? [];
        try {
          // Thumbnails draw from the trace itself (viz/preview.ts): no timeline model.
          const r = await s.run(text, { overrides: [...first, 'max_events=20000'], view: false });
          if (live) setPreviews((p) => ({ ...p, [e.id]: r.trace }));
        } catch {
          // A thumbnail that cannot run is simply left out; opening the scenario shows why.
        }
      }
    }, ignoreCancel);
    return () => {
      live = false;
      s.dispose();
    };
  }, []);

  useEffect(() => {
    if (entries) onReady?.();
  }, [entries, onReady]);

  if (!entries) {
    return (
      <p className="status" role="status">
        Loading scenarios…
      </p>
    );
  }
  const guided = entries.filter((e) => e.info.guide > 0).sort(byGuide);
  const others = entries.filter((e) => e.info.guide === 0);
  return (
    <div className="home">
      <section className="hero">
        <h2>See how Linux flushes TLBs across CPUs</h2>
        <p>
          Every timeline here is computed by a model of the kernel’s own algorithms (x86 IPI
          shootdowns, PCIDs, lazy TLB, arm64 broadcast TLBI and ASIDs), running in your browser.
          Step through a guided scenario, or open the sandbox and flip the design choices yourself.
        </p>
        <button type="button" className="primary" onClick={() => onOpen(DEFAULT_SCENARIO, null)}>
          Open the free sandbox
        </button>
      </section>
      <h2>Guided tour</h2>
      <ol className="cards">
        {guided.map((e) => (
          <li key={e.id} className="card" data-scenario={e.id}>
            <a
              href={withModel(`?scenario=${e.id}&step=1`)}
              onClick={(ev) => {
                ev.preventDefault();
                onOpen(e.id, 1);
              }}
            >
              <span className="card-number">{e.info.guide}</span>
              <strong>{e.info.title}</strong>
            </a>
            <p>{e.info.hook}</p>
            <Preview trace={previews[e.id]} label={e.info.title} />
            <p className="muted">
              {e.info.arch} · {e.info.steps.length} steps
            </p>
          </li>
        ))}
      </ol>
      <h2>More scenarios: races, benchmarks, sandboxes</h2>
      <ul className="scenario-list">
        {others.map((e) => (
          <li key={e.id} data-scenario={e.id}>
            <a
              href={withModel(`?scenario=${e.id}`)}
              onClick={(ev) => {
                ev.preventDefault();
                onOpen(e.id, null);
              }}
            >
              {e.info.title || e.id}
            </a>{' '}
            <span className="muted">
              ({e.info.arch || 'invalid'}) {e.info.error ?? e.info.hook}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const byGuide = (a: Entry, b: Entry) => a.info.guide - b.info.guide;

function Preview({ trace, label }: { trace: Trace | undefined; label: string }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (ref.current && trace) renderPreview(ref.current, trace, 260, 64);
  }, [trace]);
  return (
    <svg
      ref={ref}
      className="preview"
      width={260}
      height={64}
      role="img"
      aria-label={trace ? `Preview of ${label}` : `Preview of ${label} (loading)`}
    />
  );
}
