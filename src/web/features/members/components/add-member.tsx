import { useId, useState } from 'react';
import { EmailAddress } from '../../../../api/primitives.ts';
import type { Contact } from '../../../../api/schemas/contact.ts';
import { ErrorMessage } from '../../../components/error-message.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { findContacts, useCreateMember } from '../api/member-mutations.ts';
import { useCreateMembership } from '../../../lib/membership-mutations.ts';
import { membershipOf } from '../../../lib/list-member-pages.ts';
import { FormField } from '../../../components/form/form-field.tsx';
import { Link } from 'react-router';

function nameOf(contact: Contact): string {
  return [contact.firstname, contact.surname].filter(Boolean).join(' ');
}

/**
 * Adds a member: a search of the address book (sent on Find, not as one types: each match read
 * counts), then Add beside a match; an address nobody has yet becomes a new contact on the list.
 */
export function AddMember({ accountId, list }: { accountId: AccountId; list: string }) {
  const inputId = useId();
  const [text, setText] = useState('');
  const [found, setFound] = useState<{ search: string; contacts: Contact[]; count: number } | null>(
    null,
  );
  const [searchError, setSearchError] = useState<unknown>(null);
  const [searching, setSearching] = useState(false);
  // Who was just added, with a link to them: the members page may show them on another page.
  const [added, setAdded] = useState<{ who: string; ref: string } | null>(null);
  const add = useCreateMembership(accountId);
  const create = useCreateMember(accountId, list);
  // A new address needs a new contact: a membership-only key adds existing contacts alone.
  const mayCreate = usePermissions().may('contacts.create');

  const search = found?.search ?? '';
  const isAddress = EmailAddress.safeParse(search).success;
  const exact = found?.contacts.some((c) =>
    c.emails.some((e) => e.email.toLowerCase() === search.toLowerCase()),
  );

  async function find() {
    const term = text.trim();
    if (!term) return;
    setSearching(true);
    setSearchError(null);
    setAdded(null);
    try {
      const page = await findContacts(accountId, term);
      setFound({ search: term, contacts: page.data, count: page.count });
    } catch (error) {
      setSearchError(error);
    } finally {
      setSearching(false);
    }
  }

  const done = (who: string, ref: string | number) => {
    setAdded({ who, ref: String(ref) });
    setFound(null);
    setText('');
  };

  return (
    <section className="add-member stack" aria-labelledby={`${inputId}-h`}>
      <h2 id={`${inputId}-h`}>Add a member</h2>
      <form
        className="inline-form"
        role="search"
        aria-label="Find someone to add"
        onSubmit={(event) => {
          event.preventDefault();
          void find();
        }}
      >
        <FormField id={inputId} label="Name or address">
          {(control) => (
            <input
              {...control}
              type="search"
              autoComplete="off"
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          )}
        </FormField>
        <button type="submit" className="button" disabled={searching || !text.trim()}>
          {searching ? 'Finding…' : 'Find'}
        </button>
      </form>
      {added && (
        <p className="summary" role="status">
          <Link to={`../../../contacts/${encodeURIComponent(added.ref)}`} relative="path">
            {added.who}
          </Link>{' '}
          is now a member of {list}.
        </p>
      )}
      {searchError !== null && <ErrorMessage error={searchError} />}
      {found && (
        <div className="stack" aria-live="polite">
          <p className="summary">
            {found.count === 0
              ? `No contact matches “${found.search}”.`
              : found.count > found.contacts.length
                ? `${found.count} contacts match; the first ${found.contacts.length} are shown. Type more to narrow the search.`
                : `${found.count === 1 ? '1 contact matches' : `${found.count} contacts match`}.`}
          </p>
          {found.contacts.length > 0 && (
            <ul className="found-contacts">
              {found.contacts.map((contact) => {
                const member = membershipOf(contact, list) !== undefined;
                const label =
                  nameOf(contact) || contact.emails[0]?.email || `#${String(contact.id)}`;
                return (
                  <li key={String(contact.id)}>
                    <span>
                      {label}
                      {contact.emails[0] && label !== contact.emails[0].email && (
                        <span className="hint"> {contact.emails[0].email}</span>
                      )}
                    </span>
                    {member ? (
                      <span className="hint">Already a member</span>
                    ) : (
                      <button
                        type="button"
                        className="button"
                        aria-label={`Add ${label} to ${list}`}
                        disabled={add.isPending}
                        onClick={() =>
                          add.mutate(
                            { contact: contact.emails[0]?.contact ?? contact.id, list },
                            {
                              onSuccess: () =>
                                done(label, contact.emails[0]?.contact ?? contact.id),
                            },
                          )
                        }
                      >
                        Add
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {isAddress && !exact && mayCreate && (
            <p>
              <button
                type="button"
                className="button primary"
                disabled={create.isPending}
                onClick={() =>
                  create.mutate(search, {
                    onSuccess: (contact) => done(search, contact.emails[0]?.contact ?? contact.id),
                  })
                }
              >
                {create.isPending ? 'Creating…' : `Create a contact for ${search} and add it`}
              </button>
            </p>
          )}
          {!isAddress && found.count === 0 && mayCreate && (
            <p className="hint">To add someone new, type their email address.</p>
          )}
        </div>
      )}
      {add.isError && <ErrorMessage error={add.error} />}
      {create.isError && <ErrorMessage error={create.error} />}
    </section>
  );
}
