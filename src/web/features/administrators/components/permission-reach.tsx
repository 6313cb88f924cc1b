import { useId } from 'react';
import { permissionReach } from '../model/permission-reach.ts';

/**
 * What an administrator with the permissions ticked so far can open, before it is made or saved
 * (issue 27 item 4): the pages, and per area of the API what it may do, read from the contract's
 * permission table as the server enforces it. A permission that allows nothing is named.
 */
export function PermissionReach({
  permissions,
  global,
  subject,
}: {
  permissions: readonly string[];
  /** The group's administrators (spec §4.8): the accounts, not one account's settings. */
  global: boolean;
  /** Who it is about: “a key” or “this administrator”. */
  subject: string;
}) {
  const id = useId();
  const reach = permissionReach(permissions, global);
  const nothing = reach.pages.length === 0 && reach.areas.length === 0;
  return (
    <section className="notice stack" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>What {subject} with these permissions opens</h3>
      <p aria-live="polite">
        {nothing
          ? `Nothing: no page, and no operation of the API. Spec v2 has no read-only permission; to read, choose what is to be read (approval reads lists and messages, membership reads contacts and lists).`
          : reach.pages.length === 0
            ? 'No page of this dashboard; only the operations below.'
            : `Pages: ${reach.pages.join(', ')}.`}
      </p>
      {reach.areas.length > 0 && (
        <ul>
          {reach.areas.map(({ area, actions }) => (
            <li key={area}>
              {area}: {actions.join(', ')}
            </li>
          ))}
        </ul>
      )}
      {reach.idle.length > 0 && (
        <p className="hint">
          {reach.idle.join(', ')} {reach.idle.length === 1 ? 'allows' : 'allow'} no operation of
          this server’s API.
        </p>
      )}
      {permissions.includes('limit_lists') && (
        <p className="hint">Only on the lists chosen below.</p>
      )}
    </section>
  );
}
