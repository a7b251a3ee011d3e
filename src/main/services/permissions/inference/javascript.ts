import { parse } from 'acorn';
import { full, fullAncestor } from 'acorn-walk';
import { analyzeCommand } from './commands';
import { show, touchPath, unknown } from './effects';
import { JsValues } from './jsValues';
import { jsModuleFor, type AnyNode, type JsContext } from './jsModules';
import { isSecretPath } from './paths';
import type { InferenceSink } from './types';
import { isCodeLoadingEnv } from './wrappers';

/**
 * JavaScript (Node scripts), parsed with acorn, on an allowlist: every module required or
 * imported must be modelled (jsModules.ts) or a local file (followed); a module object may only
 * be used through its members (a module passed around or stored fails closed); every global the
 * code names must be known; and code reached by name at run time fails closed — `require` or
 * `import()` of a computed name, `eval`/`Function`/`vm` of non-literal code, computed members of
 * modules or `globalThis`, `.constructor`, `process.mainModule`/`binding`, `module.require`,
 * `Reflect`, `WebAssembly`.
 */

/** Globals with no effect beyond computation and output. */
const INERT_GLOBALS = new Set(
  'console JSON Math Date Array Object String Number Boolean Promise Map Set WeakMap WeakSet WeakRef RegExp Error TypeError RangeError SyntaxError ReferenceError URIError AggregateError EvalError parseInt parseFloat isNaN isFinite setTimeout setInterval setImmediate clearTimeout clearInterval clearImmediate Buffer URL URLSearchParams TextEncoder TextDecoder encodeURIComponent decodeURIComponent encodeURI decodeURI escape unescape Symbol BigInt Intl structuredClone atob btoa queueMicrotask AbortController AbortSignal Event EventTarget Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array Float64Array Uint8ClampedArray BigInt64Array BigUint64Array ArrayBuffer SharedArrayBuffer DataView Atomics Proxy Blob FormData Headers Request Response crypto performance undefined NaN Infinity arguments __dirname __filename exports File ReadableStream WritableStream TransformStream MessageChannel MessagePort BroadcastChannel FinalizationRegistry Iterator'.split(
    ' ',
  ),
);
/** Members of `process` with no effect beyond the script itself. */
const PROCESS_SAFE =
  /^(argv|argv0|env|exit|exitCode|cwd|platform|arch|pid|ppid|version|versions|stdout|stderr|stdin|hrtime|memoryUsage|cpuUsage|uptime|nextTick|on|once|off|emit|emitWarning|title|execPath|release|config|features|umask|chdir|getuid|geteuid|getgid|getegid|resourceUsage|listeners|removeListener|removeAllListeners|abort)$/;

