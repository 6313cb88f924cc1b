import { lazy, Suspense, useState } from 'react';
import type { AccountId } from '../../../lib/api-client.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import type { SenderRule } from '../model/sender-rule.ts';

// Beside the model (model/sender-rule.ts), which loads with the dialog only.
const RULES: Record<SenderRule, string> = {
  accept: 'Always accept',
  hold: 'Always hold',
  reject: 'Always reject',
};

// The dialog (the list's settings read, the change shown, the save) loads when asked for.
const SenderRuleDialog = lazy(() =>
  import('./sender-rule-dialog.tsx').then((m) => ({ default: m.SenderRuleDialog })),
);

/**
 * After a message is approved or rejected: "from now on" for its sender on its list, as
 * Postorius offers (spec §2.4 sender settings, shown as a change before saving). Offered to whom
 * may change the list's settings (`list_settings`, and the list within `limit_lists`).
 */
export function SenderRuleOffer({
  accountId,
  sender,
}: {
  accountId: AccountId;
  sender: { list: string; address: string };
}) {
  const powers = usePermissions();
  const [rule, setRule] = useState<SenderRule | null>(null);
  // Spec §2.6 limit_lists, as lib/reach.ts reads it (not imported: it brings the lists' query).
  const outside =
    powers.known && powers.limitLists !== null && !powers.limitLists.includes(sender.list);
  if (!powers.may('lists.update') || outside) return null;
  return (
    <div className="actions sender-rule" role="group" aria-label="From now on, for this sender">
      <span>
        From now on, {sender.address} on {sender.list}:
      </span>
      {(Object.keys(RULES) as SenderRule[]).map((choice) => (
        <button key={choice} type="button" className="button small" onClick={() => setRule(choice)}>
          {RULES[choice]}
        </button>
      ))}
      <span className="hint">
        (No “always discard”: the mailing-list API has no setting that drops one sender’s messages.)
      </span>
      {rule && (
        <Suspense fallback={null}>
          <SenderRuleDialog
            accountId={accountId}
            sender={sender}
            rule={rule}
            onClose={() => setRule(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
