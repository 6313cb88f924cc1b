import { useId, useState } from 'react';
import type { List } from '../../../../../api/schemas/list.ts';
import { Dialog } from '../../../../components/dialog.tsx';
import { SECTIONS, type SectionId } from '../../model/sections.ts';
import { FormField } from '../../../../components/form/form-field.tsx';

/** Picks another list and sections; their values go into the form as unsaved changes. */
export function CopySettingsDialog({
  open,
  onClose,
  lists,
  current,
  onCopy,
}: {
  open: boolean;
  onClose: () => void;
  lists: List[];
  current: string;
  onCopy: (source: List, sections: SectionId[]) => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title="Copy settings from another list">
      <CopyForm
        lists={lists.filter((list) => list.name !== current)}
        onClose={onClose}
        onCopy={onCopy}
      />
    </Dialog>
  );
}

function CopyForm({
  lists,
  onClose,
  onCopy,
}: {
  lists: List[];
  onClose: () => void;
  onCopy: (source: List, sections: SectionId[]) => void;
}) {
  const [sourceName, setSourceName] = useState(lists[0]?.name ?? '');
  const [chosen, setChosen] = useState<SectionId[]>([]);
  const selectId = useId();
  const source = lists.find((list) => list.name === sourceName);
  if (lists.length === 0) return <p>The account has no other list to copy from.</p>;
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        if (source && chosen.length > 0) {
          onCopy(source, chosen);
          onClose();
        }
      }}
    >
      <FormField id={selectId} label="Copy from">
        {(control) => (
          <select
            {...control}
            data-initial-focus
            value={sourceName}
            onChange={(event) => setSourceName(event.target.value)}
          >
            {lists.map((list) => (
              <option key={list.name} value={list.name}>
                {list.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <fieldset>
        <legend>Sections to copy</legend>
        {SECTIONS.map((section) => (
          <label key={section.id} className="checkbox-field">
            <input
              type="checkbox"
              checked={chosen.includes(section.id)}
              onChange={(event) =>
                setChosen(
                  event.target.checked
                    ? [...chosen, section.id]
                    : chosen.filter((id) => id !== section.id),
                )
              }
            />
            {section.title}
          </label>
        ))}
      </fieldset>
      <p className="hint">
        The values are put into the form; nothing is saved until you save. The name, the members and
        the archive password are never copied.
      </p>
      <div className="actions">
        <button type="submit" className="button primary" disabled={chosen.length === 0}>
          Copy into the form
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
