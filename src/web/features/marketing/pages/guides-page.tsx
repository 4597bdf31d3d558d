import { ContentPage } from '../site-layout.tsx';

export default function GuidesPage() {
  return (
    <ContentPage title="Guides" lead="Step-by-step guides for running Parley well.">
      <section>
        <h2>Getting started</h2>
        <p>Clone the repository and run <code>npm start</code>. Open http://localhost:3000, create an account, and your dashboard starts with sample meetings you can explore and remove in one click.</p>
      </section>
      <section>
        <h2>Running on PostgreSQL</h2>
        <p>
          Set <code>DATABASE_URL=postgres://user:password@host:5432/parley</code> and start Parley: the same migrations create every table. Use PostgreSQL when several people rely on the installation
          or when you want database backups managed by your usual tools.
        </p>
      </section>
      <section>
        <h2>Backups</h2>
        <p>
          Everything Parley stores lives in <code>DATA_DIR</code> (the SQLite database and the recordings) or in your PostgreSQL database plus <code>DATA_DIR/blobs</code>. Back these up together. With
          SQLite, copy the database while Parley is stopped, or use <code>sqlite3 parley.db ".backup backup.db"</code> while it runs.
        </p>
      </section>
      <section>
        <h2>Rotating signing keys</h2>
        <p>Run <code>npm run auth:rotate-keys</code> to make a new key sign access tokens. Tokens signed with the previous key keep working until they expire.</p>
      </section>
    </ContentPage>
  );
}
