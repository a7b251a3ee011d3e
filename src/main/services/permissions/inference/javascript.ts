import { parse, type Node } from 'acorn';
import { full } from 'acorn-walk';
import { analyzeCommand, DYNAMIC, lit, touchPath, type Word } from './commands';
import { isSecretPath } from './paths';
import type { InferenceSink } from './types';

/**
 * JavaScript (Node scripts), parsed with acorn. `require`/`import` bindings resolve callee
 * names (`const cp = require('child_process')` makes `cp.exec` known); literal `const`
 * values are propagated. Syntax errors and code evaluated from computed strings fail closed.
 */

type AnyNode = Node & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function analyzeJavaScript(source: string, sink: InferenceSink): void {
  let ast: AnyNode;
  try {
    ast = parse(source, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      locations: true,
      allowHashBang: true,
      allowReturnOutsideFunction: true,
    }) as AnyNode;
  } catch (moduleErr) {
    try {
      ast = parse(source, {
        ecmaVersion: 'latest',
        sourceType: 'script',
        locations: true,
        allowHashBang: true,
        allowReturnOutsideFunction: true,
      }) as AnyNode;
    } catch {
      return sink.fail(`cannot parse as JavaScript: ${(moduleErr as Error).message}`);
    }
  }
  const modules = new Map<string, string>(); // local name -> module (or module.export)
  const consts = new Map<string, Word>();

  const word = (n: AnyNode | undefined): Word => {
    if (!n) return DYNAMIC;
    if (n.type === 'Literal' && typeof n.value === 'string') return lit(n.value);
    if (n.type === 'TemplateLiteral') {
      let dynamic = false;
      let text = '';
      n.quasis.forEach((q: AnyNode, i: number) => {
        text += q.value.cooked ?? '';
        if (i < n.expressions.length) {
          const v = word(n.expressions[i]);
          dynamic ||= v.dynamic;
          text += v.text;
        }
      });
      return { text, dynamic };
    }
    if (n.type === 'Identifier') return consts.get(n.name) ?? DYNAMIC;
    if (n.type === 'CallExpression' && calleeName(n.callee) && /(^|\.)(join|resolve)$/.test(calleeName(n.callee)!)) {
      const parts = n.arguments.map((a: AnyNode) =>
        a.type === 'CallExpression' && /homedir$/.test(calleeName(a.callee) ?? '') ? lit('~') : word(a),
      );
      return { text: parts.map((p: Word) => p.text).join('/'), dynamic: parts.some((p: Word) => p.dynamic) };
    }
    if (n.type === 'BinaryExpression' && n.operator === '+') {
      const l = word(n.left);
      const r = word(n.right);
      return { text: l.text + r.text, dynamic: l.dynamic || r.dynamic };
    }
    return DYNAMIC;
  };

  const calleeName = (c: AnyNode): string | undefined => {
    if (c.type === 'Identifier') return modules.get(c.name) ?? c.name;
    if (c.type === 'MemberExpression' && !c.computed) {
      const obj = calleeName(c.object);
      return obj ? `${obj}.${c.property.name}` : `?.${c.property.name}`;
    }
    if (c.type === 'CallExpression' && c.callee.type === 'Identifier' && c.callee.name === 'require') {
      const m = c.arguments[0];
      return m?.type === 'Literal' ? String(m.value).replace(/^node:/, '') : undefined;
    }
    return undefined;
  };

  // Bindings first, so calls anywhere in the file resolve.
  full(ast, (n: AnyNode) => {
    if (n.type === 'ImportDeclaration') {
      const mod = String(n.source.value).replace(/^node:/, '');
      for (const s of n.specifiers)
        modules.set(s.local.name, s.type === 'ImportSpecifier' ? `${mod}.${s.imported.name ?? s.imported.value}` : mod);
    }
    if (n.type === 'VariableDeclarator' && n.init) {
      const init = n.init.type === 'AwaitExpression' ? n.init.argument : n.init;
      const req =
        init.type === 'CallExpression' &&
        init.callee.type === 'Identifier' &&
        init.callee.name === 'require' &&
        init.arguments[0]?.type === 'Literal'
          ? String(init.arguments[0].value).replace(/^node:/, '')
          : init.type === 'MemberExpression'
            ? calleeName(init)
            : undefined;
      if (n.id.type === 'Identifier') {
        if (req) modules.set(n.id.name, req);
        else {
          const w = word(init);
          if (!w.dynamic) consts.set(n.id.name, w);
        }
      } else if (n.id.type === 'ObjectPattern' && req) {
        for (const p of n.id.properties)
          if (p.type === 'Property' && p.value.type === 'Identifier') modules.set(p.value.name, `${req}.${p.key.name ?? p.key.value}`);
      }
    }
  });

  full(ast, (n: AnyNode) => {
    const line = n.loc?.start.line as number | undefined;
    if (n.type === 'Literal' && typeof n.value === 'string' && isSecretPath(n.value))
      sink.emit('secrets.read', { kind: 'path', path: n.value }, JSON.stringify(n.value), line);
    if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return;
    // globalThis['fe' + 'tch'](...), cp[method](...): a computed name on a global or a module cannot be judged.
    if (n.callee.type === 'MemberExpression' && n.callee.computed && word(n.callee.property).dynamic) {
      const obj = n.callee.object;
      if (
        obj.type === 'Identifier' &&
        (['globalThis', 'global', 'window', 'self', 'process'].includes(obj.name) || modules.has(obj.name))
      ) {
        return sink.fail(`calls a member of \`${obj.name}\` named at run time`, line);
      }
    }
    const name =
      calleeName(n.callee) ??
      (n.callee.type === 'MemberExpression' && n.callee.computed && !word(n.callee.property).dynamic
        ? `${calleeName(n.callee.object) ?? '?'}.${word(n.callee.property).text}`
        : '');
    const args: AnyNode[] = n.arguments;
    const ev = `${name || '(expression)'}(...)`;
    const method = name.split('.').at(-1) ?? '';
    const opt = (obj: AnyNode | undefined, key: string): AnyNode | undefined =>
      obj?.type === 'ObjectExpression'
        ? obj.properties.find((p: AnyNode) => p.type === 'Property' && (p.key.name ?? p.key.value) === key)?.value
        : undefined;
    const urlTarget = (w: Word) =>
      w.dynamic ? { kind: 'unknown' as const, hint: 'URL computed at run time' } : { kind: 'url' as const, url: w.text };

    if (name === 'fetch' || name === 'globalThis.fetch') {
      const m = opt(args[1], 'method');
      const post = Boolean(opt(args[1], 'body')) || (m ? word(m).dynamic || /^(post|put|patch)$/i.test(word(m).text) : false);
      return sink.emit(post ? 'web.post' : 'web.fetch', urlTarget(word(args[0])), ev, line);
    }
    if (/^(axios|got|superagent|needle|ky)\.(post|put|patch)$/.test(name)) return sink.emit('web.post', urlTarget(word(args[0])), ev, line);
    if (/^(axios|got|superagent|needle|ky)\.(get|head)$/.test(name)) return sink.emit('web.fetch', urlTarget(word(args[0])), ev, line);
    if (/^(http|https)\.(request|get)$/.test(name)) {
      const options = args.find((a) => a.type === 'ObjectExpression');
      const m = opt(options, 'method');
      const post = method === 'request' && (!m || word(m).dynamic || /^(post|put|patch)$/i.test(word(m).text));
      return sink.emit(
        post ? 'web.post' : 'web.fetch',
        args[0]?.type !== 'ObjectExpression' ? urlTarget(word(args[0])) : { kind: 'unknown', hint: 'HTTP request' },
        ev,
        line,
      );
    }
    if (
      /^(net\.(connect|createConnection|Socket)|tls\.connect|dgram\.createSocket|WebSocket|navigator\.sendBeacon)$/.test(name) ||
      /^\?\.(sendBeacon)$/.test(name)
    ) {
      return sink.emit('web.post', { kind: 'unknown', hint: 'socket' }, ev, line);
    }
    if (name === 'XMLHttpRequest') return sink.emit('web.post', { kind: 'unknown', hint: 'XMLHttpRequest' }, ev, line);
    if (/^fs(\.promises)?\.(readFile|readFileSync|createReadStream|open|openSync)$|^fs\/promises\.(readFile|open)$/.test(name)) {
      const flags = opt(args[1], 'flag') ?? (method.startsWith('open') ? args[1] : undefined);
      const write = flags && /[wa+]/.test(word(flags).text);
      return touchPath(sink, write ? 'write' : 'read', word(args[0]), ev, line);
    }
    if (
      /^fs(\.promises)?\.(writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|mkdir|mkdirSync|symlink|symlinkSync|chmod|chmodSync)$|^fs\/promises\.(writeFile|appendFile|mkdir)$/.test(
        name,
      )
    ) {
      return touchPath(sink, 'write', word(args[0]), ev, line);
    }
    if (/^fs(\.promises)?\.(copyFile|copyFileSync|cp|cpSync|rename|renameSync)$|^fs\/promises\.(copyFile|cp|rename)$/.test(name)) {
      touchPath(sink, 'read', word(args[0]), ev, line);
      if (/rename/.test(method)) touchPath(sink, 'delete', word(args[0]), ev, line);
      return touchPath(sink, 'write', word(args[1]), ev, line);
    }
    if (/^fs(\.promises)?\.(unlink|unlinkSync|rm|rmSync|rmdir|rmdirSync)$|^fs\/promises\.(unlink|rm|rmdir)$/.test(name))
      return touchPath(sink, 'delete', word(args[0]), ev, line);
    if (/^child_process\.(exec|execSync)$/.test(name)) {
      sink.emit('shell.execute', { kind: 'command', command: ev }, ev, line);
      const cmd = word(args[0]);
      return cmd.dynamic ? sink.fail(`\`${name}\` runs a command computed at run time`, line) : sink.inline(cmd.text, 'bash', line);
    }
    if (/^child_process\.(spawn|spawnSync|execFile|execFileSync|fork)$/.test(name)) {
      sink.emit(method === 'fork' ? 'script.execute' : 'shell.execute', { kind: 'command', command: ev }, ev, line);
      const list = args[1]?.type === 'ArrayExpression' ? args[1].elements.map((e: AnyNode) => word(e)) : [];
      const argv = method === 'fork' ? [lit('node'), word(args[0]), ...list] : [word(args[0]), ...list];
      if (opt(args[2], 'shell') || opt(args[1], 'shell'))
        return sink.fail(`\`${name}\` with shell: true runs a command line this analysis does not split`, line);
      return analyzeCommand(argv, sink, line);
    }
    if (name === 'eval' || name === 'Function' || /^vm\.(runIn\w*|Script|compileFunction)$/.test(name)) {
      const code = word(args.at(-1));
      return code.dynamic ? sink.fail(`\`${name}\` runs code computed at run time`, line) : sink.inline(code.text, 'node', line);
    }
    if (/^(clipboardy\.(read|readSync))$/.test(name)) return sink.emit('clipboard.read', { kind: 'none' }, ev, line);
    if (/^(clipboardy\.(write|writeSync))$/.test(name)) return sink.emit('clipboard.write', { kind: 'none' }, ev, line);
    if (/^(keytar\.(getPassword|findCredentials|findPassword))$/.test(name))
      return sink.emit('secrets.read', { kind: 'command', command: ev }, ev, line);
    if (name === 'open' && modules.get('open') === 'open') return sink.emit('web.navigate', urlTarget(word(args[0])), ev, line);
    if (name === 'require' || name === 'import') {
      const m = word(args[0]);
      if (m.dynamic) return sink.fail('loads a module named at run time', line);
      if (/^[./]/.test(m.text)) return sink.follow(/\.[cm]?js$/.test(m.text) ? m.text : `${m.text}.js`, 'node', line);
    }
  });
  full(ast, (n: AnyNode) => {
    if (n.type === 'ImportExpression') {
      const m = word(n.source);
      if (m.dynamic) sink.fail('imports a module named at run time', n.loc?.start.line);
    }
  });
}