export function analyzeJavaScript(source: string, sink: InferenceSink): void {
  let ast: AnyNode;
  const opts = { ecmaVersion: 'latest' as const, locations: true, allowHashBang: true, allowReturnOutsideFunction: true };
  try {
    ast = parse(source, { ...opts, sourceType: 'module' }) as AnyNode;
  } catch (moduleErr) {
    try {
      ast = parse(source, { ...opts, sourceType: 'script' }) as AnyNode;
    } catch {
      return sink.fail(`cannot parse as JavaScript: ${(moduleErr as Error).message}`);
    }
  }
  const values = new JsValues(ast, sink);

  // Module bindings: `import x from 'm'`, `const x = require('m')`, `const { a } = require('m')`, aliases of those.
  full(ast, (n: AnyNode) => {
    if (n.type === 'ImportDeclaration') {
      const mod = values.resolveModule(String(n.source.value), n.loc?.start.line);
      if (mod === undefined) return;
      for (const s of n.specifiers)
        values.bindModule(s.local.name, s.type === 'ImportSpecifier' ? `${mod}.${s.imported.name ?? s.imported.value}` : mod);
    }
    if (n.type === 'VariableDeclarator' && n.init) {
      const mod = values.modulePathOf(n.init.type === 'AwaitExpression' ? n.init.argument : n.init);
      if (mod === undefined) return;
      if (n.id.type === 'Identifier') values.bindModule(n.id.name, mod);
      else if (n.id.type === 'ObjectPattern')
        for (const p of n.id.properties)
          if (p.type === 'Property' && p.value.type === 'Identifier')
            values.bindModule(p.value.name, `${mod}.${p.key.name ?? p.key.value}`);
    }
  });

  const ctx = (ev: string, line: number | undefined): JsContext => ({
    ev,
    word: (x) => values.word(x),
    words: (x) => values.words(x),
    opt: (obj, key) => values.opt(obj, key),
    emit: (cap, target) => sink.emit(cap, target, ev, line),
    touch: (access, w) => touchPath(sink, access, w, ev, line),
    fail: (why) => sink.fail(`${why} (${ev})`, line),
    run: (words, stdin) => {
      if (words.length && words.every((w) => !w.many)) sink.emit('shell.execute', { kind: 'command', command: show(words) }, ev, line);
      analyzeCommand(words, sink, { shell: 'exec', ...(line !== undefined && { line }), ...(stdin && { stdin }) });
    },
    runCode: (code, language) =>
      code.dynamic ? sink.fail(`runs code only known at run time (${ev})`, line) : sink.inline(code.text, language, line),
    follow: (path, language) =>
      path.dynamic
        ? sink.fail(`runs a script whose path is only known at run time (${ev})`, line)
        : sink.follow(path.text, language, line, []),
  });

  fullAncestor(ast, (n: AnyNode, _state: unknown, ancestors: AnyNode[], type?: string) => {
    const line = n.loc?.start.line as number | undefined;
    const parent = ancestors[ancestors.length - 2];
    if (n.type === 'Literal' && typeof n.value === 'string' && isSecretPath(n.value))
      sink.emit('secrets.read', { kind: 'path', path: n.value }, JSON.stringify(n.value), line);
    if (n.type === 'ImportExpression') {
      const src = values.word(n.source);
      if (src.dynamic) return sink.fail('imports a module named at run time', line);
      const mod = values.resolveModule(src.text, line);
      // `(await import('m')).f()` or `const m = await import('m')`; `import('m').then(m => ...)` hands the module on.
      const awaited = parent?.type === 'AwaitExpression';
      if (mod !== undefined) useModule(awaited ? parent : n, mod, awaited ? ancestors.slice(0, -1) : ancestors, line);
      return;
    }
    if (n.type === 'MemberExpression') {
      const name = n.computed ? values.constant(n.property) : n.property.name;
      if (name === 'constructor' || name === '__proto__' || name === '__defineGetter__' || name === '__defineSetter__')
        sink.fail(`reaches \`.${name}\`, which can build functions from strings`, line);
      if (
        name === 'prototype' &&
        n.object.type === 'Identifier' &&
        INERT_GLOBALS.has(n.object.name) &&
        parent?.type === 'MemberExpression' &&
        ancestors.at(-3)?.type === 'AssignmentExpression'
      )
        sink.fail(`changes \`${n.object.name}.prototype\`, which changes what every module does`, line);
      return;
    }
    // Declared and assigned names come as `VariablePattern`; property names are not visited at all.
    if (n.type !== 'Identifier' || type === 'VariablePattern') return;
    const id = n.name as string;
    if (values.isModule(id)) return useModule(n, values.modulePath(id)!, ancestors, line);
    if (values.isDeclared(id)) return;
    if (INERT_GLOBALS.has(id)) return;
    const callee =
      parent?.type === 'CallExpression' || parent?.type === 'NewExpression' ? (parent.callee === n ? parent : undefined) : undefined;
    switch (id) {
      case 'require': {
        if (callee) {
          const m = values.word(callee.arguments[0]);
          if (m.dynamic) return sink.fail('requires a module named at run time', line);
          const mod = values.resolveModule(m.text, line);
          if (mod !== undefined) useModule(callee, mod, ancestors.slice(0, -1), line);
          return;
        }
        if (parent?.type === 'MemberExpression' && !parent.computed && /^(resolve|main)$/.test(parent.property.name)) return;
        return sink.fail('uses `require` other than to load a named module', line);
      }
      case 'module':
        if (parent?.type === 'MemberExpression' && !parent.computed && /^(exports|id|filename|loaded)$/.test(parent.property.name)) return;
        if (parent?.type === 'BinaryExpression') return;
        return sink.fail('uses `module` beyond `module.exports`', line);
      case 'process':
        return useProcess(n, parent, ancestors, line);
      case 'eval':
      case 'Function':
        if (callee) return ctx(`${id}(...)`, line).runCode(values.word(callee.arguments.at(-1)), 'node');
        return sink.fail(`uses \`${id}\` other than by calling it with literal code`, line);
      case 'globalThis':
      case 'global':
      case 'window':
      case 'self': {
        const member =
          parent?.type === 'MemberExpression' && parent.object === n
            ? parent.computed
              ? values.constant(parent.property)
              : parent.property.name
            : undefined;
        if (member === undefined) return sink.fail(`uses \`${id}\` with a member named at run time, or as a value`, line);
        if (INERT_GLOBALS.has(member)) return;
        if (member === 'fetch') return fetchCall(ancestors.at(-3), line);
        return sink.fail(`reaches \`${member}\` through \`${id}\``, line);
      }
      case 'fetch':
        if (callee) return fetchCall(callee, line);
        return sink.fail('uses `fetch` as a value', line);
      case 'WebSocket':
      case 'XMLHttpRequest':
        return void sink.emit('web.post', unknown(id), id, line);
      case 'EventSource':
        return void sink.emit('web.fetch', callee ? values.urlTarget(callee.arguments[0]) : unknown(id), id, line);
      case 'navigator':
        if (parent?.type === 'MemberExpression' && !parent.computed && parent.property.name === 'sendBeacon')
          return void sink.emit('web.post', unknown('sendBeacon'), 'navigator.sendBeacon', line);
        return sink.fail('uses `navigator`', line);
      default:
        return sink.fail(`uses global \`${id}\`, which this analysis does not model`, line);
    }
  });

  function fetchCall(call: AnyNode | undefined, line: number | undefined): void {
    if (!call || call.type !== 'CallExpression') return sink.fail('uses `fetch` as a value', line);
    const options = call.arguments[1];
    const m = values.opt(options, 'method');
    const post =
      Boolean(values.opt(options, 'body')) ||
      (m ? values.word(m).dynamic || !/^(get|head)$/i.test(values.word(m).text) : false) ||
      (options && options.type !== 'ObjectExpression');
    sink.emit(post ? 'web.post' : 'web.fetch', values.urlTarget(call.arguments[0]), 'fetch(...)', line);
  }

  /** A module reference: followed up its member chain to a call (modelled) or a value (listed, else fail closed). */
  function useModule(base: AnyNode, mod: string, ancestors: AnyNode[], line: number | undefined): void {
    let node = base;
    let path = mod;
    let i = ancestors.length - 2;
    for (; i >= 0; i--) {
      const p = ancestors[i]!;
      if (p.type !== 'MemberExpression' || p.object !== node) break;
      const name = p.computed ? values.constant(p.property) : p.property.name;
      if (name === undefined) return sink.fail(`uses a member of \`${mod}\` named at run time`, line);
      path = `${path}.${name}`;
      node = p;
    }
    const parent = ancestors[i];
    if (values.isLocalModule(path)) return;
    const found = jsModuleFor(path.replace(/\.default$/, ''));
    if (!found) return sink.fail(`uses \`${path}\`, which this analysis does not model`, line);
    const ev = `${path}(...)`;
    if ((parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && parent.callee === node) {
      if (!found.module.call?.({ attr: found.attr, args: parent.arguments }, ctx(ev, line)))
        sink.fail(`calls \`${path}\`, which this analysis does not model`, line);
      return;
    }
    if (parent?.type === 'VariableDeclarator' && parent.init === node) return; // an alias, bound above
    if (parent?.type === 'CallExpression' && values.isPromisify(parent)) return;
    const allowed =
      found.module.values && (found.module.values.source === '.' || (found.attr !== '' && found.module.values.test(found.attr)));
    if (!allowed) sink.fail(`uses \`${path}\` as a value (passed on or stored), where what it does cannot be followed`, line);
  }

  function useProcess(n: AnyNode, parent: AnyNode | undefined, ancestors: AnyNode[], line: number | undefined): void {
    if (parent?.type !== 'MemberExpression' || parent.object !== n) return sink.fail('uses `process` as a value', line);
    const member = parent.computed ? values.constant(parent.property) : parent.property.name;
    if (member === 'kill') return void sink.emit('process.kill', { kind: 'command', command: 'process.kill(...)' }, 'process.kill', line);
    if (member === undefined || !PROCESS_SAFE.test(member))
      return sink.fail(`uses \`process.${member ?? '[…]'}\`, which this analysis does not model`, line);
    if (member !== 'env') return;
    // Setting a variable that makes child programs load code fails closed, as does handing `process.env` to something that changes it.
    const up = ancestors.at(-3);
    const assigned = up?.type === 'MemberExpression' && ancestors.at(-4)?.type === 'AssignmentExpression' && ancestors.at(-4)!.left === up;
    if (assigned) {
      const name = up.computed ? values.constant(up.property) : up.property.name;
      if (name === undefined || isCodeLoadingEnv(name))
        sink.fail(`sets \`process.env.${name ?? '[…]'}\`, which can make programs load code`, line);
    }
    if (
      up?.type === 'CallExpression' &&
      up.arguments[0] === parent &&
      /^(Object\.assign|Object\.defineProperty|Object\.defineProperties)$/.test(values.calleeText(up))
    )
      sink.fail('changes `process.env` wholesale', line);
  }
}
