import { describeIssues } from '../../api/form-encoding.ts';
import type { OperationName } from '../../api/operations.ts';
import { ACCOUNT_DETAIL_FIELDS, AccountUpdate } from '../../api/schemas/account.ts';
import { LIST_SETTINGS, ListUpdate } from '../../api/schemas/list.ts';

/**
 * The settings each answer carries, and the write rules they were stored under. The contract reads
 * answers by JSON type only (another API v2 server may hold what ours refuses), so beside it, in
 * tests, this server's own answers are held to what it lets a client write: strict in what it
 * stores.
 */
const STORED = {
  'lists.list': { fields: LIST_SETTINGS, rules: ListUpdate },
  'lists.get': { fields: LIST_SETTINGS, rules: ListUpdate },
  'lists.create': { fields: LIST_SETTINGS, rules: ListUpdate },
  'lists.update': { fields: LIST_SETTINGS, rules: ListUpdate },
  'accounts.get': { fields: ACCOUNT_DETAIL_FIELDS, rules: AccountUpdate },
  'accounts.create': { fields: ACCOUNT_DETAIL_FIELDS, rules: AccountUpdate },
  'accounts.update': { fields: ACCOUNT_DETAIL_FIELDS, rules: AccountUpdate },
} as const satisfies Partial<
  Record<
    OperationName,
    { fields: readonly string[]; rules: { safeParse: (value: unknown) => unknown } }
  >
>;

/** In tests (VALIDATE_RESPONSES): a stored setting its own write rules refuse is a 500. */
export function assertStoredStrictly(name: OperationName, answer: unknown): void {
  const stored = name in STORED ? STORED[name as keyof typeof STORED] : null;
  if (!stored) return;
  for (const object of Array.isArray(answer) ? answer : [answer]) {
    if (typeof object !== 'object' || object === null) continue;
    const settings = Object.fromEntries(
      stored.fields
        .filter((field) => field in object)
        .map((field) => [field, (object as Record<string, unknown>)[field]]),
    );
    const checked = stored.rules.safeParse(settings);
    if (!checked.success) {
      throw new Error(
        `${name} answered a setting its write rules refuse: ${describeIssues(checked.error.issues)}`,
      );
    }
  }
}
