/**
 * An answer already serialized as JSON (stored contact documents, migration 0500): the route sends
 * the text as it is, and charges `objects` against the rate limit (spec §8 rule 1). Tests still
 * check it against the contract (define-route.ts).
 */
export class JsonText {
  readonly text: string;
  readonly objects: number;
  constructor(text: string, objects = 1) {
    this.text = text;
    this.objects = objects;
  }
}
