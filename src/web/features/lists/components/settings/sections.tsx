import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useController, useWatch } from 'react-hook-form';
import type { List } from '../../../../../api/schemas/list.ts';
import { usePermissions } from '../../../../lib/permissions.ts';
import { LazySafeHtmlFrame } from '../../../../components/safe-html/lazy-safe-html-frame.tsx';
import { MEMBERVIEW_CHOICES, SUBSCRIPTION_CHOICES } from '../../model/choices.ts';
import { fillVariables, type ListSettingsValues } from '../../model/list-form.ts';
import {
  CheckboxField,
  ChoiceField,
  NumberField,
  TextField,
  TokenTextField,
  useFieldError,
} from './fields.tsx';
import { FormField } from '../../../../components/form/form-field.tsx';

export function GeneralSection() {
  const replyTo = useWatch<ListSettingsValues, 'reply_to'>({ name: 'reply_to' });
  return (
    <div className="stack">
      <TextField
        name="name"
        label="Name"
        help="Letters, digits, underscore, period and hyphen; at most 64 characters. Renaming changes the list’s address."
      />
      <TextField
        name="description"
        label="Description"
        help="Shown to administrators beside the name."
      />
      <TextField
        name="notes"
        label="Notes"
        multiline
        help="Anything worth remembering about this list."
      />
      <TextField
        name="subject_prefix"
        label="Subject prefix"
        help="Put at the start of the subject of every message sent to the list, for example [news]."
      />
      <TextField
        name="reply_to"
        type="email"
        nullWhenEmpty
        label="Reply-to address"
        help={
          replyTo
            ? `Replies go to ${replyTo}. Leave empty to send replies to the sender.`
            : 'Empty: replies go to the sender.'
        }
      />
      <NumberField
        name="maxlength"
        label="Largest message (KB)"
        help="Messages larger than this are refused."
      />
      <NumberField
        name="truncate"
        nullWhenEmpty
        label="Truncate messages at (bytes)"
        help="Longer messages are cut to this many bytes. Leave empty not to truncate."
      />
    </div>
  );
}

function PlainPreview({
  name,
  label,
}: {
  name: 'message_fronter' | 'message_footer';
  label: string;
}) {
  const text = useWatch<ListSettingsValues, typeof name>({ name });
  return (
    <figure className="preview">
      <figcaption>Preview of the {label}</figcaption>
      <pre>{text || '(empty)'}</pre>
    </figure>
  );
}

function HtmlPreview({
  name,
  label,
}: {
  name: 'message_fronter_html' | 'message_footer_html';
  label: string;
}) {
  const html = useWatch<ListSettingsValues, typeof name>({ name });
  return (
    <figure className="preview">
      <figcaption>Preview of the {label} (scripts and remote images are not loaded)</figcaption>
      <LazySafeHtmlFrame html={html} title={`Preview of the ${label}`} />
    </figure>
  );
}

export function ContentSection() {
  return (
    <div className="stack">
      <TextField
        name="message_fronter"
        label="Fronter (plain text)"
        multiline
        help="Added at the top of the plain-text part of every message."
      />
      <PlainPreview name="message_fronter" label="plain-text fronter" />
      <TextField
        name="message_fronter_html"
        label="Fronter (HTML)"
        multiline
        help="Added at the top of the HTML part of every message."
      />
      <HtmlPreview name="message_fronter_html" label="HTML fronter" />
      <TextField
        name="message_footer"
        label="Footer (plain text)"
        multiline
        help="Added at the end of the plain-text part of every message."
      />
      <PlainPreview name="message_footer" label="plain-text footer" />
      <TextField
        name="message_footer_html"
        label="Footer (HTML)"
        multiline
        help="Added at the end of the HTML part of every message."
      />
      <HtmlPreview name="message_footer_html" label="HTML footer" />
      <CheckboxField
        name="strip_attachments"
        label="Strip attachments"
        help="Attachments are removed before a message goes to the members."
      />
    </div>
  );
}

const EXAMPLE_SUBJECT = 'Meeting on Friday';

function FilledPreview({ kind, listName }: { kind: 'hold' | 'reject'; listName: string }) {
  const [subject, message] = useWatch<ListSettingsValues>({
    name: kind === 'hold' ? ['hold_subject', 'hold_message'] : ['reject_subject', 'reject_message'],
  }) as [string, string];
  const values = { subject: EXAMPLE_SUBJECT, listAddress: `${listName}@…` };
  return (
    <figure className="preview">
      <figcaption>
        Preview, for a message with the subject “{EXAMPLE_SUBJECT}” ($LISTNAME is the list’s
        address)
      </figcaption>
      <pre>{`Subject: ${fillVariables(subject, values)}\n\n${fillVariables(message, values)}`}</pre>
    </figure>
  );
}

