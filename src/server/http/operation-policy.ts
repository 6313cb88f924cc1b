import type { OperationName } from '../../api/operations.ts';
import type { Scope } from '../oauth/scopes.ts';

/**
 * What the server needs to know about one operation beyond its entry in the contract
 * (src/api/operations.ts: method, path, schemas, permissions, extension marks). One entry per
 * operation, keyed by the same name and checked by the compiler: a new operation without an entry
 * does not build, so none of these can be missed silently. define-route.ts reads an operation's
 * entry once, when it registers the route.
 */
export interface OperationPolicy {
  /**
   * The OAuth scope an access token needs (spec §5.2 rule 3), besides its administrator's
   * permission; an API key has no scopes. null only for what concerns the token itself.
   */
  readonly scope: Scope | null;
  /**
   * `data`: the answer is an array sent as `{"data": [...]}`. Spec §4.4 and §4.6 answer "a JSON
   * object containing an array" (§1 rule 3: every body is an object) without naming the key; the
   * reference server uses `data`, as on the paged collections. `none`: sent as the handler returns
   * it (spec §4.7 answers accounts as a bare "JSON list").
   */
  readonly envelope: 'data' | 'none';
  /**
   * What happens to the one object every request reserves before its work (spec §8,
   * rate-limit/charge.ts) when the work fails: `refund` gives it back; `keep` is for reads that
   * make the server fetch from elsewhere (the image proxy, an extension), as the fetch was made.
   */
  readonly whenWorkFails: 'refund' | 'keep';
  /**
   * The answer's objects carry member ids (spec §2.4 `contacts`), which are charged one each
   * (spec §8 rule 1, SECURITY.md 30: what is returned is what is charged), a write's too.
   */
  readonly chargesMemberIds: boolean;
  /**
   * A write that may change an administrator, a key or an account (users, accounts; lists, whose
   * renaming rewrites limit_lists): the auth cache (auth/auth-cache.ts) is emptied once it commits.
   * False for every read, and for the writes of the address book and the messages, which are
   * also the frequent ones.
   */
  readonly emptiesAuthCache: boolean;
  /**
   * `one`: a write runs in one transaction the route opens (the unit of work of
   * db/unit-of-work.ts). `steps`: the handler opens its own, around work that may touch
   * a million rows: a delete of a list or an account, a chunk at a time and then the object in a
   * short transaction (repositories/chunked-deletes.repository.ts, SECURITY.md 29); a list update,
   * whose answer's member ids are counted before it and read after it (lists.service.ts).
   */
  readonly transaction: 'one' | 'steps';
}

/** Most operations: answered as returned, refunded on failure, no member ids, auth untouched. */
const plain = {
  envelope: 'none',
  whenWorkFails: 'refund',
  chargesMemberIds: false,
  emptiesAuthCache: false,
  transaction: 'one',
} as const;

const read = (scope: Scope | null) => ({ ...plain, scope });
const write = (scope: Scope) => ({ ...plain, scope });
/** A write the auth cache must not outlive. */
const authWrite = (scope: Scope) => ({ ...plain, scope, emptiesAuthCache: true });

export const OPERATION_POLICY = {
  'contacts.get': read('contacts:read'),
  'contacts.list': read('contacts:read'),
  'contacts.create': write('contacts:write'),
  'contacts.update': write('contacts:write'),
  'contacts.delete': write('contacts:write'),

  'emails.get': read('contacts:read'),
  'emails.create': write('contacts:write'),
  'emails.update': write('contacts:write'),
  'emails.delete': write('contacts:write'),

  'membership.get': read('contacts:read'),
  'membership.create': write('contacts:write'),
  'membership.update': write('contacts:write'),
  'membership.delete': write('contacts:write'),

  'lists.list': { ...read('lists:read'), envelope: 'data', chargesMemberIds: true },
  'lists.get': { ...read('lists:read'), chargesMemberIds: true },
  'lists.create': authWrite('lists:write'),
  // Answered with the member ids, reserved before the write's own transaction (SECURITY.md 30).
  'lists.update': { ...authWrite('lists:write'), chargesMemberIds: true, transaction: 'steps' },
  'lists.delete': { ...authWrite('lists:write'), transaction: 'steps' },

  'messages.list': read('messages:read'),
  'messages.get': read('messages:read'),
  'messages.send': write('messages:write'),
  'messages.delete': write('messages:write'),
  'messages.image': { ...read('messages:read'), whenWorkFails: 'keep' },

  'held.list': read('messages:read'),
  'held.get': read('messages:read'),
  'held.source': read('messages:read'),
  // The held queue's writes touch no key or account but empty the cache, as every write outside
  // the address book and the messages does: they are rare, so it costs a reload now and then.
  'held.approve': authWrite('messages:write'),
  'held.reject': authWrite('messages:write'),
  'held.discard': authWrite('messages:write'),
  'held.bulk': authWrite('messages:write'),

  // Join and leave requests change memberships: the address book's scope, as spec §4.3's.
  'requests.list': read('contacts:read'),
  'requests.approve': write('contacts:write'),
  'requests.reject': write('contacts:write'),
  'requests.discard': write('contacts:write'),
  'requests.bulk': write('contacts:write'),

  // Custom fields shape the address book: its scope. A rename or delete rewrites administrators'
  // limit_metadata (which only follows the field: nobody gains access), so the auth cache goes,
  // as after every write outside the address book (they are rare); a delete takes the field's
  // values a chunk at a time before the field itself (SECURITY.md 29).
  'fields.list': { ...read('contacts:read'), envelope: 'data' },
  'fields.create': authWrite('contacts:write'),
  'fields.update': authWrite('contacts:write'),
  'fields.delete': { ...authWrite('contacts:write'), transaction: 'steps' },
  // An address's bounce state is the address book's, as spec §4.2's `paused` is.
  'bounces.list': read('contacts:read'),
  'bounces.clear': write('contacts:write'),

  'users.list': { ...read('users:read'), envelope: 'data' },
  'users.get': read('users:read'),
  'users.create': authWrite('users:write'),
  'users.update': authWrite('users:write'),
  'users.retrieveKey': authWrite('users:write'),
  'users.delete': authWrite('users:write'),

  'accounts.list': read('accounts:read'),
  'accounts.get': read('accounts:read'),
  'accounts.create': authWrite('accounts:write'),
  'accounts.update': authWrite('accounts:write'),
  'accounts.delete': { ...authWrite('accounts:write'), transaction: 'steps' },

  // The audit log's scope of its own: what was done to everything is no part of one area's reads.
  'audit.list': read('audit:read'),

  // null: about the token itself, so every token reads it (the dashboard asks who signed in).
  'caller.get': read(null),
} as const satisfies Record<OperationName, OperationPolicy>;
