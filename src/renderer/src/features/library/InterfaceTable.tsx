import type { LibraryView } from '../../../../shared/ipc';
import type { Verification } from '../../../../shared/skill/liveTests';

const LABEL: Record<Verification, { text: string; title: string }> = {
  live_desktop: { text: 'live', title: 'run by the live tests shipped with the skills, on a real app on the test desktop' },
  live_windows: { text: 'Windows lane', title: 'run by the shipped live tests on Windows programs in the Windows lane' },
  dry_run: { text: 'dry run', title: 'checked by dry runs only: the graph walks and its permissions, not a real app' },
};

/** How a skill is verified, as a small badge. */
export function VerificationBadge({ verification, tests }: { verification: Verification; tests?: number }) {
  const l = LABEL[verification];
  return (
    <span className={`badge verify-${verification}`} title={l.title}>
      {l.text}
      {tests ? ` · ${tests}` : ''}
    </span>
  );
}

/**
 * The library as it is organised: per interface, each method and the apps implementing it (a
 * composite: every app of the interface), with how each implementation is verified.
 */
export function InterfaceTable({
  view,
  filter,
  onSelect,
}: {
  view: LibraryView;
  filter: { domain?: string; app?: string };
  onSelect: (skillId: string) => void;
}) {
  const c = view.counts;
  const interfaces = view.interfaces.filter((i) => !filter.domain || i.id === filter.domain);
  return (
    <div className="library-interfaces">
      <p className="muted small">
        {c.interfaces} interfaces, {c.methods} methods ({c.composites} composites), {c.implementations} implementations on {c.apps} apps ·
        live on the test desktop: {c.liveDesktop.implementations} on {c.liveDesktop.apps} apps ({c.liveDesktop.tests} tests) · Windows lane:{' '}
        {c.liveWindows.implementations} · dry run only: {c.dryRunOnly}
      </p>
      <table className="skills interfaces">
        <thead>
          <tr>
            <th>method</th>
            <th>implementations (app · verification)</th>
          </tr>
        </thead>
        <tbody>
          {interfaces.map((i) => [
            <tr key={i.id} className="group">
              <th colSpan={2} title={i.description}>
                {i.id}
                {i.extends.length > 0 && <span className="muted small"> extends {i.extends.join(', ')}</span>}
              </th>
            </tr>,
            ...i.methods.map((m) => {
              const impls = m.implementations.filter((x) => !filter.app || x.app === filter.app);
              return (
                <tr key={`${i.id}.${m.name}`} data-method={`${i.id}.${m.name}`}>
                  <td title={m.description}>
                    <code>{m.name}</code>
                    {m.composite && <span className="muted small"> composite</span>}
                  </td>
                  <td>
                    {impls.length === 0 && <span className="muted">none</span>}
                    {impls.map((x) => (
                      <button key={x.app} className="link impl" onClick={() => onSelect(x.skillId)} title={x.tests.join('\n')}>
                        {x.app} <VerificationBadge verification={x.verification} tests={x.tests.length} />
                      </button>
                    ))}
                  </td>
                </tr>
              );
            }),
          ])}
        </tbody>
      </table>
    </div>
  );
}
