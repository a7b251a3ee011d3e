import { useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { parse as parseYaml } from 'yaml';
import { useStores } from '../../app/stores';
import { toYaml } from './graphModel';

/** Runs the skill being edited (saving it first) with the running node highlighted on the canvas. */
export function TestRunPanel() {
  const { editor } = useStores();
  const { meta, argsText, status, running } = useStore(
    editor,
    useShallow((s) => ({ meta: s.meta, argsText: s.argsText, status: s.testStatus, running: s.runningNode })),
  );
  // The arguments start from each one's default or first example; once the user types, their text
  // wins. No effect fills the box: one that ran after the user's first keystrokes would erase them.
  // (EditorScreen keys this panel by skill, so another skill starts from its own sample.)
  const sample = useMemo(() => sampleArgsYaml(argsText), [argsText]);
  const [edited, setEdited] = useState<string>();
  const text = edited ?? sample;
  const [dryRun, setDryRun] = useState(true);
  const [err, setErr] = useState<string>();
  if (!meta) return null;
  const go = (): void => {
    let args: Record<string, string | number | boolean>;
    try {
      args = (parseYaml(text) ?? {}) as typeof args;
    } catch (e) {
      return setErr(`Not valid YAML: ${(e as Error).message}`);
    }
    setErr(undefined);
    void editor.getState().testRun(args, dryRun);
  };
  return (
    <div className="inspector">
      <span className="field-name">Arguments for the test run (YAML)</span>
      <textarea aria-label="test arguments" className="code" rows={6} value={text} onChange={(e) => setEdited(e.target.value)} />
      <label className="check">
        <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> Dry run (recording driver; touches nothing)
      </label>
      <button className="primary" onClick={go}>
        Test run
      </button>
      {err && <div className="field-error">{err}</div>}
      {status && (
        <div className="muted" data-test-status={status}>
          Status: {status}
          {running ? ` · node ${running}` : ''}
        </div>
      )}
    </div>
  );
}

/** `name: value` lines with each argument's default or first example, from the Arguments tab's YAML. */
function sampleArgsYaml(argsText: string): string {
  let specs: Record<string, { default?: unknown; examples?: unknown[] }> = {};
  try {
    specs = (parseYaml(argsText) ?? {}) as typeof specs;
  } catch {
    /* the Arguments tab shows the YAML error */
  }
  const sample: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(specs)) sample[k] = v?.default ?? v?.examples?.[0] ?? '';
  return toYaml(sample);
}
