import { ContentPage } from '../site-layout.tsx';

export function HelpPage() {
  return (
    <ContentPage eyebrow="Help" title="Help centre" lead="How to record a meeting with Parley, and how to configure your installation.">
      <section>
        <h2>Recording a meeting</h2>
        <ol>
          <li>
            Open <strong>Record Meeting</strong> and give the meeting a title. Left empty, it is saved as “Untitled Meeting”.
          </li>
          <li>
            Press <strong>Start Recording</strong>. The first time, your browser asks whether Parley may use the microphone: choose <strong>Allow</strong>. If
            you dismissed the question, allow the microphone in the site settings next to the address bar.
          </li>
          <li>
            Use <strong>Pause</strong> and <strong>Resume</strong> as you need; the timer shows the recorded time in minutes and seconds.
          </li>
          <li>
            Press <strong>Stop Recording</strong>, then <strong>Save Meeting</strong>. The meeting appears in Meeting History with its transcript and insights.
          </li>
        </ol>
        <p>
          Already have a recording? <strong>Upload</strong> the audio file on the same screen: it is transcribed and analysed the same way.
        </p>
      </section>
      <section>
        <h2>Configuring your installation</h2>
        <p>Parley is configured with environment variables; none is needed to try it.</p>
        <ul>
          <li>
            <code>npm start</code> installs what is missing, builds, applies the database migrations and serves Parley on http://localhost:3000.
          </li>
          <li>
            <code>PORT</code> changes the port (default 3000).
          </li>
          <li>
            <code>DATA_DIR</code> (default <code>./data</code>) holds the SQLite database, the recordings and the development outbox.
          </li>
          <li>
            <code>DATABASE_URL=postgres://…</code> runs Parley on PostgreSQL instead of the embedded SQLite database.
          </li>
          <li>
            <code>SMTP_HOST</code>, <code>SMTP_PORT</code>, <code>SMTP_USER</code>, <code>SMTP_PASS</code>, <code>SMTP_FROM</code> and <code>SMTP_SECURE</code>{' '}
            configure the mail server Parley sends its emails through.
          </li>
          <li>
            <code>PUBLIC_URL</code> is the address people use to reach Parley; links in emails point there.
          </li>
        </ul>
        <p>
          The README in the repository lists every setting with its default, and <code>.env.example</code> has the same list with comments.
        </p>
      </section>
      <section>
        <h2>Accounts and email</h2>
        <p>
          With <code>SMTP_HOST</code> set, Parley emails confirmation links, password resets and sign-in links, and new users confirm their address before they
          sign in.
        </p>
        <p>
          Without SMTP, accounts are confirmed at sign-up, and every email that would have been sent is kept in a development outbox instead: one file per
          message under <code>DATA_DIR/outbox</code>, with the recipient, the subject, the link and the code. Open the file to follow a password-reset link on a
          machine without mail.
        </p>
      </section>
      <section>
        <h2>Still stuck?</h2>
        <p>
          For your account or your meetings, contact the administrator of this installation. For a problem with the software, open an issue on the Parley
          project’s repository.
        </p>
      </section>
    </ContentPage>
  );
}
