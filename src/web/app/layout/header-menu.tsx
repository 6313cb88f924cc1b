import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/**
 * On a phone the header is one row (brand, account, this button) and the navigation and tools
 * wait behind the button, a disclosure (WAI-ARIA APG): `aria-expanded` on the button, the panel
 * next in the tab order, Escape closes it and gives focus back to the button, and moving to
 * another page closes it. On a wider screen the styles show the panel always and hide the button.
 */
export function HeaderMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const [openedOn, setOpenedOn] = useState(pathname);
  const buttonRef = useRef<HTMLButtonElement>(null);
  // A new page closes the menu (state adjusted during render, no effect needed).
  if (openedOn !== pathname) {
    setOpenedOn(pathname);
    setOpen(false);
  }
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="button menu-button"
        aria-expanded={open}
        aria-controls="app-menu"
        onClick={() => setOpen((was) => !was)}
        onKeyDown={closeOnEscape}
      >
        <span aria-hidden="true">☰</span> Menu
      </button>
      {/* Escape pressed on a link or control inside the panel bubbles here. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- not a control: it only hears Escape from its controls */}
      <div
        id="app-menu"
        className="app-menu"
        data-open={open || undefined}
        onKeyDown={closeOnEscape}
      >
        {children}
      </div>
    </>
  );
}
