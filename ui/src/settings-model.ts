// The settings panels' pure part: an auditor's settings schema
// (GET /v1/auditors/schema/{id}) and a tier's view of the cascade
// (GET /v1/auditors/settings) joined into one field per setting, with the
// control its type calls for and the badge that says where the value comes
// from; what a person typed turned back into a value.

export type SettingType = 'number' | 'boolean' | 'string' | 'string[]';
export type Scope = 'org' | 'workspace' | 'agent';

export interface SettingDef {
  key: string;
  label: string;
  type: SettingType;
  default: unknown;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  control?: string;
  options?: string[];
}

export interface AuditorSchema {
  auditor_id: string;
  builtin: boolean;
  claims: { name: string; description: string; settings: SettingDef[] }[];
}

export interface SettingView {
  auditor_id: string;
  /** The stored (camelCase) name. */
  setting: string;
  value: unknown;
  source: Scope;
  badge: string;
  badge_kind: 'LOCKED' | 'INHERITED' | 'OVERRIDDEN' | 'DIRECT';
  locked: boolean;
  editable: boolean;
  parent_value?: unknown;
  parent_scope?: 'org' | 'workspace';
}

export type Control = 'slider' | 'number' | 'toggle' | 'select' | 'text' | 'tags';

export interface Field {
  def: SettingDef;
  control: Control;
  /** The value in effect at this tier. */
  value: unknown;
  /** Where it comes from: the auditor's default or a tier. */
  from: 'default' | Scope;
  badge: string;
  /** Set at this tier: Reset makes it inherit again. */
  setHere: boolean;
  editable: boolean;
  /** Set here with a lock: lower tiers cannot change it. */
  locked: boolean;
}

/** `max_token_limit` → `maxTokenLimit`, as the cascade stores setting names. */
export const camelOf = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function controlOf(def: SettingDef): Control {
  switch (def.type) {
    case 'number':
      return def.control === 'slider' && def.min !== undefined && def.max !== undefined ? 'slider' : 'number';
    case 'boolean':
      return 'toggle';
    case 'string[]':
      return 'tags';
    default:
      return def.options && def.options.length > 0 ? 'select' : 'text';
  }
}

/** Every setting of the auditor once (claims may repeat a key: the first one holds). */
export function settingDefs(schema: AuditorSchema): SettingDef[] {
  const seen = new Map<string, SettingDef>();
  for (const claim of schema.claims) for (const s of claim.settings) if (!seen.has(s.key)) seen.set(s.key, s);
  return [...seen.values()];
}

function fieldOf(def: SettingDef, view: SettingView | undefined, scope: Scope): Field {
  const control = controlOf(def);
  if (!view)
    return {
      def,
      control,
      value: def.default,
      from: 'default',
      badge: 'DEFAULT',
      setHere: false,
      editable: true,
      locked: false,
    };
  return {
    def,
    control,
    value: view.value ?? def.default,
    from: view.source,
    badge: view.badge,
    setHere: view.source === scope && view.badge_kind !== 'LOCKED',
    editable: view.editable,
    locked: view.locked,
  };
}

/** The label as a person reads it: the schema's, capitalised (`max token limit` → `Max token limit`). */
export const labelOf = (def: Pick<SettingDef, 'label' | 'key'>): string => {
  const text = def.label.trim() || def.key.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** One field per setting of the auditor, as the tier `scope` sees it. */
export function fieldsOf(schema: AuditorSchema, views: readonly SettingView[], scope: Scope): Field[] {
  const mine = new Map(views.filter((v) => v.auditor_id === schema.auditor_id).map((v) => [v.setting, v]));
  return settingDefs(schema).map((def) =>
    fieldOf({ ...def, label: labelOf(def) }, mine.get(camelOf(def.key)), scope),
  );
}

const FROM_WORDS: Record<Field['from'], string> = {
  default: 'the auditor’s default',
  org: 'the organization',
  workspace: 'the workspace',
  agent: 'this agent',
};

/** Where the value in effect comes from, in words. */
export const fromWords = (f: Pick<Field, 'from'>): string => FROM_WORDS[f.from];

/** What the control holds while a person edits: numbers as typed, lists as lists. */
export type Draft = string | boolean | string[];

export function draftOf(def: SettingDef, value: unknown): Draft {
  if (def.type === 'boolean') return value === true;
  if (def.type === 'string[]') return Array.isArray(value) ? value.map(String) : [];
  return value === undefined || value === null ? '' : String(value);
}

/** The value a draft stands for, or the problem with it (a number that is not one). Bounds are the server's. */
export function valueOf(def: SettingDef, draft: Draft): { value: unknown } | { problem: string } {
  if (def.type === 'boolean') return { value: draft === true };
  if (def.type === 'string[]') return { value: Array.isArray(draft) ? draft : [] };
  const text = typeof draft === 'string' ? draft : '';
  if (def.type === 'string') return { value: text };
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n)) return { problem: `${def.label}: enter a number.` };
  return { value: n };
}

/** `tags` with `text` added (trimmed; nothing when blank or already there). */
export function addTag(tags: readonly string[], text: string): string[] {
  const t = text.trim();
  return t === '' || tags.includes(t) ? [...tags] : [...tags, t];
}

/** A value as a short text: lists joined, booleans in words. */
export function showValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value === null || value === undefined) return '—';
  return String(value);
}

/** The server's reason without the `<auditor>.<setting>: ` it starts with: shown beside that field, it is named already. */
export function besideField(detail: string, auditorId: string, key: string): string {
  for (const name of [key, camelOf(key)]) {
    const prefix = `${auditorId}.${name}: `;
    if (detail.startsWith(prefix)) return detail.slice(prefix.length);
  }
  return detail;
}
