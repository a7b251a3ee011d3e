import type { ArgSpec, ArgSpecs, ArgValues } from '../skill/domains';
import type { MethodDoc } from '../skill/documents';

/** A feasible domain for an argument, from the value a demonstration gave it (its example). */
export function domainOf(name: string, value: ArgValues[string]): ArgSpec {
  const description = `${name.replaceAll('_', ' ')} (learned from a demonstration)`;
  if (typeof value === 'boolean') return { type: 'boolean', description };
  if (typeof value === 'number')
    return Number.isInteger(value)
      ? { type: 'number', integer: true, min: Math.min(0, value), max: Math.max(100, value * 10), description }
      : { type: 'number', description };
  if (Array.isArray(value)) return { type: 'text', maxLength: 10_000, description };
  // One line of text, as the person typed it: newlines and tabs would be keys in a form.
  return {
    type: 'string',
    pattern: '^[^\\r\\n\\t]+$',
    minLength: 1,
    maxLength: Math.max(200, value.length * 4),
    examples: [value],
    description,
  };
}

/**
 * The signature an interface gets for a method it lacks (signature first): the arguments'
 * domains from the demonstration's values, its intents (a default one built from the method's
 * name and arguments when none are given), and its description.
 */
export function signatureOf(o: {
  interface: string;
  method: string;
  args: ArgValues;
  description?: string;
  intents?: string[];
  returns?: 'text' | 'number' | 'boolean';
}): MethodDoc {
  const args: ArgSpecs = Object.fromEntries(Object.entries(o.args).map(([k, v]) => [k, domainOf(k, v)]));
  const words = o.method.replaceAll('_', ' ');
  const slots = Object.keys(args).map((k) => `\${${k}}`);
  const intents = o.intents?.length ? o.intents : [slots.length ? `${words} ${slots.join(' ')}` : words];
  return {
    kind: 'method',
    interface: o.interface,
    name: o.method,
    description: o.description ?? `${words.charAt(0).toUpperCase()}${words.slice(1)} (learned from a demonstration).`,
    intents,
    args,
    ...(o.returns && { returns: { type: o.returns } }),
    pre: [{ fact: 'app_running', holds: true }],
    post: [],
  };
}
