import { useEffect } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { LearnAppView, LearnMethodView, LearnResultView } from '../../../../shared/ipc';
import { useStores } from '../../app/stores';
import { ArgFields } from '../run/ArgForm';
import { exampleValues, phrase } from './learnStore';

function appLabel(a: LearnAppView): string {
  const left = a.missing === 0 ? 'nothing to learn' : `${a.missing} to learn`;
  return `${a.name} (${a.id}) — ${left}${a.unavailable ? ' · cannot record here' : ''}`;
}

function MethodCard({ m, chosen, busy, onShow }: { m: LearnMethodView; chosen: boolean; busy: boolean; onShow: () => void }) {
  const args = Object.keys(m.args);
  return (
    <li className={chosen ? 'learn-method chosen' : 'learn-method'} data-method={m.ref}>
      <div className="row between">
        <code>
          {m.ref}({args.join(', ')})
        </code>
        <button onClick={onShow} disabled={busy}>
          Show me how
        </button>
      </div>
      <div>{m.description}</div>
      {m.intents[0] && <div className="muted small">e.g. “{phrase(m.intents[0], exampleValues(m))}”</div>}
    </li>
  );
}

function Result({ r }: { r: LearnResultView }) {
  const admitted = r.status === 'admitted';
  return (
    <section className="panel learn-result" data-status={r.status}>
      <h3>{admitted ? `Learned: ${r.skillId}` : `Not learned: ${r.method} on ${r.app}`}</h3>
      {admitted ? (
        <div className="ok-box">
          Verified by re-execution and saved as a community skill{r.signatureAdded ? ' (the interface got the method first)' : ''}:
          {r.files.map((f) => (
            <div key={f}>
              <code>{f}</code>
            </div>
          ))}
        </div>
      ) : (
        <div className="error-box" role="alert">
          {r.reason}
        </div>
      )}
      {r.runs.length > 0 && (
        <table className="learn-runs">
          <thead>
            <tr>
              <th>re-executed on</th>
              <th>outcome</th>
              <th>why</th>
            </tr>
          </thead>
          <tbody>
            {r.runs.map((run, i) => (
              <tr key={i}>
                <td className="args">
                  <code>{JSON.stringify(run.args)}</code>
                </td>
                <td>
                  <span className={run.ok ? 'outcome outcome-ok' : 'outcome outcome-failed'}>{run.ok ? 'ok' : 'failed'}</span>
                </td>
                <td>{run.why ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted small">
        {r.steps} step{r.steps === 1 ? '' : 's'} generalized · report <code>{r.reportFile}</code>
      </p>
    </section>
  );
}

/**
 * Learning from demonstrations (docs/learning.md): pick an app, see the methods it lacks, "Show me
 * how" one (the form gets values to use), record it in SkillDesk's browser or on the desktop, stop,
 * and see whether re-execution verified the skill.
 */
export function LearnScreen() {
  const { learn } = useStores();
  const s = useStore(
    learn,
    useShallow((x) => ({
      apps: x.apps,
      app: x.app,
      blueprint: x.blueprint,
      method: x.method,
      values: x.values,
      fieldErrors: x.fieldErrors,
      start: x.start,
      phase: x.phase,
      recording: x.recording,
      progress: x.progress,
      result: x.result,
      loading: x.loading,
      error: x.error,
    })),
  );
  useEffect(() => {
    void learn.getState().load();
  }, [learn]);
  const act = learn.getState();
  const busy = s.phase === 'starting' || s.phase === 'recording' || s.phase === 'learning';
  const current = s.apps.find((a) => a.id === s.app);
  const sites = s.apps.filter((a) => a.kind === 'site');
  const desktop = s.apps.filter((a) => a.kind === 'desktop');
  const onSite = s.blueprint?.kind === 'site';
  return (
    <div className="stack learn">
      {s.error && (
        <div className="error-box" role="alert">
          {s.error.message}
        </div>
      )}
      <section className="panel">
        <div className="row between">
          <h2>Learn from a demonstration</h2>
          <select aria-label="app to learn on" value={s.app ?? ''} disabled={busy} onChange={(e) => void act.selectApp(e.target.value)}>
            {!s.app && <option value="">Pick a site or an app…</option>}
            <optgroup label="Websites">
              {sites.map((a) => (
                <option key={a.id} value={a.id}>
                  {appLabel(a)}
                </option>
              ))}
            </optgroup>
            <optgroup label="Desktop apps">
              {desktop.map((a) => (
                <option key={a.id} value={a.id}>
                  {appLabel(a)}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
        <p className="muted">
          Show SkillDesk a method an app lacks, once, with values of your choice: it turns what you do into a skill taking those values as
          arguments, and keeps it only if running it again, on yours and on fresh ones, works.
        </p>
        {current?.unavailable && (
          <div className="error-box">
            Cannot record on {current.id} here: {current.unavailable}.
          </div>
        )}
      </section>

      {s.blueprint && (
        <section className="panel" data-blueprint={s.blueprint.app}>
          <h3>What {s.blueprint.app} lacks</h3>
          {s.blueprint.methods.length === 0 ? (
            <div className="empty">{s.blueprint.app} implements every method of its interfaces: nothing left to learn.</div>
          ) : (
            <ul className="learn-methods">
              {s.blueprint.methods.map((m) => (
                <MethodCard key={m.ref} m={m} chosen={m.ref === s.method?.ref} busy={busy} onShow={() => act.showMeHow(m.ref)} />
              ))}
            </ul>
          )}
        </section>
      )}
      {!s.blueprint && s.loading && <div className="empty">Reading the blueprint…</div>}

      {s.method && s.app && (
        <section className="panel learn-demo" data-phase={s.phase}>
          <h3>Show me how to {s.method.intents[0] ? phrase(s.method.intents[0], s.values) : s.method.method}</h3>
          <p className="muted">
            {s.method.description} Use these values in your demonstration: each becomes an argument of the skill where you type, choose or
            open it.
          </p>
          {Object.keys(s.method.args).length > 0 ? (
            <ArgFields args={s.method.args} app={s.app} values={s.values} fieldErrors={s.fieldErrors} setValue={act.setValue} />
          ) : (
            <p className="muted">This method takes no arguments.</p>
          )}
          {onSite && (
            <label className="field" htmlFor="learn-start">
              <span className="field-name">start page</span>
              <input
                id="learn-start"
                value={s.start}
                disabled={busy}
                placeholder="/ — the home page, opened as the first step"
                onChange={(e) => act.setStart(e.target.value)}
              />
              <span className="field-hint">
                A path on {s.blueprint?.origin ?? 'the site'} to open before recording, where the method starts (a results page for
                open_product); it is not a step of the skill.
              </span>
            </label>
          )}
          <div className="row">
            {(s.phase === 'idle' || s.phase === 'starting') && (
              <button className="primary" disabled={busy || Boolean(current?.unavailable)} onClick={() => void act.record()}>
                {s.phase === 'starting' ? 'Opening…' : 'Record'}
              </button>
            )}
            {s.phase === 'recording' && (
              <button className="danger" onClick={() => void act.stop()}>
                Stop
              </button>
            )}
            {s.phase === 'done' && <button onClick={() => act.reset()}>Learn another</button>}
          </div>
          {s.phase === 'recording' && s.recording && (
            <div className="learn-recording" role="status">
              <span className="status status-running">Recording…</span>{' '}
              {s.recording.where === 'browser' ? (
                <>
                  do it in the browser SkillDesk opened on <code>{s.recording.url}</code>, then press Stop. The page may reach its own site
                  only.
                </>
              ) : (
                <>do it on the desktop, in {s.recording.app}&apos;s windows (other input is left out), then press Stop.</>
              )}
            </div>
          )}
          {s.phase === 'learning' && (
            <div className="learn-recording" role="status">
              <span className="status status-running">Learning…</span> generalizing the demonstration, then re-executing it to verify
              (permission prompts may ask about the new skill&apos;s steps).
            </div>
          )}
          {s.progress.length > 0 && (
            <ol className="learn-progress small muted">
              {s.progress.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ol>
          )}
        </section>
      )}

      {s.result && <Result r={s.result} />}
    </div>
  );
}
