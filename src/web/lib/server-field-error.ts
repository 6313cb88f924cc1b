import { ApiError } from '../../api/errors.ts';
import { withoutSpecReferences } from './api-error-message.ts';

/** A refusal that belongs on one field; `address` when it names one of the form's addresses. */
export interface ServerFieldError<F extends string> {
  field: F;
  message: string;
  address?: string;
}

/** The fields an address in use belongs on: a contact's `emails`, or one address's `email`. */
const ADDRESS_FIELDS = ['emails', 'email'];

/**
 * The reference server's 400 (and 409) messages name the field first (`name: has at most 64
 * characters`, `emails[1]: is already in use`, `restrict_contact.0: uses a backreference…`). Returns that field and the rest of the message
 * when the field is one of `fields`, so a form can put the error on it; otherwise null (show the
 * error on the form instead). Permission, rate-limit and server errors are never a field's.
 * Two answers name no field and are known by their words: an address in use (spec §4.1 create,
 * §4.2: "x@y already belongs to contact 7") and a ccid taken (§4.1 rule 2 and §7: the 409).
 */
export function serverFieldError<F extends string>(
  error: unknown,
  fields: readonly F[],
): ServerFieldError<F> | null {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return null;
  const text = withoutSpecReferences(error.message);
  const taken = /^(\S+@\S+) already belongs to contact (.+)$/s.exec(text);
  if (taken) {
    const field = fields.find((candidate) => ADDRESS_FIELDS.includes(candidate));
    if (field === undefined) return null;
    const address = taken[1] ?? '';
    return {
      field,
      message: `already belongs to another contact (${taken[2] ?? ''})`,
      address,
    };
  }
  if (error.status === 409 && /^A contact with ccid /.test(text)) {
    const field = fields.find((candidate) => candidate === 'ccid');
    if (field === undefined) return null;
    return {
      field,
      message:
        'is already the custom ID of another contact of this account; choose another, or edit that contact instead',
    };
  }
  // `emails[1]` and the contract's own path form `restrict_contact.0` both name the array field.
  const match = /^([A-Za-z0-9_.-]+?)(?:\[\d+\]|\.\d+)?: (.+)$/s.exec(text);
  if (!match) return null;
  const field = fields.find((candidate) => candidate === match[1]);
  return field === undefined ? null : { field, message: match[2] ?? '' };
}
