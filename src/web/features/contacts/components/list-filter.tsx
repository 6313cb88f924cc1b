import { useId, useState } from 'react';
import type { AccountId } from '../../../lib/api-client.ts';
import { useReachableLists } from '../../../lib/reach.ts';
import { FormField } from '../../../components/form/form-field.tsx';
import { usePermissions } from '../../../lib/permissions.ts';
import { confinedLists } from '../../../lib/powers.ts';

/**
 * "On the list": the members of one list, or every contact. The account's lists are read once the
 * control is first used (each read costs allowance), or at once when the URL already names one.
 */
export function ListFilter({
  accountId,
  value,
  onChange,
}: {
  accountId: AccountId;
  value: string;
  onChange: (list: string) => void;
}) {
  const [wanted, setWanted] = useState(value !== '');
  const lists = useReachableLists(accountId, wanted);
  const names = lists.data?.map((list) => list.name) ?? [];
  // The chosen list shows even before the lists arrive (or if it is no longer there).
  if (value && !names.includes(value)) names.unshift(value);
  const id = useId();
  // A principal confined to some lists (spec §2.6 limit_lists) sees only their members.
  const confined = confinedLists(usePermissions()) !== null;
  return (
    <FormField id={id} label="On the list">
      {(control) => (
        <select
          {...control}
          value={value}
          aria-busy={lists.isFetching}
          onFocus={() => setWanted(true)}
          onPointerDown={() => setWanted(true)}
          onChange={(event) => onChange(event.target.value)}
        >
          {!confined && <option value="">Any list</option>}
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
