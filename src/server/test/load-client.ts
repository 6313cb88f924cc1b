import { createApiClient, type ApiClient } from '../../api/client.ts';
import { ApiContractError, ApiError } from '../../api/errors.ts';
import type { Contact } from '../../api/schemas/contact.ts';
import {
  loadFirstname,
  messageSubjectPrefix,
  type ContactRecord,
  type LoadLog,
  type Outcome,
} from './load-log.ts';
import type { LoadStats } from './load-stats.ts';

/**
 * One load client: a person at the dashboard, one request at a time, as fast as answers come. The
 * mix is read-heavy like an admin's day (pages, searches, single contacts, messages, lists) with
 * the writes of spec §4.1, §4.3 and §4.5 in between; every write goes into the log with its outcome.
 */
export interface LoadTarget {
  baseUrl: string;
  key: string;
  /** Lists the load writes memberships and messages to (created for the run). */
  lists: readonly string[];
  /** Surnames and ids of the seeded contacts, for realistic searches and reads. */
  surnames: readonly string[];
  seededIds: readonly number[];
}

type Step = (client: LoadClient) => Promise<void>;

/** Weights of the mix (out of 100): 60 reads, 40 writes. */
const MIX: [number, string, Step][] = [
  [15, 'GET /contacts/ (a page)', (c) => c.readPage()],
  [15, 'GET /contacts/?search=', (c) => c.search()],
  [20, 'GET /contacts/:id/', (c) => c.readOne()],
  [5, 'GET /messages/', (c) => c.readMessages()],
  [5, 'GET /lists/', (c) => c.readLists()],
  [12, 'POST /contacts/', (c) => c.createContact()],
  [10, 'PUT /contacts/:id/', (c) => c.updateContact()],
  [4, 'DELETE /contacts/:id/', (c) => c.deleteContact()],
  [7, 'POST /membership/', (c) => c.addMembership()],
  [3, 'DELETE /membership/:id/', (c) => c.removeMembership()],
  [4, 'POST /messages/', (c) => c.sendMessage()],
];
const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);

export class LoadClient {
  readonly #api: ApiClient;
  readonly #target: LoadTarget;
  readonly #log: LoadLog;
  readonly #stats: LoadStats;
  readonly #number: number;
  readonly #random: () => number;
  readonly #own: ContactRecord[] = [];
  #sequence = 0;
  #pages = 1;
  /** The answer of the request in flight: the client sends one at a time. */
  #last = { status: 0, milliseconds: 0 };

