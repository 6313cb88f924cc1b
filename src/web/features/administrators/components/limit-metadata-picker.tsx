import { useQuery } from '@tanstack/react-query';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import type { AccountId } from '../../../lib/api-client.ts';
import { customFieldQueries } from '../../../lib/custom-field-queries.ts';
import { LinesField } from './lines-field.tsx';

const LABEL = 'Custom fields this administrator is limited to';
const TYPED_HINT =
  'One custom field per line, by its identifier if it has one, otherwise by its full name.';

/**
 * Spec §2.6 `limit_metadata`: the account's custom fields as checkboxes (read from a contact,
 * api/custom-field-queries.ts), and a field for any the account's contacts do not show. Where no
 * field can be read (no contact yet, the group level), every name is typed.
 */
export function LimitMetadataPicker({
  accountId,
  groupLevel,
  id,
  value,
  onChange,
  error,
  announce,
}: {
  accountId: AccountId;
  groupLevel: boolean;
  /** The id of the typed-names field. */
  id: string;
  value: string[];
  onChange: (value: string[]) => void;
  /** The error sentence, shown under the typed names (the checkboxes name it too). */
  error: string | undefined;
  announce: boolean;
}) {
  const fields = useQuery({ ...customFieldQueries.known(accountId), enabled: !groupLevel });
  if (!groupLevel && fields.isPending) {
    return <p role="status">Loading the account’s custom fields…</p>;
  }
  const known = new Set(groupLevel ? [] : (fields.data ?? []));
  const chosen = value.filter((name) => known.has(name));
  const others = value.filter((name) => !known.has(name));
  const typed = (label: string, hint: string) => (
    <LinesField
      id={id}
      label={label}
      hint={hint}
      value={others}
      onChange={(lines) => onChange([...chosen, ...lines])}
      error={error}
      announce={announce}
    />
  );
  if (known.size === 0) {
    const why = groupLevel
      ? 'Global administrators are not tied to one account.'
      : 'No contact of this account shows its custom fields yet.';
    return typed(LABEL, `${TYPED_HINT} ${why}`);
  }
  return (
    <div className="stack">
      <CheckboxGroup
        legend={LABEL}
        options={[...known].map((name) => ({ value: name, label: name }))}
        value={chosen}
        onChange={(next) => onChange([...next, ...others])}
        describedBy={error ? `${id}-error` : undefined}
      />
      {typed('Other custom fields', `${TYPED_HINT} For any the account’s contacts do not show.`)}
    </div>
  );
}
