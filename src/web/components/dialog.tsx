import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  className?: string;
  /**
   * The dialog holds edits not saved yet (form kit): Escape and the close button ask first
   * instead of closing, so nothing typed is lost by a stray key.
   */
  dirty?: boolean;
}

/**
 * A native modal `<dialog>` (focus trap, Escape and the top layer come from the browser). Its
 * content mounts only while open, so it starts fresh each time; an element of it marked
 * `data-initial-focus` takes the focus on opening.
 */
export function Dialog({ open, onClose, title, children, className, dirty = false }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [asking, setAsking] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable element (the close button); content may name another.
      dialog.querySelector<HTMLElement>('[data-initial-focus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => {
    if (asking) keepRef.current?.focus();
  }, [asking]);

  const requestClose = () => {
    if (dirty) setAsking(true);
    else onClose();
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={className ? `dialog ${className}` : 'dialog'}
      onCancel={(event) => {
        // Escape on an edited dialog: ask instead of closing.
        if (event.target !== event.currentTarget || !dirty) return;
        event.preventDefault();
        setAsking(true);
      }}
      // A dialog opened from inside this one (a confirmation) closes by itself: its `close`
      // event reaches this one too, and must not close it.
      onClose={(event) => {
        if (event.target !== event.currentTarget) return;
        setAsking(false);
        onClose();
      }}
    >
      {open && (
        <>
          <div className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-button" onClick={requestClose} aria-label="Close">
              ×
            </button>
          </div>
          {asking && (
            <div role="alertdialog" aria-label="Discard the changes?" className="notice warning">
              <p>The changes in this dialog are not saved. Close it and lose them?</p>
              <div className="actions">
                <button
                  ref={keepRef}
                  type="button"
                  className="button"
                  onClick={() => setAsking(false)}
                >
                  Keep editing
                </button>
                <button
                  type="button"
                  className="button danger"
                  onClick={() => {
                    setAsking(false);
                    onClose();
                  }}
                >
                  Discard the changes
                </button>
              </div>
            </div>
          )}
          {children}
        </>
      )}
    </dialog>
  );
}
