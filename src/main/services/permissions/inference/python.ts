import { analyzeCommand } from './commands';
import { DYNAMIC, names, show, touchPath, unknown } from './effects';
import { isSecretPath } from './paths';
import { PyScope } from './pythonScope';
import { envAssign, moduleFor, type PyCall, type PyContext } from './pythonModules';
import { fStringExpressions, tokenizePython, type Tok } from './pythonTokens';
import type { InferenceSink, Word } from './types';

/**
 * Python, on an allowlist: every imported module must be modelled (pythonModules.ts) or be a
 * local file (followed); a module attribute is either modelled when called, listed as a plain
 * value, or fails closed. Code reached by name at run time fails closed too: `exec`/`eval` of
 * anything but literal text (which is analysed in the same scope), `getattr` with a computed
 * name, `globals()`, `vars()`, dunder reflection (`__subclasses__`, `__globals__`...), a module
 * object passed around as a value, changes to `sys.path`/`sys.modules`, and f-string fields
 * (analysed as code).
 */

/** Dunder attributes of ordinary classes and modules; any other is reflection. */
const SAFE_DUNDER =
  /^__(name|file|doc|init|main|version|all|enter|exit|aenter|aexit|str|repr|len|iter|next|eq|ne|lt|le|gt|ge|hash|bool|post_init|slots|annotations|getitem|setitem|delitem|contains|add|sub|mul|del|new|call|qualname|module|dataclass_fields|future|author|format|sizeof|float|int|index)__$/;
const REFLECTION = new Set(names('globals locals vars breakpoint help __builtins__ __loader__ __spec__ builtins'));

