import type { AuditSubject, WriteOperationName } from './api-subject.ts';
import { accountSubjects } from './api-subjects/accounts.ts';
import { contactSubjects, emailSubjects, membershipSubjects } from './api-subjects/address-book.ts';
import { administratorSubjects } from './api-subjects/administrators.ts';
import { bounceSubjects } from './api-subjects/bounces.ts';
import { fieldSubjects } from './api-subjects/fields.ts';
import { listSubjects } from './api-subjects/lists.ts';
import { messageSubjects } from './api-subjects/messages.ts';

/**
 * How each write of the API is recorded (issue 26 item 4), one entry per operation, checked by
 * the compiler as http/operation-policy.ts is: a new write without one does not build. `service`:
 * the service records each object it settles itself (held.service.ts, requests.service.ts: a bulk
 * action is one entry per message or request, with what only the service reads).
 */
export const API_SUBJECTS = {
  ...contactSubjects,
  ...emailSubjects,
  ...membershipSubjects,
  ...listSubjects,
  ...messageSubjects,
  'held.approve': 'service',
  'held.reject': 'service',
  'held.discard': 'service',
  'held.bulk': 'service',
  'requests.approve': 'service',
  'requests.reject': 'service',
  'requests.discard': 'service',
  'requests.bulk': 'service',
  ...fieldSubjects,
  ...bounceSubjects,
  ...administratorSubjects,
  ...accountSubjects,
} as const satisfies { [K in WriteOperationName]: AuditSubject<K> | 'service' };
