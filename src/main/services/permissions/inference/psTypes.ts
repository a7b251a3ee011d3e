import type { PermissionTarget } from '../../../../shared/permissions/policy';
import type { Capability } from '../../../../shared/permissions/taxonomy';
import { entry, unknown, type FileAccess } from './effects';
import type { Word } from './types';
import { isCodeLoadingEnv } from './wrappers';

/**
 * The .NET types and COM objects a PowerShell script may use. A type literal (`[Net.WebClient]`),
 * a `New-Object` type or a COM class this table does not know fails closed; so do reflection
 * types (`[Reflection.Assembly]`, `[ScriptBlock]`, `[Activator]`, `[Runtime.InteropServices.Marshal]`).
 */

export interface TypeContext {
  emit(capability: Capability, target: PermissionTarget): void;
  touch(access: FileAccess, w: Word): void;
  fail(why: string): void;
}

/** What using a type's static members (or constructing it) does: `member` is '' for construction. */
type TypeRule = 'inert' | 'fail' | Capability | ((member: string, args: Word[], ctx: TypeContext) => void);

const file = (member: string, args: Word[], ctx: TypeContext) => {
  const m = member.toLowerCase();
  if (/^(exists|getattributes|getlastwritetime|getcreationtime)$/.test(m)) return;
  if (/^(readall(text|bytes|lines)|openread|readlines|opentext)$/.test(m)) return ctx.touch('read', args[0] ?? unknown_);
  if (/^(writeall(text|bytes|lines)|appendall(text|lines)|appendtext|create|createtext|openwrite|setattributes|setlastwritetime)$/.test(m))
    return ctx.touch('write', args[0] ?? unknown_);
  if (m === 'delete') return ctx.touch('delete', args[0] ?? unknown_);
  if (/^(copy|move|replace)$/.test(m)) {
    ctx.touch('read', args[0] ?? unknown_);
    if (m !== 'copy') ctx.touch('delete', args[0] ?? unknown_);
    return ctx.touch('write', args[1] ?? unknown_);
  }
  if (m === 'open' || m === '') return (ctx.touch('read', args[0] ?? unknown_), ctx.touch('write', args[0] ?? unknown_));
  if (/^(encrypt|decrypt)$/.test(m)) return ctx.touch('write', args[0] ?? unknown_);
  ctx.fail(`\`[IO.File]::${member}\` is not modelled`);
};
const unknown_: Word = { text: '\u0000', dynamic: true };

const directory = (member: string, args: Word[], ctx: TypeContext) => {
  const m = member.toLowerCase();
  if (/^(exists|get\w+|enumerate\w+)$/.test(m)) return;
  if (m === 'createdirectory') return ctx.touch('write', args[0] ?? unknown_);
  if (m === 'delete') return ctx.touch('delete', args[0] ?? unknown_);
  if (m === 'move')
    return (ctx.touch('read', args[0] ?? unknown_), ctx.touch('delete', args[0] ?? unknown_), ctx.touch('write', args[1] ?? unknown_));
  ctx.fail(`\`[IO.Directory]::${member}\` is not modelled`);
};

