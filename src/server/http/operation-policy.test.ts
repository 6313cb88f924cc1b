import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { OPERATIONS, type Operation, type OperationName } from '../../api/operations.ts';
import { SCOPES } from '../oauth/scopes.ts';
import { OPERATION_POLICY } from './operation-policy.ts';

const NAMES = Object.keys(OPERATIONS) as OperationName[];

/** A complete entry: every field present with a value the server knows, nothing else. */
const Entry = z.strictObject({
  scope: z.enum(SCOPES).nullable(),
  envelope: z.enum(['data', 'none']),
  whenWorkFails: z.enum(['refund', 'keep']),
  chargesMemberIds: z.boolean(),
  emptiesAuthCache: z.boolean(),
  transaction: z.enum(['one', 'steps']),
});

/*
 * The scattered facts this table replaced, frozen as they were: any drift from them changes what a
 * client sees (the envelope), what it is charged (spec §8) or how long a revoked key works.
 */
/**
 * Spec §4.4, §4.6 (and the fields extension, alike): the array answers wrapped in `data`
 * (http/answer.ts's DATA_ENVELOPE).
 */
const DATA_ENVELOPE = new Set(['lists.list', 'users.list', 'fields.list']);
/** Fetches from elsewhere keep their object on failure (http/charged-run.ts's CHARGED_BEFORE). */
const CHARGED_BEFORE = new Set(['messages.image']);
/**
 * Answers carrying spec §2.4 member ids (rate-limit/charge.ts's MEMBER_IDS), and a list update's
 * since issue 16 (SECURITY.md 30: it answered them for one object).
 */
const MEMBER_IDS = new Set(['lists.list', 'lists.get', 'lists.update']);
/** Resources whose writes left the auth cache alone (auth/auth-cache.ts's LEAVE_AUTH_ALONE). */
const LEAVE_AUTH_ALONE = new Set(['contacts', 'emails', 'membership', 'messages', 'requests', 'bounces']);
/** The scope area of each resource (auth/route-scopes.ts's ROUTE_SCOPES, README "Scopes"). */
const SCOPE_AREA: Record<string, string | null> = {
  contacts: 'contacts',
  emails: 'contacts',
  membership: 'contacts',
  lists: 'lists',
  messages: 'messages',
  held: 'messages',
  requests: 'contacts',
  fields: 'contacts',
  bounces: 'contacts',
  users: 'users',
  accounts: 'accounts',
  audit: 'audit',
  caller: null,
};

const resourceOf = (name: OperationName) => name.slice(0, name.indexOf('.'));

describe('the operation policy table', () => {
  it('has one complete entry per operation of the contract, and none other', () => {
    expect(Object.keys(OPERATION_POLICY).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      const checked = Entry.safeParse(OPERATION_POLICY[name]);
      expect(checked.success, `${name}: ${checked.error?.message}`).toBe(true);
    }
  });

  it.each(NAMES)(
    '%s: the scope of its area, read for GET and write otherwise (spec §5.2)',
    (name) => {
      const area = SCOPE_AREA[resourceOf(name)];
      expect(area, `${name}: a resource with no scope area`).not.toBeUndefined();
      const expected =
        area === null ? null : `${area}:${OPERATIONS[name].method === 'GET' ? 'read' : 'write'}`;
      expect(OPERATION_POLICY[name].scope).toBe(expected);
    },
  );

  it.each(NAMES)('%s: the same envelope, charge and auth-cache rule as before', (name) => {
    const policy = OPERATION_POLICY[name];
    const isWrite = OPERATIONS[name].method !== 'GET';
    expect({
      envelope: policy.envelope,
      whenWorkFails: policy.whenWorkFails,
      chargesMemberIds: policy.chargesMemberIds,
      emptiesAuthCache: policy.emptiesAuthCache,
    }).toEqual({
      envelope: DATA_ENVELOPE.has(name) ? 'data' : 'none',
      whenWorkFails: CHARGED_BEFORE.has(name) ? 'keep' : 'refund',
      chargesMemberIds: MEMBER_IDS.has(name),
      // The cache was only ever emptied after a write.
      emptiesAuthCache: isWrite && !LEAVE_AUTH_ALONE.has(resourceOf(name)),
    });
  });

  // SECURITY.md 29: only what deletes a list's, an account's or a custom field's million rows runs
  // in steps, and a list update, whose member ids are counted before its transaction (SECURITY.md
  // 30); every other write is one transaction (the unit of work of db/unit-of-work.ts).
  it('runs every write in one transaction but the deletes of lists, accounts and fields and list updates', () => {
    const inSteps = NAMES.filter((name) => OPERATION_POLICY[name].transaction === 'steps');
    expect(inSteps.sort()).toEqual([
      'accounts.delete',
      'fields.delete',
      'lists.delete',
      'lists.update',
    ]);
  });

  it('wraps only collections the contract marks as such in `data`', () => {
    for (const name of NAMES) {
      const operation: Operation = OPERATIONS[name];
      if (OPERATION_POLICY[name].envelope === 'data') expect(operation.collection, name).toBe(true);
    }
  });
});
