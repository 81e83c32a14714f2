// The people directory in SQLite: grant contacts in their own table; a search reads the viewer's circle (their
// contacts, their workspace's members, the owners and members of the workspaces they joined) and matches the
// prefix inside it, so its cost follows the circle, never the store, and a stranger's query reads nothing.
import type Database from "better-sqlite3";
import type {
  Contact,
  DirectoryQuery,
  DirectoryView,
  DirectoryWriter,
  Person,
} from "../../directory/directory.view.ts";
import type { SqliteBatch, SqliteModel } from "./sqlite-batch.ts";

const schema = `
CREATE TABLE IF NOT EXISTS contacts (
  viewer_id TEXT NOT NULL,
  person_id TEXT NOT NULL,
  via TEXT NOT NULL,
  shows_address INTEGER NOT NULL,
  PRIMARY KEY (viewer_id, person_id, via)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS contacts_via ON contacts (via);`;
export const directoryModel: SqliteModel = { schema, tables: ["contacts"], queryIndexes: [] };

type Row = { id: string; name: string; email: string; image: string | null; shows: number };

/** LIKE's own characters taken literally. */
const literal = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export class SqliteDirectoryWriter implements DirectoryWriter<SqliteBatch> {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      add: db.prepare<[Contact & { shows: number }]>(
        "INSERT INTO contacts (viewer_id, person_id, via, shows_address) VALUES (@viewerId, @personId, @via, @shows) ON CONFLICT DO UPDATE SET shows_address = max(shows_address, excluded.shows_address)",
      ),
      remove: db.prepare<[string, string, string]>(
        "DELETE FROM contacts WHERE via = ? AND (viewer_id = ? OR person_id = ?)",
      ),
    };
  }

  async addContact(_tx: SqliteBatch, contact: Contact): Promise<void> {
    if (contact.viewerId === contact.personId) return;
    this.statements.add.run({ ...contact, shows: contact.showsAddress ? 1 : 0 });
  }

  async removeGrantContacts(_tx: SqliteBatch, via: string, userId: string): Promise<void> {
    this.statements.remove.run(via, userId, userId);
  }
}

export class SqliteDirectoryView implements DirectoryView {
  private readonly statement;

  constructor(db: Database.Database) {
    this.statement = db.prepare<[{ me: string; joined: string; name: string; email: string; limit: number }], Row>(
      `WITH circle(person_id, shows) AS (
         SELECT person_id, shows_address FROM contacts WHERE viewer_id = @me
         UNION ALL SELECT member_id, 1 FROM workspace_members WHERE owner_id = @me
         UNION ALL SELECT member_id, 0 FROM workspace_members WHERE owner_id IN (SELECT value FROM json_each(@joined))
         UNION ALL SELECT value, 0 FROM json_each(@joined)
       ), people AS (SELECT person_id, max(shows) AS shows FROM circle WHERE person_id <> @me GROUP BY person_id)
       SELECT u.id, u.name, u.email, u.image, p.shows FROM people p JOIN users u ON u.id = p.person_id
       WHERE (' ' || lower(u.name)) LIKE @name ESCAPE '\\' OR (p.shows = 1 AND lower(u.email) LIKE @email ESCAPE '\\')
       ORDER BY lower(u.name), u.id LIMIT CAST(@limit AS INTEGER)`,
    );
  }

  async search(query: DirectoryQuery): Promise<Person[]> {
    const prefix = literal(query.prefix);
    const rows = this.statement.all({
      me: query.viewerId,
      joined: JSON.stringify(query.joinedWorkspaces),
      name: `% ${prefix}%`,
      email: `${prefix}%`,
      limit: query.limit,
    });
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.shows === 1 ? row.email : null,
      image: row.image,
    }));
  }
}
