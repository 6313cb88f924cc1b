import type { List } from '../schemas/list.ts';

type NoticeSettings = Pick<
  List,
  'hold_subject' | 'hold_message' | 'reject_subject' | 'reject_message'
>;

/** A header value never carries a line break (SECURITY.md 37): runs of CR/LF become one space. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/** As the settings page previews it: every occurrence, the subject first. */
function fill(template: string, values: { SUBJECT: string; LISTNAME: string }): string {
  return template.replaceAll('$SUBJECT', values.SUBJECT).replaceAll('$LISTNAME', values.LISTNAME);
}

/**
 * The message that goes back to the sender of a held or rejected message (spec §2.4 hold_message,
 * reject_message): $SUBJECT is the sender's subject, $LISTNAME the list's address. The subject is
 * one line whatever the setting or the sender's subject hold.
 */
export function senderNotice(
  kind: 'hold' | 'reject',
  settings: NoticeSettings,
  values: { subject: string; listAddress: string },
): { subject: string; body: string } {
  const subjectTemplate = kind === 'hold' ? settings.hold_subject : settings.reject_subject;
  const bodyTemplate = kind === 'hold' ? settings.hold_message : settings.reject_message;
  const variables = { SUBJECT: oneLine(values.subject), LISTNAME: oneLine(values.listAddress) };
  return {
    // Spec: the subject's only variable is $LISTNAME.
    subject: oneLine(subjectTemplate.replaceAll('$LISTNAME', variables.LISTNAME)),
    body: fill(bodyTemplate, variables),
  };
}
