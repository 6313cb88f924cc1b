import './posting-tester.css';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { useWatch } from 'react-hook-form';
import {
  ACCOUNT_NOTIFY_APPROVAL_VALUES,
  MESSAGE_REJECTIONS_VALUES,
} from '../../../../../api/constants.ts';
import { decidePosting } from '../../../../../api/posting-policy/decide.ts';
import { ASSUMED_ACCOUNT_DEFAULTS } from '../../../../../api/posting-policy/effective.ts';
import { normalizeAddress } from '../../../../../api/posting-policy/message.ts';
import { senderNotice } from '../../../../../api/posting-policy/notice.ts';
import type { PostingDecision } from '../../../../../api/posting-policy/types.ts';
import { EmailAddress } from '../../../../../api/primitives.ts';
import { describeError } from '../../../../lib/api-error-message.ts';
import { apiFor, type AccountId } from '../../../../lib/api-client.ts';
import { useCallerInfo } from '../../../../lib/caller-queries.ts';
import { usePermissions } from '../../../../lib/permissions.ts';
import { permissionsFor } from '../../../../lib/powers.ts';
import { rootKeys } from '../../../../lib/query-keys.ts';
import { senderLookupQuery } from '../../api/sender-lookup.ts';
import { MESSAGE_REJECTION_CHOICES } from '../../model/choices.ts';
import type { ListSettingsValues } from '../../model/list-form.ts';
import {
  ACTION_WORDS,
  EMPTY_TESTER_MESSAGE,
  NOBODY,
  factsFromContact,
  testerInput,
  type SenderFacts,
  type TesterMessage,
  type TesterSettings,
} from '../../model/posting-tester.ts';
import { FormField } from '../../../../components/form/form-field.tsx';

export interface PostingTesterProps {
  accountId: AccountId;
  listName: string;
}

/** The settings the policy reads, watched in the form: the tester follows unsaved changes. */
const WATCHED = [
  'moderate',
  'message_rejections',
  'notify_approval',
  'subscriptions',
  'unsubscriptions',
  'restrict_post_allowed_emails',
  'restrict_post_banned_emails',
  'restrict_post_lists',
  'taboo_headers',
  'taboo_body',
  'hold_automated',
  'hold_replies',
  'maxlength',
  'send_hold_message',
  'send_reject_message',
  'hold_subject',
  'hold_message',
  'reject_subject',
  'reject_message',
] as const;

function useTesterSettings() {
  const values = useWatch<ListSettingsValues>({ name: [...WATCHED] });
  const settings = Object.fromEntries(WATCHED.map((key, index) => [key, values[index]]));
  return settings as unknown as TesterSettings &
    Pick<ListSettingsValues, 'hold_subject' | 'hold_message' | 'reject_subject' | 'reject_message'>;
}

const ACCOUNT_NOTIFY_LABELS: Record<number, string> = {
  0: 'Do not notify',
  1: 'Notify the list manager of every held message',
  2: 'Delete every message held for approval',
  3: 'Delete held messages not from a list member',
};

/**
 * "What would happen": a message typed here, the form's current settings (saved or not) and what
 * is known of the sender go through the same posting policy the server runs. The sender is looked
 * up once per try (`GET /contacts/?email=`: one contact read at most, never the list's members);
 * the ticks below say what the look-up found and can be changed to try other senders' cases.
 */