const INERT_TYPES =
  'math int int16 int32 int64 uint16 uint32 uint64 long string char byte sbyte bool boolean double float single decimal array object datetime datetimeoffset timespan regex text.regularexpressions.regex text.regularexpressions.regexoptions text.encoding text.stringbuilder text.asciiencoding text.utf8encoding text.unicodeencoding io.path convert bitconverter guid version uri uribuilder environment+specialfolder io.searchoption io.driveinfo io.memorystream io.compression.gzipstream io.compression.deflatestream io.compression.compressionmode io.compression.compressionlevel io.compression.ziparchivemode collections.arraylist collections.hashtable collections.queue collections.stack pscustomobject ordered hashtable psobject securestring security.securestring management.automation.pscredential net.networkcredential net.ipaddress net.servicepointmanager net.securityprotocoltype net.mail.mailmessage net.mail.attachment threading.thread gc console diagnostics.stopwatch windows.forms.screen windows.forms.messagebox windows.forms.form windows.forms.button windows.forms.label windows.forms.textbox windows.forms.application windows.forms.keys windows.forms.messageboxbuttons windows.forms.messageboxicon windows.forms.dialogresult drawing.bitmap drawing.graphics drawing.imaging.imageformat drawing.rectangle drawing.point drawing.size drawing.color drawing.font security.cryptography.sha256 security.cryptography.sha1 security.cryptography.md5 security.cryptography.hashalgorithm security.cryptography.aes security.cryptography.rngcryptoserviceprovider security.cryptography.randomnumbergenerator security.principal.windowsidentity security.principal.windowsprincipal security.principal.windowsbuiltinrole stringcomparison stringsplitoptions web.httputility net.webutility xml xml.xmldocument timezoneinfo globalization.cultureinfo enum flagsattribute void ref switch parameter cmdletbinding validateset validatenotnullorempty validatenotnull validatepattern validaterange validatelength validatecount alias outputtype allownull allowemptystring diagnostics.codeanalysis.suppressmessageattribute io.fileinfo io.directoryinfo io.fileattributes io.filemode io.fileaccess io.fileshare io.seekorigin char[] byte[] string[] int[] object[] psobject[] datetime[] text.encodings consolecolor net.http.stringcontent net.http.httpmethod net.http.multipartformdatacontent net.http.bytearraycontent net.http.formurlencodedcontent buffer io.streamreader+eof';

const TYPES: Record<string, TypeRule> = {
  ...Object.fromEntries(INERT_TYPES.split(/\s+/).map((t) => [t, 'inert' as TypeRule])),
  'io.file': file,
  'io.directory': directory,
  environment: (member, args, ctx) => {
    const m = member.toLowerCase();
    if (m === 'setenvironmentvariable') {
      const name = args[0] ?? unknown_;
      if (name.dynamic || isCodeLoadingEnv(name.text)) return ctx.fail('sets an environment variable that can make programs load code');
      return ctx.emit('env_var.write', { kind: 'none' });
    }
  },
  'io.streamreader': (member, args, ctx) => (member === '' ? ctx.touch('read', args[0] ?? unknown_) : undefined),
  'io.streamwriter': (member, args, ctx) => (member === '' ? ctx.touch('write', args[0] ?? unknown_) : undefined),
  'io.filestream': (member, args, ctx) =>
    member === '' ? (ctx.touch('read', args[0] ?? unknown_), ctx.touch('write', args[0] ?? unknown_)) : undefined,
  'io.compression.zipfile': (member, args, ctx) => {
    // CreateFromDirectory(dir, zip), ExtractToDirectory(zip, dir), Open(zip, mode), OpenRead(zip).
    const m = member.toLowerCase();
    ctx.touch('read', args[0] ?? unknown_);
    if (m === 'createfromdirectory' || m === 'extracttodirectory') ctx.touch('write', args[1] ?? unknown_);
    if (m === 'open') ctx.touch('write', args[0] ?? unknown_);
  },
  'net.webclient': 'inert',
  'net.webrequest': 'web.post',
  'net.httpwebrequest': 'web.post',
  'net.http.httpclient': 'web.post',
  'net.http.httpclienthandler': 'inert',
  'net.dns': (_member, args, ctx) => ctx.emit(args[0] && !args[0].dynamic ? 'web.fetch' : 'web.post', unknown('DNS lookup')),
  'net.sockets.tcpclient': 'web.post',
  'net.sockets.udpclient': 'web.post',
  'net.sockets.socket': 'web.post',
  'net.sockets.networkstream': 'web.post',
  'net.sockets.tcplistener': 'net.listen',
  'net.httplistener': 'net.listen',
  'net.mail.smtpclient': 'web.post',
  'windows.forms.clipboard': (member, _args, ctx) =>
    ctx.emit(/^(get|contains)/i.test(member) ? 'clipboard.read' : 'clipboard.write', { kind: 'none' }),
  'windows.clipboard': (member, _args, ctx) =>
    ctx.emit(/^(get|contains)/i.test(member) ? 'clipboard.read' : 'clipboard.write', { kind: 'none' }),
  'windows.forms.sendkeys': 'input.keyboard',
  'windows.forms.cursor': (member, _args, ctx) => (/^position$/i.test(member) ? undefined : ctx.emit('input.mouse', unknown('any window'))),
  'security.cryptography.protecteddata': (member, _args, ctx) =>
    /^unprotect$/i.test(member) ? ctx.emit('secrets.read', unknown('DPAPI')) : undefined,
  'security.cryptography.dataprotectionscope': 'inert',
  'microsoft.win32.registry': (member, _args, ctx) =>
    /^getvalue$|^(localmachine|currentuser|classesroot|users)$/i.test(member)
      ? undefined
      : ctx.emit('registry.write', { kind: 'path', path: 'registry' }),
  'microsoft.win32.registryhive': 'inert',
  'microsoft.win32.registryview': 'inert',
  'device.location.geocoordinatewatcher': 'location.read',
  'windows.devices.geolocation.geolocator': 'location.read',
  'diagnostics.process': (member, _args, ctx) =>
    /^(getprocesses|getprocessbyid|getprocessesbyname|getcurrentprocess)$/i.test(member)
      ? undefined
      : ctx.fail(`\`[Diagnostics.Process]::${member}\` starts or controls programs`),
};

