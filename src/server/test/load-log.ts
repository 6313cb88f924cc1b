/**
 * What the load clients (load-client.ts) write down and the verifier (load-verify.ts) checks: for
 * every write, what it wrote and how the server answered. Each client only ever writes the contacts
 * it created itself, one request at a time, so its log alone says what the final state of those
 * contacts must be; clients share only the lists and the account's reads.
 */

/**
 * How a write ended: `acked` got a 2xx; `refused` got a 4xx (the server says it did nothing);
 * `doubt` got a 5xx, no answer or an answer out of contract (it may or may not have happened).
 */
export type Outcome = 'acked' | 'refused' | 'doubt';

export interface MembershipRecord {
  id: number;
  /** `removed` once a DELETE of it was acknowledged. */
  removed: boolean;
}

export interface ContactRecord {
  /** The contact's surname: unique to this write across the run. */
  token: string;
  email: string;
  create: Outcome;
  /** The service id the create's answer gave (acknowledged creates only). */
  id: number | null;
  /** The notes of the last acknowledged write ('' from the create). */
  notes: string;
  /** Notes that only refused updates carried: finding one of them stored is a phantom write. */
  refusedNotes: Set<string>;
  /** An acknowledged DELETE: the contact must be gone. */
  deleted: boolean;
  /** Acknowledged memberships by list name (from the create's `lists` or POST /membership/). */
  lists: Map<string, MembershipRecord>;
  /** Some write on this contact ended in doubt: its final state is not checked, only counted. */
  doubt: boolean;
}

export interface LoadLog {
  /** The run's mark: every contact the load creates has the first name `Load <run>`. */
  run: string;
  contacts: Map<string, ContactRecord>;
  /** Message subjects sent through POST /messages/ and how each send ended. */
  messages: Map<string, Outcome>;
  /** Acknowledged writes of every kind (creates, updates, deletes, memberships, sends). */
  acknowledged: number;
  /** The same by the operation their audit entry names (issue 26 item 4: one entry each). */
  acknowledgedBy: Map<string, number>;
}

export function loadFirstname(run: string): string {
  return `Load ${run}`;
}

export function messageSubjectPrefix(run: string): string {
  return `load ${run} `;
}
