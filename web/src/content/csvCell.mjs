// One CSV cell as the page's export and the CLI's CSV output both write it. Text a spreadsheet
// would run as a formula (OWASP's list: a leading = + - @, tab or CR) gets a leading ' so it
// opens as text; numbers, negative ones included, are numbers to a spreadsheet and are written
// as they are. A cell holding a delimiter (',' or the ';' some locales use), a quote or a line
// break is quoted. Plain JavaScript so the CLI runs it without a build; types in csvCell.d.mts.

const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export function csvCell(value) {
  let s = String(value ?? '');
  if (/^[=+\-@\t\r]/.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
