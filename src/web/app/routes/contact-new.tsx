import { Link, useNavigate, type LoaderFunctionArgs } from 'react-router';
import { PageHeading } from '../../components/page-heading.tsx';
import { contactRef } from '../../lib/contact-queries.ts';
import { CreateContactForm } from '../../features/contacts/components/create-contact-form.tsx';
import { listQueries } from '../../lib/list-queries.ts';
import { useAccountId } from '../../lib/account-scope.ts';
import { queryClient } from '../query-client.ts';

export function loader({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(listQueries.list(params.accountId ?? null));
  return null;
}

export function Component() {
  const accountId = useAccountId();
  const navigate = useNavigate();
  return (
    <>
      <p className="breadcrumb">
        <Link to=".." relative="path">
          All contacts
        </Link>
      </p>
      <PageHeading title="New contact" />
      <CreateContactForm
        key={accountId}
        accountId={accountId}
        onCreated={(contact) =>
          void navigate(`../${encodeURIComponent(String(contactRef(contact)))}`, {
            relative: 'path',
          })
        }
      />
    </>
  );
}
