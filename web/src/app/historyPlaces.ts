// Which states become history entries. A state the browser's back or forward brought is never
// pushed again, even when React runs the effect for an older popped state after a newer pop
// (effects are deferred, and a quick back-back-forward can outrun them): comparing with the last
// state seen would call that older state a new place, push it over the forward entries and so
// lose them.
import { isNewPlace, type UrlState } from './url';

export class HistoryPlaces {
  private last: UrlState;
  private readonly popped = new WeakSet<UrlState>();

  constructor(first: UrlState) {
    this.last = first;
  }

  /** `u` came from back or forward: the browser already has its entry. */
  fromHistory(u: UrlState): void {
    this.popped.add(u);
  }

  /** Whether `u`, now shown, needs a new entry; `replace` is a change that is no new place. */
  push(u: UrlState, replace: boolean): boolean {
    const fresh = !replace && !this.popped.has(u) && isNewPlace(this.last, u);
    this.last = u;
    return fresh;
  }
}
