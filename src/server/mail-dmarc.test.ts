import { generateKeyPairSync } from 'node:crypto';
import { authenticate, dkimSign, dkimVerify, sealMessage, type DNSResolver } from 'mailauth';
import type { AddressObject } from 'mailparser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HeldPage } from '../api/schemas/held.ts';
import { Contact } from '../api/schemas/contact.ts';
import { List } from '../api/schemas/list.ts';
import { MessagePage } from '../api/schemas/message.ts';
import { queueDigests } from './mail/digest.ts';
import { createDnsResolver } from './mail/dns-resolver.ts';
import { dnsOptionsFor } from './test/dns-server.ts';
import { describeEachDialect } from './test/harness.ts';
import { startMailRig, type MailRig } from './test/mail-rig.ts';
import type { SunkMail } from './test/smtp-sink.ts';

/**
 * Issue 26 item 2, DMARC mitigation (outgoing/dmarc-mitigation.ts, README "Mail"): a post whose
 * author's domain publishes `p=reject` or `p=quarantine` goes to the members From the list,
 * `"Anne Person via Community" <community@…>`, the author in Reply-To (Cc when the list's
 * `reply_to` takes Reply-To), the archive keeping the author; a `p=none` domain's post goes out as
 * it came; `munge_from_always` rewrites every post. Each copy is DKIM-signed and ARC-sealed by the
 * list, and both verify (mailauth, as a receiver would: DNS from the test's own server).
 */
