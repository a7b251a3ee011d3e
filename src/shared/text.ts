/** Levenshtein distance between two strings (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/**
 * The first character of `text` that no keyboard can type and no text field takes: a control
 * character other than tab, line feed and carriage return, or half of a surrogate pair.
 * @returns its position and a printable name (`U+0000`), or undefined when every character is typable
 * @example firstUntypable('a\u0000b') // { index: 1, name: 'U+0000' }
 */
export function firstUntypable(text: string): { index: number; name: string } | undefined {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const m = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(
    text,
  );
  if (!m) return undefined;
  return { index: m.index, name: `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` };
}
