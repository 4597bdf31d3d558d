import { ContentPage } from '../site-layout.tsx';

export default function HelpPage() {
  return (
    <ContentPage title="Help" lead="How to record meetings with Parley, and how to configure your installation.">
      <section>
        <h2>Recording a meeting</h2>
        <ul>
          <li>Open Record Meeting and give the meeting a title (or leave it empty: it is saved as “Untitled Meeting”).</li>
          <li>Press Start Recording. The first time, your browser asks for the microphone: allow it.</li>
          <li>Pause and Resume as you need; the timer shows the recorded time.</li>
          <li>Press Stop Recording, then Save Meeting. The transcript and insights appear in Meeting History.</li>
          <li>Already have a recording? Upload it (mp3, m4a, wav, webm, ogg or mp4 audio) and it takes the same path.</li>
        </ul>
      </section>
      <section>
        <h2>Accounts and email</h2>
        <p>
          Without an email (SMTP) server configured, new accounts are confirmed at sign-up, and emails that would have been sent — password resets, sign-in links — are kept in a
          development outbox: one file per message under <code>DATA_DIR/outbox</code>. With <code>SMTP_HOST</code> set, Parley sends them and asks new users to confirm their address.
        </p>
      </section>
      <section>
        <h2>Configuration</h2>
        <ul>
          <li><code>npm start</code> installs what is missing, builds, migrates and serves Parley on http://localhost:3000.</li>
          <li><code>PORT</code> changes the port; <code>DATA_DIR</code> (default <code>./data</code>) holds the database, recordings and the outbox.</li>
          <li><code>DATABASE_URL=postgres://…</code> runs Parley on PostgreSQL instead of the embedded SQLite database.</li>
          <li><code>SMTP_HOST</code>, <code>SMTP_PORT</code>, <code>SMTP_USER</code>, <code>SMTP_PASS</code> and <code>SMTP_FROM</code> configure email.</li>
          <li><code>PUBLIC_URL</code> is the address people use to reach Parley; links in emails point there.</li>
        </ul>
        <p>The README in the repository lists every setting with its default.</p>
      </section>
    </ContentPage>
  );
}
