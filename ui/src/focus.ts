// Keeps Tab and Shift+Tab inside a dialog: from the last control to the
// first and back. Pure over the list of focusable elements.

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden]'));
}

/** The element Tab should move to instead of leaving the list, or undefined to let it move. */
export function wrapTarget<T>(items: readonly T[], active: T | null, backwards: boolean): T | undefined {
  if (items.length === 0) return undefined;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (backwards && (active === first || !items.includes(active as T))) return last;
  if (!backwards && (active === last || !items.includes(active as T))) return first;
  return undefined;
}

/** A keydown handler trapping Tab inside `root`. */
export function trapTab(root: HTMLElement, e: KeyboardEvent): void {
  if (e.key !== 'Tab') return;
  const target = wrapTarget(focusableIn(root), document.activeElement as HTMLElement | null, e.shiftKey);
  if (target) {
    e.preventDefault();
    target.focus();
  }
}
