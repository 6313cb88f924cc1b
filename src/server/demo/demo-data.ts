/**
 * The made-up people, lists and conversations of `listkeeper demo`. Everything is drawn from a
 * seeded generator, so the same contact index always yields the same person: a second run with a
 * larger --contacts continues the same population instead of reshuffling it.
 */

/** mulberry32: a small, fast, seedable generator; plenty for demo data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Amara',
  'Anouk',
  'Aziz',
  'Beatriz',
  'Bilal',
  'Camille',
  'Chen',
  'Dagny',
  'Dmitri',
  'Elif',
  'Emeka',
  'Farah',
  'Finn',
  'Grace',
  'Hana',
  'Hugo',
  'Ines',
  'Ivan',
  'Jamal',
  'Joon',
  'Kaia',
  'Kwame',
  'Leila',
  'Lars',
  'Lucia',
  'Malik',
  'Mei',
  'Mateo',
  'Nadia',
  'Nils',
  'Olga',
  'Omar',
  'Priya',
  'Quentin',
  'Rosa',
  'Rahul',
  'Sade',
  'Sven',
  'Tariq',
  'Thea',
  'Uma',
  'Viktor',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zora',
];

const SURNAMES = [
  'Abara',
  'Andersen',
  'Becker',
  'Bianchi',
  'Castillo',
  'Chowdhury',
  'Dubois',
  'Eriksen',
  'Fernandes',
  'Fischer',
  'Garcia',
  'Haddad',
  'Hansen',
  'Ivanova',
  'Jensen',
  'Kaplan',
  'Kim',
  'Kowalski',
  'Lambert',
  'Larsen',
  'Lopez',
  'Mahmoud',
  'Martin',
  'Moreau',
  'Nakamura',
  'Novak',
  'Okafor',
  'Olsen',
  'Petrov',
  'Quinn',
  'Rossi',
  'Santos',
  'Schmidt',
  'Silva',
  'Singh',
  'Tanaka',
  'Torres',
  'Umar',
  'Varga',
  'Wagner',
  'Wang',
  'Weber',
  'Xu',
  'Yamamoto',
  'Yilmaz',
  'Zhang',
  'Zielinski',
  'Lovelace',
];

const MAIL_DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example', 'post.example'];
const CITIES = [
  'Lisbon',
  'Oslo',
  'Nairobi',
  'Osaka',
  'Lyon',
  'Toronto',
  'Krakow',
  'Recife',
  'Pune',
  'Tartu',
  'Cork',
  'Dakar',
];
const COMPANIES = [
  'Acme Cooperative',
  'Northwind',
  'Globex',
  'Initech',
  'Hooli',
  'Umbrella Farms',
  'Vandelay Imports',
  'Wonka Ltd',
];
const NOTES = [
  'Met at the spring fair.',
  'Prefers the digest.',
  'Volunteer coordinator.',
  'Asked about the archive password.',
  'Moved from the old mailing list.',
  'Speaker at the 2025 meetup.',
];

/** A demo custom field: its name and identifier, and how to draw a value (undefined: unset). */
export interface FieldSpec {
  name: string;
  identifier: string | null;
  value: (random: () => number) => string | undefined;
}

export const DEMO_FIELDS: Record<'demo' | 'demo-west', FieldSpec[]> = {
  demo: [
    { name: 'City', identifier: 'city', value: (r) => (r() < 0.8 ? pick(r, CITIES) : undefined) },
    {
      name: 'Member since',
      identifier: 'member_since',
      value: (r) => (r() < 0.5 ? String(2010 + Math.floor(r() * 16)) : undefined),
    },
    {
      name: 'Company',
      identifier: null,
      value: (r) => (r() < 0.3 ? pick(r, COMPANIES) : undefined),
    },
  ],
  'demo-west': [
    {
      name: 'Region',
      identifier: 'region',
      value: (r) => (r() < 0.9 ? pick(r, ['Coast', 'Valley', 'Highlands']) : undefined),
    },
  ],
};

