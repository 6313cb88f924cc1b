import { Dialog } from '../../components/dialog.tsx';
import type { AppShortcut } from './shortcuts.ts';

/** `?`: the shortcuts that work here. */
export function ShortcutsDialog({
  open,
  onClose,
  shortcuts,
}: {
  open: boolean;
  onClose: () => void;
  shortcuts: readonly AppShortcut[];
}) {
  return (
    <Dialog open={open} onClose={onClose} title="Keyboard shortcuts">
      <table className="shortcuts">
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
      <p className="hint">Shortcuts do not fire while you type in a field.</p>
    </Dialog>
  );
}
