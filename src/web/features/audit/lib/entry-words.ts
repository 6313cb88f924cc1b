import type { AuditEntry } from '../../../../api/schemas/audit.ts';
import { OBJECT_TYPES } from './audit-filters.ts';

/** The operations the log names, with what each did, in words (the operation filter offers them). */
export const OPERATION_VERBS: Readonly<Record<string, string>> = {
  'contacts.create': 'created',
  'contacts.update': 'changed',
  'contacts.delete': 'deleted',
  'emails.create': 'added',
  'emails.update': 'changed',
  'emails.delete': 'removed',
  'membership.create': 'added',
  'membership.update': 'changed',
  'membership.delete': 'removed',
  'lists.create': 'created',
  'lists.update': 'changed the settings of',
  'lists.delete': 'deleted',
  'messages.send': 'sent',
  'messages.delete': 'deleted',
  'held.approve': 'approved',
  'held.reject': 'rejected',
  'held.discard': 'discarded',
  'requests.approve': 'approved',
  'requests.reject': 'rejected',
  'requests.discard': 'discarded',
  'users.create': 'created',
  'users.update': 'changed',
  'users.retrieveKey': 'issued a new key for',
  'users.delete': 'deleted',
  'accounts.create': 'created',
  'accounts.update': 'changed',
  'accounts.delete': 'deleted',
  'member.ask': 'asked about',
  'member.confirm': 'confirmed',
  'member.join': 'joined through',
  'member.leave': 'ended',
  'mail.accept': 'posted, accepted as',
  'mail.hold': 'posted, held as',
  'mail.reject': 'posted, and the list rejected',
  'mail.discard': 'posted, and the list discarded',
  'bounce.pause': 'paused, for bounces,',
  'bounce.warn': 'warned, for bounces,',
  'bounce.remove': 'removed, for bounces,',
  'fields.create': 'created',
  'oauth-clients.create': 'registered',
  'oauth-clients.gateway': 'gave a new secret to',
  'demo.load': 'loaded the demo into',
};

/** Who made the change: an administrator by username or a key's description, an address, the system. */
export function actorWords(actor: AuditEntry['actor']): string {
  if (actor.type === 'system') return 'The system';
  if (actor.name) return actor.name;
  return actor.type === 'administrator'
    ? `Administrator ${String(actor.id ?? '')}`.trim()
    : 'Someone';
}

const SERVICES: Readonly<Record<string, string>> = {
  api: 'through the API',
  cli: 'on the command line',
  web: 'on the list’s public pages',
  mail: 'by mail',
  system: 'by the server itself',
};

export function serviceWords(service: string): string {
  return SERVICES[service] ?? service;
}

function verbOf(operation: string): string {
  const known = OPERATION_VERBS[operation];
  if (known) return known;
  if (operation.endsWith('.create')) return 'created';
  if (operation.endsWith('.delete')) return 'deleted';
  return 'changed';
}

/** The object, as a reader names it: `list news`, `contact 12`, `membership 5 of news`. */
export function objectWords(object: AuditEntry['object']): string {
  const type =
    OBJECT_TYPES.find((known) => known.value === object.type)?.label.toLowerCase() ?? object.type;
  if (object.type === 'list') return `list ${object.list ?? object.id ?? ''}`.trim();
  const named = object.id === null ? `a ${type}` : `${type} ${object.id}`;
  return object.list ? `${named} of ${object.list}` : named;
}

/** One line for the entry: who did what to which object. */
export function summaryOf(entry: AuditEntry): string {
  return `${actorWords(entry.actor)} ${verbOf(entry.operation)} ${objectWords(entry.object)}`;
}

/** A value as the diff shows it: words for nothing, yes and no; a list's items joined. */
export function valueWords(value: unknown): string {
  if (value === undefined || value === null) return '(none)';
  if (value === '') return '(empty)';
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map(valueWords).join(', ');
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? '';
}
