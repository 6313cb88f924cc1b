import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { sectionPath } from '../../../lib/account-scope.ts';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { fieldQueries } from '../api/field-queries.ts';

/**
 * The navigation's Custom fields item: only where the server offers the `fields.*` extension (the
 * list, one object a field, read once and shared with the page) and the principal may read it.
 */
export function FieldsNavItem({ accountId, global }: { accountId: AccountId; global: boolean }) {
  const powers = usePermissions();
  // A global principal off an account's pages has no account to read the fields of.
  const reachable = !(global && accountId === null) && powers.may('fields.list');
  const fields = useQuery({ ...fieldQueries.list(accountId), enabled: reachable });
  if (!reachable || !fields.data?.supported) return null;
  return (
    <li>
      <NavLink to={sectionPath(accountId, 'fields')}>Custom fields</NavLink>
    </li>
  );
}
