/** The two storage engines: SQLite by default, PostgreSQL when DATABASE_URL names one. */
export type Dialect = 'sqlite' | 'postgres';
