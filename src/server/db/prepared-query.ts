import { sql, type Compilable, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import { directReaderOf } from './direct-reader.ts';
import type { Database } from './schema.ts';

/** Stands in the compiled parameters for a value the query takes when it runs. */
class Slot {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

export type SlotMaker<Args> = <K extends keyof Args & string>(name: K) => RawBuilder<Args[K]>;

/**
 * A read of the hot path, built and compiled once per database and then run with new values.
 * Kysely compiles every query anew, and compiling a statement with correlated subqueries costs
 * more than running it on an indexed key (measured: several times the single-contact GET's SQL).
 * `build` marks each value with `slot(name)`; only those change between runs, so a query whose
 * shape depends on its values (an `in (…)` list) does not belong here. Outside a transaction it
 * runs on a statement prepared once (db/direct-reader.ts).
 */
export function preparedQuery<Args extends Record<string, unknown>, Row>(
  build: (db: Kysely<Database>, slot: SlotMaker<Args>) => Compilable<Row>,
): (db: Kysely<Database>, args: Args) => Promise<Row[]> {
  // Per adapter: one per database, shared by its transactions; the SQL differs between dialects.
  const compiled = new WeakMap<object, CompiledQuery<Row>>();
  const slot: SlotMaker<Args> = (name) => sql`${new Slot(name)}`;
  return async (db, args) => {
    const { adapter } = db.getExecutor();
    let query = compiled.get(adapter);
    if (!query) {
      query = build(db, slot).compile();
      compiled.set(adapter, query);
    }
    const parameters = query.parameters.map((value) => (value instanceof Slot ? args[value.name] : value));
    const rows = await directReaderOf(db)?.(query.sql, parameters);
    if (rows) return rows as Row[];
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
}
