import '../messages.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { Link } from 'react-router';
import * as z from 'zod';
import { plainToHtml } from '../../../../api/message-content.ts';
import { MessageSend } from '../../../../api/schemas/message.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { LazySafeHtmlFrame } from '../../../components/safe-html/lazy-safe-html-frame.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { serverFieldError } from '../../../lib/server-field-error.ts';
import { listQueries } from '../../../lib/list-queries.ts';
import { useSendMessage } from '../api/send-message.ts';

/**
 * The form's text fields, checked by the contract's own send schema (spec §4.5): a list, and the
 * plain text or the HTML. Empty optional fields are not sent.
 */
const ComposeValues = z
  .object({
    list: z.string(),
    subject: z.string(),
    content_plain: z.string(),
    content_html: z.string(),
  })
  .transform(({ list, subject, content_plain, content_html }) => ({
    list,
    ...(subject.trim() ? { subject } : {}),
    ...(content_plain.trim() ? { content_plain } : {}),
    ...(content_html.trim() ? { content_html } : {}),
  }))
  .pipe(MessageSend);
type ComposeInput = z.input<typeof ComposeValues>;
type ComposeOutput = z.output<typeof ComposeValues>;
type Field = keyof ComposeInput;

const EMPTY: ComposeInput = { list: '', subject: '', content_plain: '', content_html: '' };
const FIELDS: readonly Field[] = ['list', 'subject', 'content_plain', 'content_html'];

/** The words shown for a field's error: the contract's rule, said for this form. */
function errorText(field: Field, message: string | undefined): string {
  if (field === 'content_plain' && /content_plain or content_html/.test(message ?? '')) {
    return 'Write the message: the plain text, the HTML, or both.';
  }
  if (field === 'list' && message === 'is required') return 'Choose the list to send to.';
  return `${message?.charAt(0).toUpperCase() ?? ''}${message?.slice(1) ?? ''}.`;
}

/**
 * Sends a message to a list (spec §4.5). The answer is only `{success: 1}`: the server processes
 * the message later, so success is shown as queued, not as sent.
 */
export function ComposeForm({ accountId }: { accountId: AccountId }) {
  const lists = useQuery(listQueries.list(accountId));
  const send = useSendMessage(accountId);
  const [queued, setQueued] = useState<string | null>(null);
  const form = useForm<ComposeInput, unknown, ComposeOutput>({
    resolver: zodResolver(ComposeValues),
    defaultValues: EMPTY,
  });
  const id = useId();
  const { errors } = form.formState;
  const described = (field: Field, hint?: string) =>
    [hint, errors[field] ? `${id}-${field}-error` : undefined].filter(Boolean).join(' ') ||
    undefined;

  // A valid message is confirmed first, naming the list and how many members it reaches.
  const [confirming, setConfirming] = useState<ComposeOutput | null>(null);
  const onSubmit = form.handleSubmit((input) => {
    setQueued(null);
    send.reset();
    setConfirming(input);
  });
  const sendConfirmed = (input: ComposeOutput) =>
    send.mutate(input, {
      onSuccess: () => {
        setConfirming(null);
        setQueued(input.list);
        form.reset(EMPTY);
      },
      onError: (error) => {
        const onField = serverFieldError(error, FIELDS);
        if (onField) {
          setConfirming(null);
          form.setError(onField.field, { type: 'server', message: onField.message });
        }
      },
    });
  const members = lists.data?.find((list) => list.name === confirming?.list)?.memberCount;

  const fieldError = (field: Field) =>
    errors[field] && (
      <p id={`${id}-${field}-error`} className="field-error" role="alert">
        {errorText(field, errors[field].message)}
      </p>
    );

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
        pending={send.isPending}
        error={send.error}
        onClose={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) sendConfirmed(confirming);
        }}
      >
        <p>
          {members === undefined
            ? `The message goes to every member of ${confirming?.list ?? ''}`
            : `The message goes to the ${members} ${members === 1 ? 'member' : 'members'} of ${confirming?.list ?? ''}`}
          , past the list&rsquo;s moderation. It cannot be called back once sent.
        </p>
      </ConfirmDialog>
      <UnsavedChangesGuard
        dirty={form.formState.isDirty}
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
      <form className="compose-form stack" onSubmit={onSubmit} noValidate aria-label="New message">
        <div className="field">
          <label htmlFor={`${id}-list`}>List</label>
          <select
            id={`${id}-list`}
            aria-invalid={errors.list ? true : undefined}
            aria-describedby={described('list', `${id}-override`)}
            {...form.register('list')}
          >
            <option value="">{lists.isPending ? 'Loading the lists…' : 'Choose a list'}</option>
            {lists.data?.map((list) => (
              <option key={list.name} value={list.name}>
                {list.name}
              </option>
            ))}
          </select>
          {fieldError('list')}
          {lists.isError && (
            <ErrorMessage error={lists.error} onRetry={() => void lists.refetch()} />
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-subject`}>Subject</label>
          <input
            id={`${id}-subject`}
            autoComplete="off"
            aria-invalid={errors.subject ? true : undefined}
            aria-describedby={described('subject')}
            {...form.register('subject')}
          />
          {fieldError('subject')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-plain`}>Plain text</label>
          <textarea
            id={`${id}-plain`}
            rows={10}
            aria-invalid={errors.content_plain ? true : undefined}
            aria-describedby={described('content_plain')}
            {...form.register('content_plain')}
          />
          {fieldError('content_plain')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-html`}>HTML (optional)</label>
          <textarea
            id={`${id}-html`}
            rows={8}
            spellCheck={false}
            aria-invalid={errors.content_html ? true : undefined}
            aria-describedby={described('content_html', `${id}-html-hint`)}
            {...form.register('content_html')}
          />
          <p id={`${id}-html-hint`} className="hint">
            Without HTML, the server makes it from the plain text, as the preview shows.
          </p>
          {fieldError('content_html')}
        </div>
        <HtmlPreview control={form.control} />
        <div className="actions">
          <button type="submit" className="button primary" disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send to the list'}
          </button>
        </div>
        {send.isError && !FIELDS.some((field) => errors[field]?.type === 'server') && (
          <ErrorMessage error={send.error} />
        )}
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
