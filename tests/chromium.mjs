// How this project starts Chromium, for Playwright and the browser benchmarks alike.
// Playwright's own browser download cannot reach its host here, so Debian's Chromium is used;
// without the background-networking flags it stalls trying to reach the internet, and as root
// it needs --no-sandbox.
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
