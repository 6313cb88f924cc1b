import { ErrorMessage } from '../error-message.tsx';

/**
 * The end of a form kit form: the refusal no field carries (lib/form-kit.ts `formError`), then
 * the submit button (its label while pending) and, in a dialog, Cancel.
 */
export function FormActions({
  formError,
  pending,
  submitLabel,
  pendingLabel = 'Saving…',
  onCancel,
}: {
  formError: unknown;
  pending: boolean;
  submitLabel: string;
  pendingLabel?: string;
  onCancel?: () => void;
}) {
  return (
    <>
      {formError !== null && <ErrorMessage error={formError} />}
      <div className="actions">
        <button type="submit" className="button primary" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </>
  );
}