export function HeldSection({ listName }: { listName: string }) {
  return (
    <div className="stack">
      <TokenTextField
        name="hold_subject"
        label="Hold message subject"
        tokens={['$LISTNAME']}
        help="Subject of the message sent back when an email is held. $LISTNAME is the list’s address."
      />
      <TokenTextField
        name="hold_message"
        label="Hold message"
        multiline
        tokens={['$SUBJECT', '$LISTNAME']}
        help="Sent back to the sender when their email is held. $SUBJECT is the subject of their email."
      />
      <CheckboxField
        name="send_hold_message"
        label="Send the hold message"
        help="When off, the sender of a held email is not told."
      />
      <FilledPreview kind="hold" listName={listName} />
      <TokenTextField
        name="reject_subject"
        label="Rejection message subject"
        tokens={['$LISTNAME']}
        help="Subject of the message sent back when an email is rejected."
      />
      <TokenTextField
        name="reject_message"
        label="Rejection message"
        multiline
        tokens={['$SUBJECT', '$LISTNAME']}
        help="Sent back to the sender when their email is rejected."
      />
      <CheckboxField
        name="send_reject_message"
        label="Send the rejection message"
        help="When off, the sender of a rejected email is not told."
      />
      <FilledPreview kind="reject" listName={listName} />
    </div>
  );
}

export function SubscriptionsSection() {
  return (
    <div className="stack">
      <ChoiceField
        name="subscriptions"
        label="Subscriptions"
        help="Whether people may join the list themselves."
        choices={SUBSCRIPTION_CHOICES}
      />
      <ChoiceField
        name="unsubscriptions"
        label="Unsubscriptions"
        help="Whether members may leave the list themselves."
        choices={SUBSCRIPTION_CHOICES}
      />
      <TextField
        name="welcome_message_subject"
        label="Welcome message subject"
        help="Subject of the message sent to new members."
      />
      <TextField
        name="welcome_message"
        label="Welcome message"
        multiline
        help="Sent to each new member; leave empty to send none."
      />
      <TextField
        name="confirmation_subject"
        label="Confirmation subject"
        help="Subject of the email asking a new subscriber to confirm."
      />
      <TextField
        name="confirmation_message"
        label="Confirmation message"
        multiline
        help="Body of the email asking a new subscriber to confirm; empty uses the default."
      />
    </div>
  );
}

/** Write-only (spec §2.4): never shown; undefined keeps it, '' removes it, text sets it. */
function ArchivePassword() {
  const {
    field: { value, onChange },
  } = useController<ListSettingsValues, 'archive_password'>({ name: 'archive_password' });
  const [mode, setMode] = useState<'keep' | 'set' | 'remove'>('keep');
  const [text, setText] = useState('');
  // Reset from outside (after saving): back to "keep".
  if (value === undefined && mode === 'remove') setMode('keep');
  if (value === undefined && mode === 'set' && text !== '') {
    setMode('keep');
    setText('');
  }
  const group = useId();
  const inputId = useId();
  const error = useFieldError('archive_password', 'The password');
  const choose = (next: typeof mode) => {
    setMode(next);
    onChange(next === 'keep' ? undefined : next === 'remove' ? '' : text || undefined);
  };
  return (
    <fieldset className="stack">
      <legend>Archive password</legend>
      <p className="hint">
        Lets people without an account read protected archives. It can be set or removed, never read
        back.
      </p>
      <label className="checkbox-field">
        <input
          type="radio"
          name={group}
          checked={mode === 'keep'}
          onChange={() => choose('keep')}
        />
        Leave the password as it is
      </label>
      <label className="checkbox-field">
        <input type="radio" name={group} checked={mode === 'set'} onChange={() => choose('set')} />
        Set a new password
      </label>
      {mode === 'set' && (
        <FormField id={inputId} label="New archive password">
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                onChange(event.target.value || undefined);
              }}
            />
          )}
        </FormField>
      )}
      <label className="checkbox-field">
        <input
          type="radio"
          name={group}
          checked={mode === 'remove'}
          onChange={() => choose('remove')}
        />
        Remove the password
      </label>
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}

export function ArchivesSection() {
  return (
    <div className="stack">
      <CheckboxField
        name="archive_enabled"
        label="Archives enabled"
        help="Messages sent to the list are kept in its archives."
      />
      <CheckboxField
        name="archive_spammode"
        label="Hide addresses in the archives"
        help="Email addresses are hidden from archived messages, to protect them from spammers."
      />
      <CheckboxField
        name="archive_protected"
        label="Protected archives"
        help="The archives are not open to everyone; the password and member access below need this."
      />
      <CheckboxField
        name="archive_memberview"
        label="Members may read protected archives"
        help="Members of the list can read the archives even when they are protected."
      />
      <CheckboxField
        name="archive_index_noshow"
        label="Hidden from the archives index"
        help="The list is left out of the public list of archives."
      />
      <ArchivePassword />
    </div>
  );
}

export function MembersSection({ list }: { list: List }) {
  return (
    <div className="stack">
      <ChoiceField
        name="memberview"
        label="Members can see other members"
        help="Whether members may see who else is on the list, and with or without addresses."
        choices={MEMBERVIEW_CHOICES}
      />
      <h3>
        {list.contacts.length} {list.contacts.length === 1 ? 'member' : 'members'}
      </h3>
      {/* Members are contacts (spec §4.1): no link for a principal that may not read them. */}
      {usePermissions().may('contacts.list') && (
        <p>
          <Link to="members">
            {list.contacts.length > 0 ? 'Manage the members' : 'Add members'}
          </Link>{' '}
          <span className="hint">search, add, remove, digest, export</span>
        </p>
      )}
    </div>
  );
}
