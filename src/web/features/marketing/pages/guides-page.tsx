import { ContentPage } from '../site-layout.tsx';

export function GuidesPage() {
  return (
    <ContentPage eyebrow="Guides" title="Running Parley" lead="Step-by-step guides for setting up, scaling and protecting your own installation.">
      <section>
        <h2>Getting started</h2>
        <ol>
          <li>Install Node.js 20.19 or newer and clone the Parley repository.</li>
          <li>
            Run <code>npm start</code>. It installs the dependencies, builds the app, creates the database and serves Parley on http://localhost:3000.
          </li>
          <li>Open that address, sign up, and you land on your dashboard, with a few sample meetings to explore. Remove them whenever you like.</li>
          <li>
            To let other people in, set <code>PUBLIC_URL</code> to the address they will use, and configure email with the <code>SMTP_*</code> settings so they
            can confirm their address and reset their password.
          </li>
        </ol>
      </section>
      <section>
        <h2>Running on PostgreSQL</h2>
        <p>
          The embedded SQLite database is right for one person or a small team. When several people rely on the installation, or you want your database managed
          and backed up by your usual tools, use PostgreSQL:
        </p>
        <p>
          <code>DATABASE_URL=postgres://parley:secret@db.example.com:5432/parley npm start</code>
        </p>
        <p>The same migrations create every table at start. Recordings stay under DATA_DIR.</p>
      </section>
      <section>
        <h2>Backing up DATA_DIR</h2>
        <p>
          Everything Parley stores is in <code>DATA_DIR</code> (default <code>./data</code>): the SQLite database <code>parley.db</code>, the recordings under{' '}
          <code>blobs/</code> and the development outbox. With PostgreSQL, the database lives there instead, and <code>DATA_DIR</code> still holds the
          recordings.
        </p>
        <ul>
          <li>
            <strong>SQLite:</strong> stop Parley and copy the whole <code>DATA_DIR</code>, or, while it runs, take a consistent copy of the database with{' '}
            <code>sqlite3 data/parley.db ".backup parley-backup.db"</code> and copy <code>blobs/</code> alongside it.
          </li>
          <li>
            <strong>PostgreSQL:</strong> back up the database with <code>pg_dump</code> and copy <code>DATA_DIR/blobs</code> at the same time.
          </li>
          <li>Restore both together, so every meeting finds its recording. Try a restore once before you need it.</li>
        </ul>
      </section>
      <section>
        <h2>Rotating signing keys</h2>
        <p>
          Run <code>npm run auth:rotate-keys</code> to sign new access tokens with a fresh key. Tokens signed with the previous key keep working until they
          expire, so nobody is signed out.
        </p>
      </section>
    </ContentPage>
  );
}
