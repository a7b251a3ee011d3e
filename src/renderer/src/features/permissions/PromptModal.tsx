import { useEffect, useState, type MouseEvent } from 'react';
import { useStore } from 'zustand';
import type { PromptAnswer } from '../../../../shared/ipc';
import { displaySegments, escapeForDisplay, type DisplayOptions } from '../../../../shared/permissions/display';
import { SKILL_SAYS_LABEL } from '../../../../shared/permissions/promptText';
import { useStores } from '../../app/stores';

/** Untrusted text with its hidden and control characters shown as highlighted escapes (`\r`, `\u{202E}`). */
function Escaped({ text, ...options }: { text: string } & DisplayOptions) {
  return (
    <>
      {displaySegments(text, options).map((s, i) =>
        s.escape ? (
          <span key={i} className="esc" title="a hidden or control character, shown as its escape">
            {s.text}
          </span>
        ) : (
          s.text
        ),
      )}
    </>
  );
}

/** The presence proof for the prompt on screen: the nonce from `permissions:show` and when an answer may be given. */
interface Presence {
  promptId: string;
  nonce: string;
  readyAt: number;
}

/**
 * Host mode's approval dialog: skill, capability, the whole target (scrollable, escaped), the
 * skill's own message under its label, the reason and policy source; allow once / for the
 * session / deny. The answer counts only when it is a real click (or key press) on this dialog,
 * in the owner page, after the prompt has been on screen for a moment (src/main/bridge/PromptBroker.ts).
 */
export function PromptModal() {
  const { permissions, shell } = useStores();
  const prompt = useStore(permissions, (s) => s.prompts[0]);
  const queued = useStore(permissions, (s) => s.prompts.length - 1);
  const owner = useStore(shell, (s) => s.owner);
  const [presence, setPresence] = useState<Presence>();
  const [now, setNow] = useState(Date.now());
  const promptId = prompt?.promptId;

  useEffect(() => {
    if (!prompt) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [prompt]);

  // Tell main the prompt is on screen (only once the tab is visible), and enable the buttons when it says.
  useEffect(() => {
    if (!promptId || !owner) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const showNow = () => {
      if (document.visibilityState !== 'visible') return;
      document.removeEventListener('visibilitychange', showNow);
      void permissions
        .getState()
        .show(promptId)
        .then((shown) => {
          if (!live || !shown) return;
          setPresence({ promptId, nonce: shown.nonce, readyAt: Date.now() + shown.answerableInMs });
          timer = setTimeout(() => setNow(Date.now()), shown.answerableInMs);
        });
    };
    document.addEventListener('visibilitychange', showNow);
    showNow();
    return () => {
      live = false;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', showNow);
    };
  }, [promptId, owner, permissions]);

  if (!prompt) return null;
  const left = Math.max(0, Math.round((prompt.expiresAt - now) / 1000));
  const proof = presence?.promptId === prompt.promptId && now >= presence.readyAt ? presence : undefined;
  const answer = (a: PromptAnswer) => (e: MouseEvent<HTMLButtonElement>) => {
    // A script's el.click() or dispatchEvent() is not trusted: only the user's own click or key press answers.
    if (!e.nativeEvent.isTrusted || !proof) return;
    void permissions.getState().answer(prompt.promptId, a, proof.nonce);
  };
  const escaped = prompt.target === undefined ? 0 : escapeForDisplay(prompt.target, { multiline: true }).escaped;
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
            <code>
              <Escaped text={prompt.skillId} />
            </code>{' '}
            <span className="muted">({prompt.trust})</span>
          </dd>
          <dt>Capability</dt>
          <dd>
            <code>{prompt.capability}</code> <span className="muted">{prompt.level}</span>
          </dd>
          {prompt.target !== undefined && (
            <>
              <dt>Target</dt>
              <dd>
                <pre className="prompt-target" tabIndex={0} aria-label="the target, in full">
                  <Escaped text={prompt.target} multiline />
                </pre>
                <span className="muted">
                  {Array.from(prompt.target).length} characters, shown in full
                  {escaped > 0 && (
                    <strong className="warn-text">
                      {' '}
                      · {escaped} hidden or control character{escaped === 1 ? '' : 's'}, shown highlighted as escapes
                    </strong>
                  )}
                </span>
              </dd>
            </>
          )}
          {prompt.fallbackMsg && (
            <>
              <dt>The skill</dt>
              <dd>
                <blockquote className="skill-says">
                  <span className="muted">{SKILL_SAYS_LABEL}</span>
                  <br />
                  <Escaped text={prompt.fallbackMsg} multiline />
                </blockquote>
              </dd>
            </>
          )}
          <dt>Why</dt>
          <dd>
            <Escaped text={prompt.reason} />
          </dd>
          <dt>Policy</dt>
          <dd>
            <code>
              <Escaped text={prompt.policySource} />
            </code>
          </dd>
        </dl>
        {!owner && (
          <p className="error-box">
            Answer this in the SkillDesk page that was opened first: only that page may approve steps (a second page or a script holding the
            address can watch, not approve).
          </p>
        )}
        <p className="muted">
          Denied automatically in {left} s{queued > 0 ? ` · ${queued} more waiting` : ''}. A session grant never widens what the skill
          declares.
        </p>
        <div className="row end">
          <button className="danger" onClick={answer('deny')} disabled={!proof}>
            Deny
          </button>
          <button onClick={answer('allow_session')} disabled={!proof}>
            Allow for this session
          </button>
          <button className="primary" onClick={answer('allow_once')} disabled={!proof}>
            Allow once
          </button>
        </div>
      </div>
    </div>
  );
}
