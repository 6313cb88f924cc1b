import '../messages.css';
import { useId } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import { Link } from 'react-router';
import { plainToHtml } from '../../../../api/message-content.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { FormField } from '../../../components/form/form-field.tsx';
import { errorOf, type FieldProblem } from '../../../components/form/field-error-text.ts';
import { LazySafeHtmlFrame } from '../../../components/safe-html/lazy-safe-html-frame.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import {
  useCompose,
  type ComposeField,
  type ComposeInput,
  type ComposeOutput,
} from '../controllers/use-compose.ts';

const LABELS: Record<ComposeField, string> = {
  list: 'List',
  subject: 'Subject',
  content_plain: 'Plain text',
  content_html: 'HTML (optional)',
};

/** A field's error in this form's words: two of the contract's rules said for compose. */
function composeError(field: ComposeField, problem: FieldProblem | undefined) {
  const message = problem?.message;
  if (field === 'content_plain' && /content_plain or content_html/.test(message ?? ''))
    return { error: 'Write the message: the plain text, the HTML, or both.', announce: true };
  if (field === 'list' && message === 'is required')
    return { error: 'Choose the list to send to.', announce: true };
  return {
    ...errorOf(field === 'content_html' ? 'The HTML' : LABELS[field], problem),
    announce: true,
  };
}

/**
 * Sends a message to a list (spec §4.5); the logic is the page's controller
 * (controllers/use-compose.ts). Success is shown as queued, not as sent.
 */
export function ComposeForm({ accountId }: { accountId: AccountId }) {
  const { form, lists, submit, sending, dirty, queued, formError, confirmation } =
    useCompose(accountId);
  const id = useId();
  const { errors } = form.formState;
  const { input: confirming, members } = confirmation;

  return (
    <div className="compose">
      <ConfirmDialog
        open={confirming !== null}
        title={`Send to ${confirming?.list ?? ''}?`}
        confirmLabel={
          members === undefined
            ? 'Send'
            : `Send to ${members} ${members === 1 ? 'member' : 'members'}`
        }
        pendingLabel="Sending…"
        pending={sending}
        error={formError}
        onClose={confirmation.cancel}
        onConfirm={confirmation.confirm}
      >
        <p>
          {members === undefined
            ? `The message goes to every member of ${confirming?.list ?? ''}`
            : `The message goes to the ${members} ${members === 1 ? 'member' : 'members'} of ${confirming?.list ?? ''}`}
          , past the list&rsquo;s moderation. It cannot be called back once sent.
        </p>
      </ConfirmDialog>
      <UnsavedChangesGuard
        dirty={dirty}
        description="This message is not sent. If you leave, what you wrote is lost."
      />
      <p className="notice" id={`${id}-override`}>
        Sending from the dashboard overrides the list&rsquo;s posting restrictions: the message is
        neither held for moderation nor rejected, whatever the list&rsquo;s moderation, allowed and
        banned senders.
      </p>
      {queued !== null && (
        <div className="notice success" role="status">
          <p>
            Queued: the message to <strong>{queued}</strong> is being processed. It appears among
            the messages once the server has processed it.
          </p>
          <p>
            <Link to=".." relative="path">
              See the messages
            </Link>
          </p>
        </div>
      )}
      <form className="compose-form stack" onSubmit={submit} noValidate aria-label="New message">
        <FormField
          id={`${id}-list`}
          label={LABELS.list}
          describedBy={`${id}-override`}
          {...composeError('list', errors.list)}
          after={
            lists.isError && (
              <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />
            )
          }
        >
          {(control) => (
            <select {...control} {...form.register('list')}>
              <option value="">{lists.isPending ? 'Loading the lists…' : 'Choose a list'}</option>
              {lists.data?.map((list) => (
                <option key={list.name} value={list.name}>
                  {list.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          id={`${id}-subject`}
          label={LABELS.subject}
          {...composeError('subject', errors.subject)}
        >
          {(control) => <input {...control} autoComplete="off" {...form.register('subject')} />}
        </FormField>
        <FormField
          id={`${id}-plain`}
          label={LABELS.content_plain}
          {...composeError('content_plain', errors.content_plain)}
        >
          {(control) => <textarea {...control} rows={10} {...form.register('content_plain')} />}
        </FormField>
        <FormField
          id={`${id}-html`}
          label={LABELS.content_html}
          hint="Without HTML, the server makes it from the plain text, as the preview shows."
          {...composeError('content_html', errors.content_html)}
        >
          {(control) => (
            <textarea {...control} rows={8} spellCheck={false} {...form.register('content_html')} />
          )}
        </FormField>
        <HtmlPreview control={form.control} />
        <div className="actions">
          <button type="submit" className="button primary" disabled={sending}>
            {sending ? 'Sending…' : 'Send to the list'}
          </button>
        </div>
        {formError !== null && confirming === null && <ErrorMessage error={formError} />}
      </form>
    </div>
  );
}

/**
 * The HTML the members will get, sanitized as every message is shown (SECURITY.md 12): the HTML
 * written, or, without it, what the server generates from the plain text (the same function).
 */
function HtmlPreview({ control }: { control: Control<ComposeInput, unknown, ComposeOutput> }) {
  const [plain, html] = useWatch({ control, name: ['content_plain', 'content_html'] });
  const written = html.trim() !== '';
  return (
    <figure className="preview">
      <figcaption>
        {written
          ? 'Preview of the HTML (scripts and remote images are not shown)'
          : 'Preview of the HTML the server will make from the plain text'}
      </figcaption>
      <LazySafeHtmlFrame html={written ? html : plainToHtml(plain)} title="Preview of the HTML" />
    </figure>
  );
}
