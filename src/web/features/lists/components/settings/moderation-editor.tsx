import { useId } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { MODERATE } from '../../../../../api/constants.ts';
import type { List } from '../../../../../api/schemas/list.ts';
import { MESSAGE_REJECTION_CHOICES, NOTIFY_APPROVAL_CHOICES } from '../../model/choices.ts';
import type { ListSettingsValues } from '../../model/list-form.ts';
import {
  modeOf,
  moderationProblems,
  suggestedFix,
  summarizeModeration,
} from '../../model/moderation.ts';
import type { AccountId } from '../../../../lib/api-client.ts';
import { CheckboxField, ChoiceField, LineListField, TextField, useFieldError } from './fields.tsx';
import { PostingTesterLoader } from './posting-tester-loader.tsx';
import { usePermissions } from '../../../../lib/permissions.ts';
import { reachesList } from '../../../../lib/reach.ts';
import { FormField } from '../../../../components/form/form-field.tsx';

/** Always derived from the form values: it says what the form says. */
export function ModerationSummary() {
  const [
    moderate,
    message_rejections,
    notify_approval,
    restrict_post_lists,
    restrict_post_allowed_emails,
    restrict_post_banned_emails,
    send_hold_message,
    send_reject_message,
  ] = useWatch<ListSettingsValues>({
    name: [
      'moderate',
      'message_rejections',
      'notify_approval',
      'restrict_post_lists',
      'restrict_post_allowed_emails',
      'restrict_post_banned_emails',
      'send_hold_message',
      'send_reject_message',
    ],
  }) as [number, number | null, number | null, string[], string[], string[], boolean, boolean];
  const headingId = useId();
  const summary = summarizeModeration({
    moderate: Number.isInteger(moderate) ? moderate : 0,
    message_rejections,
    notify_approval,
    restrict_post_lists,
    restrict_post_allowed_emails,
    restrict_post_banned_emails,
    send_hold_message,
    send_reject_message,
  });
  return (
    <section className="notice moderation-summary" aria-labelledby={headingId}>
      <h3 id={headingId}>Moderation summary</h3>
      <dl>
        <dt>Who may post</dt>
        <dd data-summary="who">{summary.whoMayPost}</dd>
        <dt>Everyone else</dt>
        <dd data-summary="else">{summary.everyoneElse}</dd>
        <dt>Who is told</dt>
        <dd data-summary="told">{summary.whoIsTold}</dd>
      </dl>
    </section>
  );
}

/** The `moderate` bit flags (spec §2.4) as choices a person understands. */
function ModerateField() {
  const {
    field: { value, onChange, onBlur },
  } = useController<ListSettingsValues, 'moderate'>({ name: 'moderate' });
  const [lists, allowed] = useWatch<ListSettingsValues>({
    name: ['restrict_post_lists', 'restrict_post_allowed_emails'],
  }) as [string[], string[]];
  const error = useFieldError('moderate', 'The value');
  const valid = Number.isInteger(value);
  const mode = valid ? modeOf(value) : null;
  const senderBits = valid ? value & (MODERATE.listMembers | MODERATE.allowedEmails) : 0;
  const numberId = useId();
  const groupName = useId();
  const problems = valid
    ? moderationProblems({
        moderate: value,
        restrict_post_lists: lists,
        restrict_post_allowed_emails: allowed,
      })
    : [];
  const fix = valid ? suggestedFix(value) : null;
  const toggle = (bit: number, on: boolean) => onChange(on ? value | bit : value & ~bit);
  return (
    <fieldset className="stack">
      <legend>Who may post</legend>
      <label className="checkbox-field">
        <input
          type="radio"
          name={groupName}
          checked={mode === 'none'}
          onChange={() => onChange(MODERATE.none)}
        />
        Anyone: nobody is moderated
      </label>
      <label className="checkbox-field">
        <input
          type="radio"
          name={groupName}
          checked={mode === 'hold-all'}
          onChange={() => onChange(MODERATE.holdAll)}
        />
        Every message is held for approval
      </label>
      <label className="checkbox-field">
        <input
          type="radio"
          name={groupName}
          checked={mode === 'chosen-senders'}
          onChange={() => onChange(MODERATE.specificSenders | (senderBits || MODERATE.listMembers))}
        />
        Only chosen senders may post
      </label>
      <fieldset className="nested" disabled={mode !== 'chosen-senders'}>
        <legend>Chosen senders</legend>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={valid && (value & MODERATE.listMembers) !== 0}
            onChange={(event) => toggle(MODERATE.listMembers, event.target.checked)}
          />
          Members of the lists chosen below
        </label>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={valid && (value & MODERATE.allowedEmails) !== 0}
            onChange={(event) => toggle(MODERATE.allowedEmails, event.target.checked)}
          />
          The allowed addresses below
        </label>
      </fieldset>
      <FormField
        id={numberId}
        label="The moderate value, for reference"
        hint="The sum of the flags the API stores: 1 every message held, 2 only chosen senders, 4 members of the chosen lists, 8 the allowed addresses (for example 10 = 2 + 8)."
        error={error || undefined}
      >
        {(control) => (
          <input
            {...control}
            name="moderate"
            type="number"
            min={0}
            max={15}
            step={1}
            className="narrow"
            value={valid ? value : ''}
            onBlur={onBlur}
            onChange={(event) =>
              onChange(event.target.value === '' ? Number.NaN : event.target.valueAsNumber)
            }
          />
        )}
      </FormField>
      {problems.length > 0 && (
        <div className="notice warning" role="note" aria-label="Problems with this choice">
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
          {fix && (
            <button type="button" className="button small" onClick={() => onChange(fix.value)}>
              {fix.label}
            </button>
          )}
        </div>
      )}
    </fieldset>
  );
}

