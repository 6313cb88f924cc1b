/**
 * An answer already serialized as JSON (stored contact documents, migration 0500): the route sends
 * the text as it is, and charges `objects` against the rate limit (spec §8 rule 1). Tests still
 * check it against the contract (define-route.ts).
 */
export class JsonText {
  readonly text: string;
  readonly objects: number;
  /**
   * The same answer without the given extension fields (`EXTENSIONS=off`, spec-only.ts), for a
   * text that carries some; absent when it carries none.
   */
  readonly without: ((fields: readonly string[]) => JsonText) | undefined;
  constructor(
    text: string,
    objects = 1,
    without?: (fields: readonly string[]) => JsonText,
  ) {
    this.text = text;
    this.objects = objects;
    this.without = without;
  }
}
