import { authenticate, type AuthenticateResult, type DNSResolver } from 'mailauth';
import type { PostingAuthentication } from '../../api/posting-policy/types.ts';
import type { DnsResolve } from './dns-resolver.ts';
import type { DmarcPolicy, ReceivedAuthentication } from './received-authentication.ts';

/** The SMTP session a message came in: what SPF checks. */
export interface SmtpEnvelope {
  /** The client's address. */
  ip: string;
  /** What the client said in EHLO/HELO. */
  helo: string;
  /** MAIL FROM, '' for the null sender. */
  mailFrom: string;
}

/**
 * The verdict for the posting policy, and what the way out keeps of it (received-authentication.ts:
 * the From domain's DMARC policy, the results an ARC seal carries); null when nothing was checked.
 */
export interface SenderVerification {
  authentication: PostingAuthentication;
  received: ReceivedAuthentication | null;
}

/** `a` is `b` or one of its parents: `example.org` covers `lists.example.org`. */
const covers = (a: string, b: string) => a === b || b.endsWith(`.${a}`);

/**
 * Whether the message authenticates for its From domain (issue 28 item 2): mailauth checks SPF,
 * DKIM and DMARC alignment, asking DNS through `resolve` (timeout and cache, SECURITY.md 50).
 * DMARC decides where the domain publishes a record. Where it publishes none, the message passes
 * when SPF passes for the From domain or a parent of it, or a DKIM signature of such a domain
 * verifies: relaxed alignment would also take a sibling or a child, but telling an organization's
 * domain without DMARC's own records needs the Public Suffix List, and a domain that cares about
 * its mail publishes DMARC. Anything else fails: the message is held or unanswered, never lost.
 */
export async function authenticateSender(
  raw: Uint8Array,
  envelope: SmtpEnvelope,
  resolve: DnsResolve,
): Promise<SenderVerification> {
  let result: AuthenticateResult;
  try {
    result = await authenticate(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), {
      ip: envelope.ip,
      helo: envelope.helo,
      sender: envelope.mailFrom,
      mta: 'listkeeper',
      // mailauth reads the answers of node:dns's resolve(), which is what DnsResolve answers.
      resolver: resolve as DNSResolver,
      // The ARC chain it came with is validated for the list's own seal (issue 26 item 2); no
      // logo is shown.
      disableBimi: true,
    });
  } catch (error) {
    return {
      authentication: {
        result: 'fail',
        detail: `the sender could not be verified (${error instanceof Error ? error.message : String(error)})`,
      },
      received: null,
    };
  }
  return { authentication: verdict(result), received: receivedOf(result) };
}

/** What the members' copies need of the verification (issue 26 item 2). */
function receivedOf(result: AuthenticateResult): ReceivedAuthentication {
  const { arc } = result;
  const chain = arc ? arc.status.result : 'none';
  return {
    // mailauth's Authentication-Results value, without the field name (RFC 8601 §2.2); set
    // whenever ARC is validated, as it is here.
    results: (arc && arc.authResults) || 'listkeeper; none',
    arc: chain === 'pass' || chain === 'none' ? chain : 'fail',
    dmarc: policyOf(result.dmarc),
  };
}

/**
 * The policy the From domain publishes, as mailauth found it (its own `p`, or the `sp`/`np` of
 * its organizational domain for a subdomain, RFC 9989 §4.10): a record's absence is `none`; a
 * lookup that failed or timed out leaves it `unknown`.
 */
function policyOf(dmarc: AuthenticateResult['dmarc']): DmarcPolicy {
  if (!dmarc) return 'unknown';
  if (dmarc.status.result === 'none') return 'none';
  const { policy } = dmarc;
  return policy === 'reject' || policy === 'quarantine' || policy === 'none' ? policy : 'unknown';
}

function verdict(result: AuthenticateResult): PostingAuthentication {
  const { dmarc, spf } = result;
  if (!dmarc)
    return { result: 'fail', detail: 'DMARC cannot tell one author domain from the From header' };
  const domain = dmarc.status.header?.from ?? '';
  const spfWords = spf
    ? `SPF ${spf.status.result} for ${spf.domain || 'the envelope'}`
    : 'no SPF check';
  const passing = (result.dkim.results ?? []).filter(
    (signature) => signature.status.result === 'pass',
  );
  const dkimWords =
    passing.length === 0
      ? 'no DKIM signature that verifies'
      : `DKIM passes for ${passing.map((signature) => signature.signingDomain ?? '?').join(', ')}`;
  switch (dmarc.status.result) {
    case 'pass':
      return { result: 'pass', detail: `DMARC passes for ${domain}` };
    case 'none': {
      const spfAligned = spf && spf.status.result === 'pass' && covers(spf.domain, domain);
      const dkimAligned = passing.find((signature) =>
        covers(signature.signingDomain ?? '', domain),
      );
      if (spfAligned)
        return {
          result: 'pass',
          detail: `SPF passes for ${domain} (it publishes no DMARC record)`,
        };
      if (dkimAligned)
        return {
          result: 'pass',
          detail: `a DKIM signature of ${dkimAligned.signingDomain ?? domain} verifies (${domain} publishes no DMARC record)`,
        };
      return {
        result: 'fail',
        detail: `the message does not authenticate for ${domain}: it publishes no DMARC record, and neither SPF nor DKIM passes for it (${spfWords}; ${dkimWords})`,
      };
    }
    case 'fail':
      return {
        result: 'fail',
        detail: `DMARC fails for ${domain} (${spfWords}; ${dkimWords}; neither aligned with ${domain})`,
      };
    default:
      return {
        result: 'fail',
        detail: `DMARC could not be checked for ${domain} (${dmarc.status.result}: a DNS lookup failed or timed out)`,
      };
  }
}
