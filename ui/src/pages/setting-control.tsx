// The control a setting's type calls for (number → slider or number input,
// boolean → toggle, string → text or select, string[] → tag input), bound to
// the draft a person is editing. Labelled by the field's label; described by
// its badge and error.
import { useState } from 'preact/hooks';
import { addTag, type Control, type Draft, type SettingDef } from '../settings-model.ts';

export interface ControlProps {
  id: string;
  def: SettingDef;
  control: Control;
  draft: Draft;
  disabled: boolean;
  invalid: boolean;
  describedBy: string;
  onChange: (d: Draft) => void;
}

const str = (d: Draft): string => (typeof d === 'string' ? d : '');

function Tags({ id, def, draft, disabled, invalid, describedBy, onChange }: ControlProps) {
  const [text, setText] = useState('');
  const tags = Array.isArray(draft) ? draft : [];
  const add = () => {
    onChange(addTag(tags, text));
    setText('');
  };
  return (
    <div class="tags">
      <ul aria-label={`${def.label}: values`}>
        {tags.map((t) => (
          <li key={t}>
            <span>{t}</span>
            <button
              type="button"
              class="link"
              disabled={disabled}
              aria-label={`Remove ${t} from ${def.label}`}
              onClick={() => onChange(tags.filter((x) => x !== t))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <input
        id={id}
        value={text}
        disabled={disabled}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        placeholder="Type and press Enter"
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
      />
      <button type="button" class="secondary" disabled={disabled} onClick={add}>
        Add
      </button>
    </div>
  );
}

function Slider(p: ControlProps) {
  const step = p.def.step ?? ((p.def.max ?? 1) - (p.def.min ?? 0)) / 100;
  return (
    <span class="slider">
      <input
        id={p.id}
        type="range"
        min={p.def.min}
        max={p.def.max}
        step={step}
        value={str(p.draft)}
        disabled={p.disabled}
        aria-invalid={p.invalid}
        aria-describedby={p.describedBy}
        onInput={(e) => p.onChange(e.currentTarget.value)}
      />
      <output for={p.id}>{str(p.draft)}</output>
    </span>
  );
}

export function SettingControl(p: ControlProps) {
  const common = {
    id: p.id,
    disabled: p.disabled,
    'aria-invalid': p.invalid,
    'aria-describedby': p.describedBy,
  };
  switch (p.control) {
    case 'slider':
      return <Slider {...p} />;
    case 'toggle':
      return (
        <input
          {...common}
          type="checkbox"
          role="switch"
          checked={p.draft === true}
          onChange={(e) => p.onChange(e.currentTarget.checked)}
        />
      );
    case 'select':
      return (
        <select {...common} value={str(p.draft)} onChange={(e) => p.onChange(e.currentTarget.value)}>
          {(p.def.options ?? []).map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      );
    case 'tags':
      return <Tags {...p} />;
    case 'number':
      return (
        <input
          {...common}
          type="number"
          step="any"
          value={str(p.draft)}
          onInput={(e) => p.onChange(e.currentTarget.value)}
        />
      );
    default:
      return <input {...common} value={str(p.draft)} onInput={(e) => p.onChange(e.currentTarget.value)} />;
  }
}
