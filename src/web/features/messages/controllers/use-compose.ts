import { useState } from 'react';
import * as z from 'zod/mini';
import { MessageSend } from '../../../../api/schemas/message.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { useKitForm } from '../../../lib/form-kit.ts';
import { useSendMessage } from '../api/send-message.ts';
import { useReachableLists } from '../../../lib/reach.ts';

/**
 * The form's text fields, checked by the contract's own send schema (spec §4.5): a list, and the
 * plain text or the HTML. Empty optional fields are not sent.
 */
const ComposeFields = z.object({
  list: z.string(),
  subject: z.string(),
  content_plain: z.string(),
  content_html: z.string(),
});
const ComposeValues = z.pipe(
  z.pipe(
    ComposeFields,
    z.transform(
      ({ list, subject, content_plain, content_html }: z.output<typeof ComposeFields>) => ({
        list,
        ...(subject.trim() ? { subject } : {}),
        ...(content_plain.trim() ? { content_plain } : {}),
        ...(content_html.trim() ? { content_html } : {}),
      }),
    ),
  ),
  MessageSend,
);
export type ComposeInput = z.input<typeof ComposeValues>;
export type ComposeOutput = z.output<typeof ComposeValues>;
export type ComposeField = keyof ComposeInput;

const EMPTY: ComposeInput = { list: '', subject: '', content_plain: '', content_html: '' };
const FIELDS: readonly ComposeField[] = ['list', 'subject', 'content_plain', 'content_html'];

/**
 * The compose page's controller (logic apart from the view, as react-admin's ra-core does): the
 * form, the confirmation that names the list and its member count before anything is sent, and
 * the send, whose refusal goes on the field it names (form kit) or above the button. The answer
 * is only `{success: 1}` (spec §4.5): the message is queued, not yet sent.
 */
export function useCompose(accountId: AccountId) {
  const lists = useReachableLists(accountId);
  const send = useSendMessage(accountId);
  const [queued, setQueued] = useState<string | null>(null);
  const { form, serverErrors } = useKitForm({
    schema: ComposeValues,
    defaultValues: EMPTY,
    serverFields: FIELDS,
  });

  // A valid message is confirmed first, naming the list and how many members it reaches.
  const [confirming, setConfirming] = useState<ComposeOutput | null>(null);
  const submit = form.handleSubmit((input) => {
    setQueued(null);
    send.reset();
    serverErrors.clear();
    setConfirming(input);
  });
  const confirm = () => {
    const input = confirming;
    if (!input) return;
    send.mutate(input, {
      onSuccess: () => {
        setConfirming(null);
        setQueued(input.list);
        form.reset(EMPTY);
      },
      // On a field: the confirmation closes on it; else the confirmation shows the refusal.
      onError: (error) => {
        if (serverErrors.place(error) !== null) setConfirming(null);
      },
    });
  };

  return {
    form,
    lists,
    submit,
    sending: send.isPending,
    dirty: form.formState.isDirty,
    queued,
    /** A refusal no field carries: in the confirmation while it is open, else above the button. */
    formError: serverErrors.formError,
    confirmation: {
      input: confirming,
      members: lists.data?.find((list) => list.name === confirming?.list)?.memberCount,
      confirm,
      cancel: () => setConfirming(null),
    },
  };
}
