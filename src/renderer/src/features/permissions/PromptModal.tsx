import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useStores } from '../../app/stores';

/** Host mode's approval dialog: skill, capability, target and policy source; allow once / for the session / deny. */
export function PromptModal() {
  const { permissions } = useStores();
  const prompt = useStore(permissions, (s) => s.prompts[0]);
  const queued = useStore(permissions, (s) => s.prompts.length - 1);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!prompt) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [prompt]);
  if (!prompt) return null;
  const left = Math.max(0, Math.round((prompt.expiresAt - now) / 1000));
  const answer = (a: 'allow_once' | 'allow_session' | 'deny') => void permissions.getState().answer(prompt.promptId, a);
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="alertdialog"
        aria-labelledby="prompt-title"
        aria-describedby="prompt-body"
        data-prompt-id={prompt.promptId}
      >
        <h2 id="prompt-title">Allow this step?</h2>
        <dl id="prompt-body" className="kv">
          <dt>Skill</dt>
          <dd>
            <code>{prompt.skillId}</code> <span className="muted">({prompt.trust})</span>
          </dd>
          <dt>Capability</dt>
          <dd>
            <code>{prompt.capability}</code> <span className="muted">{prompt.level}</span>
          </dd>
          {prompt.target && (
            <>
              <dt>Target</dt>
              <dd>
                <code>{prompt.target}</code>
              </dd>
            </>
          )}
          <dt>Why</dt>
          <dd>
            {prompt.fallbackMsg ? (
              <>
                {prompt.fallbackMsg}
                <br />
              </>
            ) : null}
            {prompt.reason}
          </dd>
          <dt>Policy</dt>
          <dd>
            <code>{prompt.policySource}</code>
          </dd>
        </dl>
        <p className="muted">
          Denied automatically in {left} s{queued > 0 ? ` · ${queued} more waiting` : ''}. A session grant never widens what the skill
          declares.
        </p>
        <div className="row end">
          <button className="danger" onClick={() => answer('deny')}>
            Deny
          </button>
          <button onClick={() => answer('allow_session')}>Allow for this session</button>
          <button className="primary" onClick={() => answer('allow_once')} autoFocus>
            Allow once
          </button>
        </div>
      </div>
    </div>
  );
}
