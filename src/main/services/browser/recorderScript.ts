/**
 * The listener a demonstration injects into every page (an init script, so it survives
 * navigations): it reports what a person does — clicks, fields changed, Enter and Escape in a
 * field — through the binding `BINDING`, each with the element's role, accessible name, label,
 * placeholder, test id and a CSS path, which the recorder turns into locators. It reads the page
 * and sends events; it changes nothing and sends nothing anywhere but to SkillDesk.
 */
export const RECORDER_BINDING = '__skilldeskRecord';

export const RECORDER_SCRIPT = `(() => {
  if (window.__skilldeskRecording) return;
  window.__skilldeskRecording = true;
  const send = (e) => { try { window.${RECORDER_BINDING}(e); } catch (_) {} };
  const squash = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const INPUT_ROLES = { button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
    range: 'slider', number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox',
    password: 'textbox', '': 'textbox' };
  const roleOf = (el) => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(/\\s+/)[0];
    const tag = el.tagName.toLowerCase();
    if (tag === 'a' && el.hasAttribute('href')) return 'link';
    if (tag === 'button') return 'button';
    if (tag === 'input') return INPUT_ROLES[(el.getAttribute('type') || '').toLowerCase()] || 'textbox';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') return el.multiple ? 'listbox' : 'combobox';
    if (/^h[1-6]$/.test(tag)) return 'heading';
    if (tag === 'summary') return 'button';
    return undefined;
  };
  const labelOf = (el) => {
    if (el.labels && el.labels.length) return squash(Array.from(el.labels).map((l) => l.textContent).join(' '));
    const wrap = el.closest('label');
    return wrap ? squash(wrap.textContent) : undefined;
  };
  const nameOf = (el, role) => {
    const aria = el.getAttribute('aria-label');
    if (aria) return squash(aria);
    const by = el.getAttribute('aria-labelledby');
    if (by) return squash(by.split(/\\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' '));
    const label = labelOf(el);
    if (label) return label;
    if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type)) return squash(el.value) || undefined;
    if (role === 'button' || role === 'link' || role === 'heading' || role === 'checkbox' || role === 'radio')
      return squash(el.innerText || el.textContent) || squash(el.getAttribute('title')) || undefined;
    return squash(el.getAttribute('title')) || undefined;
  };
  const cssPath = (el) => {
    const parts = [];
    for (let n = el; n && n.nodeType === 1 && n !== document.documentElement; n = n.parentElement) {
      if (n.id) { parts.unshift('#' + CSS.escape(n.id)); break; }
      const tag = n.tagName.toLowerCase();
      const same = n.parentElement ? Array.from(n.parentElement.children).filter((c) => c.tagName === n.tagName) : [];
      parts.unshift(same.length > 1 ? tag + ':nth-of-type(' + (same.indexOf(n) + 1) + ')' : tag);
    }
    return parts.join(' > ');
  };
  const describe = (el) => {
    const role = roleOf(el);
    const t = { selector: cssPath(el) };
    if (role) t.role = role;
    const name = nameOf(el, role);
    if (name) t.name = name.slice(0, 200);
    const label = labelOf(el);
    if (label) t.label = label.slice(0, 200);
    const ph = el.getAttribute('placeholder');
    if (ph) t.placeholder = ph;
    const tid = el.getAttribute('data-testid');
    if (tid) t.testId = tid;
    // Which of the elements of the same role and name it is, when several share them (a list of
    // "Add to basket" buttons): the recorder keeps the position.
    if (role && name) {
      const same = Array.from(document.querySelectorAll('a,button,input,select,textarea,summary,[role]')).filter(
        (o) => roleOf(o) === role && nameOf(o, role) === name,
      );
      if (same.length > 1) { t.count = same.length; t.index = same.indexOf(el); }
    }
    return t;
  };
  const base = () => ({ at: Date.now(), url: location.href, title: document.title });
  const actionable = (start) => start instanceof Element
    ? start.closest('a[href],button,input,select,textarea,summary,label,[role],[onclick],[tabindex]') || start
    : undefined;
  // When Enter was last pressed in a field: the form's implicit submission then "clicks" its
  // default button (a click with no pointer, detail 0), which is the Enter's effect, not a step.
  let enterAt = -Infinity;
  document.addEventListener('click', (ev) => {
    if (!ev.isTrusted) return;
    if (ev.detail === 0 && Date.now() - enterAt < 1000) return;
    let el = actionable(ev.target);
    if (!el) return;
    // A click on a field's label lands on the field; fields report their change instead.
    if (el.tagName === 'LABEL' && el.control) el = el.control;
    const tag = el.tagName;
    if ((tag === 'INPUT' && !['button', 'submit', 'reset', 'image'].includes(el.type)) || tag === 'TEXTAREA' || tag === 'SELECT') return;
    send({ ...base(), type: 'click', target: describe(el) });
  }, true);
  document.addEventListener('change', (ev) => {
    if (!ev.isTrusted) return;
    const el = ev.target;
    if (!(el instanceof Element)) return;
    if (el.tagName === 'SELECT') send({ ...base(), type: 'select', target: describe(el), value: el.value });
    else if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) send({ ...base(), type: 'check', target: describe(el), checked: el.checked });
    else if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') send({ ...base(), type: 'fill', target: describe(el), value: el.value });
  }, true);
  document.addEventListener('keydown', (ev) => {
    if (!ev.isTrusted || (ev.key !== 'Enter' && ev.key !== 'Escape')) return;
    const el = ev.target;
    const field = el instanceof Element && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') ? el : undefined;
    // The field's value first: Enter may submit before its change event.
    if (field && ev.key === 'Enter' && field.tagName === 'INPUT') {
      enterAt = Date.now();
      send({ ...base(), type: 'fill', target: describe(field), value: field.value });
    }
    send({ ...base(), type: 'press', key: ev.key, ...(field && { target: describe(field) }) });
  }, true);
})();`;
