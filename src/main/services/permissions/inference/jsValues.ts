import { full } from 'acorn-walk';
import type { PermissionTarget } from '../../../../shared/permissions/policy';
import { DYNAMIC, DYNAMIC_MANY, entry, lit, unknown } from './effects';
import { JS_MODULES, type AnyNode } from './jsModules';
import type { InferenceSink, Word } from './types';

/**
 * What JavaScript names and expressions stand for: module bindings (validated against the
 * model table, local modules followed), declared names, and constant values. A variable's value
 * is known only when it is declared once with an initialiser and never assigned again.
 */

const LOCAL = '\u0000local:';

function patternNames(p: AnyNode | null | undefined, out: string[] = []): string[] {
  if (!p) return out;
  if (p.type === 'Identifier') out.push(p.name);
  else if (p.type === 'ObjectPattern')
    p.properties.forEach((q: AnyNode) => patternNames(q.type === 'RestElement' ? q.argument : q.value, out));
  else if (p.type === 'ArrayPattern') p.elements.forEach((q: AnyNode | null) => patternNames(q, out));
  else if (p.type === 'RestElement') patternNames(p.argument, out);
  else if (p.type === 'AssignmentPattern') patternNames(p.left, out);
  return out;
}

export class JsValues {
  private readonly declared = new Set<string>();
  private readonly declarations = new Map<string, number>();
  private readonly reassigned = new Set<string>();
  private readonly inits = new Map<string, AnyNode>();
  private readonly memberObjects = new Set<string>();
  private readonly references = new Map<string, number>();
  private readonly modules = new Map<string, string>();
  private readonly resolved = new Map<string, string | undefined>();
  private readonly evaluating = new Set<string>();

  constructor(
    ast: AnyNode,
    private readonly sink: InferenceSink,
  ) {
    const declare = (names: string[], reassign = false) =>
      names.forEach((n) => {
        this.declared.add(n);
        this.declarations.set(n, (this.declarations.get(n) ?? 0) + 1);
        if (reassign) this.reassigned.add(n);
      });
    full(ast, (n: AnyNode, _state: unknown, type?: string) => {
      if (n.type === 'VariableDeclarator') {
        declare(patternNames(n.id));
        if (n.id.type === 'Identifier' && n.init) this.inits.set(n.id.name, n.init);
      } else if (/^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(n.type)) {
        if (n.id) declare([n.id.name]);
        n.params.forEach((p: AnyNode) => declare(patternNames(p), true));
      } else if (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') {
        if (n.id) declare([n.id.name]);
      } else if (n.type === 'CatchClause') declare(patternNames(n.param), true);
      else if (/^Import(Default|Namespace)?Specifier$/.test(n.type)) declare([n.local.name]);
      else if (n.type === 'AssignmentExpression') patternNames(n.left).forEach((x) => this.reassigned.add(x));
      else if (n.type === 'UpdateExpression' && n.argument.type === 'Identifier') this.reassigned.add(n.argument.name);
      else if ((n.type === 'ForInStatement' || n.type === 'ForOfStatement') && n.left.type !== 'VariableDeclaration')
        patternNames(n.left).forEach((x) => this.reassigned.add(x));
      else if ((n.type === 'ForInStatement' || n.type === 'ForOfStatement') && n.left.type === 'VariableDeclaration')
        n.left.declarations.forEach((d: AnyNode) => patternNames(d.id).forEach((x) => this.reassigned.add(x)));
      else if (n.type === 'MemberExpression' && n.object.type === 'Identifier') this.memberObjects.add(n.object.name);
      else if (n.type === 'Identifier' && type !== 'VariablePattern') this.references.set(n.name, (this.references.get(n.name) ?? 0) + 1);
    });
  }

  isDeclared(name: string): boolean {
    return this.declared.has(name);
  }
  isModule(name: string): boolean {
    return this.modules.has(name);
  }
  modulePath(name: string): string | undefined {
    return this.modules.get(name);
  }
  bindModule(name: string, path: string): void {
    this.modules.set(name, path);
  }
  isLocalModule(path: string): boolean {
    return path.startsWith(LOCAL);
  }

