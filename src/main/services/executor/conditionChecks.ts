import type { AccessibleElement } from '../../../shared/ports/grounding';
import type { UiState } from '../../../shared/skill';

/**
 * The pure parts of the content and accessibility conditions (`json_value`, `ui_element`): what
 * a JSON pointer names, when a JSON value equals the expected one, and what an element's
 * accessibility states say about a wanted state.
 */

/** The value at an RFC 6901 pointer (`~1` is `/`, `~0` is `~`); undefined when the path does not exist. */
export function jsonPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let at: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(key)) at = at[Number(key)];
    else if (at && typeof at === 'object' && Object.hasOwn(at, key)) at = (at as Record<string, unknown>)[key];
    else return undefined;
  }
  return at;
}

/** A JSON scalar against an expected value; a string expectation also matches a number or boolean that prints the same. */
export function jsonEquals(actual: unknown, expected: string | number | boolean | null): boolean {
  if (actual === expected) return true;
  return typeof expected === 'string' && (typeof actual === 'number' || typeof actual === 'boolean') && String(actual) === expected;
}

/** Roles whose elements report `checked` when they are: for others, no `checked` proves nothing. */
const CHECKABLE_ROLES = new Set(['check box', 'check menu item', 'radio button', 'radio menu item', 'toggle button', 'switch']);

/**
 * Whether an element's AT-SPI states satisfy a wanted state; undefined when the element cannot
 * report it (a plain menu item drawn with a check mark has no `checked` to read, so its absence
 * says nothing). The negative states are absences, trusted only on elements that can have them.
 */
export function hasState(e: AccessibleElement, wanted: UiState | undefined): boolean | undefined {
  if (!wanted) return true;
  const has = (s: string) => e.states.includes(s);
  const checkable = CHECKABLE_ROLES.has(e.role) || has('checkable');
  switch (wanted) {
    case 'checked':
    case 'unchecked':
      if (!checkable) return has('checked') ? wanted === 'checked' : undefined;
      return has('checked') === (wanted === 'checked');
    case 'selected':
    case 'unselected':
      if (!has('selectable')) return undefined;
      return has('selected') === (wanted === 'selected');
    case 'expanded':
    case 'collapsed':
      if (!has('expandable')) return undefined;
      return has('expanded') === (wanted === 'expanded');
    case 'enabled':
      return has('enabled') || has('sensitive');
    case 'disabled':
      return !has('enabled') && !has('sensitive');
    default:
      return has(wanted);
  }
}
