import type { MailConfig } from '../config.ts';

/**
 * What of the mail settings no log line may show (SECURITY.md 39): the relay's password in
 * SMTP_URL, as written and percent-decoded, and the lines of the DKIM and STARTTLS private keys.
 */
export function mailSecrets(config: Pick<MailConfig, 'smtpUrl' | 'dkim' | 'smtpInTls'>): string[] {
  const secrets: string[] = [];
  if (config.smtpUrl) {
    const rest = config.smtpUrl.slice(config.smtpUrl.indexOf('//') + 2);
    const authority = rest.split(/[/?#]/, 1)[0] ?? '';
    const userinfo = authority.slice(0, Math.max(0, authority.lastIndexOf('@')));
    const colon = userinfo.indexOf(':');
    const written = colon === -1 ? '' : userinfo.slice(colon + 1);
    secrets.push(written, decoded(written));
  }
  // Each line of a key's base64 (the last, short one aside: it could match anything).
  for (const key of [config.dkim?.privateKey, config.smtpInTls?.key])
    for (const line of key?.split(/\r?\n/) ?? [])
      if (!line.startsWith('-----') && line.trim().length >= 16) secrets.push(line.trim());
  return [...new Set(secrets.filter((secret) => secret !== ''))].sort(
    (a, b) => b.length - a.length,
  );
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `text` with every secret replaced. */
export function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((result, secret) => result.split(secret).join('[secret]'), text);
}

/**
 * The error as the mail code reports it to its host's log: its message, code and stack with the
 * secrets taken out, and nothing else (no `input`, `response` or options a library attached, which
 * may hold the URL or what the relay echoed).
 */
export function withoutSecrets(error: unknown, secrets: readonly string[]): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const clean = new Error(redact(original.message, secrets));
  clean.stack = redact(original.stack ?? clean.message, secrets);
  const code = (original as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(clean, { code });
  return clean;
}
