/**
 * Untrusted text (a skill's command, path, URL or message) as a person is shown it in a
 * permission prompt. A prompt is only as good as what it lets the user see, so nothing is cut
 * and every character that could hide text or fake SkillDesk's own lines becomes a visible
 * escape: `\r` (returns the terminal's cursor and overwrites the line), `\x1b` (terminal
 * escape sequences), `\u{202E}` (bidi override: `exe.txt` drawn as `txt.exe`), `\u{200B}`
 * (zero-width space), and the like.
 */

/** A run of text: shown as it is, or the visible escape of one hidden character. */
export interface DisplaySegment {
  text: string;
  /** True when `text` is the escape of a character that would not show as itself. */
  escape: boolean;
}

export interface DisplayOptions {
  /**
   * Keep line breaks (`\n`, `\r\n`) and tabs as they are, for a block shown in full (a script);
   * single-line contexts (a headline, a table cell) escape them too. @default false
   */
  multiline?: boolean;
}

/**
 * Characters never shown as themselves:
 * - `Cc`: C0 controls, DEL and C1 controls (`\r`, `\x1b`, `\x9b` CSI...);
 * - `Cf`: format characters, among them the bidi controls (U+061C, U+200E/F, U+202A-U+202E,
 *   U+2066-U+2069), zero-width space/joiners, the BOM, the soft hyphen and the tag characters;
 * - `Default_Ignorable_Code_Point`: everything a font may draw as nothing (variation selectors,
 *   Hangul fillers, combining grapheme joiner...);
 * - `Zl`, `Zp`: line and paragraph separators, which break lines where `\n` is escaped;
 * - `Zs` other than the ASCII space: a no-break or em space looks like a space but is not one
 *   to a shell (`rm\u{A0}-rf` is one word);
 * - `Cs`, `Co`, `Cn`: lone surrogates, private-use and unassigned code points, which a font
 *   may draw as anything.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Zs}\p{Cs}\p{Co}\p{Cn}]/u;
const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The visible escape of one code point: `\r`, `\x1b`, `\u{202E}`. */
export function escapeCodePoint(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const cp = ch.codePointAt(0)!;
  const hex = cp.toString(16).toUpperCase();
  return cp <= 0xff ? `\\x${hex.padStart(2, '0')}` : `\\u{${hex.padStart(4, '0')}}`;
}

/** Splits `text` into shown runs and escapes; joined, the segments are the display text. */
export function displaySegments(text: string, options: DisplayOptions = {}): DisplaySegment[] {
  const out: DisplaySegment[] = [];
  let plain = '';
  const chars = Array.from(text); // by code point, so a surrogate pair is one character
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (options.multiline && (ch === '\n' || ch === '\t' || (ch === '\r' && chars[i + 1] === '\n'))) {
      if (ch !== '\r') plain += ch; // CRLF shows as the line break it is
      continue;
    }
    if (ch === ' ' || !HIDDEN.test(ch)) {
      plain += ch;
      continue;
    }
    if (plain) out.push({ text: plain, escape: false });
    plain = '';
    out.push({ text: escapeCodePoint(ch), escape: true });
  }
  if (plain) out.push({ text: plain, escape: false });
  return out;
}

/** `text` with every hidden or control character escaped, and how many were. Never truncates. */
export function escapeForDisplay(text: string, options: DisplayOptions = {}): { text: string; escaped: number } {
  const segments = displaySegments(text, options);
  return { text: segments.map((s) => s.text).join(''), escaped: segments.filter((s) => s.escape).length };
}

/**
 * A one-line summary of `text` for a headline, escaped, at most about `max` characters. When cut
 * it says so and by how much; the caller must show the whole text (`escapeForDisplay`) nearby.
 * @example summarizeForDisplay('rm -rf /tmp/x', 80) === 'rm -rf /tmp/x'
 */
export function summarizeForDisplay(text: string, max = 80): string {
  const segments = displaySegments(text);
  const total = segments.reduce((n, s) => n + (s.escape ? 1 : Array.from(s.text).length), 0);
  let shown = '';
  let used = 0;
  let kept = 0; // characters of the original text that made it into `shown`
  for (const s of segments) {
    const chars = s.escape ? [s.text] : Array.from(s.text);
    for (const c of chars) {
      if (used + c.length > max) return `${shown}… (${total - kept} more characters, shown in full below)`;
      shown += c;
      used += c.length;
      kept++;
    }
  }
  return shown;
}
