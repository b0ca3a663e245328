// Small pieces every page uses: an error in words (announced), a status line.

export function Alert({ text, id }: { text: string | undefined; id?: string }) {
  if (!text) return null;
  return (
    <p id={id} class="error" role="alert">
      {text}
    </p>
  );
}

export function Status({ text, when = true }: { text: string; when?: boolean | undefined }) {
  return when ? <p role="status">{text}</p> : null;
}

/**
 * Two or more tabs (WAI-ARIA tablist): the selected one is focusable, the arrow keys move to the
 * next or previous tab and focus it. Each panel is `panel-<id>`, labelled by its tab `tab-<id>`.
 */
export function TabList<T extends string>(props: {
  label: string;
  tabs: readonly { id: T; label: string }[];
  current: T;
  go: (id: T) => void;
}) {
  const { label, tabs, current, go } = props;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const at = tabs.findIndex((t) => t.id === current);
    const next = tabs[(at + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!.id;
    go(next);
    requestAnimationFrame(() => document.getElementById(`tab-${next}`)?.focus());
  };
  return (
    <div role="tablist" aria-label={label} class="tabs" onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <button
          key={t.id}
          id={`tab-${t.id}`}
          type="button"
          role="tab"
          aria-selected={current === t.id}
          aria-controls={current === t.id ? `panel-${t.id}` : undefined}
          tabIndex={current === t.id ? 0 : -1}
          onClick={() => go(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
