import type { Administrator } from '../../../../api/schemas/administrator.ts';

/** Spec §9 rule 2: `api` 0 is a person; any other value is an API key of that version. */
export function isKey(administrator: Administrator): boolean {
  return administrator.api > 0;
}

/** Spec §9 rule 3: version 2 keys have a description and no username. */
export function administratorName(administrator: Administrator): string {
  if (isKey(administrator))
    return administrator.description || `API key ${String(administrator.id)}`;
  return administrator.username ?? `Administrator ${String(administrator.id)}`;
}
