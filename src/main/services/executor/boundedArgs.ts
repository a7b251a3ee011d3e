/** Characters kept of each refused argument in the journal. */
const KEPT_CHARS = 256;

/** Refused arguments as the journal keeps them: each value as JSON text, cut to `KEPT_CHARS`, at most 32 of them. */
export function boundedArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args).slice(0, 32)) {
    let text: string;
    try {
      text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    } catch {
      text = String(value);
    }
    const key = name.length > 64 ? `${name.slice(0, 64)}…` : name;
    Object.defineProperty(out, key, {
      value: text.length > KEPT_CHARS ? `${text.slice(0, KEPT_CHARS)}… (${text.length - KEPT_CHARS} more characters not kept)` : text,
      enumerable: true,
    });
  }
  return out;
}