  /** Checks a module name: a modelled module or package, or a local file (followed). Undefined: failed closed. */
  resolveModule(raw: string, line?: number): string | undefined {
    if (this.resolved.has(raw)) return this.resolved.get(raw);
    const name = raw.replace(/^node:/, '');
    let out: string | undefined;
    if (/^\.{0,2}\//.test(name)) {
      if (/\.json$/.test(name)) this.sink.emit('file.read', { kind: 'path', path: name }, `require(${JSON.stringify(raw)})`, line);
      else this.sink.follow(/\.[cm]?js$/.test(name) ? name : `${name}.js`, 'node', line, []);
      out = `${LOCAL}${name}`;
    } else {
      const pkg = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!;
      out = entry(JS_MODULES, name) ? name : entry(JS_MODULES, pkg) ? pkg : undefined;
      if (out === undefined) this.sink.fail(`loads \`${raw}\`, a module this analysis does not model`, line);
    }
    this.resolved.set(raw, out);
    return out;
  }

  /** The module path an expression stands for: `require('m')`, `await import('m')`, an alias, a member of one, `util.promisify(m.f)`. */
  modulePathOf(n: AnyNode | undefined): string | undefined {
    if (!n) return undefined;
    if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require' && !this.declared.has('require')) {
      const m = this.word(n.arguments[0]);
      return m.dynamic ? undefined : this.resolveModule(m.text, n.loc?.start.line);
    }
    if (n.type === 'ImportExpression') {
      const m = this.word(n.source);
      return m.dynamic ? undefined : this.resolveModule(m.text, n.loc?.start.line);
    }
    if (n.type === 'Identifier') return this.modules.get(n.name);
    if (n.type === 'MemberExpression') {
      const base = this.modulePathOf(n.object);
      const name = n.computed ? this.constant(n.property) : n.property.name;
      return base !== undefined && name !== undefined ? `${base}.${name}` : undefined;
    }
    if (n.type === 'CallExpression' && this.isPromisify(n)) return this.modulePathOf(n.arguments[0]);
    return undefined;
  }

  isPromisify(call: AnyNode): boolean {
    const c = this.modulePathOf(call.callee);
    return c === 'util.promisify';
  }

  calleeText(call: AnyNode): string {
    const c = call.callee;
    if (c.type === 'MemberExpression' && c.object.type === 'Identifier' && !c.computed) return `${c.object.name}.${c.property.name}`;
    return c.type === 'Identifier' ? c.name : '';
  }

  opt(obj: AnyNode | undefined, key: string): AnyNode | undefined {
    if (obj?.type !== 'ObjectExpression') return undefined;
    return obj.properties.find((p: AnyNode) => p.type === 'Property' && !p.computed && (p.key.name ?? p.key.value) === key)?.value;
  }

  /** The text of a constant expression, or undefined. */
  constant(n: AnyNode | undefined): string | undefined {
    const w = this.word(n);
    return w.dynamic ? undefined : w.text;
  }

  urlTarget(n: AnyNode | undefined): PermissionTarget {
    const w = this.word(n);
    return w.dynamic ? unknown('URL computed at run time') : { kind: 'url', url: w.text };
  }

  /** The value of an expression: literals, constants, `process.argv[N]`, paths built with `path.join` and `os.homedir()`. */
  word(n: AnyNode | undefined): Word {
    if (!n) return lit('');
    switch (n.type) {
      case 'Literal':
        return typeof n.value === 'string' || typeof n.value === 'number' ? lit(String(n.value)) : DYNAMIC;
      case 'TemplateLiteral': {
        const parts = n.quasis.flatMap((q: AnyNode, i: number) => [
          lit(q.value.cooked ?? ''),
          ...(i < n.expressions.length ? [this.word(n.expressions[i])] : []),
        ]);
        return { text: parts.map((p: Word) => p.text).join(''), dynamic: parts.some((p: Word) => p.dynamic) };
      }
      case 'BinaryExpression': {
        if (n.operator !== '+') return DYNAMIC;
        const l = this.word(n.left);
        const r = this.word(n.right);
        return { text: l.text + r.text, dynamic: l.dynamic || r.dynamic };
      }
      case 'Identifier': {
        if (n.name === '__dirname' && !this.declared.has('__dirname')) return lit(this.sink.dir);
        if (n.name === '__filename' && !this.declared.has('__filename')) return lit(this.sink.file);
        const init = this.knownInit(n.name);
        if (!init) return DYNAMIC;
        this.evaluating.add(n.name);
        try {
          return this.word(init);
        } finally {
          this.evaluating.delete(n.name);
        }
      }
      case 'MemberExpression': {
        const text = this.memberText(n);
        const argv = /^process\.argv\.(\d+)$/.exec(text ?? '');
        if (argv) return Number(argv[1]) === 0 ? lit('node') : this.sink.args ? (this.sink.args[Number(argv[1]) - 1] ?? lit('')) : DYNAMIC;
        if (text === 'process.env.HOME' || text === 'process.env.USERPROFILE') return lit('~');
        if (text === 'process.execPath') return lit('node');
        return DYNAMIC;
      }
      case 'CallExpression':
        return this.callValue(n);
      default:
        return DYNAMIC;
    }
  }

  private knownInit(name: string): AnyNode | undefined {
    if (this.declarations.get(name) !== 1 || this.reassigned.has(name) || this.evaluating.has(name)) return undefined;
    return this.inits.get(name);
  }

  private memberText(n: AnyNode): string | undefined {
    if (n.type === 'Identifier') return n.name;
    if (n.type !== 'MemberExpression') return undefined;
    const obj = this.memberText(n.object);
    const prop = n.computed ? this.constant(n.property) : n.property.name;
    return obj !== undefined && prop !== undefined ? `${obj}.${prop}` : undefined;
  }

  private callValue(n: AnyNode): Word {
    const callee = this.modulePathOf(n.callee) ?? this.memberText(n.callee) ?? '';
    const args: AnyNode[] = n.arguments;
    if (/^path\.(posix\.)?(join|resolve)$/.test(callee)) {
      const parts = args.map((a) => this.word(a));
      return {
        text: parts
          .map((p) => p.text)
          .join('/')
          .replace(/\/+/g, '/'),
        dynamic: parts.some((p) => p.dynamic),
      };
    }
    if (callee === 'os.homedir') return lit('~');
    if (callee === 'String.fromCharCode' && args.every((a) => a.type === 'Literal' && typeof a.value === 'number'))
      return lit(String.fromCharCode(...args.map((a) => a.value as number)));
    if (callee === 'atob' || /\.toString$/.test(callee)) {
      const inner = callee === 'atob' ? args[0] : n.callee.object;
      if (callee === 'atob') {
        const w = this.word(inner);
        return w.dynamic ? DYNAMIC : lit(Buffer.from(w.text, 'base64').toString('latin1'));
      }
      // Buffer.from('...', 'base64').toString()
      if (inner?.type === 'CallExpression' && this.memberText(inner.callee) === 'Buffer.from') {
        const data = this.word(inner.arguments[0]);
        const enc = this.word(inner.arguments[1]);
        return data.dynamic || enc.dynamic ? DYNAMIC : lit(Buffer.from(data.text, (enc.text || 'utf8') as BufferEncoding).toString());
      }
      return this.word(inner);
    }
    if (
      n.callee.type === 'MemberExpression' &&
      !n.callee.computed &&
      n.callee.property.name === 'join' &&
      n.callee.object.type === 'ArrayExpression'
    ) {
      const parts = n.callee.object.elements.map((e: AnyNode) => this.word(e));
      const sep = args[0] ? this.word(args[0]) : lit(',');
      return { text: parts.map((p: Word) => p.text).join(sep.text), dynamic: sep.dynamic || parts.some((p: Word) => p.dynamic) };
    }
    return DYNAMIC;
  }

  /** An argv list: an array literal (with `...process.argv.slice(N)` spliced), or a constant bound to one. */
  words(n: AnyNode | undefined): Word[] | undefined {
    if (!n) return undefined;
    // Arrays are mutable and shared: only one used exactly once, here, is known to be as written.
    if (n.type === 'Identifier' && !this.memberObjects.has(n.name) && this.references.get(n.name) === 1)
      return this.words(this.knownInit(n.name));
    if (n.type !== 'ArrayExpression') return undefined;
    return n.elements.flatMap((e: AnyNode | null) => {
      if (!e) return [];
      if (e.type !== 'SpreadElement') return [this.word(e)];
      const a = e.argument;
      const slice =
        a.type === 'CallExpression' && this.memberText(a.callee) === 'process.argv.slice' ? this.word(a.arguments[0]) : undefined;
      if (slice && !slice.dynamic && this.sink.args) return this.sink.args.slice(Math.max(0, Number(slice.text) - 1));
      return [DYNAMIC_MANY];
    });
  }
}
