// A message to ourselves runs as a task after the messages already waiting for this worker
// (Chromium runs message tasks in order; timers may be clamped), so a LatestQueue drained by it
// usually sees a whole burst. Correctness does not rest on it: the page drops any answer
// overtaken by a newer question. Shared by the simulator's and the recording's workers.
export function afterQueued(f: () => void): void {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    ch.port1.close();
    f();
  };
  ch.port2.postMessage(null);
}
