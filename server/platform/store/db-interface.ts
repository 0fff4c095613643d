/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Inside a transaction, a script too: several statements in one string, as the driver runs them. */
export interface Transaction extends Queryable {
  /** Runs a script of statements (a migration file); function bodies may hold semicolons. */
  execScript(sql: string): Promise<void>;
}

export interface TransactionOptions {
  /**
   * No time-outs at all: a migration takes what it takes, and may wait for another server's.
   * Every other transaction waits a bounded time for locks, statements and the database's answer.
   */
  unlimited?: boolean;
}

export interface Db extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs `work` in one transaction: all of it is stored, or none of it. */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** The connection pool's state (PostgreSQL; the embedded store has no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}
