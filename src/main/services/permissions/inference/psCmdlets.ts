import { analyzeCommand } from './commands';
import { DYNAMIC, lit, names, touchPath, unknown } from './effects';
import { applyCom, applyType, SAFE_ASSEMBLIES } from './psTypes';
import type { Tok } from './psTokens';
import type { InferenceSink, Word } from './types';

/**
 * PowerShell cmdlets: each one this analysis knows is modelled (its parameters decide its
 * effects) or known to be inert; any other cmdlet fails closed. Native programs go to the shared
 * command analysis.
 */

export const ALIASES: Record<string, string> = Object.fromEntries(
  names(
    'iwr=invoke-webrequest irm=invoke-restmethod gc=get-content cat=get-content type=get-content sc=set-content ac=add-content ri=remove-item rm=remove-item del=remove-item erase=remove-item rd=remove-item rmdir=remove-item cp=copy-item copy=copy-item cpi=copy-item mv=move-item move=move-item mi=move-item ni=new-item saps=start-process start=start-process spps=stop-process kill=stop-process iex=invoke-expression icm=invoke-command gcb=get-clipboard scb=set-clipboard sp=set-itemproperty echo=write-output write=write-output ls=get-childitem dir=get-childitem gci=get-childitem cd=set-location sl=set-location pwd=get-location gl=get-location %=foreach-object foreach=foreach-object ?=where-object where=where-object select=select-object sort=sort-object measure=measure-object ft=format-table fl=format-list gm=get-member gi=get-item gp=get-itemproperty gps=get-process ps=get-process gsv=get-service sleep=start-sleep cls=clear-host clear=clear-host gv=get-variable sv=set-variable set=set-variable nv=new-variable rv=remove-variable ipmo=import-module sal=set-alias nal=new-alias ii=invoke-item rni=rename-item ren=rename-item tee=tee-object group=group-object ogv=out-gridview sajb=start-job rcjb=receive-job gjb=get-job curl=invoke-webrequest wget=invoke-webrequest gcm=get-command h=get-history',
  ).map((p) => p.split('=') as [string, string]),
);

/** Cmdlets with no effect beyond output, the session's own state and reading process or system information. */
const INERT = new Set(
  `write-output write-host write-verbose write-debug write-warning write-error write-information write-progress out-null out-string out-host out-default
  select-object where-object foreach-object sort-object group-object measure-object format-table format-list format-wide format-custom convertto-json
  convertfrom-json convertto-csv convertfrom-csv convertto-html convertfrom-stringdata convertto-securestring convertfrom-securestring get-date get-random
  get-location set-location push-location pop-location test-path join-path split-path resolve-path convert-path get-childitem get-item get-itemproperty
  get-itempropertyvalue get-process get-service get-member get-variable remove-variable clear-variable start-sleep new-timespan compare-object get-unique
  get-culture get-uiculture get-host read-host clear-host get-credential set-strictmode get-wmiobject get-ciminstance get-acl get-help get-command wait-process
  get-job receive-job wait-job remove-job stop-job get-psdrive get-module get-counter get-eventlog get-winevent get-netadapter get-netipaddress
  get-nettcpconnection get-volume get-disk get-computerinfo get-timezone get-history new-guid add-member measure-command get-uptime stop-transcript
  get-localuser get-localgroup get-localgroupmember get-scheduledtask get-scheduledtaskinfo new-scheduledtaskaction new-scheduledtasktrigger
  new-scheduledtaskprincipal new-scheduledtasksettingsset get-event wait-event unregister-event new-event get-alias out-gridview
  get-executionpolicy get-psreadlineoption get-mppreference get-netfirewallrule get-printer get-hotfix get-psprovider get-pscallstack get-tracesource`
    .split(/\s+/)
    .filter(Boolean),
);

export interface CmdletEnv {
  sink: InferenceSink;
  value(tok: Tok | undefined): Word;
}

