import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../app/stores';
import { ArgForm } from './ArgForm';
import { Trajectory } from './Trajectory';

const NO_SKILLS: never[] = [];

/** Run: a goal box, or a skill picked from the library with its generated form; the live trajectory beside. */
export function RunScreen() {
  const { run, library } = useStores();
  const skills = useStore(library, (s) => s.view?.skills) ?? NO_SKILLS;
  const r = useStore(
    run,
    useShallow((s) => ({
      skill: s.skill,
      app: s.app,
      goal: s.goal,
      dryRun: s.dryRun,
      screenshots: s.screenshots,
      starting: s.starting,
      error: s.error,
      running: s.run?.status === 'running',
      selectSkill: s.selectSkill,
      setApp: s.setApp,
      setGoal: s.setGoal,
      setOptions: s.setOptions,
      start: s.start,
      startGoal: s.startGoal,
    })),
  );
  return (
    <div className="split">
      <section className="panel left">
        <h2>Goal</h2>
        <form
          className="goal"
          onSubmit={(e) => {
            e.preventDefault();
            void r.startGoal();
          }}
        >
          <input
            aria-label="goal"
            placeholder='e.g. "save the current document as /tmp/notes.txt"'
            value={r.goal}
            onChange={(e) => r.setGoal(e.target.value)}
          />
          <button type="submit" disabled={r.starting || !r.goal.trim()}>
            Do it
          </button>
        </form>
        <div className="row">
          <label
            className="check"
            title="Record what would happen with the recording driver; the desktop is not touched (permission checks still apply)"
          >
            <input type="checkbox" checked={r.dryRun} onChange={(e) => r.setOptions({ dryRun: e.target.checked })} /> Dry run (touch
            nothing)
          </label>
          <label className="check" title="Capture the screen after every step (thumbnails in the trajectory)">
            <input type="checkbox" checked={r.screenshots} onChange={(e) => r.setOptions({ screenshots: e.target.checked })} /> Screenshots
          </label>
        </div>
        <h2>Or run a skill</h2>
        <label className="field">
          <span className="field-name">Skill</span>
          <select aria-label="skill" value={r.skill?.id ?? ''} onChange={(e) => void r.selectSkill(e.target.value)}>
            <option value="" disabled>
              Choose a skill…
            </option>
            {skills.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id}
                {s.app ? '' : ' (any app)'}
              </option>
            ))}
          </select>
        </label>
        {r.skill && (
          <>
            <p className="muted">{r.skill.description}</p>
            {r.skill.apps.length > 0 && (
              <label className="field">
                <span className="field-name">App</span>
                <select aria-label="app" value={r.app ?? ''} onChange={(e) => r.setApp(e.target.value)} disabled={Boolean(r.skill.app)}>
                  {r.skill.apps.map((a) => (
                    <option key={a} value={a}>
                      {a}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <ArgForm />
            <button className="primary" data-action="run" disabled={r.starting || r.running} onClick={() => void r.start()}>
              {r.starting ? 'Starting…' : 'Run'}
            </button>
          </>
        )}
        {r.error && (
          <div className="error-box" role="alert">
            {r.error.message}
          </div>
        )}
      </section>
      <section className="panel right">
        <h2>Trajectory</h2>
        <Trajectory />
      </section>
    </div>
  );
}