  constructor(
    number: number,
    target: LoadTarget,
    log: LoadLog,
    stats: LoadStats,
    random: () => number,
  ) {
    this.#number = number;
    this.#target = target;
    this.#log = log;
    this.#stats = stats;
    this.#random = random;
    this.#api = createApiClient({
      baseUrl: target.baseUrl,
      auth: { kind: 'bearer', token: target.key },
      fetch: (input, init) => this.#timedFetch(input, init),
    });
  }

  /** Runs the mix until the deadline, and on until `minimum` steps when a slow machine fell short. */
  async runUntil(deadline: number, minimum = 0): Promise<void> {
    for (let steps = 0; Date.now() < deadline || steps < minimum; steps++) {
      let roll = this.#random() * TOTAL_WEIGHT;
      const step = MIX.find(([weight]) => (roll -= weight) < 0) ?? MIX[0];
      if (step) await step[2](this);
    }
  }

  /** Times the whole exchange, body included, and keeps the status for `#call`. */
  async #timedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const started = performance.now();
    this.#last = { status: 0, milliseconds: 0 };
    const response = await fetch(input, init);
    const body = await response.arrayBuffer();
    this.#last = { status: response.status, milliseconds: performance.now() - started };
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** Runs one request of the mix: records its answer; the outcome says what a write may have done. */
  async #call<T>(
    operation: string,
    request: () => Promise<T>,
  ): Promise<{ outcome: Outcome; value?: T }> {
    try {
      const value = await request();
      this.#stats.record(operation, this.#last.status, this.#last.milliseconds);
      return { outcome: 'acked', value };
    } catch (error) {
      this.#stats.record(operation, this.#last.status, this.#last.milliseconds);
      // A 2xx out of contract, a 5xx or no answer: the write may have happened.
      if (error instanceof ApiContractError || !(error instanceof ApiError))
        return { outcome: 'doubt' };
      return { outcome: error.status >= 400 && error.status < 500 ? 'refused' : 'doubt' };
    }
  }

  #pick<T>(items: readonly T[]): T | undefined {
    return items[Math.floor(this.#random() * items.length)];
  }

  #token(prefix: string): string {
    this.#sequence += 1;
    return `${prefix}${this.#number}-${this.#sequence}`;
  }

  /** A contact of this client that exists for sure (created, not deleted, nothing in doubt). */
  #live(): ContactRecord | undefined {
    return this.#pick(this.#own.filter((c) => c.id !== null && !c.deleted && !c.doubt));
  }

  async readPage(): Promise<void> {
    const page = 1 + Math.floor(this.#random() * this.#pages);
    const { value } = await this.#call('GET /contacts/ (a page)', () =>
      this.#api.contacts.list({ limit: 100, page }),
    );
    if (value) this.#pages = Math.max(1, Math.ceil(value.count / 100));
  }

  async search(): Promise<void> {
    // Half of the searches look for a common surname, half for this client's own contacts.
    const term =
      this.#random() < 0.5 ? (this.#pick(this.#target.surnames) ?? 'a') : `c${this.#number}-`;
    await this.#call('GET /contacts/?search=', () =>
      this.#api.contacts.list({ search: term, limit: 25 }),
    );
  }

  async readOne(): Promise<void> {
    const id = this.#random() < 0.5 ? this.#live()?.id : this.#pick(this.#target.seededIds);
    if (id === undefined || id === null) return this.readPage();
    await this.#call('GET /contacts/:id/', () => this.#api.contacts.get(id));
  }

  async readMessages(): Promise<void> {
    await this.#call('GET /messages/', () => this.#api.messages.list({ limit: 10 }));
  }

  async readLists(): Promise<void> {
    await this.#call('GET /lists/', () => this.#api.lists.list());
  }

  async createContact(): Promise<void> {
    const token = this.#token('c');
    const record: ContactRecord = {
      token,
      email: `${token}.${this.#log.run}@load.example`,
      create: 'doubt',
      id: null,
      notes: '',
      refusedNotes: new Set(),
      deleted: false,
      lists: new Map(),
      doubt: false,
    };
    const list = this.#random() < 0.3 ? this.#pick(this.#target.lists) : undefined;
    this.#log.contacts.set(token, record);
    this.#own.push(record);
    const { outcome, value } = await this.#call('POST /contacts/', () =>
      this.#api.contacts.create({
        firstname: loadFirstname(this.#log.run),
        surname: token,
        emails: [record.email],
        ...(list ? { lists: [list] } : {}),
      }),
    );
    record.create = outcome;
    if (outcome === 'doubt') record.doubt = true;
    if (value) this.#acknowledgeCreate(record, value);
  }

  /** One acknowledged write more, of the operation its audit entry names. */
  #acknowledge(operation: string): void {
    this.#log.acknowledged += 1;
    this.#log.acknowledgedBy.set(operation, (this.#log.acknowledgedBy.get(operation) ?? 0) + 1);
  }

  #acknowledgeCreate(record: ContactRecord, contact: Contact): void {
    this.#acknowledge('contacts.create');
    record.id = Number(contact.id);
    for (const membership of contact.lists) {
      record.lists.set(membership.list, { id: Number(membership.id), removed: false });
    }
  }

  async updateContact(): Promise<void> {
    const contact = this.#live();
    if (!contact?.id) return this.createContact();
    const id = contact.id;
    const notes = this.#token('n');
    const { outcome } = await this.#call('PUT /contacts/:id/', () =>
      this.#api.contacts.update(id, { notes }),
    );
    this.#settle(
      'contacts.update',
      contact,
      outcome,
      () => (contact.notes = notes),
      () => contact.refusedNotes.add(notes),
    );
  }

  async deleteContact(): Promise<void> {
    const contact = this.#live();
    if (!contact?.id) return this.createContact();
    const id = contact.id;
    const { outcome } = await this.#call('DELETE /contacts/:id/', () =>
      this.#api.contacts.delete(id),
    );
    this.#settle('contacts.delete', contact, outcome, () => (contact.deleted = true));
  }

  async addMembership(): Promise<void> {
    const contact = this.#live();
    const list = this.#pick(this.#target.lists);
    if (!contact?.id || !list || contact.lists.get(list)?.removed === false)
      return this.createContact();
    const id = contact.id;
    const { outcome, value } = await this.#call('POST /membership/', () =>
      this.#api.membership.create({ contact: id, list }),
    );
    this.#settle('membership.create', contact, outcome, () =>
      contact.lists.set(list, { id: Number(value?.id), removed: false }),
    );
  }

  async removeMembership(): Promise<void> {
    const contact = this.#live();
    const membership = contact && [...contact.lists.values()].find((m) => !m.removed);
    if (!contact || !membership) return this.addMembership();
    const { outcome } = await this.#call('DELETE /membership/:id/', () =>
      this.#api.membership.delete(membership.id),
    );
    this.#settle('membership.delete', contact, outcome, () => (membership.removed = true));
  }

  async sendMessage(): Promise<void> {
    const list = this.#pick(this.#target.lists) ?? '';
    const subject = `${messageSubjectPrefix(this.#log.run)}${this.#token('m')}`;
    this.#log.messages.set(subject, 'doubt');
    const { outcome } = await this.#call('POST /messages/', () =>
      this.#api.messages.send({ list, subject, content_plain: `Load test message ${subject}.` }),
    );
    this.#log.messages.set(subject, outcome);
    if (outcome === 'acked') this.#acknowledge('messages.send');
  }

  /** Applies a write's outcome to the contact's expected state. */
  #settle(
    operation: string,
    contact: ContactRecord,
    outcome: Outcome,
    acked: () => void,
    refused?: () => void,
  ): void {
    if (outcome === 'acked') {
      this.#acknowledge(operation);
      acked();
    } else if (outcome === 'refused') refused?.();
    else contact.doubt = true;
  }
}
