import { useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { ArgSpec, ArgSpecs } from '../../../../shared/skill';
import { useStores } from '../../app/stores';
import { PathPicker } from './PathPicker';

function hint(spec: ArgSpec): string {
  switch (spec.type) {
    case 'number':
      return [spec.integer ? 'integer' : 'number', spec.min !== undefined && `≥ ${spec.min}`, spec.max !== undefined && `≤ ${spec.max}`]
        .filter(Boolean)
        .join(' ');
    case 'path':
      return `${spec.absolute === false ? '' : 'absolute '}path to a ${spec.target ?? 'file'}${spec.extensions ? ` (${spec.extensions.join(', ')})` : ''}`;
    case 'string':
      return (
        [spec.pattern && `matches /${spec.pattern}/`, spec.maxLength && `≤ ${spec.maxLength} chars`].filter(Boolean).join(', ') || 'text'
      );
    case 'text':
      return 'free text; newlines and tabs are typed as-is';
    case 'list':
      return `one ${hint(spec.items)} per line`;
    case 'date':
      return 'date YYYY-MM-DD';
    case 'time':
      return `24-hour time ${spec.seconds ? 'HH:MM:SS' : 'HH:MM'}`;
    case 'choice':
      return `one of the current ${spec.source.kind === 'directory' ? 'files' : spec.source.kind}`;
    default:
      return spec.type;
  }
}

/** The form generated from a skill's argument schema: enums as selects, ranges checked as you type. */
export function ArgForm() {
  const { run } = useStores();
  const { skill, values, fieldErrors, setValue } = useStore(
    run,
    useShallow((s) => ({ skill: s.skill, values: s.values, fieldErrors: s.fieldErrors, setValue: s.setValue })),
  );
  if (!skill) return null;
  if (!Object.keys(skill.args).length) return <p className="muted">This skill takes no arguments.</p>;
  return (
    <ArgFields args={skill.args} {...(skill.app && { app: skill.app })} values={values} fieldErrors={fieldErrors} setValue={setValue} />
  );
}

/**
 * Fields generated from argument specs (the run form's, the Learn screen's): enums as selects,
 * numbers as number inputs, booleans as checkboxes, text and lists as text areas, paths with a picker.
 */
export function ArgFields(p: {
  args: ArgSpecs;
  /** The app the values are for: a path field shows a path of its platform as placeholder. */
  app?: string;
  values: Record<string, string | boolean>;
  fieldErrors: Record<string, string>;
  setValue: (name: string, raw: string | boolean) => void;
}) {
  const { args, values, fieldErrors, setValue } = p;
  const [picking, setPicking] = useState<string>();
  const entries = Object.entries(args);
  return (
    <div className="form">
      {entries.map(([name, spec]) => {
        const value = values[name];
        const err = fieldErrors[name];
        const id = `arg-${name}`;
        let input;
        if (spec.type === 'enum') {
          input = (
            <select id={id} name={name} value={String(value ?? '')} onChange={(e) => setValue(name, e.target.value)}>
              {spec.values.map((v) => (
                <option key={String(v)} value={String(v)}>
                  {String(v)}
                </option>
              ))}
            </select>
          );
        } else if (spec.type === 'boolean') {
          input = <input id={id} name={name} type="checkbox" checked={value === true} onChange={(e) => setValue(name, e.target.checked)} />;
        } else if (spec.type === 'text' || spec.type === 'list') {
          input = <textarea id={id} name={name} rows={4} value={String(value ?? '')} onChange={(e) => setValue(name, e.target.value)} />;
        } else {
          const text = (
            <input
              id={id}
              name={name}
              type={spec.type === 'number' ? 'number' : spec.type === 'date' ? 'date' : spec.type === 'time' ? 'time' : 'text'}
              value={String(value ?? '')}
              {...(spec.type === 'number' && { min: spec.min, max: spec.max, step: spec.integer ? 1 : 'any' })}
              placeholder={
                spec.type === 'path'
                  ? p.app === 'notepad'
                    ? 'C:\\Users\\me\\file.txt'
                    : '/tmp/file.txt'
                  : String(spec.examples?.[0] ?? '')
              }
              onChange={(e) => setValue(name, e.target.value)}
              aria-invalid={Boolean(err)}
            />
          );
          input =
            spec.type === 'path' ? (
              <div className="with-button">
                {text}
                <button type="button" onClick={() => setPicking(name)}>
                  Browse…
                </button>
              </div>
            ) : (
              text
            );
        }
        return (
          <label key={name} className={err ? 'field invalid' : 'field'} htmlFor={id}>
            <span className="field-name">
              {name}
              {!spec.optional && spec.default === undefined && <span className="req">*</span>}
            </span>
            {input}
            <span className="field-hint">
              {spec.description ? `${spec.description} — ` : ''}
              {hint(spec)}
            </span>
            {err && (
              <span className="field-error" role="alert">
                {err}
              </span>
            )}
          </label>
        );
      })}
      {picking &&
        args[picking]?.type === 'path' &&
        (() => {
          const spec = args[picking] as Extract<ArgSpec, { type: 'path' }>;
          return (
            <PathPicker
              target={spec.target ?? 'file'}
              start={String(values[picking] ?? '')}
              {...(spec.extensions && { extensions: spec.extensions })}
              onPick={(path) => {
                setValue(picking, path);
                setPicking(undefined);
              }}
              onClose={() => setPicking(undefined)}
            />
          );
        })()}
    </div>
  );
}