describeEachDialect('DMARC: From rewritten for p=reject and p=quarantine', (dialect) => {
  let rig: MailRig;
  const domain = 'acme.example';
  const member = 'bob@members.example';
  const reader = 'dora@members.example';
  const keys: Record<string, string> = {};

  /** A key pair whose public half `selector._domainkey.<signer>` publishes. */
  const publishKey = (signer: string, selector: string) => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicKey = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    rig.dns.setTxt(`${selector}._domainkey.${signer}`, `v=DKIM1; k=rsa; p=${publicKey}`);
    return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  };

  beforeAll(async () => {
    const listKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
    rig = await startMailRig(dialect, {
      domain,
      env: {
        DKIM_DOMAIN: domain,
        DKIM_SELECTOR: 'lk',
        DKIM_PRIVATE_KEY: listKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    });
    const listPublic = listKey.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    rig.dns.setTxt(`lk._domainkey.${domain}`, `v=DKIM1; k=rsa; p=${listPublic}`);
    // The list's domain publishes DMARC too: its rewritten copies must pass it.
    rig.dns.setTxt(`_dmarc.${domain}`, 'v=DMARC1; p=reject');
    // Each author's domain lets the test's client (127.0.0.1) send, signs with DKIM, and
    // publishes the DMARC policy it is named after.
    for (const [author, policy] of [
      ['strict.example', 'reject'],
      ['careful.example', 'quarantine'],
      ['open.example', 'none'],
      ['slow.example', 'reject'],
      ['relay.example', 'none'],
    ] as const) {
      rig.dns.setTxt(author, 'v=spf1 ip4:127.0.0.1 -all');
      rig.dns.setTxt(`_dmarc.${author}`, `v=DMARC1; p=${policy}`);
      keys[author] = publishKey(author, 'sel');
    }
    // Its DMARC record never answers: the policy is not known.
    rig.dns.silent.add('_dmarc.slow.example');
    await rig.createLists({
      community: {},
      answered: { reply_to: `talk@${domain}` },
      rewritten: { munge_from_always: true },
      moderated: { moderate: 1 },
    });
    const contact = await rig.server.request('POST', '/api/2/contacts/', {
      form: { emails: [member], lists: ['community', 'answered', 'rewritten', 'moderated'] },
    });
    expect(contact.status, contact.body).toBe(200);
    const digestReader = await rig.server.request('POST', '/api/2/contacts/', {
      form: { emails: [reader] },
    });
    const membership = await rig.server.request('POST', '/api/2/membership/', {
      form: { contact: String(Contact.parse(digestReader.json).id), list: 'community', digest: true },
    });
    expect(membership.status, membership.body).toBe(200);
  });
  afterAll(() => rig.close());

  /** Anne posts from `author`'s domain, signed by it, and the member's copy is answered. */
  const post = async (author: string, list: string, subject: string): Promise<SunkMail> => {
    const mark = await rig.mark();
    await rig.client.sendMail({
      envelope: { from: `anne@${author}`, to: `${list}@${domain}` },
      from: `Anne Person <anne@${author}>`,
      to: `${list}@${domain}`,
      subject,
      text: 'Hello members.',
      dkim: { domainName: author, keySelector: 'sel', privateKey: keys[author] ?? '' },
    });
    return copyOf(await rig.sentSince(mark), subject);
  };
  const copyOf = (mails: SunkMail[], subject: string): SunkMail => {
    const copy = mails.find(
      (mail) => mail.to.includes(member) && mail.parsed.subject?.endsWith(subject),
    );
    if (!copy) throw new Error(`no copy of ${subject} to ${member}`);
    return copy;
  };
  const mailboxes = (field: AddressObject | AddressObject[] | undefined) =>
    (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) =>
      object.value.map((box) => `${box.name} <${box.address ?? ''}>`),
    );
  const archived = async (subject: string) => {
    const page = await rig.server.request('GET', '/api/2/messages/', { query: { limit: 100 } });
    return MessagePage.parse(page.json).data.find((message) => message.subject === subject);
  };
  /** What a receiver finds checking the copy the list sent, as it came from the list's relay. */
  const received = (copy: SunkMail) =>
    authenticate(copy.raw, {
      ip: '192.0.2.25',
      helo: 'lists.acme.example',
      sender: copy.from,
      mta: 'mx.members.example',
      resolver: createDnsResolver(dnsOptionsFor(rig.dns)) as DNSResolver,
      disableBimi: true,
    });

  it('sends a p=reject author’s post From the list, the author in Reply-To; the archive keeps the author', async () => {
    const copy = await post('strict.example', 'community', 'Rejecting domain');
    expect(mailboxes(copy.parsed.from)).toEqual([
      `Anne Person via Community <community@${domain}>`,
    ]);
    expect(mailboxes(copy.parsed.replyTo)).toEqual(['Anne Person <anne@strict.example>']);
    expect(copy.parsed.cc).toBeUndefined();
    const kept = await archived('Rejecting domain');
    expect([kept?.from_phrase, kept?.from_address]).toEqual(['Anne Person', 'anne@strict.example']);
  });

  it('keeps the author in the digest: only the members’ own copies are rewritten', async () => {
    await post('strict.example', 'community', 'Read in the digest');
    const mark = await rig.mark();
    expect(await queueDigests(rig.server.database.db, rig.server.clock.now())).toBe(1);
    const digest = (await rig.sentSince(mark)).find((mail) => mail.to.includes(reader));
    expect(digest?.parsed.text).toContain('From: Anne Person <anne@strict.example>');
    expect(digest?.parsed.text).toContain('Read in the digest');
  });

  it('rewrites a p=quarantine author’s post the same way', async () => {
    const copy = await post('careful.example', 'community', 'Quarantining domain');
    expect(mailboxes(copy.parsed.from)).toEqual([
      `Anne Person via Community <community@${domain}>`,
    ]);
    expect(mailboxes(copy.parsed.replyTo)).toEqual(['Anne Person <anne@careful.example>']);
  });

  it('leaves a p=none author’s post From the author, with no Reply-To added', async () => {
    const copy = await post('open.example', 'community', 'Relaxed domain');
    expect(mailboxes(copy.parsed.from)).toEqual(['Anne Person <anne@open.example>']);
    expect(copy.parsed.replyTo).toBeUndefined();
    expect(copy.parsed.cc).toBeUndefined();
  });

  it('puts the author in Cc when the list’s reply_to takes Reply-To', async () => {
    const copy = await post('strict.example', 'answered', 'With a reply address');
    expect(mailboxes(copy.parsed.from)).toEqual([`Anne Person via Answered <answered@${domain}>`]);
    expect(mailboxes(copy.parsed.replyTo)).toEqual([` <talk@${domain}>`]);
    expect(mailboxes(copy.parsed.cc)).toEqual(['Anne Person <anne@strict.example>']);
  });

  it('rewrites every post of a list with munge_from_always, which the list answers', async () => {
    const copy = await post('open.example', 'rewritten', 'Always rewritten');
    expect(mailboxes(copy.parsed.from)).toEqual([
      `Anne Person via Rewritten <rewritten@${domain}>`,
    ]);
    expect(mailboxes(copy.parsed.replyTo)).toEqual(['Anne Person <anne@open.example>']);
    const list = List.parse((await rig.server.request('GET', '/api/2/lists/rewritten/')).json);
    expect(list.munge_from_always).toBe(true);
  });

  it('rewrites a held post once a moderator approves it: the policy found at receipt is kept', async () => {
    const mark = await rig.mark();
    await rig.client.sendMail({
      envelope: { from: 'anne@strict.example', to: `moderated@${domain}` },
      from: 'Anne Person <anne@strict.example>',
      to: `moderated@${domain}`,
      subject: 'Held then approved',
      text: 'Hello.',
      dkim: { domainName: 'strict.example', keySelector: 'sel', privateKey: keys['strict.example'] ?? '' },
    });
    const held = HeldPage.parse(
      (await rig.server.request('GET', '/api/2/held/', { query: { limit: 100 } })).json,
    ).data.find((message) => message.subject === 'Held then approved');
    const approved = await rig.server.request('POST', `/api/2/held/${String(held?.id)}/approve/`);
    expect(approved.status, approved.body).toBe(200);
    const copy = copyOf(await rig.sentSince(mark), 'Held then approved');
    expect(mailboxes(copy.parsed.from)).toEqual([
      `Anne Person via Moderated <moderated@${domain}>`,
    ]);
  });

  it('rewrites a post whose domain’s policy could not be looked up in time (SECURITY.md 50)', async () => {
    const copy = await post('slow.example', 'community', 'Unknown policy');
    expect(mailboxes(copy.parsed.from)).toEqual([
      `Anne Person via Community <community@${domain}>`,
    ]);
  });

  it('signs the rewritten copy: the list’s DKIM verifies and DMARC passes for the list’s domain', async () => {
    const copy = await post('strict.example', 'community', 'Signed by the list');
    const resolver = createDnsResolver(dnsOptionsFor(rig.dns)) as DNSResolver;
    const { results } = await dkimVerify(copy.raw, { resolver, strict: true });
    expect(results.map((result) => [result.signingDomain, result.status.result])).toEqual([
      [domain, 'pass'],
    ]);
    const verdict = await received(copy);
    expect(verdict.dmarc && [verdict.dmarc.domain, verdict.dmarc.status.result]).toEqual([
      domain,
      'pass',
    ]);
  });

  it('seals each copy with ARC carrying the author’s results from receipt, and the chain verifies', async () => {
    const copy = await post('strict.example', 'community', 'Sealed by the list');
    const raw = copy.raw.toString();
    const results = /^ARC-Authentication-Results:[\s\S]*?(?=\r\n\S)/m.exec(raw)?.[0] ?? '';
    expect(results.replace(/\s+/g, ' ')).toMatch(/i=1; .*dkim=pass .*header\.d=strict\.example/);
    expect(results.replace(/\s+/g, ' ')).toMatch(/dmarc=pass .*header\.from=strict\.example/);
    const verdict = await received(copy);
    expect(verdict.arc && verdict.arc.status.result).toBe('pass');
    // The untouched copy of a p=none author is sealed as well.
    const plain = await post('open.example', 'community', 'Sealed, not rewritten');
    expect((await received(plain)).arc).toMatchObject({ status: { result: 'pass' } });
  });

  /**
   * Anne's own server signs, a forwarder (relay.example) seals it (ARC i=1) and sends it on to the
   * list; `tamper` changes the body after the seal, which breaks the forwarder's set.
   */
  const forward = async (subject: string, tamper = false): Promise<SunkMail> => {
    const message = [
      'From: Anne Person <anne@strict.example>',
      `To: community@${domain}`,
      `Subject: ${subject}`,
      `Message-ID: <${subject.replace(/\W/g, '-')}@strict.example>`,
      'Date: Sun, 29 Nov 2026 10:00:00 +0000',
      '',
      'Hello members.',
      '',
    ].join('\r\n');
    const { signatures } = await dkimSign(message, {
      signingDomain: 'strict.example',
      selector: 'sel',
      privateKey: keys['strict.example'] ?? '',
    });
    const signed = `${signatures}${message}`;
    const seal = await sealMessage(signed, {
      signingDomain: 'relay.example',
      selector: 'sel',
      privateKey: keys['relay.example'] ?? '',
      cv: 'none',
      authResults: 'mx.relay.example; dkim=pass header.d=strict.example; dmarc=pass header.from=strict.example',
    });
    expect(seal.length).toBeGreaterThan(0);
    const mark = await rig.mark();
    const raw = `${seal.toString()}${signed}`;
    await rig.client.sendMail({
      envelope: { from: 'forwarder@relay.example', to: `community@${domain}` },
      raw: tamper ? raw.replace('Hello members.', 'Hello, changed.') : raw,
    });
    return copyOf(await rig.sentSince(mark), subject);
  };
  /** `[i, cv]` of each ARC-Seal of a copy. */
  const sealsOf = (copy: SunkMail) =>
    [...copy.raw.toString().matchAll(/^ARC-Seal:[\s\S]*?(?=\r\n\S)/gm)].map(
      ([field]) => /\bi=(\d+);.*\bcv=(\w+)/s.exec(field.replace(/\s+/g, ' '))?.slice(1, 3),
    );

  it('continues the ARC chain a post came with: the list’s set is i=2, cv=pass, and the chain verifies', async () => {
    const copy = await forward('Forwarded to the list');
    expect(mailboxes(copy.parsed.from)).toEqual([
      `Anne Person via Community <community@${domain}>`,
    ]);
    const seals = sealsOf(copy);
    expect(seals).toEqual(expect.arrayContaining([['1', 'none'], ['2', 'pass']]));
    expect(seals).toHaveLength(2);
    expect((await received(copy)).arc).toMatchObject({ status: { result: 'pass' } });
  });

  it('does not continue a chain that failed validation: that copy goes out unsealed, still signed', async () => {
    const copy = await forward('Broken on the way', true);
    expect(sealsOf(copy)).toEqual([]);
    expect(copy.raw.toString()).not.toMatch(/^ARC-/im);
    const resolver = createDnsResolver(dnsOptionsFor(rig.dns)) as DNSResolver;
    const { results } = await dkimVerify(copy.raw, { resolver, strict: true });
    expect(results.map((result) => [result.signingDomain, result.status.result])).toEqual([
      [domain, 'pass'],
    ]);
  });
});
