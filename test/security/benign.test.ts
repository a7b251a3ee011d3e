import { describe, expect, it } from 'vitest';
import type { ScriptLanguage } from '../../src/main/services/permissions/inference';
import { caps, infer } from './helpers';

// Soundness must not turn ordinary scripts into denials: these analyse completely, with exactly
// the capabilities they use.
const BENIGN: [ScriptLanguage, string, string[], string[]?][] = [
  ['bash', 'echo hi > /tmp/x', ['file.write']],
  ['bash', "python3 -c 'print(1)'", []],
  ['bash', 'ls ~/Documents', []],
  ['bash', 'ls -la /tmp | sort -k5 -n | head -n 3', []],
  ['bash', 'set -euo pipefail\nfor f in /tmp/logs/*.log; do wc -l "$f"; done', ['file.read']],
  ['bash', 'today=$(date +%F)\nmkdir -p /tmp/reports\ncp /tmp/in.csv "/tmp/reports/$today.csv"', ['file.read', 'file.write']],
  [
    'bash',
    'curl -fsSL https://example.com/data.json -o /tmp/data.json && jq .items /tmp/data.json',
    ['file.read', 'file.write', 'web.fetch'],
  ],
  ['bash', 'grep -rn TODO ~/projects/app/src | cut -d: -f1 | sort -u', ['file.read']],
  ['bash', 'tar czf /tmp/notes.tgz -C ~/Documents notes', ['file.read', 'file.write']],
  ['bash', 'name="$1"\nprintf "Hello, %s\\n" "$name" | tr a-z A-Z', [], ['world']],
  ['bash', 'n=$(wc -l < /tmp/list)\nif (( n > 10 )); then echo many; fi', ['file.read']],
  ['sh', "cd /tmp && awk -F, '{ s += $2 } END { print s }' data.csv", ['file.read']],
  ['bash', "sed -i 's/foo/bar/g' /tmp/conf.txt", ['file.read', 'file.write']],
  ['python', 'import json, sys\nprint(json.dumps({"args": sys.argv[1:]}))', []],
  ['python', 'import csv\nwith open("/tmp/in.csv") as f:\n    rows = list(csv.reader(f))\nprint(len(rows))', ['file.read']],
  ['python', 'from pathlib import Path\nout = Path("/tmp/out.txt")\nout.write_text("done")', ['file.write']],
  ['node', "console.log(process.argv.slice(1).join('|'))", []],
  ['node', "const fs = require('fs');\nfs.writeFileSync('/tmp/out.json', JSON.stringify({ ok: true }));", ['file.write']],
  ['powershell', 'Get-ChildItem -Path $HOME\\Documents | Where-Object { $_.Length -gt 0 } | Select-Object Name', []],
  ['powershell', '$t = Get-Date -Format \'yyyy-MM-dd\'\nWrite-Output "Today is $t"', []],
  ['powershell', 'Set-Content -Path C:\\tmp\\out.txt -Value "done"', ['file.write']],
  ['cmd', '@echo off\necho hi\ndir %USERPROFILE%\\Documents', []],
];

describe('src/main/services/permissions/inference (security: ordinary scripts stay analysable)', () => {
  it.each(BENIGN)('analyses a %s script completely: %s', (language, source, expected, args) => {
    const r = infer(source, language, args ?? []);
    expect(r.errors).toEqual([]);
    expect(caps(r)).toEqual(expected);
    expect(r.findings.filter((f) => f.kind !== 'exfiltration')).toEqual([]);
  });
});
