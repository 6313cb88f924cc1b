import '../contacts.css';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { PageHeading } from '../../../components/page-heading.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { contactQueries, contactRef } from '../../../lib/contact-queries.ts';
import { fullName } from '../lib/format.ts';
import { ContactForm } from './contact-form.tsx';
import { DeleteContactDialog } from './delete-contact-dialog.tsx';
import { EmailsSection } from './emails-section.tsx';
import { MembershipsSection } from './memberships-section.tsx';

/** One contact (spec §2.1): its fields, addresses and memberships, each editable. */
export function ContactPage({ accountId, contactId }: { accountId: AccountId; contactId: string }) {
  const contact = useQuery(contactQueries.detail(accountId, contactId));
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const { may } = usePermissions();
  const back = () => void navigate('..', { relative: 'path' });

  if (contact.isPending)
    return (
      <>
        <PageHeading title="Contact" />
        <TableSkeleton label="Loading the contact…" />
      </>
    );
  if (contact.isError)
    return (
      <>
        <PageHeading title="Contact" />
        <ErrorMessage error={contact.error} onRetry={() => void contact.refetch()} />
        <p>
          <Link to=".." relative="path">
            All contacts
          </Link>
        </p>
      </>
    );

  const data = contact.data;
  const ref = contactRef(data);
  const name = fullName(data);
  return (
    <>
      <p className="breadcrumb">
        <Link to=".." relative="path">
          All contacts
        </Link>
      </p>
      <PageHeading title={name} />
      <div className="contact-page">
        <ContactForm
          key={String(data.id)}
          accountId={accountId}
          contact={data}
          onRenamed={(newRef) =>
            void navigate(`../${encodeURIComponent(newRef)}`, { relative: 'path', replace: true })
          }
        />
        <EmailsSection
          accountId={accountId}
          contactRef={ref}
          emails={data.emails}
          onContactDeleted={back}
        />
        <MembershipsSection accountId={accountId} contactRef={ref} memberships={data.lists} />
        {may('contacts.delete') && (
          <section className="stack danger-zone" aria-label="Delete the contact">
            <button type="button" className="button danger" onClick={() => setDeleting(true)}>
              Delete the contact
            </button>
          </section>
        )}
      </div>
      <DeleteContactDialog
        accountId={accountId}
        contactId={ref}
        name={name}
        open={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={back}
      />
    </>
  );
}