export function analyzePython(source: string, sink: InferenceSink): void {
  const { tokens, error } = tokenizePython(source);
  if (error) return sink.fail(`cannot tokenize as Python: ${error}`);
  const scope = new PyScope(sink);
  // Tokens already judged as part of a larger expression (`getattr(os, 'system')`).
  const handled = new Set<Tok>();
  analyzeChunk(tokens, 0);

  function analyzeChunk(chunk: Tok[], depth: number): void {
    if (depth > 8) return sink.fail('code built from strings nests too deep');
    const toks = [...chunk];
    // f-string fields are code: analysed as statements of their own, in the same scope.
    for (const t of chunk) {
      if (t.t !== 'str' || !t.fmt) continue;
      for (const expr of fStringExpressions(t.v)) {
        const sub = tokenizePython(expr);
        if (sub.error) return sink.fail(`cannot tokenize an f-string field on line ${t.line}: ${sub.error}`, t.line);
        toks.push({ t: 'nl', v: '\n', line: t.line }, ...sub.tokens.map((x) => ({ ...x, line: t.line })));
      }
    }
    if (!scope.collect(toks)) return;
    walk(toks, depth);
  }

  function walk(toks: Tok[], depth: number): void {
    for (let k = 0; k < toks.length; k++) {
      const t = toks[k]!;
      const prev = toks[k - 1];
      if (t.t === 'str' && !t.fmt && isSecretPath(t.v)) sink.emit('secrets.read', { kind: 'path', path: t.v }, `'${t.v}'`, t.line);
      if (t.t === 'name' && prev?.v === '.') {
        if (t.v.startsWith('__') && !SAFE_DUNDER.test(t.v))
          sink.fail(`reaches \`.${t.v}\`, reflection this analysis does not follow`, t.line);
        // A method call on an expression (`Path(p).unlink()`, `requests.Session().post(...)`).
        if (toks[k - 2]?.v === ')' && toks[k + 1]?.v === '(')
          method(t.v, scope.receiverOf(toks, k - 2), scope.parseCall(toks, `.${t.v}`, k + 1, t.line), t.line);
        continue;
      }
      if (t.t !== 'name' || scope.isImportStatement(toks, k) || handled.has(t)) continue;
      if (REFLECTION.has(t.v) && !scope.isBound(t.v)) {
        sink.fail(`uses \`${t.v}\`, which reaches names this analysis cannot follow`, t.line);
        continue;
      }
      if (t.v.startsWith('__') && !SAFE_DUNDER.test(t.v) && !scope.isModuleToken(t.v)) {
        sink.fail(`uses \`${t.v}\`, reflection this analysis does not follow`, t.line);
        continue;
      }
      let end = k;
      const chain = [t.v];
      while (toks[end + 1]?.v === '.' && toks[end + 2]?.t === 'name') {
        chain.push(toks[end + 2]!.v);
        end += 2;
      }
      const dunder = chain.slice(1).find((c) => c.startsWith('__') && !SAFE_DUNDER.test(c));
      if (dunder) sink.fail(`reaches \`.${dunder}\`, reflection this analysis does not follow`, t.line);
      const next = toks[end + 1];
      const called = next?.v === '(';
      const modulePath = scope.modulePath(t.v);
      if (modulePath !== undefined) {
        const full = [modulePath, ...chain.slice(1)].filter(Boolean).join('.');
        if (called) moduleCall(full, scope.parseCall(toks, chain.slice(1).join('.'), end + 1, t.line));
        else moduleValue(full, toks, end, t.line);
      } else if (chain.length === 1 && called) builtin(t.v, scope.parseCall(toks, t.v, end + 1, t.line), toks, end + 1, depth);
      else if (chain.length > 1 && called)
        method(
          chain.at(-1)!,
          chain.length === 2 ? scope.pathOf(chain[0]!) : undefined,
          scope.parseCall(toks, chain.join('.'), end + 1, t.line),
          t.line,
        );
      k = end;
    }
  }

  function context(ev: string, line: number): PyContext {
    return {
      ev,
      word: (x) => scope.word(x),
      words: (x) => scope.words(x),
      emit: (cap, target) => sink.emit(cap, target, ev, line),
      touch: (access, w) => touchPath(sink, access, w, ev, line),
      fail: (why) => sink.fail(`${why} (${ev})`, line),
      run: (words, stdin) => {
        if (words.length && words.every((w) => !w.many)) sink.emit('shell.execute', { kind: 'command', command: show(words) }, ev, line);
        analyzeCommand(words, sink, { shell: 'exec', line, ...(stdin && { stdin }) });
      },
      runCode: (code, language) =>
        code.dynamic ? sink.fail(`runs code only known at run time (${ev})`, line) : sink.inline(code.text, language, line),
    };
  }

  function moduleCall(full: string, c: PyCall): void {
    if (scope.isLocalModule(full)) return;
    const found = moduleFor(full);
    if (!found?.module.call?.({ ...c, attr: found.attr }, context(`${full}(...)`, c.line)))
      sink.fail(`calls \`${full}\`, which this analysis does not model`, c.line);
  }

  /** A module attribute used without calling it: allowed only where listed (`os.sep`), or assigned for `os.environ[...]`. */
  function moduleValue(full: string, toks: Tok[], end: number, line: number): void {
    const found = moduleFor(full);
    if (!found || scope.isLocalModule(full)) return;
    const next = toks[end + 1]?.v;
    // `m = ...` rebinds the local name, it does not change the module.
    if (next === '=' && toks[end - 1]?.v !== '.') return;
    if (/^(os\.environ)$/.test(full) && next === '[') {
      const close = scope.closing(toks, end + 1);
      if (/^(=|\+=)$/.test(toks[close + 1]?.v ?? '')) envAssign(context(full, line), scope.word(toks.slice(end + 2, close)));
      return;
    }
    if (full === 'os.environ' && !['.', '['].includes(next ?? '')) sink.emit('secrets.read', { kind: 'none' }, 'os.environ', line);
    if (
      /^(=|\+=|-=)$/.test(next ?? '') ||
      (next === '[' && /^(=|\+=)$/.test(toks[scope.closing(toks, end + 1) + 1]?.v ?? '')) ||
      toks[end - 2]?.v === 'del'
    )
      return sink.fail(`changes \`${full}\`, which changes what later code does`, line);
    if (found.attr === '' && scope.isAliasAssignment(toks, end)) return;
    const values = found.module.values;
    const allowed = values && (values.source === '.' || (found.attr !== '' && values.test(found.attr)));
    if (!allowed) sink.fail(`uses \`${full}\` as a value (passed on or stored), where what it does cannot be followed`, line);
  }

  function builtin(name: string, c: PyCall, toks: Tok[], open: number, depth: number): void {
    const ctx = context(`${name}(...)`, c.line);
    switch (name) {
      case 'open': {
        const mode = scope.word(c.kwargs.get('mode') ?? c.args[1]);
        const file = scope.word(c.kwargs.get('file') ?? c.args[0]);
        if (mode.dynamic || /[r+]/.test(mode.text) || !/[wax]/.test(mode.text)) ctx.touch('read', file);
        if (modeWrites(mode)) ctx.touch('write', file);
        return;
      }
      case 'exec':
      case 'eval':
      case 'compile': {
        const code = scope.word(c.args[0] ?? c.kwargs.get('source'));
        if (code.dynamic) return sink.fail(`\`${name}\` runs code only known at run time`, c.line);
        const sub = tokenizePython(code.text);
        if (sub.error) return sink.fail(`\`${name}\` is given code that does not tokenize: ${sub.error}`, c.line);
        return analyzeChunk(
          sub.tokens.map((x) => ({ ...x, line: c.line })),
          depth + 1,
        );
      }
      case 'getattr':
      case 'setattr':
      case 'delattr': {
        const attr = scope.word(c.args[1]);
        const target = c.args[0];
        if (attr.dynamic) return sink.fail(`\`${name}\` with an attribute named at run time`, c.line);
        if (attr.text.startsWith('__') && !SAFE_DUNDER.test(attr.text)) return sink.fail(`\`${name}\` reaches \`${attr.text}\``, c.line);
        const mod = target?.length === 1 && target[0]!.t === 'name' ? scope.modulePath(target[0]!.v) : undefined;
        if (mod === undefined) return;
        handled.add(target![0]!);
        if (name !== 'getattr') return sink.fail(`\`${name}\` changes module \`${mod}\``, c.line);
        const close = scope.closing(toks, open);
        const full = `${mod}.${attr.text}`;
        if (toks[close + 1]?.v === '(') return moduleCall(full, scope.parseCall(toks, full, close + 1, c.line));
        return moduleValue(full, toks, close, c.line);
      }
      default:
        return;
    }
  }

  /** A method called on an object: judged by its name, with the receiver's path when it is known. */
  function method(name: string, receiver: Word | undefined, c: PyCall, line: number): void {
    const ctx = context(`.${name}(...)`, line);
    const self = receiver ?? DYNAMIC;
    const first = () => scope.word(c.args[0]);
    if (/^(unlink|rmdir)$/.test(name)) return ctx.touch('delete', self);
    if (/^(write_text|write_bytes|touch|mkdir|symlink_to|hardlink_to)$/.test(name)) return ctx.touch('write', self);
    if (/^(read_text|read_bytes)$/.test(name)) return ctx.touch('read', self);
    if (/^(chmod|lchmod|chown)$/.test(name)) return ctx.touch('permissions', self);
    if (name === 'rename' || (name === 'replace' && receiver))
      return (ctx.touch('read', self), ctx.touch('delete', self), ctx.touch('write', first()));
    if (name === 'open' && receiver) return ctx.touch(modeWrites(first()) ? 'write' : 'read', self);
    if (/^(extractall|extract)$/.test(name) && scope.imports(/^(zipfile|tarfile|shutil)$/)) {
      // Files land under the folder (the current one by default), named by the archive.
      const dir = c.kwargs.get('path') ?? c.args[name === 'extract' ? 1 : 0];
      const d = dir ? scope.word(dir) : { text: '.', dynamic: false };
      return ctx.touch('write', { text: `${d.text.replace(/\/$/, '')}/\u0000`, dynamic: true });
    }
    if (/^(write|add)$/.test(name) && scope.imports(/^(zipfile|tarfile)$/) && c.args[0] && !scope.word(c.args[0]).dynamic)
      return ctx.touch('read', first());
    if (name === 'save' && scope.imports(/^PIL/)) return ctx.touch('write', first());
    if (/^(bind|listen)$/.test(name) && scope.imports(/^(socket|socketserver)$/)) return ctx.emit('net.listen', unknown('socket'));
    if (/^(connect|connect_ex|sendall|send|sendto|sendfile)$/.test(name) && scope.imports(/^socket$/))
      return ctx.emit('web.post', unknown('socket'));
    if (/^(exec_command|invoke_shell|open_sftp)$/.test(name)) return ctx.emit('web.post', unknown('ssh'));
    if (/^(kill|terminate|send_signal|suspend)$/.test(name) && scope.imports(/^psutil$/))
      return ctx.emit('process.kill', { kind: 'command', command: ctx.ev });
    if (name === 'clipboard_get') return ctx.emit('clipboard.read', { kind: 'none' });
    if (name === 'clipboard_append') return ctx.emit('clipboard.write', { kind: 'none' });
    if (name === 'system' || name === 'popen') return sink.fail(`calls \`.${name}\` on an object this analysis cannot identify`, line);
  }
}

function modeWrites(mode: Word): boolean {
  return mode.dynamic || /[wax+]/.test(mode.text);
}
