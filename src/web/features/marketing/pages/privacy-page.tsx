import { ContentPage } from '../site-layout.tsx';

export default function PrivacyPage() {
  return (
    <ContentPage title="Privacy" lead="Parley is self-hosted software: your data stays on the server of whoever runs this installation. Here is exactly what it stores and does.">
      <section>
        <h2>Who holds your data</h2>
        <p>
          This installation of Parley is operated by your organisation or by whoever gave you access. Everything below is stored on their server — in an embedded SQLite database and files
          under its data directory, or in their PostgreSQL database. The Parley project never receives your data.
        </p>
      </section>
      <section>
        <h2>What is stored</h2>
        <ul>
          <li>Your account: email address, full name, and your password hashed with argon2id (the password itself is never stored).</li>
          <li>Your sessions: refresh tokens stored only as hashes, with the time and browser of each sign-in.</li>
          <li>Meeting recordings you make or upload, their transcripts, speaker names, summaries and insights.</li>
          <li>Your settings and preferences.</li>
        </ul>
      </section>
      <section>
        <h2>What Parley does with it</h2>
        <ul>
          <li>Transcription runs on the installation’s own server with an offline engine, unless its administrator configures an external speech service (an OpenAI-compatible API), in which case recordings are sent there for transcription.</li>
          <li>Sentiment analysis is computed on the server and is not tied to anyone’s identity.</li>
          <li>There are no third-party analytics, advertising or trackers.</li>
          <li>The only cookie is your sidebar preference (<code>sidebar_state</code>); your session is kept in your browser’s local storage.</li>
          <li>Deleting a meeting deletes its recording, transcript and insights. Deleting your account deletes everything above.</li>
        </ul>
      </section>
      <section>
        <h2>Recording other people</h2>
        <p>Tell everyone in a meeting that it is being recorded before you start. Recording laws differ between countries, and consent is your responsibility.</p>
      </section>
    </ContentPage>
  );
}
