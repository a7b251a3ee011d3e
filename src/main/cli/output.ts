/** Where CLI commands write: injected so tests capture output instead of printing. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const stdio: Output = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
};

/** Renders rows as an aligned plain-text table. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** `2026-11-22 07:01:02` in local time. */
export function formatTime(ms: number | undefined | null): string {
  if (!ms) return '-';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * Exits once what was written to stdout and stderr has been handed over: `process.exit` right
 * after a large write to a pipe (`skills list --json | jq`) would cut the output short.
 */
export function exitAfterOutput(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