export function cmdlet(name: string, written: string, args: Tok[], line: number, env: CmdletEnv): void {
  const { sink, value } = env;
  const ev = `${written} ${args.map((a) => (a.t === 'str' ? `'${a.v}'` : a.t === 'var' ? `$${a.v}` : a.v)).join(' ')}`.slice(0, 160);
  const emit = (cap: Parameters<InferenceSink['emit']>[0], target: Parameters<InferenceSink['emit']>[1]) =>
    sink.emit(cap, target, ev, line);
  const touch = (access: 'read' | 'write' | 'delete' | 'permissions', w: Word) => touchPath(sink, access, w, ev, line);
  const fail = (why: string) => sink.fail(`${why} (${ev})`, line);
  const param = (...names: string[]): Word | undefined => {
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a.t !== 'word' || !a.v.startsWith('-')) continue;
      const n = a.v.slice(1).toLowerCase().replace(/:.*$/, '');
      if (names.some((x) => (x.startsWith(n) && n.length >= 2) || x === n)) {
        const inline = /:(.+)$/.exec(a.v)?.[1];
        return inline ? lit(inline) : value(args[k + 1]);
      }
    }
    return undefined;
  };
  const has = (...names: string[]) =>
    args.some(
      (a) => a.t === 'word' && names.some((n) => n.startsWith(a.v.slice(1).toLowerCase()) && a.v.length > 2 && a.v.startsWith('-')),
    );
  const positional = (): Word[] => {
    const out: Word[] = [];
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a.t === 'word' && a.v.startsWith('-')) {
        if (
          !/^-(recurse|force|raw|append|nonewline|confirm|whatif|wait|passthru|usebasicparsing|asjob|noprofile|nonewwindow|erroraction|ascii)$/i.test(
            a.v,
          ) &&
          !a.v.includes(':')
        )
          k++;
        continue;
      }
      if (a.t === 'op') continue;
      out.push(value(a));
    }
    return out;
  };
  const path = () => param('path', 'literalpath', 'filepath') ?? positional()[0];
  const typeCtx = { emit, touch, fail };
  switch (name) {
    case 'invoke-webrequest':
    case 'invoke-restmethod': {
      const method = param('method');
      const body = param('body');
      const inFile = param('infile');
      const outFile = param('outfile');
      const uri = param('uri') ?? positional()[0];
      const post =
        (method !== undefined && (method.dynamic || !/^(get|head)$/i.test(method.text))) ||
        body !== undefined ||
        inFile !== undefined ||
        has('form');
      if (inFile) touch('read', inFile);
      if (outFile) touch('write', outFile);
      return emit(
        post ? 'web.post' : 'web.fetch',
        uri && !uri.dynamic ? { kind: 'url', url: uri.text } : unknown('URL computed at run time'),
      );
    }
    case 'start-bitstransfer': {
      const src = param('source') ?? positional()[0];
      const dst = param('destination') ?? positional()[1];
      const upload = param('transfertype')?.text.toLowerCase() === 'upload';
      emit(upload ? 'web.post' : 'web.fetch', src && !src.dynamic && !upload ? { kind: 'url', url: src.text } : unknown('BITS transfer'));
      if (upload && src) touch('read', src);
      if (!upload && dst) touch('write', dst);
      return;
    }
    case 'send-mailmessage':
      (param('attachments') ? [param('attachments')!] : []).forEach((w) => touch('read', w));
      return emit('web.post', unknown('mail'));
    case 'test-connection':
    case 'test-netconnection':
    case 'resolve-dnsname': {
      const host = param('computername', 'targetname', 'name') ?? positional()[0] ?? DYNAMIC;
      return emit(
        host.dynamic ? 'web.post' : 'web.fetch',
        host.dynamic ? unknown('host computed at run time') : { kind: 'url', url: `dns://${host.text}` },
      );
    }
    case 'get-content':
    case 'import-csv':
    case 'import-clixml':
    case 'select-string':
    case 'get-filehash':
    case 'import-powershelldatafile':
      return touch('read', path() ?? DYNAMIC);
    case 'set-content':
    case 'add-content':
    case 'out-file':
    case 'export-csv':
    case 'export-clixml':
    case 'new-item':
    case 'set-item':
    case 'tee-object':
    case 'start-transcript': {
      const p = path() ?? DYNAMIC;
      if (/^(hk(lm|cu|cr|u|cc)|registry)::?/i.test(p.text)) return emit('registry.write', { kind: 'path', path: p.text });
      if (/^env:/i.test(p.text)) return fail('sets an environment variable through the env: drive');
      if (name === 'tee-object' && !param('filepath', 'literalpath')) return;
      return touch('write', p);
    }
    case 'copy-item':
    case 'move-item':
    case 'rename-item':
    case 'expand-archive':
    case 'compress-archive': {
      const src = param('path', 'literalpath') ?? positional()[0];
      const dest = param('destination', 'destinationpath', 'newname') ?? positional()[1];
      if (src) touch('read', src);
      if (src && (name === 'move-item' || name === 'rename-item')) touch('delete', src);
      if (dest) touch('write', dest);
      return;
    }
    case 'remove-item':
    case 'clear-content':
    case 'clear-recyclebin':
    case 'clear-eventlog': {
      const p = path() ?? DYNAMIC;
      if (/^(hk(lm|cu|cr|u|cc)|registry)::?/i.test(p.text)) return emit('registry.write', { kind: 'path', path: p.text });
      return touch('delete', name === 'clear-eventlog' || name === 'clear-recyclebin' ? DYNAMIC : p);
    }
    case 'set-itemproperty':
    case 'new-itemproperty':
    case 'remove-itemproperty':
    case 'rename-itemproperty':
      if (/\\(Run|RunOnce|Winlogon|Services)(\\|$)/i.test((path() ?? DYNAMIC).text))
        sink.finding('persistence', `writes an autostart registry key: ${ev}`);
      return emit('registry.write', { kind: 'path', path: (path() ?? DYNAMIC).text });
    case 'set-acl':
      return touch('permissions', path() ?? DYNAMIC);
    case 'register-scheduledtask':
    case 'register-scheduledjob':
    case 'new-scheduledtask':
    case 'set-scheduledtask':
    case 'new-service':
      sink.finding('persistence', `schedules a task or service: ${ev}`);
      return emit('scheduled_job.create', { kind: 'command', command: ev });
    case 'set-service':
    case 'start-service':
    case 'stop-service':
    case 'restart-service':
    case 'set-executionpolicy':
    case 'set-mppreference':
    case 'add-mppreference':
    case 'set-netfirewallprofile':
    case 'new-netfirewallrule':
    case 'new-localuser':
    case 'add-localgroupmember':
    case 'stop-computer':
    case 'restart-computer':
    case 'set-date':
      return emit('settings.write', { kind: 'command', command: ev });
    case 'install-module':
    case 'install-package':
    case 'install-script':
    case 'add-appxpackage':
    case 'install-windowsfeature':
    case 'enable-windowsoptionalfeature':
      return emit('package.install', { kind: 'command', command: ev });
    case 'start-process': {
      const file = param('filepath') ?? positional()[0];
      const argList = param('argumentlist');
      if (file && !file.dynamic && /^https?:/i.test(file.text)) return emit('web.navigate', { kind: 'url', url: file.text });
      if (param('verb')?.text.toLowerCase() === 'runas') sink.finding('privilege_escalation', `runs elevated: ${ev}`);
      emit('shell.execute', { kind: 'command', command: ev });
      if (!file || file.dynamic || argList?.dynamic) return fail('starts a program only known at run time');
      return analyzeCommand([file, ...(argList ? argList.text.split(/\s+/).filter(Boolean).map(lit) : [])], sink, { shell: 'exec', line });
    }
    case 'invoke-item':
      return fail('opens a file with whatever program is registered for it');
    case 'stop-process':
      return emit('process.kill', { kind: 'command', command: ev });
    case 'get-clipboard':
      return emit('clipboard.read', { kind: 'none' });
    case 'set-clipboard':
      return emit('clipboard.write', { kind: 'none' });
    case 'get-storedcredential':
    case 'get-secret':
    case 'get-secretinfo':
    case 'unprotect-cmsmessage':
      return emit('secrets.read', { kind: 'command', command: ev });
    case 'invoke-expression': {
      const code = param('command') ?? positional()[0];
      if (!code || code.dynamic) return fail(`\`${written}\` runs code only known at run time`);
      return sink.inline(code.text, 'powershell', line);
    }
    case 'start-job':
    case 'start-threadjob':
    case 'register-objectevent':
    case 'register-engineevent':
    case 'invoke-command': {
      if (param('computername', 'session', 'hostname', 'vmname', 'containerid')) emit('web.post', unknown('remote PowerShell'));
      const file = param('filepath');
      if (file)
        return file.dynamic
          ? fail('runs a script only known at run time')
          : sink.follow(file.text.replace(/\\/g, '/'), 'powershell', line, []);
      // A script block `{ ... }` is analysed where it stands; anything else is code held in a value.
      if (args.some((a) => a.t === 'var') && !param('computername')) return fail('runs a script block held in a variable');
      return;
    }
    case 'new-object': {
      const com = param('comobject');
      if (com) return com.dynamic ? fail('creates a COM object named at run time') : applyCom(com.text, typeCtx);
      const type = param('typename') ?? positional()[0];
      if (!type || type.dynamic) return fail('creates an object of a type named at run time');
      const ctorArgs = positional().slice(param('typename') ? 0 : 1);
      return applyType(type.text, '', ctorArgs, typeCtx);
    }
    case 'add-type': {
      const asm = param('assemblyname');
      if (asm && !asm.dynamic && asm.text.split(/\s*,\s*/).every((a) => SAFE_ASSEMBLIES.test(a))) return;
      const def = param('typedefinition', 'memberdefinition');
      if (def && /GetAsyncKeyState|SetWindowsHookEx|GetKeyState|GetKeyboardState/.test(def.text)) emit('input.capture', { kind: 'none' });
      return fail('compiles code (`Add-Type`) or loads an assembly this analysis does not model');
    }
    case 'import-module': {
      const mod = param('name') ?? positional()[0];
      if (
        mod &&
        !mod.dynamic &&
        /^(Microsoft\.PowerShell\.\w+|PSReadLine|ScheduledTasks|NetTCPIP|NetSecurity|BitsTransfer|Defender|CimCmdlets|PKI|Storage)$/i.test(
          mod.text,
        )
      )
        return;
      if (mod && !mod.dynamic && /\.ps(m?)1$/i.test(mod.text)) return sink.follow(mod.text.replace(/\\/g, '/'), 'powershell', line, []);
      return fail('imports a module this analysis does not model');
    }
    case 'set-alias':
    case 'new-alias':
      return fail('defines an alias, which changes what later command names run');
    case 'set-variable':
    case 'new-variable': {
      const n = param('name') ?? positional()[0];
      if (!n || n.dynamic) return fail('sets a variable named at run time');
      return;
    }
    default:
      if (INERT.has(name)) return;
      if (/^[a-z]+-[a-z]+$/.test(name)) return fail(`cmdlet \`${written}\` is not one this analysis models`);
      return analyzeCommand([lit(written), ...args.filter((a) => a.t !== 'op').map(value)], sink, { shell: 'powershell', line });
  }
}
