import { useEffect, useId, useState } from 'react';
import { SHORT_TEXT_MAX_LENGTH } from '../../../api/constants.ts';
import { Dialog } from '../dialog.tsx';
import { FormField } from '../form/form-field.tsx';

/** What a queue's reject dialog says of what it rejects. */
export interface RejectWords {
  noun: { one: string; many: string };
  /** Who is told, and what happens: “The sender gets the list’s reject message…”. */
  explanation: string;
  /** The reason field's label, saying where the reason goes. */
  reasonLabel: string;
}

/**
 * Asks for the reason of a rejection in a moderation queue (optional): whoever asked is told, with
 * it. The reason field has the focus, so Enter rejects and Escape cancels.
 */
export function RejectDialog({
  count,
  name,
  words,
  onReject,
  onClose,
}: {
  /** How many are rejected; 0: the dialog is closed. */
  count: number;
  /** What the one rejected is called (a subject, an address), when one is. */
  name: string | null;
  words: RejectWords;
  onReject: (reason: string | undefined) => void;
  onClose: () => void;
}) {
  // A reason typed and not sent: Escape and the close button ask first (form kit).
  const [dirty, setDirty] = useState(false);
  const close = () => {
    setDirty(false);
    onClose();
  };
  return (
    <Dialog
      open={count > 0}
      onClose={close}
      dirty={dirty}
      title={
        count === 1 && name !== null ? `Reject “${name}”?` : `Reject ${count} ${words.noun.many}?`
      }
    >
      <RejectForm
        count={count}
        words={words}
        onReject={(reason) => {
          setDirty(false);
          onReject(reason);
        }}
        onClose={close}
        onDirtyChange={setDirty}
      />
    </Dialog>
  );
}

function RejectForm({
  count,
  words,
  onReject,
  onClose,
  onDirtyChange,
}: {
  count: number;
  words: RejectWords;
  onReject: (reason: string | undefined) => void;
  onClose: () => void;
  onDirtyChange: (dirty: boolean) => void;
}) {
  const [reason, setReason] = useState('');
  const dirty = reason.trim() !== '';
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  const id = useId();
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        onReject(reason.trim() || undefined);
      }}
    >
      <p>{words.explanation}</p>
      <FormField id={id} label={words.reasonLabel}>
        {(control) => (
          <input
            {...control}
            data-initial-focus
            maxLength={SHORT_TEXT_MAX_LENGTH}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        )}
      </FormField>
      <div className="actions">
        <button type="submit" className="button danger">
          {count === 1 ? `Reject the ${words.noun.one}` : `Reject the ${count} ${words.noun.many}`}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
