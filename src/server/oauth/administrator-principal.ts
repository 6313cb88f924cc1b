import * as z from 'zod';
import { PERMISSIONS } from '../../api/constants.ts';
import type { Principal } from '../auth/principal.ts';

const Permissions = z.array(z.enum(PERMISSIONS));
const Names = z.array(z.string());

/** The principal of an administrator row: an access token acts with its granter's rights (spec §5.2). */
export function principalOfAdministrator(row: {
  administrator_id: number;
  account_id: number | null;
  permissions: string;
  limit_lists: string;
  limit_metadata: string;
}): Principal {
  return {
    administratorId: row.administrator_id,
    accountId: row.account_id,
    permissions: new Set(Permissions.parse(JSON.parse(row.permissions))),
    limitLists: Names.parse(JSON.parse(row.limit_lists)),
    limitMetadata: Names.parse(JSON.parse(row.limit_metadata)),
  };
}
