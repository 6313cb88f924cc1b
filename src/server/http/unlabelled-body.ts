import { readFormBody } from '../../api/form-encoding.ts';
import { formText, type BodyText } from './body-text.ts';
import { readJsonBody } from './json-body.ts';

/**
 * A body sent as text/plain, application/octet-stream or with no type at all: a JSON object when
 * it starts like one, else form fields (spec §1 rule 2), read by the same decoders as when labelled.
 */
export function readUnlabelledBody(
  body: BodyText,
): ReturnType<typeof readFormBody> | ReturnType<typeof readJsonBody> {
  const start = body.text.trimStart()[0];
  return start === '{' || start === '[' ? readJsonBody(body.text) : readFormBody(formText(body));
}
