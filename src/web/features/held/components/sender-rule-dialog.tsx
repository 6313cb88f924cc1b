import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { TableSkeleton } from '../../../components/skeleton.tsx';
import { apiFor, type AccountId } from '../../../lib/api-client.ts';
import { listQueries, updateQuery } from '../../../lib/list-queries.ts';
import { SENDER_RULE_WORDS, senderRuleChange, type SenderRule } from '../model/sender-rule.ts';

/**
 * The sender rule's change to the list's settings, setting by setting (before → after), saved
 * only when confirmed: only the changed fields are sent (spec §1 rule 6, §4.4 update).
 */
export function SenderRuleDialog({
  accountId,
  sender,
  rule,
  onClose,
}: {
  accountId: AccountId;
  sender: { list: string; address: string };
  rule: SenderRule;
  onClose: () => void;
}) {
  const list = useQuery(listQueries.detail(accountId, sender.list));
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationKey: [accountId, 'lists', 'update'],
    mutationFn: (body: ReturnType<typeof senderRuleChange>['body']) =>
      apiFor(accountId).call('lists.update', {
        params: { name: sender.list },
        body,
        query: updateQuery(accountId),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listQueries.all(accountId) }),
  });
  const change = list.data ? senderRuleChange(list.data, sender.address, rule) : null;
  const title = `${SENDER_RULE_WORDS[rule]} ${sender.address} on ${sender.list}?`;
  return (
    <Dialog open onClose={onClose} title={title}>
      {list.isPending ? (
        <TableSkeleton label="Reading the list’s settings…" rows={2} />
      ) : list.isError ? (
        <ErrorMessage error={list.error} onRetry={() => void list.refetch()} />
      ) : saved ? (
        <p role="status">Saved: the list’s sender settings are changed.</p>
      ) : change && change.changes.length === 0 ? (
        <p>Nothing to change: the list’s sender settings already say so.</p>
      ) : (
        change && (
          <table>
            <caption>The list’s settings that change</caption>
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">Now</th>
                <th scope="col">After saving</th>
              </tr>
            </thead>
            <tbody>
              {change.changes.map((line) => (
                <tr key={line.setting}>
                  <th scope="row">
                    <code>{line.setting}</code>
                  </th>
                  <td>{line.before}</td>
                  <td>{line.after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      {change?.caveat && !saved && <p className="notice">{change.caveat}</p>}
      {save.isError && <ErrorMessage error={save.error} />}
      <div className="actions">
        {change && change.changes.length > 0 && !saved && (
          <button
            type="button"
            className="button primary"
            data-initial-focus
            disabled={save.isPending}
            onClick={() => save.mutate(change.body, { onSuccess: () => setSaved(true) })}
          >
            {save.isPending ? 'Saving…' : 'Save the change'}
          </button>
        )}
        <button type="button" className="button" onClick={onClose}>
          {saved ? 'Done' : 'Cancel'}
        </button>
      </div>
    </Dialog>
  );
}
