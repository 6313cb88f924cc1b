import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from './lib/clock.ts';
import { describeEachDialect, startTestServer, type TestServer } from './test/harness.ts';
import { mailsTo } from './test/public-client.ts';

const DOMAIN = 'lists.archive.example';
const START = new Date('2026-01-10T09:00:00Z');
const DAY = 86_400_000;

interface Page {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
}

/** The text of a page as a reader sees it: markup entities decoded, the frames' markup too. */
function decoded(html: string): string {
  let text = html;
  // Until nothing changes: a frame's `srcdoc` holds markup as an attribute, whose own text holds
  // entities, and a message may write an entity as text (`&amp;#64;`), which a reader decodes.
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&commat;', '@')
      .replaceAll('&amp;', '&');
  }
  return `${text}\n${safeDecodeUri(text)}`;
}

function safeDecodeUri(text: string): string {
  return text.replace(/%40/gi, '@');
}

const ADDRESS = /[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

describeEachDialect('the members’ archive (issue 26 item 3)', (dialect) => {
  const clock = manualClock(START);
  let server: TestServer;

  const get = async (url: string, cookie?: string): Promise<Page> => {
    const response = await server.app.inject({
      method: 'GET',
      url,
      headers: cookie ? { cookie } : {},
      remoteAddress: '203.0.113.9',
    });
    return { status: response.statusCode, body: response.body, headers: response.headers };
  };
  const post = async (
    url: string,
    form: Record<string, string>,
    options: { cookie?: string; remoteAddress?: string } = {},
  ): Promise<Page> => {
    const response = await server.app.inject({
      method: 'POST',
      url,
      payload: new URLSearchParams(form).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(options.cookie ? { cookie: options.cookie } : {}),
      },
      remoteAddress: options.remoteAddress ?? '203.0.113.9',
    });
    return { status: response.statusCode, body: response.body, headers: response.headers };
  };
  const createList = async (name: string, settings: Record<string, unknown> = {}) => {
    const created = await server.request('POST', '/api/2/lists/', { form: { name, ...settings } });
    expect(created.status, created.body).toBe(200);
    return `/l/${name}@${DOMAIN}/archive/`;
  };
  const setList = async (name: string, settings: Record<string, unknown>) => {
    const changed = await server.request('PUT', `/api/2/lists/${name}/`, { form: settings });
    expect(changed.status, changed.body).toBe(200);
  };
  /** Posts through the API (spec §4.5) at the clock's time; answers the archived message's id. */
  const postMessage = async (list: string, fields: Record<string, unknown>) => {
    const sent = await server.request('POST', '/api/2/messages/', { form: { list, ...fields } });
    expect(sent.status, sent.body).toBe(200);
    const row = await server.database.db
      .selectFrom('messages')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const addMember = async (address: string, list: string) => {
    const made = await server.request('POST', '/api/2/contacts/', {
      form: { emails: [address], lists: [list] },
    });
    expect(made.status, made.body).toBe(200);
    return Number((made.json as { id: number }).id);
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, { clock });
    await server.database.db
      .updateTable('accounts')
      .set({ domain: DOMAIN })
      .where('id', '=', server.account.id)
      .execute();
  });
  afterAll(() => server.close());

  describe('reading an open archive', () => {
    let root: string;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      root = await createList('garden', { archive_spammode: 0, description: 'Growing things' });
      clock.set(START);
      ids.first = await postMessage('garden', {
        subject: 'Tomatoes in January',
        from_phrase: 'Ann Grower',
        from_address: 'ann@growers.example',
        content_plain: 'Seeds go in the greenhouse now.',
      });
      clock.advance(DAY);
      ids.reply = await postMessage('garden', {
        subject: 'Re: Tomatoes in January',
        from_phrase: 'Bob Digger',
        from_address: 'bob@diggers.example',
        content_plain: 'Mine sprouted already, zucchinis too.',
        parent: ids.first,
      });
      clock.advance(40 * DAY);
      ids.february = await postMessage('garden', {
        subject: 'Compost heaps',
        from_address: 'carol@compost.example',
        content_html: '<p>Turn it <b>weekly</b>.</p>',
      });
      clock.advance(DAY);
      ids.nested = await postMessage('garden', {
        subject: 'Re: Re: Tomatoes in January',
        from_phrase: 'Ann Grower',
        from_address: 'ann@growers.example',
        content_plain: 'Lucky you.',
        parent: ids.reply,
      });
    });

    it('shows the threads, newest begun first, with counts and the page headers, and sets no cookie', async () => {
      const page = await get(root);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.body).not.toMatch(/<script/i);
      expect(page.body.indexOf('Compost heaps')).toBeLessThan(
        page.body.indexOf('Tomatoes in January'),
      );
      expect(page.body).toContain('3 messages, the last');
      expect(page.body).toContain(`href="thread/${ids.first}/"`);
      expect(page.body).toContain('Growing things');
    });

    it('shows months with their counts, and each month’s messages', async () => {
      const months = await get(`${root}months/`);
      expect(months.status).toBe(200);
      expect(decoded(months.body)).toMatch(
        /February 2026<\/a> · 2 messages[\s\S]*January 2026<\/a> · 2 messages/,
      );
      const january = await get(`${root}2026-01/`);
      expect(january.status).toBe(200);
      expect(january.body).toContain('2 messages.');
      expect(january.body.indexOf('Re: Tomatoes')).toBeLessThan(
        january.body.indexOf('>Tomatoes in January'),
      );
      expect((await get(`${root}2025-12/`)).status).toBe(404);
      expect((await get(`${root}2026-13/`)).status).toBe(404);
    });

    it('shows a message on its own page with its thread around it, and the thread as a tree', async () => {
      const page = await get(`${root}${ids.reply}/`);
      expect(page.status).toBe(200);
      const text = decoded(page.body);
      expect(text).toContain('Bob Digger <bob@diggers.example>');
      expect(text).toContain('Mine sprouted already');
      expect(page.body).toContain(`<a href="../${ids.first}/">Tomatoes in January</a>`);
      expect(page.body).toContain('<strong aria-current="page">Re: Tomatoes in January</strong>');
      expect(page.body).toMatch(
        /<ul><li><strong aria-current="page">[^]*<ul><li><a href="..\/\d+\/">Re: Re: Tomatoes/,
      );
      const html = await get(`${root}${ids.february}/`);
      expect(html.body).toMatch(
        /<iframe class="message-frame" sandbox="" srcDoc="&lt;p&gt;Turn it &lt;b&gt;weekly/,
      );
      const thread = await get(`${root}thread/${ids.first}/`);
      expect(thread.status).toBe(200);
      expect(thread.body).toContain('3 messages.');
      for (const url of [`${root}999999/`, `${root}thread/999999/`, `${root}nonsense/`])
        expect((await get(url)).status, url).toBe(404);
    });

    it('searches subject, sender and text, whole words and beginnings, every word', async () => {
      const found = async (q: string) => {
        const page = await get(`${root}search?q=${encodeURIComponent(q)}`);
        expect(page.status).toBe(200);
        return [...page.body.matchAll(/<li><a href="(\d+)\/">/g)].map((m) => Number(m[1]));
      };
      expect(await found('tomatoes')).toEqual([ids.nested, ids.reply, ids.first]);
      expect(await found('Digger')).toEqual([ids.reply]);
      expect(await found('diggers.example')).toEqual([ids.reply]);
      expect(await found('zucchini')).toEqual([ids.reply]);
      expect(await found('weekly compost')).toEqual([ids.february]);
      expect(await found('weekly tomatoes')).toEqual([]);
      expect(await found('!!!')).toEqual([]);
      const shown = await get(`${root}search?q=zucchini`);
      expect(shown.body).toContain('Mine sprouted already, zucchinis too.');
    });

    it('pages through threads and search results', async () => {
      const root2 = await createList('busy', { archive_spammode: 0 });
      const made: number[] = [];
      for (let i = 0; i < 32; i++)
        made.push(
          await postMessage('busy', { subject: `Topic ${i}`, content_plain: `Word${i} common` }),
        );
      const first = await get(root2);
      expect([...first.body.matchAll(/<li><a href="thread\/(\d+)\/">/g)]).toHaveLength(30);
      const older = /<a href="(\?before=\d+)" rel="next">/.exec(first.body)?.[1];
      expect(older).toBe(`?before=${made[2]}`);
      const second = await get(`${root2}${older}`);
      expect(
        [...second.body.matchAll(/<li><a href="thread\/(\d+)\/">/g)].map((m) => Number(m[1])),
      ).toEqual([made[1], made[0]]);
      const newer = /<a href="(\?after=\d+)" rel="prev">/.exec(second.body)?.[1];
      const back = await get(`${root2}${newer}`);
      expect([...back.body.matchAll(/<li><a href="thread\/(\d+)\/">/g)]).toHaveLength(30);
      expect(back.body).not.toContain('rel="prev"');
      const results = await get(`${root2}search?q=common`);
      expect([...results.body.matchAll(/<li><a href="\d+\/">/g)]).toHaveLength(20);
      const more = /<a href="(search\?q=common&amp;before=\d+)" rel="next">/.exec(
        results.body,
      )?.[1];
      const rest = await get(`${root2}${more?.replaceAll('&amp;', '&')}`);
      expect([...rest.body.matchAll(/<li><a href="(\d+)\/">/g)].map((m) => Number(m[1]))).toEqual(
        made.slice(0, 12).reverse(),
      );
    });

    it('drops a message deleted through the API (spec §4.5) from every page at once', async () => {
      const gone = await server.request('DELETE', `/api/2/messages/${ids.reply}/`);
      expect(gone.status, gone.body).toBe(200);
      expect((await get(`${root}${ids.reply}/`)).status).toBe(404);
      expect((await get(`${root}search?q=zucchini`)).body).toContain('No message matches.');
      expect((await get(`${root}2026-01/`)).body).toContain('1 message.');
      const thread = await get(`${root}thread/${ids.first}/`);
      expect(thread.body).toContain('2 messages.');
      expect(thread.body).not.toContain('Bob Digger');
    });

    it('says one address per archive: another spelling is redirected, a query it cannot read is refused', async () => {
      const moved = await get(`/l/GARDEN@${DOMAIN.toUpperCase()}/archive/months/`);
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toBe(`/l/garden@${DOMAIN}/archive/months/`);
      expect((await get(`/l/garden@${DOMAIN}/archive`)).headers.location).toBe(root);
      expect((await get(`${root}?before=abc`)).status).toBe(400);
      expect((await get(`${root}?before=1&before=2`)).status).toBe(400);
      // Past the databases' integer ids: refused or not found, never a database error.
      expect((await get(`${root}?before=99999999999`)).status).toBe(400);
      expect((await get(`${root}?before=2147483648`)).status).toBe(400);
      expect((await get(`${root}2147483648/`)).status).toBe(404);
      expect((await get(`${root}thread/9999999999/`)).status).toBe(404);
    });
  });

  describe('archive_enabled off', () => {
    it('answers 404 for every page of the archive, and the list page stays', async () => {
      const root = await createList('quiet', { archive_enabled: 0, subscriptions: 'open' });
      const id = await postMessage('quiet', { subject: 'Hidden', content_plain: 'x' });
      for (const url of [
        root,
        `${root}months/`,
        `${root}${id}/`,
        `${root}thread/${id}/`,
        `${root}search?q=hidden`,
      ]) {
        const page = await get(url);
        expect(page.status, url).toBe(404);
        expect(page.body).not.toContain('Hidden');
      }
      expect((await post(`${root}password`, { password: 'x' })).status).toBe(404);
      expect((await get(`/l/quiet@${DOMAIN}/`)).status).toBe(200);
    });
  });

  describe('a protected archive (SECURITY.md 48: strangers see nothing)', () => {
    let root: string;
    let secret: number;
    /** A person asks on the door for the archive's link, as a browser would. */
    const askForLink = async (email: string, remoteAddress: string) => {
      const door = await get(root);
      const started = /name="started" value="([^"]+)"/.exec(door.body)?.[1] ?? '';
      clock.advance(5000);
      return post(`${root}access`, { email, started, website: '' }, { remoteAddress });
    };
    const cookieOf = (page: Page) => String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';

    beforeAll(async () => {
      root = await createList('council', {
        archive_protected: 1,
        archive_memberview: 1,
        archive_password: 'open sesame 42',
        archive_spammode: 0,
      });
      secret = await postMessage('council', {
        subject: 'Budget for the harvest fair',
        from_phrase: 'Dora Treasurer',
        from_address: 'dora@council.example',
        content_plain: 'We have 1200 crowns left.',
      });
      await postMessage('council', {
        subject: 'Second secret',
        content_plain: 'More.',
        parent: secret,
      });
      await addMember('member@council.example', 'council');
    });

    it('shows every page as the door, with no subject, sender, count or link, and no cookie', async () => {
      for (const url of [
        root,
        `${root}months/`,
        `${root}2026-01/`,
        `${root}${secret}/`,
        `${root}thread/${secret}/`,
        `${root}999999/`,
        `${root}search?q=budget`,
      ]) {
        const page = await get(url);
        expect(page.status, url).toBe(403);
        const text = decoded(page.body);
        for (const hidden of [
          'Budget',
          'Dora',
          'crowns',
          'Second secret',
          'messages',
          'Months',
          '<a ',
        ])
          expect(text, `${url} shows ${hidden}`).not.toContain(hidden);
        expect(page.body).toContain('This archive is open to the list’s members only.');
        expect(page.body).toContain('content="noindex, nofollow"');
        expect(page.headers['set-cookie']).toBeUndefined();
      }
    });

    it('mails a member a single-use link whose page opens the archive in a cookie of its own; a stranger is told the same and mailed nothing', async () => {
      const stranger = await askForLink('nobody@else.example', '203.0.113.9');
      const member = await askForLink('Member@Council.example', '203.0.113.10');
      expect(stranger.status).toBe(200);
      expect(member.status).toBe(200);
      const notice = (page: Page) =>
        /<p class="notice" role="status">([^<]*)<\/p>/.exec(page.body)?.[1];
      expect(notice(stranger)).toBe(notice(member));
      expect(await mailsTo(server, 'nobody@else.example')).toEqual([]);
      const [mail] = await mailsTo(server, 'member@council.example');
      expect(mail).toMatchObject({ kind: 'archive', from_address: `council-request@${DOMAIN}` });
      const link = new URL(
        /https?:\/\/\S+\/archive\/open\/[A-Za-z0-9_-]{43}/.exec(mail?.body ?? '')?.[0] ?? '',
      ).pathname;

      // The link's GET shows a button and uses nothing (SECURITY.md 41).
      for (let i = 0; i < 2; i++) {
        const shown = await get(link);
        expect(shown.status).toBe(200);
        expect(shown.body).toContain('Open the archive');
        expect(shown.headers['set-cookie']).toBeUndefined();
      }
      const opened = await post(link, {});
      expect(opened.status).toBe(303);
      expect(opened.headers.location).toBe(root);
      const setCookie = String(opened.headers['set-cookie']);
      expect(setCookie).toMatch(
        new RegExp(
          `^listkeeper_archive=[A-Za-z0-9_-]{40}; Path=${root.replaceAll('.', '\\.')}; Max-Age=2592000; HttpOnly; SameSite=Lax$`,
        ),
      );
      const cookie = cookieOf(opened);
      const inside = await get(root, cookie);
      expect(inside.status).toBe(200);
      expect(inside.body).toContain('Budget for the harvest fair');
      expect(inside.body).toContain('Close the archive');
      expect((await get(`${root}${secret}/`, cookie)).body).toContain('1200 crowns');
      // Used once.
      expect((await post(link, {})).status).toBe(404);
      // Neither the API nor another list's archive takes it (SECURITY.md 41).
      const api = await server.app.inject({
        method: 'GET',
        url: '/api/2/lists/',
        headers: { cookie },
      });
      expect(api.statusCode).toBe(401);
      const other = await createList('other-council', {
        archive_protected: 1,
        archive_memberview: 1,
      });
      expect((await get(other, cookie)).status).toBe(403);
      // Closing ends it.
      const closed = await post(`${root}close`, {}, { cookie });
      expect(closed.status).toBe(303);
      expect(String(closed.headers['set-cookie'])).toMatch(
        /^listkeeper_archive=; Path=[^;]+; Max-Age=0;/,
      );
    });

    it('refuses a forged link, another list’s, and one past its 24 hours, changing nothing (SECURITY.md 42)', async () => {
      const other = await createList('sister-council', {
        archive_protected: 1,
        archive_memberview: 1,
      });
      await addMember('late@council.example', 'council');
      await askForLink('late@council.example', '203.0.113.12');
      const [mail] = await mailsTo(server, 'late@council.example');
      const token = /\/archive\/open\/([A-Za-z0-9_-]{43})/.exec(mail?.body ?? '')?.[1] ?? '';
      for (const url of [
        `${root}open/${'A'.repeat(43)}`,
        `${root}open/short`,
        `${other}open/${token}`,
      ]) {
        expect((await get(url)).status, url).toBe(404);
        const refused = await post(url, {});
        expect(refused.status, url).toBe(404);
        expect(refused.headers['set-cookie'], url).toBeUndefined();
      }
      clock.advance(24 * 3_600_000 + 1000);
      expect((await get(`${root}open/${token}`)).status).toBe(404);
      const late = await post(`${root}open/${token}`, {});
      expect(late.status).toBe(404);
      expect(late.headers['set-cookie']).toBeUndefined();
    });

    it('ends a member’s pass when the member leaves or the list stops letting members in', async () => {
      const id = await addMember('leaver@council.example', 'council');
      await askForLink('leaver@council.example', '203.0.113.11');
      const [mail] = await mailsTo(server, 'leaver@council.example');
      const link = new URL(/https?:\/\/\S+\/archive\/open\/\S+/.exec(mail?.body ?? '')?.[0] ?? '')
        .pathname;
      const cookie = cookieOf(await post(link, {}));
      expect((await get(root, cookie)).status).toBe(200);
      await setList('council', { archive_memberview: 0 });
      const shut = await get(root, cookie);
      expect(shut.status).toBe(403);
      expect(String(shut.headers['set-cookie'])).toContain('Max-Age=0');
      await setList('council', { archive_memberview: 1 });
      expect((await get(root, cookie)).status).toBe(200);
      expect((await server.request('DELETE', `/api/2/contacts/${id}/`)).status).toBe(200);
      expect((await get(root, cookie)).status).toBe(403);
    });

    it('opens with the password, never shows it, limits guesses, and a new password ends the old passes', async () => {
      const wrong = await post(`${root}password`, { password: 'open sesame', back: 'months/' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toContain('That is not the archive’s password.');
      expect(wrong.body).not.toContain('open sesame');
      const right = await post(`${root}password`, { password: 'open sesame 42', back: 'months/' });
      expect(right.status).toBe(303);
      expect(right.headers.location).toBe(`${root}months/`);
      expect(JSON.stringify(right.headers)).not.toContain('sesame');
      const cookie = cookieOf(right);
      expect((await get(`${root}months/`, cookie)).status).toBe(200);
      // Only the archive's own pages may follow the form.
      const elsewhere = await post(`${root}password`, {
        password: 'open sesame 42',
        back: '//evil.example/',
      });
      expect(elsewhere.headers.location).toBe(root);
      // The list's settings never show the password (spec §2.4: write-only).
      const lists = await server.request('GET', '/api/2/lists/');
      expect(lists.status).toBe(200);
      expect(lists.body).not.toContain('sesame');
      await setList('council', { archive_password: 'a new one 43' });
      expect((await get(root, cookie)).status).toBe(403);
      // Ten guesses an hour from one client; then 429, even for the right password.
      for (let i = 0; i < 10; i++)
        await post(
          `${root}password`,
          { password: `guess ${i}` },
          { remoteAddress: '198.51.100.1' },
        );
      const limited = await post(
        `${root}password`,
        { password: 'a new one 43' },
        { remoteAddress: '198.51.100.1' },
      );
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('3600');
      expect(
        (
          await post(
            `${root}password`,
            { password: 'a new one 43' },
            { remoteAddress: '198.51.100.2' },
          )
        ).status,
      ).toBe(303);
      // A blank password (spec §2.4) ends password access.
      await setList('council', { archive_password: '' });
      expect((await get(root)).body).not.toContain('name="password"');
    });

    it('opens to nobody when neither members nor a password may come in', async () => {
      const closed = await createList('closed-archive', { archive_protected: 1 });
      const door = await get(closed);
      expect(door.status).toBe(403);
      expect(door.body).toContain('This archive is closed');
      expect(door.body).not.toContain('<form');
    });
  });

  describe('archive_spammode (SECURITY.md 48: no full address anywhere on an archive page)', () => {
    const addresses = {
      from_phrase: 'Eve "eve@phrase.example" Sender',
      from_address: 'eve@sender.example',
      subject: 'Mail frank@subject.example about it',
      content_plain: [
        'Write to gina@plain.example, gina&#64;plain.example or hank%40plain.example.',
        '> On Monday, Ivy <ivy@quoted.example> wrote:',
      ].join('\n'),
      content_html: [
        '<p>Write to <a href="mailto:jack@html.example">jack@html.example</a>,',
        '<span title="kate@attr.example">K</span>, lena&#64;entity.example, lena&amp;#64;twice.example,',
        '<a href="https://x.example/?e=mia%40percent.example">link</a>,',
        '<b>nick</b>@<i>split.example</i>, <img src="data:image/png;base64,iVBORw0KGgo=" alt="oscar@alt.example"></p>',
        '<blockquote>On Mon, Pia &lt;pia@quoted.example&gt; wrote:</blockquote>',
      ].join(' '),
    };
    /** Every page of the archive that shows these messages, and what a search for them echoes. */
    const pagesOf = async (root: string, first: number, reply: number) => [
      await get(root),
      await get(`${root}months/`),
      await get(`${root}2026-03/`),
      await get(`${root}thread/${first}/`),
      await get(`${root}${first}/`),
      await get(`${root}${reply}/`),
      await get(`${root}search?q=${encodeURIComponent('frank gina')}`),
      await get(`${root}search?q=${encodeURIComponent('pia@quoted.example')}`),
    ];
    /** The addresses a reader or a harvester could read off a page: in its markup, its frames' markup, its text and its headers. */
    const addressesOn = (page: Page) => {
      const text = decoded(page.body);
      const rendered = text.replace(/<[^>]*>/g, '');
      return [
        ...[...text.matchAll(ADDRESS), ...rendered.matchAll(ADDRESS)].map((m) => m[0]),
        ...(/mailto:/i.test(text) ? ['mailto:'] : []),
        ...Object.values(page.headers).flatMap((value) => String(value).match(ADDRESS) ?? []),
      ];
    };
    const seed = async (name: string, spammode: 0 | 1) => {
      clock.set(new Date('2026-03-05T12:00:00Z'));
      const root = await createList(name, {
        archive_spammode: spammode,
        description: 'Owners: owner@desc.example',
      });
      const first = await postMessage(name, addresses);
      const reply = await postMessage(name, {
        ...addresses,
        subject: `Re: ${addresses.subject}`,
        parent: first,
      });
      return pagesOf(root, first, reply);
    };

    it('hides every address on every page, in every place and form', async () => {
      for (const page of await seed('hidden-talk', 1)) {
        expect(page.status).toBe(200);
        expect(addressesOn(page)).toEqual([]);
      }
      const message = (await seed('hidden-talk-2', 1))[4];
      const text = decoded(message?.body ?? '');
      // Who wrote stays readable, the domain goes.
      expect(text).toContain('Eve "eve@…" Sender <eve@…>');
      expect(text).toContain('Ivy <ivy@…> wrote:');
      expect(text).toContain('alt="oscar@…"');
    });

    it('shows them all without it (what the check above would find)', async () => {
      const found = new Set((await seed('open-talk', 0)).flatMap(addressesOn));
      for (const address of [
        'eve@sender.example',
        'eve@phrase.example',
        'frank@subject.example',
        'gina@plain.example',
        'hank@plain.example',
        'ivy@quoted.example',
        'jack@html.example',
        'kate@attr.example',
        'lena@entity.example',
        'lena@twice.example',
        'mia@percent.example',
        'nick@split.example',
        'oscar@alt.example',
        'pia@quoted.example',
        'owner@desc.example',
        'mailto:',
      ])
        expect(found, address).toContain(address);
    });
  });

  describe('messages through the sanitizer (SECURITY.md 12, 13, 48)', () => {
    it('shows a message’s HTML sanitized, remote images held back, in a frame that allows nothing', async () => {
      const root = await createList('newsletter');
      const id = await postMessage('newsletter', {
        subject: 'News',
        content_plain: 'News in plain text',
        content_html: [
          '<p style="color: red; background: url(https://tracker.example/bg.png)">Hello</p>',
          '<img src="https://tracker.example/pixel.png" alt="pixel">',
          '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">',
          '<script>alert(1)</script><img src=x onerror="alert(2)">',
          '<a href="javascript:alert(3)">js</a><a href="/l/">inside</a><a href="https://ok.example/">out</a>',
          '<link rel="stylesheet" href="https://tracker.example/s.css"><style>p{}</style>',
          '<iframe src="https://tracker.example/f"></iframe><form action="https://tracker.example/"><input></form>',
        ].join(''),
      });
      const page = await get(`${root}${id}/`);
      expect(page.status).toBe(200);
      const frames = [...page.body.matchAll(/<iframe [^>]*>/g)].map((m) => m[0]);
      expect(frames).toHaveLength(1);
      expect(frames[0]).toMatch(/ sandbox="" /);
      expect(frames[0]).not.toMatch(/allow-/);
      expect(decoded(page.body)).not.toContain('tracker.example');
      expect(page.body).not.toMatch(/<script/i);
      const frame = decoded(/ srcDoc="([^"]*)"/.exec(page.body)?.[1] ?? '');
      expect(
        /<script|onerror|javascript:|alert|href="\/l\/|<style|<link|<iframe|action=|data-listkeeper-style/i.exec(
          frame,
        )?.[0],
      ).toBeUndefined();
      expect(frame).toContain('<p>Hello</p>');
      expect(frame).toContain('src="data:image/png;base64,iVBORw0KGgo="');
      expect(frame).toContain('<a href="https://ok.example/">out</a>');
      expect(page.body).toContain('News in plain text');
    });
  });

  describe('the index of lists at /l/', () => {
    it('shows the lists with a public page by domain, leaving out archive_index_noshow and lists with nothing public', async () => {
      await createList('shown-list', { description: 'Shown here', subscriptions: 'open' });
      await createList('unlisted', { archive_index_noshow: 1, subscriptions: 'open' });
      await createList('members-archive', {
        archive_protected: 1,
        subscriptions: 'closed',
        unsubscriptions: 'closed',
      });
      await createList('nothing-public', {
        archive_enabled: 0,
        subscriptions: 'closed',
        unsubscriptions: 'closed',
      });
      const other = await server.createAccount('second');
      await server.database.db
        .updateTable('accounts')
        .set({ domain: 'other.example' })
        .where('id', '=', other.id)
        .execute();
      const key = await server.createKey({ accountId: other.id, permissions: ['superadmin'] });
      expect(
        (await server.request('POST', '/api/2/lists/', { key, form: { name: 'elsewhere' } }))
          .status,
      ).toBe(200);

      const page = await get('/l/');
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      const text = decoded(page.body);
      expect(text).toMatch(
        new RegExp(
          `<h2 id="domain-${DOMAIN}">${DOMAIN}</h2>[^]*<h2 id="domain-other.example">other.example</h2>`,
        ),
      );
      expect(text).toContain(`<a href="/l/shown-list@${DOMAIN}/">shown-list</a>`);
      expect(text).toContain('Shown here');
      expect(text).toContain(`<a href="/l/shown-list@${DOMAIN}/archive/">shown-list archive</a>`);
      expect(text).toMatch(/members-archive archive<\/a><span class="muted"> \(members only\)/);
      expect(text).toContain('/l/elsewhere@other.example/');
      expect(text).not.toContain('unlisted@');
      expect(text).not.toContain('nothing-public@');
      expect((await get('/l/?after=nonsense')).status).toBe(400);
    });
  });
});