export interface DemoPerson {
  firstname: string;
  surname: string;
  notes: string;
  /** 1 to 3 addresses; the index in each keeps them unique within the account. */
  emails: { email: string; digest: number; paused: number; confirmed: number }[];
  /** Positions in the account's list of demo lists. */
  lists: { list: number; digest: number | null }[];
  /** Field position → value. */
  values: Map<number, string>;
}

/** The person at `index` of an account's population (the same index always gives the same person). */
export function demoPerson(
  index: number,
  salt: number,
  listCount: number,
  fields: readonly FieldSpec[],
): DemoPerson {
  const random = seededRandom(Math.imul(index + 1, 2654435761) ^ salt);
  const firstname = pick(random, FIRST_NAMES);
  const surname = pick(random, SURNAMES);
  const first = firstname.toLowerCase();
  const last = surname.toLowerCase();
  const addressCount = random() < 0.55 ? 1 : random() < 0.75 ? 2 : 3;
  const local = [
    `${first}.${last}.${index}`,
    `${first[0] ?? 'x'}${last}${index}`,
    `${last}.${index}.work`,
  ];
  const emails = local.slice(0, addressCount).map((name, position) => ({
    email: `${name}@${position === 0 ? pick(random, MAIL_DOMAINS) : MAIL_DOMAINS[(index + position) % MAIL_DOMAINS.length]}`,
    digest: random() < 0.1 ? 1 : 0,
    paused: random() < 0.05 ? 1 : 0,
    confirmed: random() < 0.9 ? 1 : 0,
  }));
  // Most people are on one to three lists; a few are on none (the orphans of spec §4.1).
  const lists: DemoPerson['lists'] = [];
  if (listCount > 0 && random() >= 0.05) {
    const wanted = 1 + Math.floor(random() * Math.min(3, listCount));
    const start = Math.floor(random() * listCount);
    for (let k = 0; k < wanted; k += 1) {
      const roll = random();
      lists.push({
        list: (start + k) % listCount,
        digest: roll < 0.08 ? 1 : roll < 0.12 ? 0 : null,
      });
    }
  }
  const values = new Map<number, string>();
  fields.forEach((field, position) => {
    const value = field.value(random);
    if (value !== undefined) values.set(position, value);
  });
  return {
    firstname,
    surname,
    notes: random() < 0.15 ? pick(random, NOTES) : '',
    emails,
    lists,
    values,
  };
}

const THREAD_SUBJECTS = [
  'Agenda for the next meeting',
  'Volunteers needed this Saturday',
  'Minutes from last week',
  'New members: please introduce yourselves',
  'Venue change',
  'Budget questions',
  'Photos from the workshop',
  'Call for speakers',
  'Reminder: membership renewal',
  'Feedback on the newsletter',
];

const SENTENCES = [
  'Thanks everyone for joining last time.',
  'Please reply by Friday if you can make it.',
  'The room fits about forty people, so we should be fine.',
  'I have attached nothing, because the list strips attachments.',
  'Could someone take notes this time?',
  'Coffee will be provided, tea too.',
  'Let me know if the new time does not work for you.',
  'The slides are in the shared folder.',
  'We are still looking for two more helpers.',
  'Great idea, count me in.',
  'I agree with the proposal, with one small change.',
  'Can we move this to the next meeting?',
];

/** A short plain-text message of a few paragraphs. */
export function demoBody(random: () => number, greeting: string, signature: string): string {
  const paragraphs = [`Hi ${greeting},`];
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i += 1) {
    paragraphs.push(`${pick(random, SENTENCES)} ${pick(random, SENTENCES)}`);
  }
  paragraphs.push(`Best,\n${signature}`);
  return paragraphs.join('\n\n');
}

export function demoSubject(random: () => number): string {
  return pick(random, THREAD_SUBJECTS);
}
