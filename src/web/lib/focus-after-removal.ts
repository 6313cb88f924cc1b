/**
 * When the focused control goes away with its row (a member removed, an address deleted), the
 * browser drops the focus to the page's body: a screen reader says nothing and the keyboard's place
 * is lost. Here the focus moves instead to the same control of the row that took the row's place
 * (the one before it when the last row went), as a mail client moves to the next message. A ref
 * callback for a table whose rows can be removed (React 19 runs the cleanup it returns): only the
 * pages that remove rows load it, not the shell (issue 17 item 9).
 */
export function keepFocusWhenRowsGo(root: HTMLElement | null): (() => void) | undefined {
  if (!root) return undefined;
  let focused: Element | null = null;
  let place: { rows: Element; index: number; control: number } | null = null;

  const onFocusIn = (event: FocusEvent) => {
    focused = event.target instanceof Element ? event.target : null;
    const row = focused?.closest('tr, li');
    const rows = row?.parentElement;
    place =
      focused && row && rows && root.contains(rows)
        ? {
            rows,
            index: [...rows.children].indexOf(row),
            control: controlsOf(row).indexOf(focused),
          }
        : null;
  };

  const observer = new MutationObserver(() => {
    // Only when the focus was lost with what held it, not moved by the page or the person.
    if (!place || !focused || focused.isConnected || document.activeElement !== document.body)
      return;
    if (!place.rows.isConnected) return;
    // Where the row was, so no scrolling: a virtualized table drops rows while it scrolls too.
    controlNear(place.rows, place.index, place.control)?.focus({ preventScroll: true });
  });

  root.addEventListener('focusin', onFocusIn);
  observer.observe(root, { childList: true, subtree: true });
  return () => {
    root.removeEventListener('focusin', onFocusIn);
    observer.disconnect();
  };
}

const CONTROLS =
  'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

function controlsOf(row: Element): Element[] {
  return [...row.querySelectorAll(CONTROLS)];
}

/** The control at `control` in the row now at `index`, else the nearest row that has controls. */
function controlNear(rows: Element, index: number, control: number): HTMLElement | null {
  const all = [...rows.children];
  const start = Math.min(index, all.length - 1);
  // The row now in the removed one's place, then those after it, then those before it.
  const order = [...all.slice(start), ...all.slice(0, start).reverse()];
  for (const row of order) {
    const controls = controlsOf(row);
    const found = controls[Math.min(Math.max(control, 0), controls.length - 1)];
    if (found instanceof HTMLElement) return found;
  }
  return null;
}
