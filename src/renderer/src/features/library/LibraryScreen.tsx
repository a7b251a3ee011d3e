import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../app/stores';
import { CompositionGraph } from './CompositionGraph';
import { InterfaceTable, VerificationBadge } from './InterfaceTable';
import { visibleSkills } from './libraryStore';

/** Library: interfaces, apps and skills; retriever search; problems; the composition graph. */
export function LibraryScreen() {
  const { library, run, editor, shell } = useStores();
  const s = useStore(
    library,
    useShallow((x) => ({ view: x.view, hits: x.hits, filter: x.filter, query: x.query, error: x.error, loading: x.loading })),
  );
  const [selected, setSelected] = useState<string>();
  const [tab, setTab] = useState<'interfaces' | 'skills' | 'composition'>('interfaces');
  const skills = visibleSkills(s);
  const detail = s.view?.skills.find((k) => k.id === selected);

  useEffect(() => {
    if (tab === 'composition') void library.getState().loadComposition();
  }, [tab, library]);

  return (
    <div className="split narrow-left">
      <section className="panel left">
        <input
          className="search"
          type="search"
          aria-label="search skills"
          placeholder="Search: “save file as”, “compute”…"
          value={s.query}
          onChange={(e) => {
            // Search hits are skills: show them in the skills table.
            setTab('skills');
            void library.getState().search(e.target.value);
          }}
        />
        <h3>Interfaces</h3>
        <ul className="facets">
          <li>
            <button className={!s.filter.domain && !s.filter.app ? 'link active' : 'link'} onClick={() => library.getState().setFilter({})}>
              All skills ({s.view?.skills.length ?? 0})
            </button>
          </li>
          {s.view?.interfaces.map((i) => (
            <li key={i.id}>
              <button
                className={s.filter.domain === i.id ? 'link active' : 'link'}
                title={i.description}
                onClick={() => library.getState().setFilter({ domain: i.id })}
              >
                {i.id} <span className="muted">{i.methods.length} methods</span>
              </button>
            </li>
          ))}
        </ul>
        <h3>Apps</h3>
        <ul className="facets">
          {s.view?.apps.map((a) => (
            <li key={a.id}>
              <button
                className={s.filter.app === a.id ? 'link active' : 'link'}
                onClick={() => library.getState().setFilter({ app: a.id })}
              >
                {a.name} <span className="muted">{a.platforms.join(', ')}</span>
              </button>
            </li>
          ))}
        </ul>
        <button onClick={() => void library.getState().reload()} disabled={s.loading}>
          {s.loading ? 'Loading…' : 'Reload library'}
        </button>
        {s.view && s.view.problems.length > 0 && (
          <details className="problems" open>
            <summary>{s.view.problems.length} problem(s) in skill files</summary>
            <ul>
              {s.view.problems.map((p, i) => (
                <li key={i} className={`sev-${p.severity}`}>
                  <code>
                    {p.file.split('/').slice(-2).join('/')}:{p.line ?? 1}
                  </code>{' '}
                  {p.path.join('.')}: {p.message}
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
      <section className="panel right">
        <div className="tabs-inline">
          <button className={tab === 'interfaces' ? 'tab active' : 'tab'} onClick={() => setTab('interfaces')}>
            By interface
          </button>
          <button className={tab === 'skills' ? 'tab active' : 'tab'} onClick={() => setTab('skills')}>
            Skills
          </button>
          <button className={tab === 'composition' ? 'tab active' : 'tab'} onClick={() => setTab('composition')}>
            Composition graph
          </button>
        </div>
        {s.error && <div className="error-box">{s.error.message}</div>}
        {tab === 'composition' ? (
          <CompositionGraph />
        ) : tab === 'interfaces' ? (
          s.view && (
            <InterfaceTable
              view={s.view}
              filter={s.filter}
              onSelect={(id) => {
                setSelected(id);
                setTab('skills');
              }}
            />
          )
        ) : (
          <div className="library-body">
            <table className="skills">
              <thead>
                <tr>
                  <th>skill</th>
                  <th>kind</th>
                  <th>app</th>
                  <th>primitives</th>
                  <th>reliability</th>
                  <th>verified</th>
                  <th>origin</th>
                </tr>
              </thead>
              <tbody>
                {skills.map((k) => (
                  <tr key={k.id} className={k.id === selected ? 'selected' : ''} onClick={() => setSelected(k.id)} data-skill={k.id}>
                    <td>
                      <code>{k.id}</code>
                      <div className="muted small">{k.description}</div>
                    </td>
                    <td>{k.kind.replace('_', ' ')}</td>
                    <td>{k.app ?? 'any'}</td>
                    <td>{k.primitives}</td>
                    <td>
                      {k.reliability ? (
                        <span title="measured on real apps by the reliability benchmark (npm run bench -- reliability)">{`${Math.round(k.reliability.successRate * 100)}% of ${k.reliability.runs} runs`}</span>
                      ) : (
                        <span className="muted" title="run `npm run bench -- reliability` to measure">
                          not measured
                        </span>
                      )}
                    </td>
                    <td>
                      <VerificationBadge verification={k.verification} tests={k.liveTests} />
                    </td>
                    <td>{k.origin}</td>
                  </tr>
                ))}
                {!skills.length && (
                  <tr>
                    <td colSpan={7} className="muted">
                      No skill matches.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
            {detail && (
              <aside className="detail">
                <h3>
                  <code>{detail.id}</code>
                </h3>
                <p>{detail.description}</p>
                {detail.implements && (
                  <p className="muted">
                    implements <code>{detail.implements}</code>
                  </p>
                )}
                <h4>Intents</h4>
                <ul>
                  {detail.intents.map((t) => (
                    <li key={t}>{t}</li>
                  ))}
                </ul>
                <p className="muted small">{detail.file}</p>
                <div className="row">
                  <button
                    className="primary"
                    onClick={() => {
                      void run.getState().selectSkill(detail.id);
                      shell.getState().go('run');
                    }}
                  >
                    Run…
                  </button>
                  <button
                    onClick={() => {
                      void editor.getState().open(detail.id);
                      shell.getState().go('editor');
                    }}
                  >
                    {detail.kind === 'composite' ? 'View graph' : 'Edit graph'}
                  </button>
                </div>
              </aside>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
