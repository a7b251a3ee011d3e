import { useEffect, useState } from 'react';
import type { DirectoryView, IpcError } from '../../../../shared/ipc';
import { useStores } from '../../app/stores';

/**
 * Picks a path on the machine that runs the skills (main lists its folders; in host mode the
 * browser's own file dialog would only give a name). Files are chosen by clicking them or by
 * typing a new name; folders with "Use this folder".
 */
export function PathPicker(p: {
  target: 'file' | 'directory' | 'any';
  start?: string;
  extensions?: string[];
  onPick: (path: string) => void;
  onClose: () => void;
}) {
  const { bridge } = useStores();
  const [dir, setDir] = useState<DirectoryView>();
  const [error, setError] = useState<IpcError>();
  const [name, setName] = useState('');

  const open = async (path?: string): Promise<void> => {
    const r = await bridge.filesList({ ...(path && { path }) });
    if (r.ok) {
      setDir(r.value);
      setError(undefined);
    } else setError(r.error);
  };
  useEffect(() => {
    const start =
      p.start && /[\\/]/.test(p.start) ? p.start.slice(0, Math.max(p.start.lastIndexOf('/'), p.start.lastIndexOf('\\'))) || '/' : undefined;
    void open(start).then(() => undefined);
    // Only the first folder depends on `start`; later navigation is the user's.
  }, []);

  const join = (base: string, leaf: string): string =>
    base.endsWith(dir?.sep ?? '/') ? `${base}${leaf}` : `${base}${dir?.sep ?? '/'}${leaf}`;
  const matches = (n: string): boolean => !p.extensions?.length || p.extensions.some((e) => n.toLowerCase().endsWith(e.toLowerCase()));

  return (
    <div className="modal-backdrop">
      <div className="modal picker" role="dialog" aria-label="choose a path">
        <h2>Choose a {p.target === 'directory' ? 'folder' : 'file'}</h2>
        <div className="row">
          <button disabled={!dir?.parent} onClick={() => dir?.parent && void open(dir.parent)}>
            Up
          </button>
          <code className="picker-path">{dir?.path ?? '…'}</code>
        </div>
        {error && <div className="error-box">{error.message}</div>}
        <ul className="picker-list">
          {dir?.entries.map((e) => (
            <li key={e.name}>
              {e.kind === 'directory' ? (
                <button className="link folder" title="open this folder" onClick={() => void open(join(dir.path, e.name))}>
                  {e.name}/
                </button>
              ) : (
                <button
                  className="link"
                  disabled={p.target === 'directory' || !matches(e.name)}
                  onClick={() => p.onPick(join(dir.path, e.name))}
                >
                  {e.name}
                </button>
              )}
            </li>
          ))}
          {dir && dir.entries.length === 0 && <li className="muted">(empty folder)</li>}
        </ul>
        <div className="row end">
          {p.target !== 'directory' && (
            <>
              <input
                aria-label="new file name"
                placeholder={`new file name${p.extensions?.[0] ? `, e.g. notes${p.extensions[0]}` : ''}`}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
              <button disabled={!dir || !name.trim() || /[\\/]/.test(name)} onClick={() => dir && p.onPick(join(dir.path, name.trim()))}>
                Use this name
              </button>
            </>
          )}
          {p.target !== 'file' && (
            <button disabled={!dir} onClick={() => dir && p.onPick(dir.path)}>
              Use this folder
            </button>
          )}
          <button onClick={p.onClose}>Cancel</button>
        </div>
      </div>
    </div>
  );
}