/** What a type literal or `New-Object` type stands for; undefined when this analysis does not know it. */
export function typeRule(raw: string): TypeRule | undefined {
  const name = raw
    .toLowerCase()
    .replace(/^system\./, '')
    .replace(/\[\]$/, '[]');
  if (/^collections\.(generic|specialized|concurrent|objectmodel)\./.test(name)) return 'inert';
  if (
    /^(reflection|runtime\.interopservices|management\.automation|scriptblock|powershell|activator|type|appdomain|delegate|runtime\.compilerservices|codedom|linq\.expressions|microsoft\.visualbasic|microsoft\.csharp|runspaces)/.test(
      name,
    )
  )
    return 'fail';
  return entry(TYPES, name) ?? (name.endsWith('[]') ? entry(TYPES, name.slice(0, -2)) : undefined);
}

/** Applies a type's rule to a use of `member` ('' for construction) with these arguments. */
export function applyType(raw: string, member: string, args: Word[], ctx: TypeContext): void {
  const rule = typeRule(raw);
  if (rule === undefined) return ctx.fail(`uses .NET type \`${raw}\`, which this analysis does not model`);
  if (rule === 'inert') return;
  if (rule === 'fail') return ctx.fail(`uses \`${raw}\`, which can load or build code at run time`);
  if (typeof rule === 'function') return rule(member, args, ctx);
  ctx.emit(rule, rule.startsWith('input') ? unknown('any window') : rule === 'location.read' ? { kind: 'none' } : unknown(raw));
}

/** COM classes `New-Object -ComObject` may create. */
const COM: Record<string, Capability | 'inert'> = {
  'msxml2.xmlhttp': 'web.post',
  'msxml2.serverxmlhttp': 'web.post',
  'microsoft.xmlhttp': 'web.post',
  'winhttp.winhttprequest.5.1': 'web.post',
  'internetexplorer.application': 'web.navigate',
  'sapi.spvoice': 'inert',
  'wscript.network': 'inert',
  'outlook.application': 'web.post',
};

export function applyCom(name: string, ctx: TypeContext): void {
  const rule = entry(COM, name.toLowerCase());
  if (!rule) return ctx.fail(`creates COM object \`${name}\`, which this analysis does not model (it may run programs)`);
  if (rule !== 'inert') ctx.emit(rule, unknown(name));
}

/** Methods that run code, load code or reach members by name, whatever object they are called on. */
export const DANGEROUS_METHODS =
  /^(invoke|invokescript|invokecommand|newscriptblock|expandstring|invokemember|getmethod|getmethods|getfield|getproperty|createinstance|load|loadfrom|loadfile|loadwithpartialname|addscript|addcommand|shellexecute|exec|run|regwrite|createobject|definedynamicassembly|compileassemblyfromsource)$/i;

/** Assemblies `Add-Type -AssemblyName` may load (framework UI, drawing, compression, HTTP). */
export const SAFE_ASSEMBLIES =
  /^(System\.Windows\.Forms|System\.Drawing|PresentationCore|PresentationFramework|WindowsBase|System\.Web|System\.IO\.Compression(\.FileSystem)?|System\.Net\.Http|System\.Security|System\.Device)$/i;
