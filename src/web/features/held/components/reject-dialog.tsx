import { useEffect, useId, useState } from 'react';
import { SHORT_TEXT_MAX_LENGTH } from '../../../../api/constants.ts';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form/form-field.tsx';

/**
 * Asks for the reason of a rejection (optional): the sender gets the list's reject message with
 * it. The reason field has the focus, so Enter rejects and Escape cancels.
 */
export function RejectDialog({
  count,
  subject,
  onReject,
  onClose,
}: {
  /** How many are rejected; 0: the dialog is closed. */
  count: number;
  /** The subject, when one message is rejected. */
  subject: string | null;
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
      title={count === 1 && subject !== null ? `Reject “${subject}”?` : `Reject ${count} messages?`}
    >
      <RejectForm
        count={count}
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
  onReject,
  onClose,
  onDirtyChange,
}: {
  count: number;
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
      <p>
        {count === 1 ? 'The sender gets' : 'Each sender gets'} the list&rsquo;s reject message; the
        message is not archived or sent to the list.
      </p>
      <FormField id={id} label="Reason (optional, added to the reject message)">
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
          {count === 1 ? 'Reject the message' : `Reject the ${count} messages`}
        </button>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
