import { Suspense, lazy, useEffect, useRef, type ComponentType } from 'react';

/**
 * A form whose code (react-hook-form and the form's own, about 20 kB gzip) loads when it is first
 * shown, not with the page (issue 17 item 9: pages whose only form is in a dialog). `preload`
 * starts the load earlier, when the button that opens it is pointed at or focused.
 */
export function lazyForm<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => (loading ??= load());
  const Form = lazy(() => preload().then((component) => ({ default: component })));
  function LazyForm(props: P) {
    return (
      <Suspense
        fallback={
          <p role="status" className="summary">
            Loading the form…
          </p>
        }
      >
        <Form {...props} />
        <InitialFocus />
      </Suspense>
    );
  }
  const start = () => void preload();
  /** For the button that opens the form: the load starts as it is pointed at or focused. */
  const preloadProps = { onPointerEnter: start, onFocus: start };
  return Object.assign(LazyForm, { preload, preloadProps });
}

/**
 * In a dialog, the focus goes to the loaded form's `data-initial-focus` field, as it would have on
 * opening (components/dialog.tsx), unless the person has moved it since.
 */
function InitialFocus() {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const dialog = ref.current?.closest('dialog');
    if (!dialog) return;
    const active = document.activeElement;
    const untouched =
      active === null ||
      active === document.body ||
      active === dialog ||
      active.matches('.dialog-header button');
    if (untouched) dialog.querySelector<HTMLElement>('[data-initial-focus]')?.focus();
  }, []);
  return <span ref={ref} hidden />;
}