export function PostingTester({ accountId, listName }: PostingTesterProps) {
  const settings = useTesterSettings();
  const [message, setMessage] = useState<TesterMessage>(EMPTY_TESTER_MESSAGE);
  /** The sender of the last try, normalized; null before the first. */
  const [tried, setTried] = useState<string | null>(null);
  const [ticked, setTicked] = useState<{ address: string; facts: SenderFacts } | null>(null);
  const [accountRejections, setAccountRejections] = useState<number>(
    ASSUMED_ACCOUNT_DEFAULTS.message_rejections,
  );
  const [accountNotify, setAccountNotify] = useState<number>(
    ASSUMED_ACCOUNT_DEFAULTS.notify_approval,
  );
  const [senderError, setSenderError] = useState<string | null>(null);
  // The account's defaults (spec §2.7), read where the person may: an operator (spec §4.7 is for
  // global keys with `account`), or the account's own superadmin or holder of general_settings
  // (the reference server's extension OWN_ACCOUNT); the choices below start from them.
  const { may, known, ...powers } = usePermissions();
  const caller = useCallerInfo();
  const global = known && 'global' in powers && powers.global;
  const readId = global ? accountId : (caller?.account?.id ?? null);
  const readsAccount = known && may('accounts.get') && readId !== null;
  const account = useQuery({
    queryKey: rootKeys.account(readId ?? ''),
    queryFn: ({ signal }) =>
      apiFor(null).call('accounts.get', { params: { id: readId ?? '' }, signal }),
    enabled: readsAccount,
  });
  const [fromAccount, setFromAccount] = useState(false);
  if (account.data && !fromAccount) {
    setFromAccount(true);
    const read = account.data as Record<string, unknown>;
    if (typeof read.notify_approval === 'number') setAccountNotify(read.notify_approval);
    if (typeof read.message_rejections === 'number') setAccountRejections(read.message_rejections);
  }
  const lookup = useQuery({
    ...senderLookupQuery(accountId, tried ?? ''),
    enabled: tried !== null,
  });

  const headingId = useId();
  const ids = {
    sender: useId(),
    name: useId(),
    subject: useId(),
    body: useId(),
    size: useId(),
    rejections: useId(),
    notify: useId(),
  };

  const found: SenderFacts | null =
    tried !== null && lookup.isSuccess ? factsFromContact(lookup.data ?? undefined) : null;
  const facts: SenderFacts =
    ticked !== null && ticked.address === tried ? ticked.facts : (found ?? NOBODY);
  const setFact = (change: (facts: SenderFacts) => SenderFacts) => {
    if (tried !== null) setTicked({ address: tried, facts: change(facts) });
  };
  const factLists = [...new Set([listName, ...(settings.restrict_post_lists ?? [])])];

  const set = <K extends keyof TesterMessage>(key: K, value: TesterMessage[K]) =>
    setMessage((was) => ({ ...was, [key]: value }));

  const tryIt = () => {
    const address = message.sender.trim();
    if (!EmailAddress.safeParse(address).success) {
      setSenderError('Enter the sender’s email address.');
      document.getElementById(ids.sender)?.focus();
      return;
    }
    setSenderError(null);
    setTried(normalizeAddress(address));
  };

  // The tester sits inside the settings form: Enter tries the message instead of saving the list.
  const enterTries = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    tryIt();
  };

  const accountDefaults = {
    message_rejections: accountRejections as 0 | 1 | 2 | 3,
    notify_approval: accountNotify as 0 | 1 | 2 | 3,
  };
  const senderChanged = tried !== null && normalizeAddress(message.sender) !== tried;
  let result: { decision: PostingDecision } | { problem: string } | null = null;
  if (tried !== null && !senderChanged && !lookup.isPending) {
    const built = testerInput(listName, settings, message, facts, accountDefaults);
    result = 'input' in built ? { decision: decidePosting(built.input) } : built;
  }

  return (
    <section className="posting-tester stack" aria-labelledby={headingId}>
      <h3 id={headingId}>What would happen to a message?</h3>
      <p className="hint">
        Try a message against the settings on this page, saved or not. The sender is looked up in
        the address book (one contact read of the hourly allowance); the ticks say what was found,
        and you can change them.
      </p>
      <fieldset className="stack">
        <legend>The message</legend>
        <FormField id={ids.sender} label="Sender’s address" error={senderError || undefined}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="off"
              value={message.sender}
              onChange={(event) => set('sender', event.target.value)}
              onKeyDown={enterTries}
            />
          )}
        </FormField>
        <FormField id={ids.name} label="Sender’s name (optional)">
          {(control) => (
            <input
              {...control}
              autoComplete="off"
              value={message.name}
              onChange={(event) => set('name', event.target.value)}
              onKeyDown={enterTries}
            />
          )}
        </FormField>
        <FormField id={ids.subject} label="Subject">
          {(control) => (
            <input
              {...control}
              autoComplete="off"
              value={message.subject}
              onChange={(event) => set('subject', event.target.value)}
              onKeyDown={enterTries}
            />
          )}
        </FormField>
        <FormField id={ids.body} label="Message text">
          {(control) => (
            <textarea
              {...control}
              rows={4}
              value={message.body}
              onChange={(event) => set('body', event.target.value)}
            />
          )}
        </FormField>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={message.reply}
            onChange={(event) => set('reply', event.target.checked)}
          />
          It is a reply to a list message
        </label>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={message.automated}
            onChange={(event) => set('automated', event.target.checked)}
          />
          It was sent by a program (an auto-reply)
        </label>
        <FormField id={ids.size} label="Attachments, in KB">
          {(control) => (
            <input
              {...control}
              type="number"
              min={0}
              step={1}
              className="narrow"
              value={Number.isFinite(message.attachmentsKb) ? message.attachmentsKb : ''}
              onChange={(event) => set('attachmentsKb', event.target.valueAsNumber || 0)}
              onKeyDown={enterTries}
            />
          )}
        </FormField>
      </fieldset>

      {(settings.message_rejections === null || settings.notify_approval === null) && (
        <fieldset className="stack">
          <legend>The account’s defaults</legend>
          <p className="hint" aria-live="polite">
            {!readsAccount
              ? `This list uses the account’s default for some settings, which you may not read: an account’s settings need the ${permissionsFor('accounts.get')} permission with a global key (an operator’s, spec §4.7), or general_settings on your own account where the server allows it. Choose the account’s value to see what follows from it.`
              : account.isPending
                ? 'Reading the account’s defaults…'
                : account.isError
                  ? `The account’s defaults could not be read (${describeError(account.error)}). Choose the account’s value to see what follows from it.`
                  : 'This list uses the account’s default for some settings: read from the account below; change them to try another value.'}
          </p>
          {settings.message_rejections === null && (
            <FormField id={ids.rejections} label="The account’s default for messages not permitted">
              {(control) => (
                <select
                  {...control}
                  value={accountRejections}
                  onChange={(event) => setAccountRejections(Number(event.target.value))}
                >
                  {MESSAGE_REJECTIONS_VALUES.map((value) => (
                    <option key={value} value={value}>
                      {MESSAGE_REJECTION_CHOICES.find((choice) => choice.value === value)?.label}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          )}
          {settings.notify_approval === null && (
            <FormField id={ids.notify} label="The account’s default for held messages">
              {(control) => (
                <select
                  {...control}
                  value={accountNotify}
                  onChange={(event) => setAccountNotify(Number(event.target.value))}
                >
                  {ACCOUNT_NOTIFY_APPROVAL_VALUES.map((value) => (
                    <option key={value} value={value}>
                      {ACCOUNT_NOTIFY_LABELS[value]}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          )}
        </fieldset>
      )}

      <div className="actions">
        <button type="button" className="button primary" onClick={tryIt}>
          What would happen?
        </button>
      </div>

      {tried !== null && !senderChanged && (
        <fieldset className="stack">
          <legend>The sender, {tried}</legend>
          <p className="hint" aria-live="polite">
            {lookup.isPending
              ? 'Looking the sender up in the address book…'
              : lookup.isError
                ? `The address book could not be asked (${describeError(lookup.error)}). Tick what is true of the sender.`
                : ticked?.address === tried
                  ? 'As ticked here.'
                  : found?.contact
                    ? 'From the address book: a contact of the account.'
                    : 'From the address book: nobody with this address.'}
          </p>
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={facts.contact || facts.lists.length > 0}
              disabled={facts.lists.length > 0}
              onChange={(event) => setFact((was) => ({ ...was, contact: event.target.checked }))}
            />
            A contact of the account
          </label>
          {factLists.map((name) => (
            <label key={name} className="checkbox-field">
              <input
                type="checkbox"
                checked={facts.lists.includes(name)}
                onChange={(event) =>
                  setFact((was) => ({
                    ...was,
                    lists: event.target.checked
                      ? [...was.lists, name]
                      : was.lists.filter((other) => other !== name),
                  }))
                }
              />
              A member of {name === listName ? `this list (${name})` : name}
            </label>
          ))}
        </fieldset>
      )}

      <div
        className="posting-tester-result"
        role="status"
        aria-live="polite"
        aria-atomic="true"
        aria-label="What would happen"
      >
        {senderChanged && <p>The sender changed: press “What would happen?” to try them.</p>}
        {result !== null && 'problem' in result && <p>{result.problem}</p>}
        {result !== null && 'decision' in result && (
          <Verdict
            decision={result.decision}
            settings={settings}
            listName={listName}
            subject={message.subject}
          />
        )}
      </div>
    </section>
  );
}

function Verdict({
  decision,
  settings,
  listName,
  subject,
}: {
  decision: PostingDecision;
  settings: ReturnType<typeof useTesterSettings>;
  listName: string;
  subject: string;
}) {
  const others = decision.hits.filter((hit) => hit.rule !== decision.rule && hit.action === 'hold');
  const notice =
    decision.senderNotice === null
      ? null
      : senderNotice(decision.senderNotice, settings, { subject, listAddress: `${listName}@…` });
  return (
    <div className={`verdict verdict-${decision.action}`} data-action={decision.action}>
      <p className="verdict-action">
        <strong>{ACTION_WORDS[decision.action]}</strong>
      </p>
      <p>{decision.reason}</p>
      <p className="hint">
        Rule <code data-rule>{decision.rule}</code>
        {decision.setting !== null && (
          <>
            {' '}
            · setting <code>{decision.setting}</code>
          </>
        )}
      </p>
      {others.length > 0 && (
        <>
          <p>Also holding it:</p>
          <ul>
            {others.map((hit) => (
              <li key={`${hit.rule}-${hit.setting ?? ''}`}>{hit.reason}</li>
            ))}
          </ul>
        </>
      )}
      {decision.action === 'hold' && (
        <p>
          {decision.notifyModerator
            ? 'The list manager is told that a message waits.'
            : 'The list manager is not told (notify_approval).'}
        </p>
      )}
      {notice && (
        <p>
          The sender gets the {decision.senderNotice === 'hold' ? 'hold' : 'rejection'} message, “
          {notice.subject}”.
        </p>
      )}
      {decision.noticeSuppressed && <p>{decision.noticeSuppressed}</p>}
    </div>
  );
}
