import { useQuery } from '@tanstack/react-query';
import { useParams, type LoaderFunctionArgs } from 'react-router';
import { ErrorMessage } from '../../components/error-message.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { ParentLink } from '../../components/parent-link.tsx';
import { TableSkeleton } from '../../components/skeleton.tsx';
import { MembersBrowser } from '../../features/members/components/members-browser.tsx';
import { useAccountId } from '../../lib/account-scope.ts';
import { listQueries } from '../../lib/list-queries.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { permissionsFor } from '../../lib/powers.ts';
import { queryClient } from '../query-client.ts';

export function loader({ params }: LoaderFunctionArgs) {
  void queryClient.prefetchQuery(
    listQueries.summary(params.accountId ?? null, params.listName ?? ''),
  );
  return null;
}

export function Component() {
  const accountId = useAccountId();
  const name = useParams().listName ?? '';
  // The members' count, not their ids: the page reads only the members it shows (spec §8 rule 1).
  const list = useQuery(listQueries.summary(accountId, name));
  // Members are contacts (spec §4.1): a principal that may not read contacts sees none.
  const { may } = usePermissions();
  return (
    <>
      <ParentLink label={`Settings of ${name}`} />
      <PageHeading title={`Members of ${name}`} />
      {!may('contacts.list') ? (
        <p role="alert" className="error-message">
          Not permitted: the members of a list need the {permissionsFor('contacts.list')}{' '}
          permission, which your sign-in does not have. An administrator with superadmin can give
          it.
        </p>
      ) : list.isPending ? (
        <TableSkeleton label="Loading the list…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <MembersBrowser key={`${accountId ?? ''}/${name}`} accountId={accountId} list={list.data} />
      )}
    </>
  );
}