/** The account's lists as checkboxes: `restrict_post_lists` (names unknown to the account kept). */
function RestrictPostLists({ lists }: { lists: List[] }) {
  const {
    field: { value: chosen, onChange },
  } = useController<ListSettingsValues, 'restrict_post_lists'>({ name: 'restrict_post_lists' });
  // A name the principal does not reach (spec §2.6 limit_lists) is kept in the value, not shown.
  const powers = usePermissions();
  const names = [
    ...new Set([
      ...lists.map((list) => list.name),
      ...chosen.filter((n) => reachesList(powers, n)),
    ]),
  ].sort();
  const error = useFieldError('restrict_post_lists', 'A list name');
  return (
    <fieldset>
      <legend>Lists whose members may post</legend>
      <p className="hint">Used when “members of the lists chosen below” is ticked (flag 4).</p>
      {names.length === 0 && <p>The account has no lists.</p>}
      <ul className="check-list">
        {names.map((name) => (
          <li key={name}>
            <label className="checkbox-field">
              <input
                type="checkbox"
                checked={chosen.includes(name)}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? [...chosen, name]
                      : chosen.filter((other) => other !== name),
                  )
                }
              />
              {name}
            </label>
          </li>
        ))}
      </ul>
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}

export function PostingSection({
  lists,
  accountId,
  listName,
}: {
  lists: List[];
  accountId: AccountId;
  listName: string;
}) {
  return (
    <div className="stack">
      <ModerationSummary />
      <PostingTesterLoader accountId={accountId} listName={listName} />
      <ModerateField />
      <ChoiceField
        name="message_rejections"
        label="Messages that are not permitted"
        help="What happens to a message from a sender the restrictions above do not permit."
        choices={MESSAGE_REJECTION_CHOICES}
      />
      <ChoiceField
        name="notify_approval"
        label="Tell the list manager about held messages"
        help="Whether the list manager gets an email when a message waits for approval."
        choices={NOTIFY_APPROVAL_CHOICES}
      />
      <RestrictPostLists lists={lists} />
      <LineListField
        name="restrict_post_allowed_emails"
        kind="address"
        label="Allowed addresses"
        help="One address a line. Used when “the allowed addresses below” is ticked (flag 8)."
      />
      <LineListField
        name="restrict_post_banned_emails"
        kind="address"
        label="Banned addresses"
        help="One address a line. Messages from these senders are never permitted."
      />
      <TextField
        name="moderator"
        label="Alternative moderator"
        help="The address of someone other than the list manager who moderates this list; leave empty for none."
      />
      <CheckboxField
        name="hold_automated"
        label="Hold automated messages"
        help="Messages sent by programs (auto-replies, bounces) wait for approval."
      />
      <CheckboxField
        name="hold_replies"
        label="Hold replies to the list"
        help="Replies to list messages wait for approval."
      />
    </div>
  );
}
