// The example deck: reveal.js drives each slide's tlbscope embed to the step its slide or
// latest fragment names.
import Reveal from 'reveal.js';
import 'reveal.js/reveal.css';
import 'reveal.js/theme/white.css';
import { connect, type Embed } from './tlbscopeHost';
import './deck.css';

const embeds = new Map<HTMLIFrameElement, Embed>();
const embedOf = (frame: HTMLIFrameElement) => {
  let e = embeds.get(frame);
  if (!e) embeds.set(frame, (e = connect(frame)));
  return e;
};

/** The step the slide asks for now: its last visible fragment's, else its own. */
function wantedStep(slide: HTMLElement): number | null {
  const shown = slide.querySelectorAll<HTMLElement>('.fragment.visible[data-tlbscope-step]');
  const at = shown.length ? shown[shown.length - 1] : slide;
  const n = Number(at.dataset.tlbscopeStep);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function sync(slide: HTMLElement) {
  const frame = slide.querySelector<HTMLIFrameElement>('iframe.tlbscope');
  const step = wantedStep(slide);
  if (frame && step !== null) embedOf(frame).goto(step);
}

// Every frame listens from the start: reveal.js loads the next slides' frames ahead of time.
document.querySelectorAll<HTMLIFrameElement>('iframe.tlbscope').forEach(embedOf);
const deck = new Reveal({ hash: true, width: 1280, height: 800, margin: 0.04 });
await deck.initialize();
for (const name of ['ready', 'slidechanged', 'fragmentshown', 'fragmenthidden'])
  deck.on(name, () => sync(deck.getCurrentSlide()));
