import { useEffect, useRef, type RefObject } from 'react';
import { useBlocker } from 'react-router';
import { Dialog } from './dialog.tsx';

/**
 * Nothing typed is lost by leaving: while `dirty`, moving to another page inside the dashboard
 * asks first (this dialog), and closing or reloading the tab gets the browser's own question.
 * `leaving` lets the page move on by itself (after a save that changes its address).
 */
export function UnsavedChangesGuard({
  dirty,
  description,
  leaving,
}: {
  dirty: boolean;
  /** What would be lost: "This list has 2 unsaved changes. If you leave, they are lost." */
  description: string;
  leaving?: RefObject<boolean>;
}) {
  // The blocker reads the latest value at navigation time, not the one of the last render.
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !leaving?.current && dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
  );
  // Once the person chose to leave, the page may stay mounted a moment longer (the next page's
  // code is still loading): a reload or a typed address in that moment must not ask again.
  const left = useRef(false);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!left.current && !leaving?.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, leaving]);

  return (
    <Dialog
      open={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title="Leave without saving?"
    >
      <p>{description}</p>
      <div className="actions">
        <button
          type="button"
          className="button"
          data-initial-focus
          onClick={() => blocker.reset?.()}
        >
          Stay on this page
        </button>
        <button
          type="button"
          className="button danger"
          onClick={() => {
            left.current = true;
            blocker.proceed?.();
          }}
        >
          Leave and lose the changes
        </button>
      </div>
    </Dialog>
  );
}
