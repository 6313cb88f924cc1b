import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Id } from '../../../api/primitives.ts';
import type { AccountId } from '../../lib/api-client.ts';
import { bounceQueries, useClearBounces, type BounceScope } from '../../lib/bounce-queries.ts';
import { clearedWords, describeBounce, stateOf } from '../../lib/bounce-words.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { ErrorMessage } from '../error-message.tsx';

export interface BounceProps {
  accountId: AccountId;
  /** Whose states the page reads: one query for all its markers. */
  scope: BounceScope;
}

/** The scope's states; none where the server lacks the extension or the caller may not read it. */
function useBounceStates({ accountId, scope }: BounceProps) {
  const { may } = usePermissions();
  return useQuery({ ...bounceQueries.of(accountId, scope), enabled: may('bounces.list') });
}

/**
 * An address whose mail bounces (issue 26 item 1): how far it went, its score and last bounce,
 * and "Clear bounces". Nothing for an address that did not bounce, nor on a server without the
 * extension. No confirmation: a clear forgets a score that the next bounce starts again (as
 * Mailman's "reset bounce info"), and the audit log keeps what it was. Once cleared, the result
 * takes the button's place and the focus, so a screen reader hears it.
 */
function BounceMarker({ email, address, ...props }: BounceProps & { email: Id; address: string }) {
  const states = useBounceStates(props);
  const clear = useClearBounces(props.accountId);
  const { may } = usePermissions();
  const [said, setSaid] = useState('');
  const saidRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (said) saidRef.current?.focus();
  }, [said]);

  const state = states.data?.supported ? stateOf(states.data.value, email) : undefined;
  const words = state && describeBounce(state);
  return (
    <>
      {said && (
        <p className="bounce-said" role="status" tabIndex={-1} ref={saidRef}>
          {said}
        </p>
      )}
      {words && (
        <span className="bounce-marker" data-tone={words.tone}>
          <span className="bounce-badge">{words.label}</span>
          <span className="bounce-detail">{words.detail}</span>
          {may('bounces.clear') && (
            <button
              type="button"
              className="button small"
              aria-label={`Clear bounces for ${address}`}
              disabled={clear.isPending}
              onClick={() => {
                setSaid('');
                clear.mutate(email, {
                  onSuccess: (outcome) => setSaid(clearedWords(address, outcome.paused)),
                });
              }}
            >
              Clear bounces
            </button>
          )}
          {clear.isError && <ErrorMessage error={clear.error} />}
        </span>
      )}
    </>
  );
}

/** Why no marker shows when the states could not be read: said once, above the addresses. */
function BounceLoadError(props: BounceProps) {
  const states = useBounceStates(props);
  if (!states.isError) return null;
  return <ErrorMessage error={states.error} onRetry={() => void states.refetch()} />;
}

/** An address's marker, or (without an address) the states' load error (lazy-bounces.tsx). */
export default function Bounces(props: BounceProps & { email?: Id; address?: string }) {
  const { email, address, ...rest } = props;
  return email === undefined || address === undefined ? (
    <BounceLoadError {...rest} />
  ) : (
    <BounceMarker {...rest} email={email} address={address} />
  );
}
