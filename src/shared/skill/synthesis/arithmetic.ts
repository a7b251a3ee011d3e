/** `+ - * /`, parentheses and `sqrt(x)`: the Calculator interface's expression domain. */
export function evaluateArithmetic(expression: string): number {
  const tokens = expression.match(/sqrt|\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const take = (t?: string) => {
    const tok = tokens[i++];
    if (t !== undefined && tok !== t) throw new Error(`expected \`${t}\` in ${JSON.stringify(expression)}, got \`${tok}\``);
    return tok;
  };
  const factor = (): number => {
    const tok = take();
    if (tok === '-') return -factor();
    if (tok === '(') {
      const v = sum();
      take(')');
      return v;
    }
    if (tok === 'sqrt') {
      take('(');
      const v = sum();
      take(')');
      return Math.sqrt(v);
    }
    const n = Number(tok);
    if (!Number.isFinite(n)) throw new Error(`unexpected \`${tok}\` in ${JSON.stringify(expression)}`);
    return n;
  };
  const product = (): number => {
    let v = factor();
    while (peek() === '*' || peek() === '/') v = take() === '*' ? v * factor() : v / factor();
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === '+' || peek() === '-') v = take() === '+' ? v + product() : v - product();
    return v;
  };
  const v = sum();
  if (i !== tokens.length) throw new Error(`trailing \`${tokens[i]}\` in ${JSON.stringify(expression)}`);
  return v;
}
