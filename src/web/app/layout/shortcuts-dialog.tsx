import { Dialog } from '../../components/dialog.tsx';
import type { AppShortcut } from './shortcuts.ts';

/** `?`: the shortcuts that work here: the dashboard's, then the page's own. */
export function ShortcutsDialog({
  open,
  onClose,
  shortcuts,
  pageShortcuts,
}: {
  open: boolean;
  onClose: () => void;
  shortcuts: readonly AppShortcut[];
  pageShortcuts: readonly AppShortcut[];
}) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <ShortcutTable caption="Everywhere" shortcuts={shortcuts} />
      {pageShortcuts.length > 0 && (
        <ShortcutTable caption="On this page" shortcuts={pageShortcuts} />
      )}
      <p className="hint">Shortcuts do not fire while you type in a field.</p>
    </Dialog>
  );
}

function ShortcutTable({
  caption,
  shortcuts,
}: {
  caption: string;
  shortcuts: readonly AppShortcut[];
}) {
  return (
    <table className="shortcuts">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Keys</th>
          <th scope="col">Action</th>
        </tr>
      </thead>
      <tbody>
        {shortcuts.map((shortcut) => (
          <tr key={shortcut.keys.join(' ')}>
            <td>
              {shortcut.keys.map((key, i) => (
                <span key={i}>
                  {i > 0 && ' then '}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </td>
            <td>{shortcut.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
